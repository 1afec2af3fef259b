#!/bin/sh
# Fleets through the engines people already use: --compact puts a result on
# one line, so that pdsh, clush and GNU parallel --tag collect one line a
# host behind its name. The engines run here with their local "exec"
# modules (no ssh): the prefixes are theirs, not imitations.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
plan 8

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
