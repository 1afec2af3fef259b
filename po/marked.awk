# po/marked.awk: the string literals printed for people that are not marked
# for translation, one "FILE:LINE: LITERAL" line each (tests/po_marked.sh).
#
# A literal is judged when the call it is an argument of (the innermost one
# open around it) prints for people: printf, fprintf and vfprintf,
# fputs, puts, mt_warn, mt_fail, mt_hsnprintf, mt_vhsnprintf, mt_hfprintf,
# the curses draws (mvwaddstr, waddstr, mvwprintw, wprintw, addstr,
# printw, mvaddstr, mvprintw) and the TUI's own (tui_put, tui_wrap,
# tui_message, tui_prompt, tui_ask, tui_discard_first, tui_knob_refused).
# It is reported when it holds a phrase (two letters, a blank or a
# punctuation mark, a letter or a %: "no such file", "L1: %s") and is not
# inside _( N_( NN_( C_( MT_NGETTEXT( ngettext( or an option row's macro
# (BATCH_OPT_*, BATCH_HELP_TRIES: po/Makevars extracts them by keyword);
# a literal passed to any other function (strcmp, a formatter of its own)
# is not judged here. Literals side by side ("abc " "def") are one.
# Machine text printed through one of those calls (a file's format, a
# header a program reads, a reason a result keeps in English) says so with
# a comment starting "/* machine text" on the literal's line, on the call's,
# or alone on the line above the call. Comments and preprocessor lines are
# skipped.
BEGIN {
	split("printf fprintf vfprintf fputs puts mt_warn mt_fail mt_hsnprintf mt_vhsnprintf " \
		"mt_hfprintf mvwaddstr waddstr mvwprintw wprintw addstr printw mvaddstr mvprintw " \
		"tui_put tui_wrap tui_message tui_prompt tui_ask tui_discard_first tui_knob_refused",
		w, " ")
	for (k in w) printer[w[k]] = 1
	split("_ N_ NN_ C_ MT_NGETTEXT ngettext BATCH_HELP_TRIES", w, " ")
	for (k in w) marker[w[k]] = 1
}
function flush() {
	if (lit == "") return
	if (lit ~ /[A-Za-z][A-Za-z][ ,:;.!?()-]+[A-Za-z%]/ && !(litcall in marked_call) &&
	    printer[litname] && !(litline in ok) && !(litcallline in ok))
		print FILENAME ":" litline ": " lit
	lit = ""
}
FNR == 1 { incom = 0; depth = 0; ident = ""; lit = ""; inpp = 0; delete ok; delete marked_call }
{
	line = $0
	# preprocessor lines (and their continuations) are skipped
	if (inpp || (!incom && line ~ /^[ \t]*#/)) { inpp = (line ~ /\\$/); next }
	if (line ~ /\/\*[ \t]*machine text/) ok[FNR] = 1
	# a comment alone on its line speaks for the line below
	if (line ~ /^[ \t]*\/\*[ \t]*machine text.*\*\/[ \t]*$/) ok[FNR + 1] = 1
	n = length(line); i = 1
	while (i <= n) {
		c = substr(line, i, 1)
		if (incom) {
			if (c == "*" && substr(line, i + 1, 1) == "/") { incom = 0; i += 2; continue }
			i++; continue
		}
		if (c == "/" && substr(line, i + 1, 1) == "*") { incom = 1; i += 2; continue }
		if (c == "/" && substr(line, i + 1, 1) == "/") break
		if (c == "\"") {
			s = ""; i++
			while (i <= n) {
				d = substr(line, i, 1); i++
				if (d == "\\") { s = s d substr(line, i, 1); i++; continue }
				if (d == "\"") break
				s = s d
			}
			if (lit == "") {
				lit = "\"" s "\""; litline = FNR
				litname = depth ? name[depth] : ""; litcallline = depth ? at[depth] : 0
				litcall = depth ? callid[depth] : ""
			} else
				lit = substr(lit, 1, length(lit) - 1) s "\""
			ident = ""
			continue
		}
		if (c == "'") {
			i++
			while (i <= n) { d = substr(line, i, 1); i++; if (d == "\\") { i++; continue }; if (d == "'") break }
			flush(); ident = ""; continue
		}
		if (c ~ /[A-Za-z0-9_]/) { if (prev_blank) ident = ""; ident = ident c; prev_blank = 0; i++; flush(); continue }
		if (c ~ /[ \t]/) { prev_blank = (ident != ""); i++; continue }
		flush()
		prev_blank = 0
		if (c == "(") {
			depth++; name[depth] = ident; at[depth] = FNR; callid[depth] = FNR ":" i
			# inside a marker, everything below it is marked
			if (marker[ident] || ident ~ /^BATCH_OPT_/ || (depth > 1 && (callid[depth - 1] in marked_call)))
				marked_call[callid[depth]] = 1
		} else if (c == ")") {
			if (depth > 0) depth--
		}
		ident = ""
		i++
	}
}
