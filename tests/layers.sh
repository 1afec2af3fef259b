#!/bin/sh
# layers: src/ is in folders by layer, and a folder includes only itself and
# the folders below it. tui/ may include any of src/ but cmd/ (above it); src/ never includes
# tui/ (but for src/cmd/main.c and src/cmd/commands.c, which start the UI:
# both are linked with libmemtui.a, never into libmemtop.a) nor curses.
#
#   base                              data formats and algorithms: util, jsonio,
#                                     jsonlines, segment, chase
#   os                                the OS and the hardware: platform, arch, clock,
#                                     threads, sysinfo, child, topo, vm, datadir,
#                                     conditions
#   run                               the run framework: job, diag, runhdr, batch
#                                     (the options), batch_run (one run's header,
#                                     job, JSON), batch_opts, result_kind,
#                                     experiment.h
#   info  sim  render                 cache information sources; the simulator;
#                                     SVG, tables and charts compare and plot share
#   machine                           the one machine context; plans (--plan)
#   mountain latency matmul ...       the experiments, a folder each (each defines
#                                     its result kind)
#   numa                              memory by node (runs the latency and bandwidth labs)
#   protocol                          the run's shared steps, once for every
#                                     experiment: options, machine, worker CPU,
#                                     --plan, the run, --each-kind (above machine;
#                                     it includes no experiment: the registry
#                                     hands it one)
#   result                            the registries: experiments and result kinds
#   import  plot                      other tools' files (into the results of
#                                     mountain, latency, cores); pictures (through result)
#   fleet                             many machines: grouping, outliers, the report
#   cmd                               the subcommands
#
# An include of a header in the same folder is written plainly ("job.h");
# one from another folder names it ("run/job.h"). One TAP case per file.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
top=${LAYERS_TOP:-$(cd "$(dirname "$0")/.." && pwd)} # LAYERS_TOP: a planted tree (tests/layers_planted.sh)

# What each folder may include besides itself.
allowed() {
	case $1 in
	base) echo "" ;;
	os) echo "base" ;;
	run) echo "base os" ;;
	info | sim | render) echo "base os run" ;;
	machine) echo "base os run info" ;;
	mountain | latency) echo "base os run info render machine" ;;
	matmul | falseshare | lists | transpose | algae) echo "base os run info sim render machine" ;;
	bandwidth | cores) echo "base os run info render machine" ;;
	numa) echo "base os run info render machine latency bandwidth" ;;
	protocol) echo "base os run info machine" ;;
	result) echo "base os run info sim render machine mountain latency matmul falseshare lists transpose algae bandwidth cores numa protocol" ;;
	import) echo "base os run info render machine mountain latency cores" ;;
	plot) echo "base os run info render machine mountain latency result" ;;
	fleet) echo "base os run render result" ;;
	cmd) echo "*" ;;
	*) echo "?" ;;
	esac
}

files=$(cd "$top" && find src tui -name '*.[ch]' | LC_ALL=C sort)
plan $(printf '%s\n' "$files" | wc -l)
for f in $files; do
	dir=${f%/*}
	layer=${dir#src/}
	bad=""
	ok=$(allowed "$layer")
	[ "$ok" = "?" ] && [ "$dir" != tui ] && bad="folder $dir is not in the layer table"
	# every spelling: "#include", "# include", "  #  include", and <dir/x.h>
	# naming one of memtop's own folders, checked as the quoted form is
	quoted=$(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1/p' "$top/$f")
	angled=$(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<([^>]*\/[^>]*)>.*/\1/p' "$top/$f")
	for a in $angled; do
		[ -d "$top/src/${a%%/*}" ] || [ "${a%%/*}" = tui ] || continue
		quoted="$quoted $a"
	done
	for inc in $quoted; do
		[ "$inc" = config.h ] && continue
		case $inc in
		*/*)
			to=${inc%%/*}
			if [ "$to" = "$layer" ]; then
				bad="$bad $inc: same folder, include it plainly"
			elif [ "$dir" = tui ]; then
				[ -f "$top/src/$inc" ] || bad="$bad $inc: no such header in src/"
				[ "$to" = cmd ] && bad="$bad $inc: cmd is above tui (it starts the UI)"
			elif [ "$to" = tui ]; then
				case $f in
				src/cmd/main.c | src/cmd/commands.c) ;; # memtop and memtop view start the UI
				*) bad="$bad $inc: src/ never includes tui/" ;;
				esac
			elif [ "$ok" != "*" ] && ! printf ' %s ' "$ok" | grep -q " $to "; then
				bad="$bad $inc: $layer may include only ${ok:-itself}"
			fi
			[ "$to" = tui ] || [ -f "$top/src/$inc" ] || bad="$bad $inc: no such header"
			;;
		*)
			[ -f "$top/$dir/$inc" ] || bad="$bad $inc: not in $dir/ (name its folder)"
			;;
		esac
	done
	if [ "$dir" != tui ] && grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<n?curses' "$top/$f"; then
		bad="$bad curses outside tui/"
	fi
	if [ -z "$bad" ]; then pass "$f keeps to its layer"; else fail "$f:$bad"; fi
done
