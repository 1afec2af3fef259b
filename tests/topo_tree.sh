#!/bin/sh
# tests/topo_tree.sh SHAPE DIR: write a synthetic Linux /sys tree (and the
# proc/cpuinfo beside it) of one machine shape into DIR, in the layout
# hwloc-gather-topology records and `memtop topo --sysfs-root DIR` reads.
# Only the files hwloc's linux backend reads for packages, cores, threads,
# caches, NUMA nodes and core kinds are written. Shapes:
#   small     1 package, 2 cores, no SMT, private L2, one 4 MB L3
#   2s-smt    2 packages x 4 cores x 2 threads (CPU c+8 is c's sibling),
#             one 16 MB L3 and one NUMA node per package
#   epyc      1 package, 2 NUMA nodes, 4 L3 groups (16 MB) of 4 cores x 2
#             threads: node 0 holds L3 groups 0 and 1 (CPU c+16 is c's sibling)
#   hybrid    Intel hybrid laptop: 2 P cores with SMT (CPUs 0-3, 1280 KB L2
#             each) and 4 E cores sharing one 2 MB L2 (CPUs 4-7), one 12 MB
#             L3; cpufreq base_frequency and cpu_core/cpu_atom tell them apart
#   biglittle Arm: 4 LITTLE (CPUs 0-3, cpu_capacity 446) and 4 big (4-7,
#             1024) cores, an L2 per cluster, one 2 MB L3
#   armparts  Arm like NVIDIA's GB10: two CPU parts (MIDR 0xd87 on CPUs 0-1
#             and 4-5, 0xd85 on 2-3 and 6-7) whose cpu_capacity differs core
#             to core (718, 731 and 997, 1024): four capacities, two kinds
#   garbled   an online list that is not a CPU list
#   holey     the online list names CPUs 0-3, only cpu0 and cpu1 exist
set -eu
shape=$1
dir=$2
cpu=$dir/sys/devices/system/cpu
node=$dir/sys/devices/system/node

# mask N LIST: the hex mask of the CPUs in LIST (space-separated) for a
# machine of N CPUs, in 32-bit words separated by commas, as sysfs prints it
mask() {
	n=$1
	shift
	words=$(((n + 31) / 32))
	out=""
	w=$((words - 1))
	while [ $w -ge 0 ]; do
		v=0
		for c in "$@"; do
			[ $((c / 32)) -eq $w ] && v=$((v | (1 << (c % 32))))
		done
		out="$out$(printf '%08x' $v)"
		[ $w -gt 0 ] && out="$out,"
		w=$((w - 1))
	done
	echo "$out"
}

# seq_list A B: A..B space-separated
seq_list() { seq "$1" "$2" | tr '\n' ' '; }

# put FILE TEXT
put() {
	[ -d "${1%/*}" ] || mkdir -p "${1%/*}"
	printf '%s\n' "$2" >"$1"
}

# topology N CPU PACKAGE CORE_ID THREADS DIE_CPUS... : cpuC/topology files;
# THREADS and PACKAGE_CPUS are space-separated lists passed as single words
topology() {
	n=$1 c=$2 pkg=$3 core=$4 threads=$5 pkgcpus=$6
	t=$cpu/cpu$c/topology
	# shellcheck disable=SC2086
	put "$t/thread_siblings" "$(mask "$n" $threads)"
	# shellcheck disable=SC2086
	put "$t/core_cpus" "$(mask "$n" $threads)"
	# shellcheck disable=SC2086
	put "$t/core_siblings" "$(mask "$n" $pkgcpus)"
	# shellcheck disable=SC2086
	put "$t/package_cpus" "$(mask "$n" $pkgcpus)"
	put "$t/physical_package_id" "$pkg"
	put "$t/core_id" "$core"
	put "$t/die_id" 0
	# shellcheck disable=SC2086
	put "$t/die_cpus" "$(mask "$n" $pkgcpus)"
}

# cache N CPU INDEX LEVEL TYPE SIZE SHARED: cpuC/cache/indexI
cache() {
	n=$1 c=$2 i=$3 level=$4 type=$5 size=$6 shared=$7
	d=$cpu/cpu$c/cache/index$i
	put "$d/level" "$level"
	put "$d/type" "$type"
	put "$d/size" "$size"
	# shellcheck disable=SC2086
	put "$d/shared_cpu_map" "$(mask "$n" $shared)"
	put "$d/coherency_line_size" 64
	put "$d/ways_of_associativity" 8
	put "$d/physical_line_partition" 1
}

