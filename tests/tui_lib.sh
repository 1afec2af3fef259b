# tests/tui_lib.sh: drive the real memtop inside tmux, as tmux's own regress
# tests do (new-session -d -x W -y H, send-keys, capture-pane -p,
# resize-window), on a private server. Source after tests/lib.sh.
if ! command -v tmux >/dev/null 2>&1; then
	echo "Bail out! tmux is not installed (apt-get install tmux): the TUI tests need it"
	exit 1
fi
TMUX_TMPDIR=$TMP # the servers' sockets go with the test's files
export TMUX_TMPDIR
unset TMUX
TSOCK="memtop-test"
TSERVERS=0
tm() { tmux -L "$TSOCK-$TSERVERS" -f /dev/null "$@"; }
trap 'tstop; sleep 0.3; rm -rf "$TMP"' EXIT INT TERM

# tstop: end the memtop of the current server, if one runs (SIGTERM: it
# saves what is unsaved and exits while its terminal is still there), then
# the server. Killing the server under a running memtop hangs it up
# instead; in the sanitizer build one such exit was seen to spin for good
# (LeakSanitizer's exit check, with the terminal gone), eating a CPU for
# the rest of CI.
tstop() {
	if p=$(tpid 2>/dev/null); then
		kill -TERM "$p" 2>/dev/null
		n=30
		while [ "$n" -gt 0 ] && kill -0 "$p" 2>/dev/null; do
			sleep 0.1
			n=$((n - 1))
		done
		kill -KILL "$p" 2>/dev/null
	fi
	tm kill-server >/dev/null 2>&1
}

# tstart W H ENV... -- ARGS...: run memtop ARGS in a W x H session; when it
# exits the pane stamps the time in $TMP/memtop-end.ns (date +%s%N), prints
# "memtop-exit=N" and the terminal modes (stty -a).
# TPRE, when set, is a shell line run first ("ulimit -v 100000").
tstart() {
	w=$1; h=$2; shift 2
	envs=
	while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
	shift
	tstop
	TSERVERS=$((TSERVERS + 1)) # a fresh server each time (a killed one lingers)
	rm -f "$TMP/memtop-end.ns"
	cat >"$TMP/run.sh" <<EOS
${TPRE:-}
env $envs MEMTOP_DATA="$MEMTOP_DATA" XDG_DATA_HOME="$TMP/xdg" "$MEMTOP" $*
rc=\$?
date +%s%N >"$TMP/memtop-end.ns"
echo "memtop-exit=\$rc"
stty -a | tr ';' '\n' | grep -E '(^| )-?(echo|icanon)( |\$)' | tr '\n' ' '
echo
sleep 120
EOS
	tm new-session -d -x "$w" -y "$h" -s t "sh $TMP/run.sh"
}
tcap() { tm capture-pane -p -t t; }
tkeys() { tm send-keys -t t "$@"; }
# twait REGEX [SECONDS]: wait until the screen matches (grep -E); 1 on timeout
twait() {
	n=$(( ${2:-10} * 10 ))
	while [ "$n" -gt 0 ]; do
		if tcap 2>/dev/null | grep -Eq -- "$1"; then return 0; fi
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
# wok DESC REGEX [SECONDS]: a test that the screen comes to match REGEX
wok() {
	if twait "$2" "${3:-10}"; then pass "$1"; else fail "$1" "want /$2/" "screen:" "$(tcap)"; fi
}
# tresize W H FILE: resize the window to WxH and capture the screen into
# FILE once memtop has drawn it at that size: not tmux's copy of the old
# screen (the capture differs from the one before the resize; a slow build,
# ASan's, redraws after more than 0.5 s), then settled. A screen that a
# resize leaves the same (a blank one) is taken after 5 s.
tresize() {
	tcap >"$3.before"
	tm resize-window -t t -x "$1" -y "$2"
	i=0
	while [ $i -lt 50 ]; do
		sleep 0.1
		tcap >"$3"
		cmp -s "$3" "$3.before" || break
		i=$((i + 1))
	done
	sleep 0.3
	tcap >"$3"
	rm -f "$3.before"
}
# the pid of memtop in the pane (the child of the pane's shell)
tpid() {
	sh_pid=$(tm display-message -p -t t '#{pane_pid}')
	for p in /proc/[0-9]*; do
		[ "$(awk '{print $4}' "$p/stat" 2>/dev/null)" = "$sh_pid" ] || continue
		[ "$(cat "$p/comm" 2>/dev/null)" = memtop ] && { echo "${p#/proc/}"; return 0; }
	done
	return 1
}
# ---- whole words at a screen's size ------------------------------------
# TUI_WORDS, an awk function: words(s, L), s's words, each letters (L, a
# bracket expression's inside, to the C locale's awk: A-Za-z, or
# A-Za-z\200-\377 for Cyrillic too, the two-byte UTF-8 sequences led by
# \320 and \321) and digits; every other character (a glyph, a dash, «)
# separates them
TUI_WORDS='function words(s, L) { gsub(/[\302-\317\322-\377][\200-\277]*/, " ", s)
	gsub("[^" L "0-9]+", " ", s); return s }'
# cut_words NARROW WIDE LETTERS [SKIP]: the words of NARROW (of LETTERS, as
# TUI_WORDS reads them) that are cut: not a word of the WIDE screen, or the
# start of a word of $TMP/known (the words the program prints whole, one a
# line; with its plural in s) without being one itself. Words matching the
# regex SKIP are not words (glyphs drawn side by side). One line a word:
# "line N: WORD".
cut_words() {
	LC_ALL=C awk -v known="$TMP/known" -v L="$3" -v skip="${4:-^$}" "$TUI_WORDS"'
	BEGIN { while ((getline w < known) > 0) { k[w] = 1; k[w "s"] = 1; for (i = 1; i < length(w); i++) pre[substr(w, 1, i)] = 1 } }
	NR == FNR { n = split(words($0, L), a, " ")
		for (i = 1; i <= n; i++) wide[a[i]] = 1; next }
	{ n = split(words($0, L), a, " ")
	  for (i = 1; i <= n; i++) {
		w = a[i]
		if (w !~ "[" L "]" || (w in k) || w ~ skip) continue
		if (!(w in wide) || ((w in pre) && w ~ "^[" L "]+$"))
			printf "line %d: %s\n", FNR, w
	  } }' "$2" "$1"
}
# tcheck DESC LETTERS [SKIP]: $TMP/narrow has no cut word against $TMP/wide
# (cut_words) and no sentence cut short: no ellipsis (where a sentence
# cannot fit, the screen says a shorter one)
tcheck() {
	cut=$(cut_words "$TMP/narrow" "$TMP/wide" "$2" "${3:-}"; grep -n '…' "$TMP/narrow" | sed 's/^/cut short: line /')
	if [ -z "$cut" ]; then
		pass "$1"
	else
		fail "$1" "$(printf '%s\n' "$cut" "screen:" | sed '2,$s/^/# /')" \
			"$(sed 's/^/# /' "$TMP/narrow")"
	fi
}
# twhole DESC W H LETTERS [SKIP]: the screen now, at W x H, as tcheck says
# (the wide screen by resizing the same session to 250 columns and back)
twhole() {
	sleep 0.3
	tcap >"$TMP/narrow"
	tresize 250 "$3" "$TMP/wide"
	tresize "$2" "$3" "$TMP/back"
	tcheck "$1" "$4" "${5:-}"
}
