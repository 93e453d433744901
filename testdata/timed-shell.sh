#!/bin/bash
# make's SHELL when TIMES is set (make test TIMES=file): runs each recipe line
# with bash, as make would, and appends its wall time, target and first line
# to the file, so that a run shows where its time went (testdata/times.sh
# sums the file by target).
# Called as: timed-shell.sh <file> target=<target> -c <line>
log=$1 target=${2#target=}
shift 2
start=$EPOCHREALTIME
/bin/bash "$@"
rc=$?
end=$EPOCHREALTIME
ms=$(( (${end/./} - ${start/./}) / 1000 ))
line=${2%%$'\n'*}
printf '%d\t%s\t%d\t%.100s\n' "$ms" "${target:--}" "$rc" "$line" >> "$log"
exit $rc
