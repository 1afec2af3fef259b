#!/bin/sh
# Fleets through the engines people already use: --compact puts a result on
# one line, so that pdsh, clush and GNU parallel --tag collect one line a
# host behind its name. The engines run here with their local "exec"
# modules (no ssh): the prefixes are theirs, not imitations. Then the
# readers on such files, and memtop compare --fleet on a fleet made up
# here (tests/fleet_lib.sh: figures set by the test, never this machine's).
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
. "$(dirname "$0")/fleet_lib.sh"
plan 63

# --compact: one line, the same result as without it
$MEMTOP run algae --json "$TMP/p.json" >/dev/null 2>&1
$MEMTOP run algae --json "$TMP/c.json" --compact >/dev/null 2>&1
is "--compact writes the result on one line" "$(wc -l <"$TMP/c.json" | tr -d ' ')" 1
is "--compact writes the same fields as the pretty form" \
	"$($JSONQ "$TMP/c.json" experiment) $($JSONQ "$TMP/c.json" memtop_version)" \
	"$($JSONQ "$TMP/p.json" experiment) $($JSONQ "$TMP/p.json" memtop_version)"
out=$($MEMTOP run algae --json - --compact 2>/dev/null)
is "--json - --compact: one line on stdout" "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 1
status "--compact without --json: exit 2" 2 $MEMTOP run algae --compact
like "--compact without --json: one line saying so" "$(cat "$TMP/err")" \
	'^memtop: run algae: --compact: expected --json FILE with it'

# the engines' own prefixes, from their local exec modules
if command -v pdsh >/dev/null 2>&1; then
	pdsh -R exec -w 'lab[01-03]' $MEMTOP run algae --json - --compact >"$TMP/pdsh.jsonl" 2>/dev/null
	is "pdsh -R exec: one line a host, 'host: {'" \
		"$(cut -c1-8 "$TMP/pdsh.jsonl" | LC_ALL=C sort | tr '\n' ' ')" \
		'lab01: { lab02: { lab03: { '
else
	skip "pdsh -R exec: one line a host" "pdsh is not installed"
fi
if command -v clush >/dev/null 2>&1; then
	clush -R exec -w 'lab[01-02]' $MEMTOP run algae --json - --compact >"$TMP/clush.jsonl" 2>/dev/null
	is "clush -R exec: one line a host, 'host: {'" \
		"$(cut -c1-8 "$TMP/clush.jsonl" | LC_ALL=C sort | tr '\n' ' ')" 'lab01: { lab02: { '
else
	skip "clush -R exec: one line a host" "clustershell is not installed"
fi
if command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q GNU; then
	parallel --tag "$MEMTOP run algae --json - --compact 2>/dev/null; :" ::: lab01 lab02 \
		>"$TMP/par.jsonl" 2>/dev/null
	is "parallel --tag: one line a host, 'host<TAB>{'" \
		"$(cut -c1-7 "$TMP/par.jsonl" | LC_ALL=C sort | tr '\t\n' '| ')" 'lab01|{ lab02|{ '
else
	skip "parallel --tag: one line a host" "GNU parallel is not installed"
fi

# pdsh's lines read by compare: three hosts side by side, then as a fleet
if command -v pdsh >/dev/null 2>&1; then
	pdsh -R exec -w 'lab[01-03]' $MEMTOP run matmul --quick --json - --compact \
		>"$TMP/mm.jsonl" 2>/dev/null
	out=$($MEMTOP compare "$TMP/mm.jsonl" 2>&1)
	like "compare reads pdsh's lines: three columns, each its line and host" "$out" \
		"C: .*mm.jsonl: line [123] \(lab0[123]\)"
	out=$($MEMTOP compare --fleet "$TMP/mm.jsonl" 2>&1)
	like "compare --fleet on pdsh's lines: one machine a host, alike" "$out" \
		"^3 machines in 1 group "
else
	skip "compare reads pdsh's lines" "pdsh is not installed"
	skip "compare --fleet on pdsh's lines" "pdsh is not installed"
fi

