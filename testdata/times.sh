#!/bin/bash
# Sums a TIMES file (see testdata/timed-shell.sh) by target: each target's
# own recipe wall time and CPU time (user and system), longest first, then
# the sums. Lines that start a sub-make (make test's phases) are listed
# apart, with their wall time, and left out of the sums. In a phase run with
# -j, recipes overlap, so the sum of wall times can exceed the phase's; on
# two cores, the CPU time in all over two is the least a phase can take.
# Usage: testdata/times.sh <file>
[ -s "$1" ] || { echo "times: no recipe times in $1"; exit 0; }
awk -F'\t' '
	$4 ~ /make --no-print-directory/ { printf "%8.1f s  phase  %s: %s\n", $1 / 1000, $2, $4; next }
	{ ms[$2] += $1; cpu[$2] += $5; n[$2]++; total += $1; cputotal += $5 }
	END { for (t in ms) printf "%8.1f s  %7.1f s CPU  %3d  %s\n", ms[t] / 1000, cpu[t] / 1000, n[t], t | "sort -rn";
		close("sort -rn"); printf "%8.1f s  %7.1f s CPU       recipe time in all (wall, CPU, lines, target)\n", total / 1000, cputotal / 1000 }' "$1"
