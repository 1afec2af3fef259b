#!/bin/bash
# tests/soak.sh MINUTES [SEED]: the terminal UI left open and used for
# MINUTES minutes (not in make check: `make soak` runs it on an ASan+UBSan
# build, .ci/run for 2 minutes, bench/soak for 30). memtop --quick runs in
# tmux; a random walk, seeded and so replayable (the seed is printed), sends
# every bound key of every tab: runs started, paused, stopped and started
# again, knob prompts answered with random values (good and bad) or
# escaped, the "Discard ... (y/n)" questions answered (y or n, one key)
# or escaped, save prompts answered (into a folder of its own) or
# escaped, open prompts given a saved file, a missing one or nothing,
# resizes between 40x12 and 250x70 and storms of SIGWINCH. After every key
# a probe (? opens the help, Esc closes it) must be answered on the screen
# within SOAK_ANSWER_S seconds (default 1); under 80x24 the size message
# must follow each resize as fast. Each late answer is a line: when, after
# which keys (the tab, a run going or not), how long, and how memtop's UI
# thread spent the wait (schedstat and stat: running, runnable but waiting
# for a CPU, blocked, writing to the terminal, idle in its poll), with
# tmux's and the soak's own waits for a CPU; it is classed "memtop
# busy/blocked" when the thread's running and blocked time alone reached
# the limit, which fails the soak, else "CPU not given", counted with its
# worst. No answer in 5x fails, unless that window is not memtop busy and
# its UI thread or tmux spent half of it or more runnable but waiting for
# a CPU (a loaded host, the soak niced): then another 5x, up to 30x, and
# the windows are counted and reported. It fails on a sanitizer report
# (each one a file: ASAN_OPTIONS/UBSAN_OPTIONS log_path), a late answer
# memtop was busy for, a UI that does not answer in 5x that, memtop
# ending before it is asked to, a run that x does not end
# within 1 s while memtop was busy or blocked for it (stop_wait classes a
# slow stop as a probe's late answer) or in 5 s whatever the reason, RSS that grows (below), a file left that it did not ask to save,
# a save answered that left no file where memtop did not say "not saved:
# ..." (such a refusal is counted with memtop's reason), or a terminal not
# restored after quit.
# RSS: sampled every 10 s with no run going (x, then the job's thread gone),
# so a run's buffers never count. The first SOAK_WARM_S seconds (default a
# tenth of the run, at least 60) are warm-up. After it the rule holds the
# median of the last third of the samples to at most 10 % over the median
# of the first third, and the Theil-Sen trend (the median of the slopes
# between every two samples) times the span to under 10 % of that first
# median: a leak moves both, what a tab's last result holds (a 1000x1000
# matmul against a 64x64 one) only swings single samples. The rule needs 18
# samples after the warm-up (a soak of 4 minutes or more; CI's 2 minutes
# report the figures without it). Peak RSS in the first and the last minute
# and the process's VmHWM are reported.
# The rule is judged on a plain build (make soak SOAK_BUILD=plain), not on
# an ASan one, whose RSS is reported with its split by mapping. ASan keeps
# the last frees in its quarantine (capped here at 8 MB, 256 KB a thread;
# its allocator gives freed pages back within a second) so that a use after
# free is caught; each size class keeps the pages its most chunks at once
# reached, and their shadow stays resident. ncurses re-allocates every line
# of its screens at each new terminal width, so each width the walk visits
# raises another class: 400 resizes alone added 3.8 MB of shadow. Measured
# on one seed for 20-30 minutes: +19.6 % under ASan, +4.9 % with its
# quarantine off, +2.1 % plain, while memtop's own live heap (MEMTOP_MEMSTAT)
# stayed within 1.7-3.5 MB. Leaks under ASan are LeakSanitizer's, at quit.
# MEMTOP is the memtop to drive (an ASan build, or a plain one: it is told
# by the sanitizer's entry point in the file); SOAK_KEEP=1 keeps the
# work folder; SOAK_ASAN_OPTIONS adds to ASAN_OPTIONS. Ends with "soak: ..."
# lines and exit 0 when all held.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 MINUTES [SEED]" >&2
	exit 2
