#!/bin/sh
# A lab of machines over SSH, as README's "A lab of machines" runs it:
# pdsh -R ssh, clush and GNU parallel --sshlogin, and the Ansible playbook
# contrib/ansible/memtop.yml, against a throwaway sshd on 127.0.0.1 (a high
# port, its own host key and authorized key made here, three host aliases
# in an ssh config of this test's own). Skipped with its reason where sshd
# cannot start; every client bounded in time; sshd killed at the end.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
here=$(cd "$(dirname "$0")/.." && pwd)
N=13
plan $N

skip_all() {
	i=0
	while [ $i -lt $N ]; do
		skip "a lab over SSH ($((i + 1)))" "$1"
		i=$((i + 1))
	done
	exit 0
}
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$SSHD" ] || skip_all "no sshd (apt-get install openssh-server)"
command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1 ||
	skip_all "no ssh client (apt-get install openssh-client)"
[ -n "${TEST_RUNNER:-}" ] && skip_all "under $TEST_RUNNER (the lab runs the native memtop)"

S=$TMP/ssh
mkdir -p "$S" && chmod 700 "$S"
ssh-keygen -q -t ed25519 -N '' -f "$S/host_key" -C memtop-test-host >/dev/null 2>&1 &&
	ssh-keygen -q -t ed25519 -N '' -f "$S/user_key" -C memtop-test-user >/dev/null 2>&1 ||
	skip_all "ssh-keygen failed"
cp "$S/user_key.pub" "$S/authorized_keys"
chmod 600 "$S/authorized_keys"
user=$(id -un)

# sshd as root needs /run/sshd: in a mount namespace of its own, a private
# /run holds it, so that nothing of this machine's is touched
sshd_start() {
	cat >"$S/sshd_config" <<CFG
Port $1
ListenAddress 127.0.0.1
HostKey $S/host_key
AuthorizedKeysFile $S/authorized_keys
PidFile $S/sshd.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowUsers $user
Subsystem sftp internal-sftp
# The account's shell runs each command; Debian's bash sources ~/.bashrc
# when sshd starts it at SHLVL 1 (SSH_SOURCE_BASHRC), and a .bashrc that
# waits (pyenv's rehash on its lock: 60 s) stalled every command. At SHLVL
# 2 bash skips it: the lab's commands run as a job's would, on their own.
SetEnv SHLVL=2
CFG
	rm -f "$S/sshd.pid" "$S/sshd.log"
	if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
		unshare -m sh -c "mount -t tmpfs -o size=1m memtop-test /run && mkdir -m 755 \
			/run/sshd && exec $SSHD -D -e -f $S/sshd_config" >"$S/sshd.log" 2>&1 &
	else
		"$SSHD" -D -e -f "$S/sshd_config" >"$S/sshd.log" 2>&1 &
	fi
	t=0
	while [ $t -lt 50 ]; do
		grep -q "Server listening" "$S/sshd.log" 2>/dev/null && return 0
		kill -0 $! 2>/dev/null || return 1
		sleep 0.1
		t=$((t + 1))
	done
	return 1
}
sshd_stop() {
	[ -f "$S/sshd.pid" ] && kill "$(cat "$S/sshd.pid")" 2>/dev/null
	rm -rf "$TMP"
}
trap sshd_stop EXIT
port=""
for try in 1 2 3; do
	p=$((20000 + ($$ * 7 + try * 4099) % 40000))
	if sshd_start $p; then
		port=$p
		break
	fi
done
[ -n "$port" ] || skip_all "sshd cannot start here: $(grep -v '^$' "$S/sshd.log" | tail -n 1)"

cat >"$S/ssh_config" <<CFG
Host lab1 lab2 lab3
	HostName 127.0.0.1
	Port $port
	User $user
	IdentityFile $S/user_key
	IdentitiesOnly yes
	UserKnownHostsFile $S/known_hosts
	StrictHostKeyChecking no
	BatchMode yes
	ConnectTimeout 5
	LogLevel ERROR
