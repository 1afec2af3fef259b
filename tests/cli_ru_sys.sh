#!/bin/sh
# The machine, the plans, the job's limits, info's table and the CPU lists'
# errors in Russian (ru_RU.UTF-8 built by tests/locale.sh into the build's
# tests/locale, LOCPATH): exact lines on recorded machines (the hwloc XMLs
# of tests/data, a tests/topo_tree.sh tree, that tree with the cgroup files
# of tests/data/cgroup/v1-slurm), the three plural forms (1 корпус, 2
# корпуса, 6 ядер), the decimal comma in a figure (16,0 ГБ, 1,5 ЦП), a bad
# --cpus list as one Russian line with exit 2; and what machines read still
# English under ru_RU (the summaries the JSON keeps). Nothing of this
# machine is assumed: every figure comes from a recorded file.
. "$TESTLIB"
N=27
plan $N
D=$TESTDATA

ru_or_skip $N "ru_RU.UTF-8"

# ---- the plan's header on recorded machines ---------------------------------------
out=$(RU run latency --plan --topology "$D/topo-hybrid.xml" 2>&1)
has "hybrid: the plan's first line" "$out" "# план прогона latency: $D/topo-hybrid.xml (XML hwloc)"
has "... the machine: 1 корпус, 1 группа L3 из 6 ядер, 2 ядра, 4 ЦП" "$out" \
	"# 1 корпус, 1 узел NUMA, 1 группа L3 из 6 ядер (12 МБ), 6 ядер, 8 ЦП; типы ядер: P (2 ядра, 4 ЦП), E (4 ядра, 4 ЦП)"
has "... the job not known, why translated" "$out" "# задание: неизвестно (XML hwloc не хранит cgroup)"
has "... the worker and the end" "$(printf '%s\n' "$out" | sed -n '4p;$p' | tr '\n' '|')" \
	"# рабочий поток: ЦП 3|# ничего не измерено (--plan)|"

out=$(RU run bandwidth --plan --topology "$D/topo-qemu-A.xml" 2>&1)
has "qemu-A: 2 корпуса, 3 узла, 2 группы L3 по 2 ядра (по 16 МБ), a VM" "$out" \
	"# 2 корпуса, 3 узла NUMA, 2 группы L3 по 2 ядра (по 16 МБ), 4 ядра, 8 ЦП; ядра одного типа; ВМ (QEMU (TCG))"
is "... its threads: 1 поток, 2 потока, 4 потока, 8 потоков" \
	"$(printf '%s\n' "$out" | sed -n 's/^#  *\([0-9]* [^ ]*\) на ЦП .*/\1/p' | tr '\n' ',')" \
	"1 поток,2 потока,4 потока,8 потоков,"

sh "$D/../topo_tree.sh" 2s-smt "$TMP/2s" || exit 1
out=$(RU run numa --plan --sysfs-root "$TMP/2s" 2>&1)
has "2s-smt tree: 2 корпуса, 2 узла NUMA, 8 ядер, 16 ЦП" "$out" \
	"# 2 корпуса, 2 узла NUMA, 2 группы L3 по 4 ядра (по 16 МБ), 8 ядер, 16 ЦП; ядра одного типа"
has "... where it comes from" "$out" "# план прогона numa: $TMP/2s (записанное дерево /sys)"
has "... a node's memory with a decimal comma" "$out" "#   узел 1: 16,0 ГБ, ЦП 4-7,12-15"
has "... the job not known in a tree without cgroup files" "$out" \
	"# задание: неизвестно (в записанном дереве нет proc/self/cgroup)"

# ---- a job's limits (Slurm's v1 cgroup files on the recorded tree) -----------------
mkdir -p "$TMP/job" && cp -R "$TMP/2s/." "$TMP/job/" && cp -R "$D/cgroup/v1-slurm/." "$TMP/job/"
out=$(RU run bandwidth --plan --sysfs-root "$TMP/job" --json "$TMP/bw.json" 2>&1)
has "a job's limits line in Russian (1,5 ЦП, the sizes in МБ and ГБ)" "$out" \
	"# задание: память cgroup 300 МБ, мягкий предел 256 МБ, квота ЦП 1,5 ЦП, cpuset 2-3, hugetlb 1 ГБ страницами по 2 МБ"
is "... its JSON keeps the English summary" "$("$JSONQ" "$TMP/bw.json" machine.job.summary machine.source)" \
	"cgroup memory 300M, soft limit 256M, cpu quota 1.5 CPUs, cpuset 2-3, hugetlb 2M pages 1G