# caches N CPU L1D L1I L1_CPUS L2 L2_CPUS L3 L3_CPUS: cpuC's four caches,
# index0..3: the L1 data and instruction caches (sizes L1D and L1I) shared
# by L1_CPUS, the L2 by L2_CPUS, the L3 by L3_CPUS (each list one word)
caches() {
	cache "$1" "$2" 0 1 Data "$3" "$5"
	cache "$1" "$2" 1 1 Instruction "$4" "$5"
	cache "$1" "$2" 2 2 Unified "$6" "$7"
	cache "$1" "$2" 3 3 Unified "$8" "$9"
}

# online N: the machine's CPUs 0..N-1, all online
online() {
	put "$cpu/online" "0-$(($1 - 1))"
	put "$cpu/possible" "0-$(($1 - 1))"
}

# numa N NODE MEMKB CPUS...: nodeI with its cpumap and meminfo
numa() {
	n=$1 i=$2 kb=$3
	shift 3
	put "$node/node$i/cpumap" "$(mask "$n" "$@")"
	put "$node/node$i/meminfo" "Node $i MemTotal:       $kb kB"
}

# nofile ARCH: hwloc's proc/hwloc-nofile-info (what uname says on the machine)
nofile() {
	mkdir -p "$dir/proc"
	printf 'OSName: Linux\nArchitecture: %s\n' "$1" >"$dir/proc/hwloc-nofile-info"
}

# cpuinfo_x86 N [VENDOR FAMILY MODEL NAME]: proc/cpuinfo of N x86 CPUs
# (by default Intel's family 6 model 186, "Synthetic Intel")
cpuinfo_x86() {
	nofile x86_64
	: >"$dir/proc/cpuinfo"
	for c in $(seq_list 0 $(($1 - 1))); do
		printf 'processor\t: %s\nvendor_id\t: %s\ncpu family\t: %s\nmodel\t\t: %s\nmodel name\t: %s\n\n' \
			"$c" "${2:-GenuineIntel}" "${3:-6}" "${4:-186}" "${5:-Synthetic Intel}" >>"$dir/proc/cpuinfo"
	done
}

cpuinfo_arm() {
	nofile aarch64
	: >"$dir/proc/cpuinfo"
	for c in $(seq_list 0 $(($1 - 1))); do
		printf 'processor\t: %s\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd05\n\n' "$c" >>"$dir/proc/cpuinfo"
	done
}

small() {
	online 2
	for c in 0 1; do
		topology 2 $c 0 $c "$c" "0 1"
		caches 2 $c 32K 32K "$c" 512K "$c" 4096K "0 1"
	done
	numa 2 0 8388608 0 1
	cpuinfo_x86 2
}

two_sockets() {
	online 16
	for c in $(seq_list 0 15); do
		core=$((c % 8))
		pkg=$((core / 4))
		first=$((pkg * 4))
		pkgcpus="$(seq_list $first $((first + 3)))$(seq_list $((first + 8)) $((first + 11)))"
		topology 16 $c $pkg $((core % 4)) "$core $((core + 8))" "$pkgcpus"
		caches 16 $c 48K 32K "$core $((core + 8))" 1024K "$core $((core + 8))" 16384K "$pkgcpus"
	done
	numa 16 0 16777216 $(seq_list 0 3) $(seq_list 8 11)
	numa 16 1 16777216 $(seq_list 4 7) $(seq_list 12 15)
	put "$node/node0/distance" "10 21"
	put "$node/node1/distance" "21 10"
	cpuinfo_x86 16
}