CFG
reached=$(for h in lab1 lab2 lab3; do timeout 20 ssh -F "$S/ssh_config" $h echo $h 2>>"$TMP/ssh.err"; done | tr '\n' ' ')
is "ssh reaches the three aliases" "$reached" "lab1 lab2 lab3 "
if [ "$reached" != "lab1 lab2 lab3 " ]; then
	# the rest would wait out each client's timeout (20 minutes): said once
	grep -v '^$' "$TMP/ssh.err" "$S/sshd.log" 2>/dev/null | tail -n 5 | sed 's/^/# /'
	while [ $TAP_N -lt $N ]; do
		fail "a lab over SSH ($((TAP_N + 1))): not run, ssh reached none or some of the aliases"
	done
	exit 0
fi

# pdsh over ssh: one line a host, then compare's verdict on them
run="$MEMTOP run matmul --quick --json - --compact"
if command -v pdsh >/dev/null 2>&1; then
	PDSH_SSH_ARGS_APPEND="-F $S/ssh_config" timeout 120 pdsh -R ssh -f 1 -w 'lab[1-3]' \
		"$run" >"$TMP/pdsh.jsonl" 2>"$TMP/pdsh.err"
	is "pdsh -R ssh: one JSON line a host behind its name" \
		"$(cut -c1-7 "$TMP/pdsh.jsonl" | LC_ALL=C sort | tr '\n' ' ')" \
		'lab1: { lab2: { lab3: { '
	$MEMTOP compare --fleet "$TMP/pdsh.jsonl" >"$TMP/pdsh.out" 2>&1
	like "compare --fleet on pdsh's lines: three machines, one group" \
		"$(cat "$TMP/pdsh.out")" "^3 machines in 1 group .*
A  3 machines: "
else
	skip "pdsh -R ssh: one JSON line a host" "pdsh is not installed"
	skip "compare --fleet on pdsh's lines" "pdsh is not installed"
fi
if command -v clush >/dev/null 2>&1; then
	timeout 120 clush -f 1 -o "-F $S/ssh_config" -w 'lab[1-3]' "$run" \
		>"$TMP/clush.jsonl" 2>/dev/null
	is "clush over ssh: one JSON line a host behind its name" \
		"$(cut -c1-7 "$TMP/clush.jsonl" | LC_ALL=C sort | tr '\n' ' ')" \
		'lab1: { lab2: { lab3: { '
else
	skip "clush over ssh: one JSON line a host" "clustershell is not installed"
fi
if command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q GNU; then
	timeout 120 parallel -j1 --tag --nonall --ssh "ssh -F $S/ssh_config" -S lab1,lab2,lab3 \
		"$run" >"$TMP/par.jsonl" 2>/dev/null
	is "parallel --sshlogin --tag: one JSON line a host behind its name" \
		"$(cut -c1-6 "$TMP/par.jsonl" | LC_ALL=C sort | tr '\t\n' '| ')" 'lab1|{ lab2|{ lab3|{ '
	$MEMTOP compare --fleet "$TMP/pdsh.jsonl" "$TMP/clush.jsonl" >"$TMP/two.out" 2>&1
	like "two engines' files of one lab: a second result of a kind for a host is said" \
		"$(cat "$TMP/two.out")" \
		'clush.jsonl: line [123] \((lab[123])\): a second matmul result for machine lab[123] \(its first: .*pdsh.jsonl: line [123] \(lab[123]\)\)$'
else
	skip "parallel --sshlogin --tag: one JSON line a host" "GNU parallel is not installed"
	skip "two engines' files of one lab: a second result is said" "GNU parallel is not installed"
fi

