#!/bin/sh
# CPU domains in --cpus (memtop's one CPU-list grammar: S0 a package, N1 a
# node's CPUs, L3:2, D1, C one CPU a core, P/E a core type, each with
# :0-3 or :0-15:2): resolved on the machine the run plans for (a recorded
# tree with --sysfs-root) and said back in the plan, in words and in its
# JSON; and the bad input: a part that does not exist, a domain with no CPU
# this process may use, bad syntax: one line naming it, exit 2, nothing
# measured, nothing written. The recorded trees are hwloc's
# ($MEMTOP_HWLOC_TREES); what this machine has is asked of memtop topo.
. "$TESTLIB"
plan 26

trees=${MEMTOP_HWLOC_TREES:-}
# tree NAME: the recorded tree NAME extracted under $TMP, its root on
# stdout; nothing when it is not at hand
tree() {
	[ -n "$trees" ] && [ -f "$trees/$1.tar.bz2" ] || return 1
	mkdir -p "$TMP/$1" && (cd "$TMP/$1" && bunzip2 -c "$trees/$1.tar.bz2" | tar xf -) || return 1
	ls -d "$TMP/$1"/*/ | head -n 1
}

# ---- a 2-socket Xeon (8 cores of 2 CPUs each, siblings 16 apart) -------------
if xeon=$(tree 32intel64-2p8co2t+8ve); then
	out=$("$MEMTOP" run cores --sysfs-root "$xeon" --cpus S0:0-3 --plan 2>&1)
	is "cores --cpus S0:0-3 on a recorded 2-socket tree plans: exit 0" "$?" 0
	like "... its plan says the domain back in CPUs" "$out" '^# --cpus S0:0-3 = CPUs 0,1,2,3$'
	like "... and pairs those four" "$out" '^#      2 on CPUs 0-3$'
	out=$("$MEMTOP" run bandwidth --sysfs-root "$xeon" --cpus S1:0-15:2,C:0-1 --plan 2>&1)
	like "bandwidth --cpus S1:0-15:2,C:0-1: each domain said" "$out" \
		'^# --cpus S1:0-15:2 = CPUs 8,10,12,14,24,26,28,30; C:0-1 = CPUs 0,1$'
	"$MEMTOP" run cores --sysfs-root "$xeon" --cpus N1:0-7 --plan --json "$TMP/p.json" 2>/dev/null
	is "... the plan's JSON holds the words among its notes" \
		"$("$JSONQ" "$TMP/p.json" 'notes[0]')" "--cpus N1:0-7 = CPUs 8,9,10,11,12,13,14,15"
	status "--cpus S2 on it (packages 0 and 1): exit 2" 2 \
		"$MEMTOP" run cores --sysfs-root "$xeon" --cpus S2 --plan
	is "... one line naming the part that does not exist" "$(cat "$TMP/err")" \
		"memtop: run cores: --cpus: S2: that machine has packages 0 and 1, got 'S2'"
	is "... nothing planned on stdout" "$(cat "$TMP/out")" ""
	status "bandwidth --cpus S0:0-99 (16 CPUs in package 0): exit 2" 2 \
		"$MEMTOP" run bandwidth --sysfs-root "$xeon" --cpus S0:0-99 --plan
	like "... naming the indexes there are" "$(cat "$TMP/err")" \
		"--cpus: .*S0:0-99: package 0 has 16 CPUs this process may use \(indexes 0-15\)"
else
	for i in 1 2 3 4 5 6 7 8 9 10; do
		skip "domains on a recorded 2-socket tree ($i)" "no 32intel64-2p8co2t+8ve in \$MEMTOP_HWLOC_TREES"
	done
fi

# ---- a hybrid Core i7 (6 P cores of 2 CPUs, 8 E cores) -----------------------
if hy=$(tree 20em64t-hybrid-1p6c2t+2ca4co1t); then
	out=$("$MEMTOP" run cores --sysfs-root "$hy" --cpus P:0-11:2,E:0-1 --plan 2>&1)
	like "cores --cpus P:0-11:2,E:0-1 on a recorded hybrid: the core types said" "$out" \
		'^# --cpus P:0-11:2 = CPUs 0,2,4,6,8,10; E:0-1 = CPUs 12,13$'
	status "--cpus big on it (core types P and E): exit 2" 2 \
		"$MEMTOP" run cores --sysfs-root "$hy" --cpus big --plan
	is "... one line naming the types it has" "$(cat "$TMP/err")" \
		"memtop: run cores: --cpus: big: the core types of that machine are P, E, got 'big'"
else
	for i in 1 2 3; do
		skip "domains on a recorded hybrid ($i)" "no 20em64t-hybrid-1p6c2t+2ca4co1t in \$MEMTOP_HWLOC_TREES"
	done
fi

# ---- this machine: nothing measured on a bad domain ---------------------------
status "run cores --cpus S4096 here: exit 2" 2 "$MEMTOP" run cores --cpus S4096 --json "$TMP/c.json"
like "... one line naming the package that is not there" "$(cat "$TMP/err")" \
	"^memtop: run cores: --cpus: S4096: this machine (has|lists)"
is "... a line alone" "$(wc -l <"$TMP/err" | tr -d ' ')" 1
is "... nothing measured: no table" "$(cat "$TMP/out")" ""
ok "... nothing written" test ! -e "$TMP/c.json"
status "run bandwidth --cpus N4096 here: exit 2" 2 "$MEMTOP" run bandwidth --cpus N4096 --json "$TMP/b.json"
like "... one line naming the node" "$(cat "$TMP/err")" "^memtop: run bandwidth: --cpus: .*N4096: this machine"
ok "... nothing written" test ! -e "$TMP/b.json"
status "--cpus S0:x (bad syntax): exit 2" 2 "$MEMTOP" run cores --cpus S0:x
like "... naming the part" "$(cat "$TMP/err")" "--cpus: 'S0:x' after the colon, an index or a range"

# a domain of this machine none of whose CPUs the taskset allows: an L3
# group, a node or a package without the one CPU allowed (none on a machine
# of one of each: skipped)
"$MEMTOP" topo --json "$TMP/t.json" >/dev/null 2>&1
a=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status 2>/dev/null | sed 's/[-,].*//')
other=
if [ -n "$a" ] && command -v taskset >/dev/null 2>&1 && [ -f "$TMP/t.json" ]; then
	n=$("$JSONQ" "$TMP/t.json" 'l3_groups#')
	i=0
	while [ "$i" -lt "$n" ] && [ -z "$other" ]; do
		case ",$("$JSONQ" "$TMP/t.json" "l3_groups[$i].cpus" | tr -d '[]')," in
		*",$a,"*) ;;
		*) other="L3:$i" ;;
		esac
		i=$((i + 1))
	done
fi
if [ -n "$other" ]; then
	status "taskset -c $a, --cpus $other (none of its CPUs allowed): exit 2" 2 \
		taskset -c "$a" "$MEMTOP" run cores --cpus "$other" --json "$TMP/c2.json"
	like "... one line saying so" "$(cat "$TMP/err")" \
		"--cpus: $other: none of the CPUs of L3 group [0-9]+ is one this process may use"
	ok "... nothing written" test ! -e "$TMP/c2.json"
else
	for i in 1 2 3; do
		skip "a domain with no CPU allowed here ($i)" "one L3 group, or no taskset"
	done
fi