$TMP/job (a recorded /sys tree)"
out=$(RU topo --sysfs-root "$TMP/job" 2>&1)
has "... topo's limits: the quota with its file" "$out" \
	"  квота ЦП        1,5 ЦП (cpu.cfs_quota_us of /slurm_localhost/uid_0/job_7: 150000 мкс из каждых 100000)"
has "... and the memory, padded in columns" "$out" \
	"  мягкий предел   256 МБ (memory.soft_limit_in_bytes of /slurm_localhost/uid_0/job_7/step_0)"

# ---- info's table -------------------------------------------------------------------
out=$(RU info --from "$D/info-m4max.json" 2>&1)
has "info: the table's heads in Russian, in their columns" "$out" \
	"  кэш      ур. тип            размер  ряды линия  наборы  ядра         общие ЦП"
has "... a row: the size in МБ, aligned by columns" "$out" \
	"  L2         2 unified         16 МБ     -   128       -  performance  6 CPUs"
# info-m4max holds no fraction: no figure of the table is written with a '.'
lines "... no decimal point in the table's figures" "$out" '^  L[0-9].* [0-9]+\.[0-9]+ ' 0

# the sentences info keeps in English (a result file keeps them: a source's
# why, a doubt's reason) read in Russian, the file's English left as it is
out=$(RU info --from "$D/latency-xeon-vm-l3-16m.json" 2>&1)
has "info of a VM's result: the source that gave nothing, why in Russian" "$out" \
	"  sysctl   ничего: только macOS"
has "... the doubt's reason in Russian (the sentence with a '; ' inside it whole)" "$out" \
	"  L3 unified 480 МБ (sysfs, lscpu, sysconf, cpuid): ВМ: другие гости хоста делят этот кэш; сколько достаётся этому гостю, измеряет memtop run latency"
has "... under C, the file's own English" "$(C info --from "$D/latency-xeon-vm-l3-16m.json" 2>&1)" \
	"  L3 unified 480M (sysfs, lscpu, sysconf, cpuid): a VM: the host's other guests share this cache; what this guest gets is what memtop run latency measures"
# a why with a path or a figure in it: its form's Russian, filled with them
sed '$d' "$D/info-m4max.json" >"$TMP/tried.json"
printf '%s\n' ',"tried":{"sysfs":"no cache directory under /x/sys/cpu/cpu0/cache",' \
	'"lscpu":"timed out after 2000 ms","sysconf":"killed by signal 9"}}' >>"$TMP/tried.json"
out=$(RU info --from "$TMP/tried.json" 2>&1)
has "... a why holding a path: its form in Russian, the path as it was" "$out" \
	"  sysfs    ничего: нет каталога кэшей в /x/sys/cpu/cpu0/cache"
has "... a why holding a figure" "$out" "  lscpu    ничего: не ответил за 2000 мс"
has "... and another" "$out" "  sysconf  ничего: убит сигналом 9"

# ---- a bad --cpus list --------------------------------------------------------------
RU run cores --cpus 0-3x --plan --topology "$D/topo-hybrid.xml" >"$TMP/o" 2>"$TMP/e"
is "a bad --cpus list: exit 2, one line, nothing on stdout" "$?:$(wc -l <"$TMP/e" | tr -d ' '):$(wc -c <"$TMP/o" | tr -d ' ')" "2:1:0"
like "... the fault in Russian" "$(cat "$TMP/e")" \
	'^memtop: run cores: --cpus: .*«0-3x» — не ЦП, не диапазон вроде 0-3 и не домен вроде S0'
RU run bandwidth --cpus N0:9 --plan --topology "$D/topo-hybrid.xml" >"$TMP/o" 2>"$TMP/e"
like "... a domain's index past its CPUs: exit 2, доступно 8 ЦП" "$?: $(cat "$TMP/e")" \
	'^2: memtop: run bandwidth: --cpus: .*N0:9: узел NUMA 0 — этому процессу доступно 8 ЦП \(индексы 0-7\)'

# ---- English stays English ------------------------------------------------------------
has "under C the machine's line is the English one" \
	"$(C run latency --plan --topology "$D/topo-hybrid.xml" 2>&1)" \
	"# 1 package, 1 NUMA node, 1 L3 group of 6 cores (12 MB), 6 cores, 8 CPUs; core kinds: P (2 cores, 4 CPUs), E (4 cores, 4 CPUs)"