# the Ansible playbook: memtop there, matmul pinned to CPU 0 on each host
# one host at a time, one JSON a host fetched, compared on the controller
if command -v ansible-playbook >/dev/null 2>&1; then
	A=$TMP/ansible
	mkdir -p "$A/home" "$A/results"
	printf '[lab]\nlab1\nlab2\nlab3\n[lab:vars]\nansible_ssh_common_args=-F %s\n' \
		"$S/ssh_config" >"$A/inventory"
	# the python that runs Ansible here (its #! line), not the first on PATH
	# (a pyenv shim runs the account's pyenv on every task)
	py=$(sed -n '1s/^#! *\([^ ]*\).*/\1/p' "$(command -v ansible-playbook)")
	[ -x "$py" ] || py=$(command -v python3)
	printf 'ansible_python_interpreter=%s\n' "$py" >>"$A/inventory"
	printf '[defaults]\n' >"$A/ansible.cfg" # this test's, not the machine's
	# ControlMaster=no: Ansible's default ssh arguments keep a connection
	# open for 60 s after the playbook, a process outliving the test
	HOME=$A/home ANSIBLE_SSH_ARGS='-o ControlMaster=no' ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
	ANSIBLE_REMOTE_TMP=$A/remote-tmp ANSIBLE_LOCAL_TEMP=$A/local-tmp ANSIBLE_CONFIG=$A/ansible.cfg \
		timeout 300 ansible-playbook -i "$A/inventory" "$here/contrib/ansible/memtop.yml" \
		-e "{\"memtop_bin\": \"$MEMTOP\", \"memtop_local\": \"$MEMTOP\",
		     \"memtop_experiments\": [\"matmul\"], \"memtop_cpu\": 0, \"memtop_serial\": 1,
		     \"memtop_results\": \"$A/results\"}" >"$A/log" 2>&1
	is "ansible-playbook contrib/ansible/memtop.yml: exit 0" "$?" 0
	is "one JSON fetched a host, named for it" "$(ls "$A/results" | tr '\n' ' ')" \
		"fleet.json lab1-matmul.json lab2-matmul.json lab3-matmul.json report.html "
	is "each run pinned to the CPU asked" \
		"$(for h in lab1 lab2 lab3; do $JSONQ "$A/results/$h-matmul.json" diagnostics.cpu_pinned; done | tr '\n' ' ')" \
		"0 0 0 "
	is "compare --fleet's grouping: three machines in one group" \
		"$($JSONQ "$A/results/fleet.json" 'machines#' 'groups#' 'machines[0].name' | tr '\n' ' ')" \
		"3 1 lab1 "
	like "the playbook shows compare's verdict" "$(cat "$A/log")" '"3 machines in 1 group '
	# no memtop on the hosts: the portable one shipped, run from a temporary folder
	port=$(sh "$here/build-aux/portable.sh" "$MEMTOP" "$MEMTOP_DATA" lab "$A/port" 2>/dev/null)
	rm -rf "$A/results" && mkdir -p "$A/results"
	HOME=$A/home ANSIBLE_SSH_ARGS='-o ControlMaster=no' ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
	ANSIBLE_REMOTE_TMP=$A/remote-tmp ANSIBLE_LOCAL_TEMP=$A/local-tmp ANSIBLE_CONFIG=$A/ansible.cfg \
		timeout 300 ansible-playbook -i "$A/inventory" "$here/contrib/ansible/memtop.yml" \
		-e "{\"memtop_bin\": \"memtop-not-installed\", \"memtop_portable\": \"$port\",
		     \"memtop_local\": \"$MEMTOP\", \"memtop_experiments\": [\"transpose\"],
		     \"memtop_serial\": 1, \"memtop_results\": \"$A/results\"}" >"$A/log2" 2>&1
	rc=$?
	[ "$rc" = 0 ] || grep -E 'FAILED|fatal|msg' "$A/log2" | head -n 5 | sed 's/^/# /'
	is "the playbook ships the portable memtop where there is none: exit 0" "$rc" 0
	is "... one JSON a host from it" "$(ls "$A/results" | grep -c -- '-transpose.json$')" 3
else
	for d in "exit 0" "one JSON a host" "pinned" "grouping" "verdict" "portable: exit 0" \
		"portable: one JSON a host"; do
		skip "ansible-playbook: $d" "ansible is not installed"
	done
fi
