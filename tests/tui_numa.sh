#!/bin/sh
# Tab 9, NUMA, through tmux at 80x24: a 2-node result with every traffic
# mix and two loaded-latency curves (tests/data/numa-mixes.json, built
# figures) opened by memtop view: the reads matrix first, m turning to the
# next mix's (its title and figures) and round to reads again; v the
# curves (the chart with its knee marks, each curve's knee and Little's
# law), v back to the matrices; the help lists m, M, l and v. No
# measurement: every figure is the file's.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 13

tstart 80 24 -- view "$TESTDATA/numa-mixes.json"
wok "view: the file in tab 9" 'memory by node, as Intel MLC: 2 nodes' 10
wok "... the reads matrix first, its key named" '^ reads, GB/s \(m: the next mix\)' 5
wok "... its figures" '^ 0 +41\.5 +18\.2' 5
tkeys m
wok "m: the 3:1 matrix, its stores said" '^ 3:1 reads:writes, GB/s, cached stores \(m: the next mix\)' 5
wok "... its figures" '^ 0 +38\.0 +16\.5' 5
tkeys m m m
wok "m m m: triad" '^ triad, GB/s, cached stores \(m: the next mix\)' 5
tkeys m
wok "m past the last: reads again" '^ reads, GB/s \(m: the next mix\)' 5
tkeys v
wok "v: the curves, the chaser's ns against the injectors' GB/s" \
	"loaded latency: the chaser's ns against the injectors' GB/s" 5
wok "... the local curve's knee" '^ \* 0>0 local: knee at 0\.80 of the peak: 32\.0 GB/s, latency 1\.3x idle' 5
wok "... the remote one's" '^ o 0>1 the slowest idle latency measured: knee at 0\.83 of the peak' 5
wok "... Little's law beside it" "^   Little's law: 52 lines of 64 B in flight at the knee" 5
is "... the knees marked # in the chart" "$(tcap | grep -c '|.*#')" 2
tkeys v '?'
wok "the help lists m, M, l and v" \
	"m +the next traffic mix's bandwidth matrix.*|M +measure every traffic mix" 5
