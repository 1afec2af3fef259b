#!/bin/sh
# The class kit, the student's part: measure this machine's memory mountain
# and latency curve into NAME-mountain.json and NAME-latency.json in the
# current folder, for the teacher to collect (memtop report, data/class/
# README.md). Extra options go to both runs (--quick for a first try).
#   sh student.sh NAME [--quick]
set -eu
: "${MEMTOP:=memtop}"
if [ $# -lt 1 ] || [ -z "$1" ] || [ "${1#-}" != "$1" ]; then
	echo "usage: sh student.sh NAME [--quick]   (NAME: yours, as the teacher's list has it)" >&2
	exit 2
fi
name=$1
shift
case $name in
*/* | *' '*) echo "student.sh: NAME is a plain word (no '/' nor space): '$name'" >&2; exit 2 ;;
esac
"$MEMTOP" run mountain "$@" --json "$name-mountain.json"
"$MEMTOP" run latency "$@" --json "$name-latency.json"
echo "Hand in $name-mountain.json and $name-latency.json."
