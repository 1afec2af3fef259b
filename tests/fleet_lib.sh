# tests/fleet_lib.sh: made-up results for the fleet tests, one JSON line
# each, their figures set by the arguments (never this machine's): a clean
# staircase for the latency curve and the mountain, so that the levels are
# where the arguments put them. Sourced by tests/cli_fleet.sh and
# tests/cli_report.sh.

# fleet_hdr CPU NCPU LOAD HOST: a run header's fields (quiet unless LOAD is
# high), with $FLEET_COND as its conditions and $FLEET_ID as its machine id
# when set
fleet_hdr() {
	printf '"hardware":"%s (x86_64, Linux), memtop test","cpu":"%s","host":"%s",' "$1" "$1" "$4"
	[ -z "${FLEET_ID:-}" ] || printf '"machine_id":"%s","machine_id_from":"machine-id, MAC of eth0",' "$FLEET_ID"
	printf '"memtop_version":"0.0","date":"2026-01-01 00:00","kernel":"x86_64 Linux","build":"gcc -O2",'
	printf '"memory_bytes":%s,"ghz":3.0,' "${FLEET_MEM:-17179869184}"
	printf '"clock":{"counter":"tsc","tick_ghz":3.0,"core_ghz":3.0},'
	printf '"diagnostics":{"optimized":true,"build":"gcc -O2","load_before":%s,"load_after":%s,' "$3" "$3"
	printf '"running_before":1,"running_after":1,"steal_pct":0,"ncpu":%s,"cpu_pinned":1,' "$2"
	printf '"cpu_first":1,"cpu_last":1,"cpu_moved":false,"heterogeneous":false,'
	printf '"heterogeneous_text":"","thp":"madvise"}'
	[ -z "${FLEET_COND:-}" ] || printf ',"conditions":%s' "$FLEET_COND"
}

# fleet_cond DIMMS: a conditions object (set FLEET_COND to it before a
# fleet_* call) of a made-up 2-socket server with DIMMS 16 GB DDR5 DIMMs on
# as many channels, the rest alike on every machine
fleet_cond() {
	printf '{"packages":2,"nodes":2,"dimm_count":%s,"dimm_bytes":%s,"dimm_channels":%s,' \
		"$1" "$(($1 * 17179869184))" "$1"
	printf '"snc":"1 node a package (no SNC, NPS1)","microcode":"0x2b000571",'
	printf '"bios":"Test BIOS 1.0 01/01/2026","board":"Test X1","product":"Test R1",'
	printf '"governor":"performance","freq":"max 3.80 GHz, min 0.80 GHz","boost":"on",'
	printf '"smt":"on","hypervisor":"none","mitigations":"8 mitigated, 0 vulnerable, 12 not affected",'
	printf '"numa_balancing":"off","thp":"madvise","thp_defrag":"madvise",'
	printf '"dimms":"%s DIMMs, %s.0 GB, DDR5, %s channels","kernel":"6.1.0","compiler":"gcc 12.2.0"}' \
		"$1" "$(($1 * 16))" "$1"
}

# What both curves are made of (awk): the staircase's four levels, L1 to
# 32K, L2 to 1M, L3 to 16M, then memory; a comma-separated list grown by one.
FLEET_AWK='function level(z, l1, l2, l3, mem) {
	return z <= 32768 ? l1 : z <= 1048576 ? l2 : z <= 16777216 ? l3 : mem
}
function join(list, x) { return list (list == "" ? "" : ",") x }
'

# fleet_latency CPU NCPU LOAD HOST MEM_NS: a latency run, random chase over
# 4K..256M: 1 ns to 32K, 4 ns to 1M, 12 ns to 16M, then MEM_NS
fleet_latency() {
	printf '{"experiment":"latency",'
	fleet_hdr "$1" "$2" "$3" "$4"
	awk -v mem="$5" "$FLEET_AWK"'BEGIN {
		for (z = 4096; z <= 268435456; z *= 2) {
			s = join(s, z);
			v = join(v, level(z, 1, 4, 12, mem));
		}
		printf ",\"strides\":[],\"ns\":[],\"sizes\":[%s],\"hugepages\":\"off\",", s;
		printf "\"random\":{\"stride\":0,\"sizes\":[%s],\"ns\":[%s]}}\n", s, v;
	}'
}

# fleet_mountain CPU NCPU LOAD HOST DRAM_MBS: a mountain over 16K..256M and
# strides 1..8: 40000 MB/s in L1 (32K), 20000 in L2 (1M), 10000 in L3
# (16M), DRAM_MBS beyond; a stride of s words reads 1/s of what it fetches
# from L3 and memory (s^0.3 from L2)
fleet_mountain() {
	printf '{'
	fleet_hdr "$1" "$2" "$3" "$4"
	awk -v dram="$5" "$FLEET_AWK"'BEGIN {
		for (z = 16384; z <= 268435456; z *= 2) {
			b = level(z, 40000, 20000, 10000, dram);
			k = level(z, 0, 0.3, 1, 1);
			row = "";
			for (st = 1; st <= 8; st++)
				row = join(row, sprintf("%.0f", b / st ^ k));
			s = join(s, z);
			t = join(t, "[" row "]");
		}
		printf ",\"sizes\":[%s],\"strides\":[1,2,3,4,5,6,7,8],\"throughput\":[%s]}\n", s, t;
	}'
}
