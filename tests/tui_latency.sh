#!/bin/sh
# The Latency tab marks the points it could not trust: a recorded run (a
# synthetic file: three sizes, stride 128 and the random chase, each
# point's spread and tries) opened with memtop view. Two points' tries
# stay over 10 % apart (8K on both curves; 16K's random is exactly 10 %,
# 4K's are close, and 16K's stride has no tries known): the title counts
# 2 not trusted, the legend says what ~ means, and ~ is drawn. A run on
# both page sizes shows the huge-page chase as its own curve.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 5

cat >"$TMP/lat.json" <<'EOS'
{"experiment": "latency", "ghz": 2.0, "strides": [128], "sizes": [4096, 8192, 16384],
 "ns": [[1.5, 1.6, 1.7]], "spread": [[0.02, 0.25, null]], "tries": [[3, 6, 0]],
 "random": {"stride": 128, "sizes": [4096, 8192, 16384], "ns": [1.6, 1.7, 9.5],
  "spread": [0.01, 0.5, 0.1], "tries": [3, 6, 3]},
 "hugepages": "off", "pages": "4 KB pages"}
EOS
tstart 160 30 -- view "$TMP/lat.json"
wok "the title counts the untrusted points" '3 sizes 4K\.\.16K, 1 strides \+ random, 4K pages: 6/6 points, 2 not trusted \(~\)'
wok "the legend says what ~ is" '~ tries over 10 % apart'
# the plot: the area left of the side panel, without the title and legend
plot=$(tcap | sed 's/│.*//' | grep -v 'not trusted\|tries over')
like "a ~ drawn on the plot" "$plot" '~'


# both page sizes: the huge-page random chase is a third curve, counted
cat >"$TMP/both.json" <<'EOS'
{"experiment": "latency", "ghz": 2.0, "strides": [128], "sizes": [4096, 8192, 16384],
 "ns": [[1.5, 1.6, 1.7]],
 "random": {"stride": 128, "sizes": [4096, 8192, 16384], "ns": [1.6, 1.7, 9.5]},
 "random_other": {"hugepages": "on", "ns": [1.6, 1.7, 8.0], "huge_share": 1},
 "hugepages": "off", "pages": "4 KB pages"}
EOS
tstart 160 30 -- view "$TMP/both.json"
wok "both: the title counts the third curve" '1 strides \+ random, 4K pages \+ random on huge pages: 9/9 points'
wok "both: the legend names it" '\+ random, huge pages'