# a fleet made up here: six alike (one with half the DRAM bandwidth, one
# busy), three of another CPU (one with memory 1.5x slower), one alone;
# latency runs as pdsh and parallel --tag lines, mountains one file each
F=$TMP/fleet
mkdir "$F"
for i in 1 2 3 4 5 6; do
	load=0.1 mem=80 dram=4000
	[ $i = 4 ] && dram=2000
	[ $i = 5 ] && load=6.0 mem=160
	printf 'lab0%s: ' $i >>"$F/lat.jsonl"
	fleet_latency "Xeon T" 4 $load lab0$i $mem >>"$F/lat.jsonl"
	fleet_mountain "Xeon T" 4 $load lab0$i $dram >"$F/lab0$i-mountain.json"
done
for i in 7 8 9; do
	mem=100
	[ $i = 9 ] && mem=150
	printf 'lab0%s\t' $i >>"$F/par.jsonl"
	fleet_latency "EPYC T" 8 0.1 lab0$i $mem >>"$F/par.jsonl"
done
fleet_latency "Arm T" 2 0.1 lab10 90 >"$F/lab10.json"
(cd "$F" && $MEMTOP compare --fleet lat.jsonl par.jsonl lab0*-mountain.json lab10.json \
	--json grouping.json >out 2>err)
is "compare --fleet: exit 0" "$?" 0
out=$(cat "$F/out")
like "the groups: six alike, three, one" "$out" \
	"^10 machines in 3 groups .*
A  6 machines: Xeon T; 4 CPUs; 16G memory
B  3 machines: EPYC T; 8 CPUs; 16G memory
C  1 machine: Arm T; 2 CPUs; 16G memory"
like "a row a machine, latency and mountain merged by name (lab04-mountain.json is lab04)" \
	"$out" "lab04       A      40.0k      250\*     32K       1M      16M"
like "the busy run is marked, not flagged" "$out" "lab05       A!     40.0k      500"
like "the slow DIMM flagged with its ratio and reading" "$out" \
	"  lab04 \(A\): floor 0.50x the group's: fewer memory channels populated, or a"
like "memory 1.5x slower flagged with its reading" "$out" \
	"  lab09 \(B\): mem ns 1.50x the group's: another NUMA node's memory, or a BIOS"
like "the busy run said as such" "$out" "  lab05 \(A\): ran busy: load 6.0 on 4 CPUs"
like "a group of one has no median" "$out" "no median to stand out from: C\.$"
is "no other flag" "$(grep -c '): ' "$F/out")" 3
is "every line within 79 columns" "$(awk 'length > 79' "$F/out" | wc -l | tr -d ' ')" 0
is "--json: the machines, groups and flags" \
	"$($JSONQ "$F/grouping.json" 'machines#' 'groups#' 'flags#' 'flags[0].machine' \
		'flags[0].figure' 'flags[0].ratio' 'flags[1].machine' 'machines[4].untrusted' \
		'groups[0].medians.latency mem ns' | tr '\n' ' ')" \
	"10 3 2 lab04 mountain floor 0.5 lab09 ran busy: load 6.0 on 4 CPUs 80 "

# a fleet whose files record their conditions (a made-up fixture: eight
# alike servers, two with 4 DIMMs where the others have 8 and half the
# DRAM bandwidth, one as slow with its DIMMs alike): the readings cite the
# DIMMs where they differ, and ask where nothing recorded does
D=$TMP/dimms
mkdir "$D"
for i in 1 2 3 4 5 6 7 8 9; do
	n=8 dram=4000
	case $i in 3 | 7) n=4 dram=2000 ;; 9) dram=2000 ;; esac
	FLEET_COND=$(fleet_cond $n) fleet_mountain "Xeon D" 16 0.1 srv$i $dram >"$D/srv$i.json"
done
(cd "$D" && $MEMTOP compare --fleet srv*.json >out 2>err)
is "fleet with conditions: exit 0" "$?" 0
out=$(cat "$D/out")
like "srv3 flagged, the DIMMs cited" "$out" \
	"  srv3 \(A\): floor 0.50x the group's: its memory is 4 DIMMs, 64.0 GB, DDR5, 4
  channels where the group's is 8 DIMMs, 128.0 GB, DDR5, 8 channels \(DRAM
  bandwidth: the channels populated and the DIMMs' speed set its peak\)"
