#!/bin/sh
# po/potfiles.sh [TOP]: print po/POTFILES.in for the tree at TOP (default:
# the folder above this script): every source of src/ and tui/ with text
# for people, that is a string literal outside comments holding a phrase
# (a word, a blank or a punctuation mark, another word: "no such file",
# "L1: %s"). A file listed whose phrases are all machine words (JSON keys,
# formats) costs nothing: xgettext finds no _() in it. tests/po_files.sh
# fails when POTFILES.in is not this list, so a new source with text is
# listed: sh po/potfiles.sh > po/POTFILES.in
set -eu
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top"
echo "# The sources with text for people (written by po/potfiles.sh; keep it so)."
# shellcheck disable=SC2046 # the file names are words without blanks
LC_ALL=C awk '
FNR == 1 { incom = 0; listed = 0 }
listed { next }
{
	# the line with its comments blanked (strings and characters kept whole)
	out = ""; n = length($0); i = 1
	while (i <= n) {
		c = substr($0, i, 1)
		if (incom) {
			if (c == "*" && substr($0, i + 1, 1) == "/") { incom = 0; i += 2; continue }
			i++; continue
		}
		if (c == "/" && substr($0, i + 1, 1) == "*") { incom = 1; i += 2; out = out " "; continue }
		if (c == "/" && substr($0, i + 1, 1) == "/") break
		if (c == "\"" || c == "\047") {
			q = c; out = out c; i++
			while (i <= n) {
				d = substr($0, i, 1); out = out d; i++
				if (d == "\\") { out = out substr($0, i, 1); i++; continue }
				if (d == q) break
			}
			continue
		}
		out = out c; i++
	}
	if (out ~ /"([^"\\]|\\.)*[A-Za-z][A-Za-z][ ,:;.!?()-]+[A-Za-z%]([^"\\]|\\.)*"/) {
		print FILENAME; listed = 1
	}
}' $(find src tui -name '*.[ch]' | LC_ALL=C sort)