epyc() {
	online 32
	for c in $(seq_list 0 31); do
		core=$((c % 16))
		ccx=$((core / 4))
		first=$((ccx * 4))
		l3cpus="$(seq_list $first $((first + 3)))$(seq_list $((first + 16)) $((first + 19)))"
		topology 32 $c 0 $core "$core $((core + 16))" "$(seq_list 0 31)"
		caches 32 $c 32K 32K "$core $((core + 16))" 512K "$core $((core + 16))" 16384K "$l3cpus"
	done
	numa 32 0 33554432 $(seq_list 0 7) $(seq_list 16 23)
	numa 32 1 33554432 $(seq_list 8 15) $(seq_list 24 31)
	put "$node/node0/distance" "10 12"
	put "$node/node1/distance" "12 10"
	cpuinfo_x86 32 AuthenticAMD 23 49 "Synthetic EPYC"
}

hybrid() {
	online 8
	for c in 0 1 2 3; do
		core=$((c / 2))
		sib="$((core * 2)) $((core * 2 + 1))"
		topology 8 $c 0 $((core * 4)) "$sib" "$(seq_list 0 7)"
		caches 8 $c 48K 32K "$sib" 1280K "$sib" 12288K "$(seq_list 0 7)"
		put "$cpu/cpu$c/cpufreq/base_frequency" 1900000
		put "$cpu/cpu$c/cpufreq/cpuinfo_max_freq" 5000000
	done
	for c in 4 5 6 7; do
		topology 8 $c 0 $((c + 4)) "$c" "$(seq_list 0 7)"
		caches 8 $c 32K 64K "$c" 2048K "4 5 6 7" 12288K "$(seq_list 0 7)"
		put "$cpu/cpu$c/cpufreq/base_frequency" 1400000
		put "$cpu/cpu$c/cpufreq/cpuinfo_max_freq" 3900000
	done
	put "$dir/sys/devices/cpu_core/cpus" "0-3"
	put "$dir/sys/devices/cpu_atom/cpus" "4-7"
	numa 8 0 16777216 $(seq_list 0 7)
	cpuinfo_x86 8
}

biglittle() {
	online 8
	for c in $(seq_list 0 7); do
		cl=$((c / 4))
		clcpus=$(seq_list $((cl * 4)) $((cl * 4 + 3)))
		topology 8 $c 0 $c "$c" "$(seq_list 0 7)"
		put "$cpu/cpu$c/topology/cluster_cpus" "$(mask 8 $clcpus)"
		put "$cpu/cpu$c/topology/cluster_id" $cl
		if [ $cl = 0 ]; then
			caches 8 $c 32K 32K "$c" 128K "$c" 2048K "$(seq_list 0 7)"
			put "$cpu/cpu$c/cpu_capacity" 446
			put "$cpu/cpu$c/cpufreq/cpuinfo_max_freq" 1800000
		else
			caches 8 $c 64K 64K "$c" 512K "$c" 2048K "$(seq_list 0 7)"
			put "$cpu/cpu$c/cpu_capacity" 1024
			put "$cpu/cpu$c/cpufreq/cpuinfo_max_freq" 2400000
		fi
	done
	numa 8 0 8388608 $(seq_list 0 7)
	cpuinfo_arm 8
}

armparts() {
	online 8
	for c in $(seq_list 0 7); do
		half=$((c / 4))
		big=$(((c / 2) % 2))
		topology 8 $c 0 $c "$c" "$(seq_list 0 7)"
		if [ $big = 1 ]; then
			l2=2048K
			put "$cpu/cpu$c/regs/identification/midr_el1" 0x00000000410fd851
			put "$cpu/cpu$c/cpu_capacity" $((997 + 27 * half))
		else
			l2=512K
			put "$cpu/cpu$c/regs/identification/midr_el1" 0x00000000410fd871
			put "$cpu/cpu$c/cpu_capacity" $((718 + 13 * half))
		fi
		caches 8 $c 64K 64K "$c" $l2 "$c" 8192K "$(seq_list $((half * 4)) $((half * 4 + 3)))"
	done
	numa 8 0 8388608 $(seq_list 0 7)
	cpuinfo_arm 8
}

mkdir -p "$dir"
case $shape in
small) small ;;
2s-smt) two_sockets ;;
epyc) epyc ;;
hybrid) hybrid ;;
biglittle) biglittle ;;
armparts) armparts ;;
garbled)
	small
	put "$cpu/online" "0-x"
	;;
holey)
	small
	put "$cpu/online" "0-3"
	;;
*)
	echo "topo_tree.sh: unknown shape '$shape'" >&2
	exit 2
	;;
esac