fi
MIN=$1
SEED=${2:-$(($(date +%s) % 100000))}
: "${MEMTOP:?MEMTOP: the memtop to drive (an ASan build: make soak builds one)}"
[ -f "$MEMTOP" ] || { echo "soak: $MEMTOP: no such file"; exit 2; }
if grep -aq __asan_init "$MEMTOP"; then BUILD=ASan; else BUILD=plain; fi
ANSWER_S=${SOAK_ANSWER_S:-1}
WARM_S=${SOAK_WARM_S:-$((MIN * 6 > 60 ? MIN * 6 : 60))}
command -v tmux >/dev/null 2>&1 || { echo "soak: needs tmux"; exit 2; }
unset TMUX
RANDOM=$SEED
W=$(mktemp -d "${TMPDIR:-/tmp}/memtop-soak.XXXXXX")
mkdir -p "$W/run" "$W/xdg" "$W/saved" "$W/reports"
S=memtop-soak-$$
# tm: tmux on the soak's own server; keys sent and resizes are logged, and
# the last three kept for a late answer's line (sent_last)
sent=("" "" "")
tm() {
	case $1 in
	send-keys)
		echo "$(date +%s.%N | cut -c1-14) $*" >>"$W/keys.log"
		if [ "$4" = -l ]; then
			sent=("${sent[1]}" "${sent[2]}" "typed '${*:6}'")
		else
			sent=("${sent[1]}" "${sent[2]}" "${*:4}")
		fi
		;;
	resize-window) sent=("${sent[1]}" "${sent[2]}" "resize ${5}x${7}") ;;
	esac
	tmux -L "$S" -f /dev/null "$@"
}
sent_last() {
	local a out=""
	for a in "${sent[@]}"; do
		[ -n "$a" ] && out="${out:+$out; }$a"
	done
	echo "$out"
}
cleanup() {
	if [ -n "${pid:-}" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid"
		sleep 1
		kill -KILL "$pid" 2>/dev/null
	fi
	tm kill-server >/dev/null 2>&1
	[ "${SOAK_KEEP:-0}" = 1 ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
echo "soak: $MIN minutes, seed $SEED (tests/soak.sh $MIN $SEED replays it), memtop $MEMTOP ($BUILD build)"

# ---- memtop in a tmux pane ------------------------------------------------
cat >"$W/pane.sh" <<EOS
cd "$W/run" || exit 1
ASAN_OPTIONS="log_path=$W/reports/asan:quarantine_size_mb=8:thread_local_quarantine_size_kb=256:allocator_release_to_os_interval_ms=1000:detect_leaks=1${SOAK_ASAN_OPTIONS:+:$SOAK_ASAN_OPTIONS}" \
UBSAN_OPTIONS="log_path=$W/reports/ubsan:print_stacktrace=1" \
MEMTOP_MEMSTAT="$W/memstat.txt" XDG_DATA_HOME="$W/xdg" MEMTOP_DATA="${MEMTOP_DATA:-}" "$MEMTOP" --quick
echo "memtop-exit=\$?"
stty -a | tr ';' '\n' | grep -E '(^| )-?(echo|icanon)( |\$)' | tr '\n' ' '
echo
sleep 3600
EOS
[ -n "${MEMTOP_DATA:-}" ] || sed -i 's/MEMTOP_DATA="" //' "$W/pane.sh"
tm new-session -d -x 100 -y 30 -s t "sh $W/pane.sh"
cap() { tm capture-pane -p -t t 2>/dev/null; }
# key KEY...: send keys; after an Esc, wait past curses' ESCDELAY (25 ms in
# memtop) so that the next key is not read as Alt+key
key() {
	tm send-keys -t t "$@"
	case " $* " in *" Escape "*) sleep 0.08 ;; esac
}
pid=""
for _ in $(seq 50); do
	sh_pid=$(tm display-message -p -t t '#{pane_pid}' 2>/dev/null)
	pid=$(pgrep -P "$sh_pid" 2>/dev/null | head -n 1) # memtop, whatever its file is called
	[ -n "$pid" ] && break
	sleep 0.1
done
[ -n "$pid" ] || { echo "soak: memtop did not start"; exit 1; }
tmux_pid=$(tm display-message -p '#{pid}')

# ---- what the walk counts ---------------------------------------------------
keys=0 runs=0 stops=0 pauses=0 resizes=0 storms=0 prompts=0 saves=0 refused=0 opens=0 probes=0
late=0 worst_ms=0 fails=0 starved=0 starved_ms=0 late_busy=0 late_busy_ms=0 late_cpu=0 late_cpu_ms=0
t0=$(date +%s)
end=$((t0 + MIN * 60))
rss_last=0 rss_hwm=0 stop_worst_ms=0 kinds_first="" kinds_last=""
stop_worst_at="no run stopped" stops_busy=0 stops_cpu=0
expected="" # the files the walk asked memtop to save
fail() {
	fails=$((fails + 1))
	echo "soak: FAIL at $(($(date +%s) - t0)) s (tab $((tab + 1)), last key ${lastk:-none}): $*"
	echo "soak: the last keys sent:"
	tail -n 12 "$W/keys.log" | sed 's/^/  > /'
	echo "soak: the screen then ($(tm display-message -p -t t '#{pane_width}x#{pane_height}' 2>/dev/null)):"
	cap | sed 's/^/  | /'
}
alive() { kill -0 "$pid" 2>/dev/null; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# wait_for REGEX [NOT]: the screen matches REGEX (or, with NOT, stops
# matching) within ANSWER_S seconds; the time it took is noted. An answer
# later than ANSWER_S is classed by what memtop's UI thread did in its
# window (win_split): "memtop busy/blocked" when the thread's own time,
# running plus asleep anywhere but in its poll for input, reached ANSWER_S
# (so even with every CPU given at once it would have been late): that
# fails the soak; else "CPU not given" (for the rest of the window the
# thread, tmux or the soak waited for a CPU, or memtop sat in its poll
# while the key or the screen went through a starved tmux): counted with
# its worst, and excused. No answer in 5x is stuck, unless that window is
# not memtop's own (not busy/blocked) and the UI thread or tmux spent half
# of it runnable but waiting for a CPU (a loaded host, the soak niced):
# then another 5x window, up to 30x.
wait_for() {
	local t1 t n lim w
	t1=$(now_ms)
	lim=$((t1 + ANSWER_S * 1000 * 5))
	win_start
	while :; do
		if [ "${2:-}" = not ]; then
			cap | grep -Eq -- "$1" || break
		else
			cap | grep -Eq -- "$1" && break
		fi
		win_look
		n=$(now_ms)
		if [ "$n" -ge "$lim" ]; then
			win_split $((n - wn_t0))
			w=$((wn_wait > wn_twait ? wn_wait : wn_twait))
			if [ "$wn_class" != busy ] && [ "$w" -ge $(((n - wn_t0) / 2)) ] &&
				[ "$n" -lt $((t1 + ANSWER_S * 1000 * 30)) ]; then
				starved=$((starved + 1))
				[ "$w" -gt "$starved_ms" ] && starved_ms=$w
				lim=$((n + ANSWER_S * 1000 * 5))
				win_start
				continue
			fi
			fail "no answer in $(((n - t1) / 1000)) s, waiting for $(wait_what "$1" "${2:-}"); the last $((n - wn_t0)) ms: $wn_text"
			return 1
		fi
		sleep 0.02
	done
	n=$(now_ms)
	t=$((n - t1))
	[ "$t" -gt "$worst_ms" ] && worst_ms=$t
	[ "$t" -gt $((ANSWER_S * 1000)) ] && late_answer "$t" "$(wait_what "$1" "${2:-}")" $((n - wn_t0))
	return 0
}
# late_answer MS WHAT WINDOW_MS: an answer later than ANSWER_S, in one
# line: when (seconds into the soak), after what (the last things sent, the
# tab, whether a run was going), how long, and its window's split and
# class. A busy/blocked one fails the soak; a CPU-not-given one is counted.
late_answer() {
	local line
	late=$((late + 1))
	win_split "$3"
	line="late answer at $(($(date +%s) - t0)) s: $1 ms for $2 after [$(sent_last)] (tab $((tab + 1)) ${TABN[$tab]}, $wn_runs); $wn_text"
	echo "$line" >>"$W/late.txt"
	if [ "$wn_class" = busy ]; then
		late_busy=$((late_busy + 1))
		[ "$1" -gt "$late_busy_ms" ] && late_busy_ms=$1
		fail "$line"
	else
		late_cpu=$((late_cpu + 1))
		[ "$1" -gt "$late_cpu_ms" ] && late_cpu_ms=$1
		echo "soak: $line"
	fi
}
# wait_what REGEX [NOT]: what a wait_for waited for, in words
wait_what() {
	case "$1 ${2:-}" in
	"^  Everywhere|"*) echo "the help (the probe's ?)" ;;
	"^  Everywhere not") echo "the help to close" ;;
	"memtop needs 80x24 not") echo "the size message to go (a resize to 80x24 or more)" ;;
	"^memtop needs"*) echo "the size message (a resize under 80x24)" ;;
	*) echo "/$1/ ${2:-}" ;;
	esac
}
# One wait's window. win_start [TID WHO] marks the schedstat (ns running,
# ns runnable but waiting for a CPU) of one of memtop's threads (its UI
# thread, the main one, unless TID names another, WHO saying which), of the
# tmux server and of the soak's shell. win_look samples that thread's
# state (stat) and, when it sleeps, where (wchan): in its poll for input
# (idle), writing to the terminal (tmux not reading its pane yet: tmux's
# delay, not memtop's) or anywhere else (blocked: a lock or a join, a file,
# a child), or stopped (a signal, a tracer); and how many threads of a run
# memtop has (run_count: any, a run going).
# win_split MS splits the window into the thread's running, waiting,
# blocked, terminal and idle ms (asleep = window - running - waiting,
# shared as the looks were) and classes it: wn_class busy or cpu, wn_text
# the figures in words.
# A run's threads are the ones named memtop-run (os/threads.h: the job's
# worker first, its measuring threads, the kept ones until drained); the
# UI's file threads (tui/filework.c) live on between runs.
run_count() { # wn_n: how many threads of a run memtop has now
	local c f
	wn_n=0
	for f in /proc/$pid/task/*/comm; do
		read -r c 2>/dev/null <"$f" && [ "$c" = memtop-run ] && wn_n=$((wn_n + 1))
	done
}
run_first() { # the lowest TID named memtop-run (the job's worker), or nothing
	local c f
	for f in /proc/$pid/task/*/comm; do
		read -r c 2>/dev/null <"$f" && [ "$c" = memtop-run ] && { f=${f%/comm}; echo "${f##*/}"; }
	done | sort -n | head -n 1
}
sched_ns() { # PATH: "RUN WAIT" in ns, "0 0" where the kernel does not say
	local r=0 w=0
	read -r r w _ 2>/dev/null <"$1"
	echo "${r:-0} ${w:-0}"
}
win_start() {
	wn_tid=${1:-$pid} wn_who=${2:-UI thread}
	wn_t0=$(now_ms)
	read -r wn_r0 wn_w0 <<<"$(sched_ns "/proc/$pid/task/$wn_tid/schedstat")"
	read -r _ wn_tw0 <<<"$(sched_ns "/proc/$tmux_pid/schedstat")"
	read -r _ wn_sw0 <<<"$(sched_ns "/proc/$$/schedstat")"
	wn_idle=0 wn_term=0 wn_blk=0 wn_stop=0 wn_where="" wn_tasks=0
}
win_look() {
	local st wc fd
	run_count
	[ "$wn_n" -gt "$wn_tasks" ] && wn_tasks=$wn_n
	read -r _ _ st _ 2>/dev/null <"/proc/$pid/task/$wn_tid/stat" || return
	case $st in
	T | t) wn_stop=$((wn_stop + 1)) ;; # stopped by a signal or a tracer: not memtop's doing
	S | D)
		wc=""
		read -r wc 2>/dev/null <"/proc/$pid/task/$wn_tid/wchan"
		case $wc in
		poll_schedule_timeout* | do_sys_poll* | do_select* | ep_poll* | "" | 0) wn_idle=$((wn_idle + 1)) ;;
		wait_woken*) # a write to the terminal that tmux does not read yet
			read -r _ fd _ 2>/dev/null <"/proc/$pid/task/$wn_tid/syscall"
			case ${fd:-0x1} in 0x1 | 0x2) wn_term=$((wn_term + 1)) ;; *) wn_blk=$((wn_blk + 1)) wn_where="$wn_where $wc($fd)" ;; esac
			;;
		*)
			wn_blk=$((wn_blk + 1))
			case " $wn_where " in *" $wc "*) ;; *) wn_where="$wn_where $wc" ;; esac
			;;
		esac
		;;
	esac
}
win_split() {
	local r w tw sw asleep n
	read -r r w <<<"$(sched_ns "/proc/$pid/task/$wn_tid/schedstat")"
	read -r _ tw <<<"$(sched_ns "/proc/$tmux_pid/schedstat")"
	read -r _ sw <<<"$(sched_ns "/proc/$$/schedstat")"
	wn_run=$(((r - wn_r0) / 1000000)) wn_wait=$(((w - wn_w0) / 1000000))
	wn_twait=$(((tw - wn_tw0) / 1000000)) wn_swait=$(((sw - wn_sw0) / 1000000))
	asleep=$(($1 - wn_run - wn_wait))
	[ "$asleep" -gt 0 ] || asleep=0
	n=$((wn_idle + wn_term + wn_blk + wn_stop))
	wn_blocked=$((n > 0 ? asleep * wn_blk / n : 0))
	wn_termms=$((n > 0 ? asleep * wn_term / n : 0))
	wn_stopms=$((n > 0 ? asleep * wn_stop / n : 0))
	wn_class=cpu
	[ $((wn_run + wn_blocked)) -ge $((ANSWER_S * 1000)) ] && wn_class=busy
	wn_runs="no run going"
	[ "$wn_tasks" -gt 0 ] && wn_runs="a run going"
	wn_text="$wn_who ran $wn_run ms, waited for a CPU $wn_wait ms, blocked $wn_blocked ms${wn_where:+ (in$wn_where)}, writing to the terminal $wn_termms ms,$([ "$wn_stop" = 0 ] || echo " stopped $wn_stopms ms,") idle in poll $((asleep - wn_blocked - wn_termms - wn_stopms)) ms; tmux waited $wn_twait ms, the soak $wn_swait ms: $([ "$wn_class" = busy ] && echo "memtop busy/blocked" || echo "CPU not given")"
}
pick() { local a=("$@"); echo "${a[$((RANDOM % ${#a[@]}))]}"; }
# smaps_kinds: memtop's resident KB by kind of mapping, "heap H shadow S
# other O files F": the heap (brk, and AddressSanitizer's allocator at
# 0x600000000000-0x640000000000 on x86-64), ASan's shadow
# (0x7fff8000-0x10007fff8000), other anonymous maps (thread stacks, the
# sanitizer's own tables, mmap'd buffers) and files
smaps_kinds() {
	awk 'function hex(s,   i, n) { n = 0; for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }
	/^[0-9a-f]+-[0-9a-f]+ / { split($1, a, "-"); lo = hex(a[1])
		if ($6 == "[heap]" || (lo >= 105553116266496 && lo < 109951162777600)) k = "heap"
		else if (lo >= 2147450880 && lo < 17594333495296) k = "shadow"
		else if ($6 ~ /^\//) k = "files"; else k = "other"; next }
	/^Rss:/ { r[k] += $2 }
	END { printf "heap %d shadow %d other %d files %d\n", r["heap"], r["shadow"], r["other"], r["files"] }' "/proc/$pid/smaps" 2>/dev/null
}
rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$pid/status" 2>/dev/null; }

# ---- the keys -----------------------------------------------------------------
# every bound key of each tab (tui/keys.c and the tabs' keys[]), as tmux names
FRAME="1 2 3 4 5 6 7 8 Tab BTab F1 p x i C-l"
TABK=(
	"Up Down Left Right h j k l Home End PPage NPage r Enter f w o m P g c Escape"
	"r H m w"
	"r Down Up j k n b B w"
	"Right Left h l PPage NPage Home End n v z V Z c a F S B r R"
	"r o w"
	"r d m w"
	"r b l t Up Down Left Right v c w"
	"r Up Down Left Right h j k l Home w"
)
NTABS=${#TABK[@]}
TABN=(Mountain Latency Matmul Transpose "False sharing" Lists Bandwidth Cores)
tab=0
VALUES=(1 2 3 7 8 16 64 100 256 1000 4096 100000 0 -1 abc "" 1e9 99999999999999999999
	"5,1,5" "6,1,4" "7,8,7" "4,4,5" "0,0,0" "32x32" "61x67" "64x64" "1x1" "9999x9999"
	"naive" "block:8" "block:16x4" "buffer:8" "diagonal" "block:0" "ijk,kij" "all" "none"
	"16M" "512M" "64K" "1T" "x")

# answer whatever prompt the status line shows; 0 when there was none
answer_prompt() {
	local last v
	# the prompt is the status line, above the message line when there is one
	last=$(cap | grep -v '^[[:space:]]*$' | tail -n 2 | tr '\n' ' ')
	case $last in
	*"Save before quitting"*)
		key Escape
		;;
	*"Save as: "*)
		prompts=$((prompts + 1))
		if [ $((RANDOM % 2)) = 0 ]; then
			key Escape
		else
			v="$W/saved/s$((saves + 1)).json"
			if type_answer "$v"; then
				saves=$((saves + 1))
				save_verdict "$v"
			else
				prompts=$((prompts - 1))
			fi
		fi
		;;
	*"Open a saved"* | *"Compare with a saved"*)
		prompts=$((prompts + 1))
		opens=$((opens + 1))
		case $((RANDOM % 4)) in
		0) v=Escape ;;
		1) v="" ;;
		2) v="$W/saved/missing.json" ;;
		3)
			v=$(ls "$W"/saved/*.json 2>/dev/null | head -n 1)
			v=${v:-$W/none.json}
			;;
		esac
		if [ "$v" = Escape ]; then
			key Escape
		elif ! type_answer "$v"; then
			prompts=$((prompts - 1))
			opens=$((opens - 1))
		fi
		;;
	*"(y/n)"*)
		# "Discard ... and measure again? (y/n)": one key answers it
		prompts=$((prompts + 1))
		key "$(pick y n Escape)"
		;;
	*"Matrix side n ("* | *"Also race blocked"* | *"Block side ("* | *"Atomic adds a thread ("* | \
		*"Multiply-adds a cell"* | *"Largest array, "* | *"Algae cache s,E,b"* | \
		*"Int fields a struct"* | *"Cache s,E,b: "* | *"Size ROWSxCOLS: "* | *"Version (naive"*)
		# a knob: a random value, or escaped
		prompts=$((prompts + 1))
		if [ $((RANDOM % 4)) = 0 ]; then
			key Escape
		else
			v=$(pick "${VALUES[@]}")
			type_answer "$v" || prompts=$((prompts - 1))
		fi
		;;
	*) return 1 ;;
	esac
	# until memtop has taken the answer: a prompt still on the screen
	# would be answered again, and that answer typed into the tab as keys
	# (a q in the path quit memtop once); one that stays (asked again) is
	# answered after 1 s. Gone means gone from two looks in a row: one
	# look can catch tmux's screen half-way through a frame that memtop
	# redraws whole (werase, then every window) and miss a prompt that is
	# still there; that answered a save prompt twice, the second path went
	# into the tab as keys, and its file was counted missing (10 of 244
	# saves in an ASan soak).
	local gone=0
	for _ in $(seq 50); do
		if cap | grep -v '^[[:space:]]*$' | tail -n 2 | grep -Eq -- "$PROMPT_RE"; then
			gone=0
		else
			gone=$((gone + 1))
			[ "$gone" -ge 2 ] && break
		fi
		sleep 0.02
	done
	return 0
}

# type_answer TEXT: C-u clears the prompt's answer; once the status line
# shows a question with nothing after it (every question ends in ": " or
# ") "), TEXT is typed and Enter pressed. A screen can show a prompt that
# memtop has already closed (the save prompt of the 10 missing saves was
# answered twice, 20-120 ms apart, after it had saved the first answer,
# and the second path went into the tab as keys: its digits switched tabs):
# then the C-u went to the tab, which ignores it, no empty question shows,
# and nothing is typed (returns 1).
type_answer() {
	local i l
	tm send-keys -t t C-u
	for i in $(seq 50); do
		# tmux drops a line's trailing blanks: "Save as: " shows as "Save as:"
		l=$(cap | grep -v '^[[:space:]]*$' | tail -n 2 | sed 's/[[:space:]]*$//' | grep -E -- "$PROMPT_RE")
		case $l in
		*: | *")")
			[ -n "$1" ] && tm send-keys -t t -l -- "$1"
			tm send-keys -t t Enter
			return 0
			;;
		esac
		sleep 0.02
	done
	return 1
}

# save_verdict PATH: a save prompt was answered PATH; memtop either wrote
# it or said why not ("not saved: ..." on its status line: a result that
# stopped being measured before the answer, a folder it cannot write). A
# file is expected at the end; a refusal is counted with memtop's reason
# and expects none; neither within 5x the answer time fails: a save that
# memtop neither made nor refused.
save_verdict() {
	local lim why
	lim=$(($(now_ms) + ANSWER_S * 1000 * 5))
	while [ "$(now_ms)" -lt "$lim" ]; do
		if [ -f "$1" ]; then
			expected="$expected $1"
			return 0
		fi
		why=$(cap | grep -o 'not saved: .*' | head -n 1 | sed 's/[[:space:]]*$//')
		if [ -n "$why" ]; then
			refused=$((refused + 1))
			echo "$1: $why" >>"$W/refused.log"
			return 0
		fi
		sleep 0.02
	done
	expected="$expected $1"
	fail "the save answer $1: no file and no \"not saved\" message in $((ANSWER_S * 5)) s"
}

# the prompts memtop asks in its status line (tui_prompt's questions). A
# question ends in ": " with the answer after it, but tmux drops a line's
# trailing blanks, so an emptied prompt shows as "Save as:" at the line's
# end: the pieces that end in a colon match it followed by a blank or the
# end of the line.
PROMPT_RE='Save as:( |$)|Open a saved|Compare with a saved|\(y/n\)|Matrix side n \(|Also race blocked'
PROMPT_RE="$PROMPT_RE"'|Block side \(|Atomic adds a thread \(|Multiply-adds a cell|Largest array, '
PROMPT_RE="$PROMPT_RE"'|Algae cache s,E,b|Int fields a struct|Cache s,E,b:( |$)|Size ROWSxCOLS:( |$)|Version \(naive'
PROMPT_RE="$PROMPT_RE"'|Save before quitting'

# the probe: ? opens the help, Esc closes it, each shown on the screen. A
# prompt the last key opened may take the ? as text: it is answered, and
# the probe is sent again.
# help_or_prompt: "help" when the help shows, "prompt" when the status
# line asks, looking up to five times 20 ms apart; "" when neither showed
help_or_prompt() {
	local s
	for _ in 1 2 3 4 5; do
		s=$(cap)
		if echo "$s" | grep -Eq '^  Everywhere'; then
			echo help
			return
		fi
		if echo "$s" | grep -v '^[[:space:]]*$' | tail -n 2 | grep -Eq -- "$PROMPT_RE"; then
			echo prompt
			return
		fi
		sleep 0.02
	done
}

probe() {
	local try i
	for try in 1 2 3 4; do
		for i in 1 2 3; do answer_prompt || break; done
		if cap | grep -Eq '^  Everywhere'; then
			key Escape
			wait_for '^  Everywhere' not || return 1
		fi
		probes=$((probes + 1))
		tm send-keys -t t '?'
		wait_for "^  Everywhere|$PROMPT_RE" || return 1
		# the help, unless a prompt took the ?: looked at again until one
		# of them shows, as one look can catch a frame half drawn; taken
		# for a prompt on one such look, the probe sent a second ?, which
		# closed the help, and waited 5 s for it (a failure of a 30-minute
		# ASan soak, seed 7, at 374 s)
		if [ "$(help_or_prompt)" != prompt ]; then
			key Escape
			wait_for '^  Everywhere' not
			return
		fi
	done
	fail "the probe met a prompt four times"
}

# a size of 80x24 or more; keys are ignored under 80x24 (a message asks for
# more room), so the next one waits for that message to go
big_size() {
	tm resize-window -t t -x $((80 + RANDOM % 171)) -y $((24 + RANDOM % 47))
	resizes=$((resizes + 1))
	wait_for 'memtop needs 80x24' not
}

one_key() {
	local k
	if [ $((RANDOM % 10)) -lt 3 ]; then
		k=$(pick $FRAME)
	else
		k=$(pick ${TABK[$tab]})
	fi
	case $k in
	[1-8]) tab=$((k - 1)) ;;
	Tab) tab=$(((tab + 1) % NTABS)) ;;
	BTab) tab=$(((tab + NTABS - 1) % NTABS)) ;;
	r | b | l | R) runs=$((runs + 1)) ;;
	x) stops=$((stops + 1)) ;;
	p) pauses=$((pauses + 1)) ;;
	esac
	key "$k"
	lastk=$k
	keys=$((keys + 1))
	if [ "$k" = F1 ]; then # the help, as the probe opens it: seen, then closed
		wait_for '^  Everywhere' && key Escape && wait_for '^  Everywhere' not
	fi
}

small_phase() {
	local w h msg
	w=$((40 + RANDOM % 40))
	h=$((12 + RANDOM % 12))
	tm resize-window -t t -x "$w" -y "$h"
	resizes=$((resizes + 1))
	msg="memtop needs 80x24; this terminal is ${w}x${h}"
	wait_for "^${msg:0:$w}" # the line is cut at the terminal's width
	for _ in 1 2 3; do
		tm send-keys -t t "$(pick 1 2 3 4 5 6 7 8 r p x w Tab i)"
		keys=$((keys + 1))
	done
	big_size
}

storm() {
	local i
	storms=$((storms + 1))
	for i in $(seq 20); do
		tm resize-window -t t -x $((40 + RANDOM % 211)) -y $((12 + RANDOM % 59))
		kill -WINCH "$pid" 2>/dev/null
		resizes=$((resizes + 1))
	done
	big_size
}

# stop_wait: x stops the run going (if any); wait until every thread of
# the run (run_count) has ended, and judge the stop by the issue's rule: a
# run stops within ANSWER_S (1 s). Its window is split as a probe's is
# (win_*): the job's worker (the run's first thread) until it has ended,
# then the UI thread (its join, the kept threads' drain) until the last
# one has. A stop over ANSWER_S is "memtop busy/blocked" when those two
# threads' running plus blocked time reached ANSWER_S, which fails the
# soak, else "CPU not given", counted with its slowest; a run still there
# after 5 s fails whatever its class. The slowest stop is reported with its
# class and tab.
stop_wait() {
	local t1 n ms jt ok=0 busy=0 text=""
	jt=$(run_first)
	tm send-keys -t t x
	t1=$(now_ms)
	[ -n "$jt" ] && win_start "$jt" "the job's worker"
	while run_count && [ "$wn_n" -gt 0 ]; do
		n=$(now_ms)
		if [ -n "$jt" ] && [ -d "/proc/$pid/task/$jt" ]; then
			win_look
			win_split $((n - wn_t0))
			# the thread may end between the looks: keep the last whole split
			[ "$wn_run" -ge 0 ] && [ -d "/proc/$pid/task/$jt" ] &&
				ok=$((wn_run + wn_blocked)) text=$wn_text
		elif [ -n "$jt" ]; then # the worker has ended: the rest is the UI thread's
			busy=$ok jt="" ok=0
			text="$text; then "
			win_start
		else
			win_look
		fi
		[ $((n - t1)) -gt 5000 ] && { fail "x did not end the run in 5 s (tab $((tab + 1)) ${TABN[$tab]}): $text"; return 1; }
		sleep 0.02
	done
	ms=$(($(now_ms) - t1))
	if [ -z "$jt" ] && [ -n "$text" ]; then # the UI thread's part
		win_split $((t1 + ms - wn_t0))
		busy=$((busy + wn_run + wn_blocked)) text="$text$wn_text"
	else
		busy=$ok
	fi
	[ -n "$text$jt" ] || return 0 # no run was going
	[ "$ms" -gt $((ANSWER_S * 1000)) ] || { stop_note "$ms" ""; return 0; }
	text=${text//: memtop busy\/blocked/}
	text=${text//: CPU not given/}
	if [ "$busy" -ge $((ANSWER_S * 1000)) ]; then
		stops_busy=$((stops_busy + 1))
		stop_note "$ms" "memtop busy/blocked"
		fail "slow stop: x took $ms ms (tab $((tab + 1)) ${TABN[$tab]}): $text: memtop busy/blocked"
	else
		stops_cpu=$((stops_cpu + 1))
		stop_note "$ms" "CPU not given"
		echo "soak: slow stop at $(($(date +%s) - t0)) s: x took $ms ms (tab $((tab + 1)) ${TABN[$tab]}): $text: CPU not given"
	fi
}
stop_note() { # MS CLASS: the slowest stop so far, with its tab and class
	[ "$1" -gt "$stop_worst_ms" ] || return 0
	stop_worst_ms=$1
	stop_worst_at="tab $((tab + 1)) ${TABN[$tab]}${2:+, $2}"
}

# RSS with no run going: x stops a run, and the sample waits for its
# threads to end (stop_wait), so a run's buffers and its event queue are
# never counted.
sample_rss() {
	local r
	stop_wait || return
	sleep 0.3
	r=$(rss)
	[ -n "$r" ] || return
	rss_last=$r
	echo "$(($(date +%s) - t0)) $r" >>"$W/rss.txt"
	# by kind of mapping: the first sample after the warm-up, and the last
	if [ "$(($(date +%s) - t0))" -ge "$WARM_S" ]; then
		[ -n "$kinds_first" ] || kinds_first="at $(($(date +%s) - t0)) s: $(smaps_kinds)"
		kinds_last="at $(($(date +%s) - t0)) s: $(smaps_kinds)"
	fi
}
# rss_rule: the RSS rule over $W/rss.txt ("SECONDS KB" lines). The first
# WARM_S seconds (every tab's first results, curses' and ASan's own pools
# and its quarantine filling) are warm-up. After it: the baseline is the median of
# the samples in the first third of the rest, the end the median of the last
# third, and the trend the Theil-Sen slope (the median of the slopes between
# every pair of samples) times the span. Medians, because what memtop holds
# with no run going depends on the tab's last result (a 1000x1000 matmul
# holds more than a 64x64 one): single samples swing with the walk, a leak
# moves the middle. It holds when the end is within 10 % of the baseline and
# the trend adds under 10 % of it over the span. Prints "B E TREND_KB MIN
# MAX N M1 MLAST" (KB; M1 and MLAST: the peak sample of minute 1 and of the
# last minute).
rss_rule() {
	awk -v warm="$WARM_S" '
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ if ($1 < 60 && $2 > m1) m1 = $2; last[NR] = $1; lastv[NR] = $2; tmax = $1 }
	$1 >= warm { n++; t[n] = $1; v[n] = $2; if (!mn || $2 < mn) mn = $2; if ($2 > mx) mx = $2 }
	END {
		for (i = 1; i <= NR; i++) if (last[i] >= tmax - 60 && lastv[i] > ml) ml = lastv[i]
		if (n < 3) { printf "0 0 0 %d %d %d %d %d\n", mn, mx, n, m1, ml; exit }
		k = int(n / 3); if (k < 1) k = 1
		for (i = 1; i <= k; i++) { a[i] = v[i]; b[i] = v[n - k + i] }
		base = median(a, k); end = median(b, k)
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (t[j] > t[i]) s[++ns] = (v[j] - v[i]) / (t[j] - t[i])
		trend = ns ? median(s, ns) * (t[n] - t[1]) : 0
		printf "%d %d %d %d %d %d %d %d\n", base, end, trend, mn, mx, n, m1, ml
	}' "$W/rss.txt" 2>/dev/null
}

# ---- the walk -----------------------------------------------------------------
big_size
next_rss=$(($(date +%s) + 10))
step=0
while [ "$(date +%s)" -lt "$end" ] && [ "$fails" -lt 5 ]; do
	step=$((step + 1))
	alive || { fail "memtop ended by itself"; break; }
	case $((RANDOM % 100)) in
	[0-3]) small_phase ;;
	[4-7]) big_size ;;
	8) storm ;;
	*) one_key ;;
	esac
	probe || true
	[ "$(ls "$W/reports" | wc -l)" = 0 ] || { fail "a sanitizer report"; break; }
	if [ "$(date +%s)" -ge "$next_rss" ]; then
		sample_rss
		next_rss=$(($(date +%s) + 10))
	fi
done

# ---- the end: quit, the terminal, the files, the reports ----------------------
elapsed=$(($(date +%s) - t0))
rss_hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$pid/status" 2>/dev/null)
tm resize-window -t t -x 100 -y 30
answer_prompt >/dev/null
cap | grep -Eq '^  Everywhere' && key Escape
tm send-keys -t t q
sleep 0.5
cap | grep -q 'Save before quitting' && tm send-keys -t t n
for _ in $(seq 100); do
	cap | grep -q 'memtop-exit=' && break
	sleep 0.1
done
for _ in $(seq 30); do # then the pane's stty line
	cap | grep -A1 'memtop-exit=' | tail -n 1 | grep -q icanon && break
	sleep 0.1
done
exitline=$(cap | grep -o 'memtop-exit=[0-9]*')
[ "$exitline" = "memtop-exit=0" ] || fail "quit: ${exitline:-memtop did not end}"
modes=$(cap | grep -A1 'memtop-exit=' | tail -n 1)
case " $modes " in
*" -echo "* | *" -icanon "*) fail "the terminal was not restored: $modes" ;;
*" echo "*" icanon "* | *" icanon "*" echo "*) ;;
*) fail "the terminal modes were not seen: $modes" ;;
esac
nrep=$(cat "$W"/reports/* 2>/dev/null | grep -cE '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)')
[ "$(ls "$W/reports" | wc -l)" = 0 ] || { fail "sanitizer reports"; head -n 40 "$W"/reports/*; }
left=$(find "$W/run" "$W/xdg" "$W/saved" -type f | sort)
want=$(for f in $expected; do [ -f "$f" ] && echo "$f"; done | sort)
missing=$(for f in $expected; do [ -f "$f" ] || echo "$f"; done)
[ "$left" = "$want" ] || fail "files left that were not asked for: $(comm -23 <(echo "$left") <(echo "$want") | tr '\n' ' ')"
[ -z "$missing" ] || fail "saves memtop made (its file seen) or promised and did not leave: $(echo $missing)"
set -- $(rss_rule) # base end trend min max n peak1 peaklast
rss_base=${1:-0} rss_end=${2:-0} rss_trend=${3:-0} rss_min=${4:-0} rss_max=${5:-0}
rss_n=${6:-0} rss_m1=${7:-0} rss_mlast=${8:-0}
if [ "$BUILD" = ASan ]; then
	echo "soak: RSS rule not applied to an ASan build (its quarantine and shadow hold what was freed): make soak SOAK_BUILD=plain judges it"
elif [ "$rss_n" -lt 18 ]; then
	# a trend read from a handful of samples is the walk's noise, not memtop's
	echo "soak: RSS rule not applied: $rss_n samples after the $WARM_S s warm-up (it needs 18: a soak of 4 minutes or more)"
elif [ "$rss_end" -gt $((rss_base * 110 / 100)) ]; then
	fail "RSS grew: the median of the last third $rss_end KB against $rss_base KB after the warm-up"
elif [ "$rss_trend" -gt $((rss_base / 10)) ]; then
	fail "RSS trend not flat: +$rss_trend KB over the run (Theil-Sen) against $rss_base KB after the warm-up"
fi
echo "soak: $elapsed s, $keys keys sent, $probes probes answered (slowest $worst_ms ms, $late over ${ANSWER_S} s; $starved 5-s windows not answered while the UI thread or tmux spent most of it waiting for a CPU, up to $starved_ms ms)"
echo "soak: answers over ${ANSWER_S} s: $late_busy memtop busy/blocked (slowest ${late_busy_ms} ms), $late_cpu CPU not given (slowest ${late_cpu_ms} ms)"
echo "soak: run keys $runs (r, b, l, R), stops $stops (x), pauses $pauses (p); $prompts prompts answered ($saves save answers, $opens open answers)"
echo "soak: $resizes resizes, $storms SIGWINCH storms (20 resizes and 20 SIGWINCH each)"
echo "soak: RSS with no run going ($rss_n samples after $WARM_S s): baseline $rss_base KB, end $rss_end KB, trend $rss_trend KB over the run, $rss_min-$rss_max KB; peak in minute 1 $rss_m1 KB, in the last minute $rss_mlast KB; the process's peak (VmHWM) $rss_hwm KB"
echo "soak: resident KB by mapping ${kinds_first:-not sampled}; ${kinds_last:-}"
# memtop's own heap at the runs' ends (MEMTOP_MEMSTAT): live, and what its
# allocator held, after the warm-up; the threads its runs started and made
# (ASan keeps a record of every thread made: a kept thread adds none)
awk -v t0="$t0" -v warm="$WARM_S" '$1 - t0 >= warm { sub(/^[0-9]+ [^:]*: /, ""); n++; if (n == 1) { l1 = $2; h1 = $4 } l = $2; h = $4; if ($2 > lm) lm = $2
		for (i = 1; i < NF; i++) { if ($i == "threads") ts = $(i + 1); if ($i == "made") tm = $(i + 1) } }
	END { if (n) printf "soak: heap at %d run ends after the warm-up (MEMTOP_MEMSTAT): live %d KB at the first, %d KB at the last, %d KB at most; held %d KB, then %d KB; threads started %d, made %d\n", n, l1 / 1024, l / 1024, lm / 1024, h1 / 1024, h / 1024, ts, tm }' "$W/memstat.txt" 2>/dev/null
echo "soak: slowest stop (x until the run's threads ended) $stop_worst_ms ms ($stop_worst_at); stops over ${ANSWER_S} s: $stops_busy memtop busy/blocked, $stops_cpu CPU not given"
echo "soak: saved files asked $(echo $expected | wc -w), present $(echo "$want" | grep -c .), missing: ${missing:-none}; $refused save answers refused by memtop$([ "$refused" = 0 ] || { echo ":"; sed 's/^[^:]*: not saved: //' "$W/refused.log" | sort | uniq -c | sed 's/^ */  /' | tr '\n' ';'; })"
echo "soak: $nrep sanitizer reports, exit ${exitline#memtop-exit=}, terminal: $modes"
if [ "$fails" = 0 ]; then
	echo "soak: passed (seed $SEED)"
	exit 0
fi
echo "soak: $fails failures (seed $SEED)"
exit 1