like "srv7 too" "$out" "  srv7 \(A\): floor 0.50x the group's: its memory is 4 DIMMs"
like "srv9's DIMMs are the group's: the reading asks" "$out" \
	"  srv9 \(A\): floor 0.50x the group's: fewer memory channels populated"
is "three flags" "$(grep -c '): ' "$D/out")" 3
is "every line within 79 columns" "$(awk 'length > 79' "$D/out" | wc -l | tr -d ' ')" 0

# one host's files under memtop's default names (memtop-KIND-HOST-DATE.json)
# are one machine named for the host; a file that records no caches (a
# latency run) and memory 4 % apart do not split alike machines
H=$TMP/hosts
mkdir "$H"
CACHES='"caches":{"sources":{"sysfs":[{"level":1,"type":"data","size":49152},{"level":2,"type":"unified","size":1048576},{"level":3,"type":"unified","size":33554432}]}},'
for i in 1 2 3 4; do
	mem=17179869184
	[ $i = 4 ] && mem=16500000000
	FLEET_MEM=$mem fleet_latency "EPYC H" 8 0.1 host$i 100 \
		>"$H/memtop-latency-host$i-2026-01-01-10-00.json"
	[ $i -le 2 ] && FLEET_MEM=$mem fleet_mountain "EPYC H" 8 0.1 host$i 4000 |
		sed "s/^{/{$CACHES/" >"$H/memtop-mountain-host$i-2026-01-01-10-05.json"
