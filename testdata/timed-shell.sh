#!/bin/bash
# make's SHELL when TIMES is set (make test TIMES=file): runs each recipe line
# with bash, as make would, and appends its wall time, target, exit code,
# first line and CPU time (user and system, of the processes it waited for)
# to the file, so that a run shows where its time went (testdata/times.sh
# sums the file by target). On two cores, make test's wall time is bounded
# by its CPU time, not by the longest target.
# Called as: timed-shell.sh <file> target=<target> -c <line>
log=$1 target=${2#target=}
shift 2
start=$EPOCHREALTIME
/bin/bash "$@"
rc=$?
end=$EPOCHREALTIME
ms=$(( (${end/./} - ${start/./}) / 1000 ))
line=${2%%$'\n'*}
# times' second line: the children's user and system time, as 1m2.345s
# (times runs in this shell: in a subshell it would report the subshell's).
tmp=$(mktemp)
times > "$tmp"
read -r _ _ user sys < <(tr '\n' ' ' < "$tmp")
rm -f "$tmp"
cpu=0
for t in "$user" "$sys"; do
	[[ $t =~ ^([0-9]+)m([0-9]+)\.([0-9]+)s$ ]] && cpu=$((cpu + BASH_REMATCH[1] * 60000 + 10#${BASH_REMATCH[2]} * 1000 + 10#${BASH_REMATCH[3]}))
done
printf '%d\t%s\t%d\t%.100s\t%d\n' "$ms" "${target:--}" "$rc" "${line//$'\t'/ }" "$cpu" >> "$log"
exit $rc