done
(cd "$H" && $MEMTOP compare --fleet ./*.json >out 2>err)
is "a host's files: exit 0" "$?" 0
like "... four machines, one group" "$(cat "$H/out")" '^4 machines in 1 group'
like "... host1's latency and mountain on one row, named for the host" "$(cat "$H/out")" \
	'^host1 +A '

# which machine made a result: its machine id (a hash of machine-id, MAC
# and DMI UUID). Thirty students' VMs of one image: one host name, one CPU,
# one result each made from one with only the identity changed, under
# memtop's default names (memtop-KIND-HOST-DATE.json, all "ubuntu")
C=$TMP/class
mkdir "$C"
FLEET_ID=0000000000000000 fleet_latency "EPYC C" 4 0.1 ubuntu 100 >"$C/one-latency"
FLEET_ID=0000000000000000 fleet_mountain "EPYC C" 4 0.1 ubuntu 4000 >"$C/one-mountain"
for i in $(seq 10 39); do
	id=$(printf '%04x%012x' $((i * 1531)) $i)
	sed "s/0000000000000000/$id/" "$C/one-latency" >"$C/memtop-latency-ubuntu-2026-12-05-10-$i.json"
	sed "s/0000000000000000/$id/" "$C/one-mountain" >"$C/memtop-mountain-ubuntu-2026-12-05-11-$i.json"
done
rm "$C/one-latency" "$C/one-mountain"
(cd "$C" && $MEMTOP compare --fleet ./*.json --json fleet.json >out 2>err)
is "thirty clones of one image: exit 0" "$?" 0
like "... thirty machines, one group" "$(cat "$C/out")" '^30 machines in 1 group'
is "... each with its latency run and its mountain (12 figures), labelled apart" \
	"$($JSONQ "$C/fleet.json" 'machines[*].figures#' | sort -u) $($JSONQ "$C/fleet.json" 'machines[*].name' | sort -u | wc -l | tr -d ' ') $($JSONQ "$C/fleet.json" 'machines[0].name' 'machines[0].machine_id' | tr '\n' ' ')" \
	"12 30 ubuntu#3bce 3bce00000000000a "
is "... a row each in the text's two blocks, no two alike" \
	"$(grep '^ubuntu#' "$C/out" | head -n 30 | awk '{print $1}' | sort -u | wc -l | tr -d ' ') $(grep -c '^ubuntu#' "$C/out")" \
	"30 60"
# the same file under four names: four machines, and the line that says so
S=$TMP/same
mkdir "$S"
for n in lab01 lab02 lab03 lab04; do cp "$C/memtop-latency-ubuntu-2026-12-05-10-10.json" "$S/$n-latency.json"; done
(cd "$S" && $MEMTOP compare --fleet ./*.json >out 2>err)
like "one file under four names: four machines, kept apart" "$(cat "$S/out")" '^4 machines in 1 group'
is "... and one line naming them" "$(grep -A1 '^\./lab01' "$S/out")" \
	"./lab01-latency.json, ./lab02-latency.json, ./lab03-latency.json and
./lab04-latency.json record one machine"
# the issue's reproduction: four files copied from one VM (host "vm"), three
# names: lab01's latency run and mountain on its row, lab02's bandwidth and
# lab03's cores on theirs, one line for the three names
R=$TMP/repro
mkdir "$R"
ID=5c1e0a9b3f2d4e61
X="Intel(R) Xeon(R) Processor"
FLEET_ID=$ID fleet_latency "$X" 2 0.1 vm 100 >"$R/lab01-latency.json"
FLEET_ID=$ID fleet_mountain "$X" 2 0.1 vm 4000 >"$R/lab01-mountain.json"
sed "s/\"host\":[^,]*,/\"host\":\"vm\",\"machine_id\":\"$ID\",/" \
	"$TESTDATA/bandwidth-xeon-vm-quick.json" >"$R/lab02-bandwidth.json"
$MEMTOP import "$TESTDATA/c2c-aws-graviton2.csv" --json "$R/c.json" >/dev/null 2>&1
sed "s/\"host\":[^,]*,/\"host\":\"vm\",\"machine_id\":\"$ID\",/; s/\"cpu\":[^,]*,/\"cpu\":\"$X\",/" \
	"$R/c.json" >"$R/lab03-cores.json"
rm "$R/c.json"
(cd "$R" && $MEMTOP compare --fleet *.json --json fleet.json >out 2>err)
is "the issue's four files: three machines, each its own kinds" \
	"$($JSONQ "$R/fleet.json" 'machines[*].name' | tr '\n' ' ')/$($JSONQ "$R/fleet.json" 'machines[0].figures' | grep -o '"[a-z]* ' | sort -u | tr -d '"\n')/$($JSONQ "$R/fleet.json" 'machines[1].figures' 'machines[2].figures' | grep -o '"[a-z]* ' | sort -u | tr -d '"\n')" \
	"lab01 lab02 lab03 /latency mountain /bandwidth cores "
is "... the line that says they record one machine (wrapped at 79 columns)" \
	"$(grep -A1 'record one' "$R/out" | tr '\n' ' ')" \
	"lab01-latency.json, lab02-bandwidth.json and lab03-cores.json record one machine "
is "... and the grouping's JSON lists them" "$($JSONQ "$R/fleet.json" 'same_machine[0]')" \
	'["lab01-latency.json","lab02-bandwidth.json","lab03-cores.json"]'
mkdir "$R/two"
cp "$R/lab01-latency.json" "$R/lab02-bandwidth.json" "$R/two/"
(cd "$R/two" && $MEMTOP compare --fleet *.json >out 2>err)
is "... two of them: the line as the issue asks it" "$(grep 'record one' "$R/two/out")" \
	"lab01-latency.json and lab02-bandwidth.json record one machine"
rm -r "$R/two"
# memtop's default names: each row the host in its file's name, none "memtop-lat~"
for f in lab01-latency:latency-lab01-2026-12-05 lab01-mountain:mountain-lab01-2026-12-05-10-30 \
	lab02-bandwidth:bandwidth-lab02-2026-12-05 lab03-cores:cores-lab03-2026-12-05; do
	mv "$R/${f%%:*}.json" "$R/memtop-${f#*:}.json"
done
(cd "$R" && $MEMTOP compare --fleet memtop-*.json --json fleet.json >out 2>err)
is "the same under memtop's default names: rows lab01, lab02, lab03" \
	"$($JSONQ "$R/fleet.json" 'machines[*].name' | sort | tr '\n' ' ')$(grep -c 'memtop-lat~' "$R/out")" "lab01 lab02 lab03 0"
# a folder's *.json holds the grouping written before: said and passed over
(cd "$R" && $MEMTOP compare --fleet *.json >out 2>err)
is "compare --fleet *.json with fleet.json among them: exit 0" "$?" 0
is "... fleet.json passed over in one line" "$(cat "$R/err")" \
	"memtop: fleet.json: a fleet's grouping (memtop compare --fleet --json), not a result (skipped)"
echo 'notes' >"$R/notes.json"
(cd "$R" && $MEMTOP compare --fleet fleet.json notes.json >out 2>err)
is "no file a result: exit 2" "$?" 2
is "... one line a file, then that none was one" "$(wc -l <"$R/err" | tr -d ' ') $(tail -n 1 "$R/err")" \
	"3 memtop: none of the 2 files given holds a memtop result"

# fifty machines still fit 79 columns, the names of a lab's share
for i in $(seq 10 59); do
	printf 'node-%s.cluster.example.org: ' $i
	fleet_latency "Xeon T" 4 0.1 n$i $((80 + i % 3))
done >"$F/fifty.jsonl"
$MEMTOP compare "$F/fifty.jsonl" >"$F/out50" 2>&1
is "50 results: a fleet without --fleet, exit 0" "$?" 0
is "50 machines: every line within 79 columns" \
	"$(awk 'length > 79' "$F/out50" | wc -l | tr -d ' ')" 0
is "50 machines: a row each" "$(grep -c '^node-' "$F/out50")" 50

# every reader takes a file of one host's line; many is said in one line
grep '^lab03' "$F/lat.jsonl" >"$F/lab03.jsonl"
out=$($MEMTOP levels "$F/lab03.jsonl" 2>&1)
like "levels reads one host's line" "$out" "Memory from 32 MB: latency .*80.0 ns"
status "levels on many hosts' lines: exit 2" 2 $MEMTOP levels "$F/lat.jsonl"
like "... one line naming the file, the hosts and what to do" "$(cat "$TMP/err")" \
	"^memtop: .*lat.jsonl holds 6 results \(lab01, lab02, lab03, ...\): this command reads one; .*grep '\^lab01:'"
printf 'lab04: ' >"$F/m4.jsonl"
tr -d '\n' <"$F/lab04-mountain.json" >>"$F/m4.jsonl"
echo >>"$F/m4.jsonl"
out=$($MEMTOP cliffs "$F/m4.jsonl" 2>&1)
like "cliffs reads one host's line" "$out" "levels on this stride: 32 KB, 1 MB, 16 MB"
ok "plot reads one host's line" $MEMTOP plot "$F/m4.jsonl" --svg "$F/m4.svg"

# bad input: one line naming file and line, exit 2, nothing written
head -2 "$F/lat.jsonl" >"$F/bad.jsonl"
echo 'lab99: {"experiment":"stress-ng","bogo_ops":12}' >>"$F/bad.jsonl"
status "a line that is not a memtop result: exit 2" 2 \
	$MEMTOP compare --fleet "$F/bad.jsonl" --json "$F/no.json"
like "... one line naming file, line and host" "$(cat "$TMP/err")" \
	"^memtop: .*bad.jsonl: line 3 \(lab99\): a \"stress-ng\" result; memtop reads"
is "... and nothing written" "$(ls "$F/no.json" 2>&1 | grep -c 'No such')" 1
printf 'lab\033]0;pwned\007: {"experiment":"latency"}\n' >"$F/esc.jsonl"
status "a host prefix with control characters: exit 2" 2 $MEMTOP compare --fleet "$F/esc.jsonl"
is "... one printable line" "$(wc -l <"$TMP/err" | tr -d ' ') $(tr -d '\n' <"$TMP/err" | LC_ALL=C tr -d '[:print:]' | wc -c | tr -d ' ')" "1 0"
like "... naming file and line" "$(cat "$TMP/err")" \
	"esc.jsonl: line 1: the host name before the result has control characters \(byte 0x1b at column 4\)"
for i in $(seq 1 201); do cat "$F/lab10.json"; done | tr -d '\n' | sed 's/}{/}\n{/g' >"$F/many.jsonl"
echo >>"$F/many.jsonl"
status "more than 200 results: exit 2" 2 $MEMTOP compare --fleet "$F/many.jsonl"
like "... said in one line" "$(cat "$TMP/err")" "many.jsonl: more than 200 results"
status "... after another file too: exit 2, not passed over" 2 \
	$MEMTOP compare --fleet "$F/lab10.json" "$F/many.jsonl"
like "... said in one line" "$(cat "$TMP/err")" "^memtop: .*many.jsonl: more than 200 results"
