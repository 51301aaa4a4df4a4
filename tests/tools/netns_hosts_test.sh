#!/bin/sh
# The mpi backend on "hosts" made of network namespaces (tools/netns_hosts.sh):
# suite 'hosts', opt-in (root, iproute2 and namespaces; skipped, status 77,
# where they are missing).
#   netns_hosts_test.sh NETNS_HOSTS_SH UPCRUN HELLO ACROSS_HOSTS STENCIL TEAMS CONFORMANCE CONFORMANCE_UPCCOLL
#                       NAS_IS NAS_FT UPCCOLL_ON_MPI
# 1. Four ranks on one namespace host, started through Open MPI's launcher
#    agent as on a remote machine.
# 2. Four ranks over two hosts (2 + 2) and three over three (1 + 1 + 1): hello,
#    and tests/mpi/across_hosts.cpp (element access, writers of one page,
#    upc_mem*, locks, atomics, a strict handshake, split-phase barriers,
#    collectives, a declared array), whose reduction bits must be the threads
#    backend's (its parts include bulk copies with unaligned ends and the
#    hosts as nodes); the traffic report names the hosts as nodes and
#    counts bytes between them; the stencil and teams examples check their answers; the
#    collective conformance suites (the UPC and the <upccoll.h> collectives
#    against the sequential model, every algorithm) on two hosts; NAS IS
#    verifies, and NAS FT's checksums have the threads backend's bits;
#    tests/mpi/upccoll_on_mpi.cpp (<upccoll.h> on MPI's non-blocking
#    collectives, the automatic choice across hosts) passes.
# 3. What must stop the job with a message from any host: a thread that
#    throws on the second host (also while the others wait in a collective
#    handed to MPI), a thread that returns from main while the
#    others wait, and (under --check, which runs across hosts too) an
#    argument of upc_all_alloc that is not single-valued.
set -u
netns=$1 UPCRUN=$2 hello=$3 across=$4 stencil=$5 teams=$6 conformance=$7 conformance_upccoll=$8 nas_is=$9 nas_ft=${10}
upccoll_on_mpi=${11}
export UPCRUN
[ "$(id -u)" = 0 ] || { echo "skipped: needs root"; exit 77; }
command -v ip >/dev/null && command -v unshare >/dev/null || { echo "skipped: needs iproute2 and unshare"; exit 77; }
ip netns add upcemu-probe 2>/dev/null || { echo "skipped: cannot make network namespaces here"; exit 77; }
ip netns del upcemu-probe
"$netns" up 3 || { echo "skipped: cannot make the hosts here"; "$netns" down; exit 77; }
trap '"$netns" down' EXIT
. "$(dirname "$0")/expect_run.sh"
# expect NAME STATUS TEXT SLOTS UPCRUN_ARGS...: the run ends with STATUS and says TEXT
expect() {
  name=$1 want=$2 text=$3 slots=$4
  shift 4
  expect_run "$name" "$want" "$text" timeout 900 "$netns" run "$slots" --timeout 600 "$@"
}
expect "one host" 0 "4 of 4 threads said hello" 4 -n 4 "$hello"
expect "hello on two hosts" 0 "4 of 4 threads said hello" 2 -n 4 "$hello"
expect "hello on three hosts" 0 "3 of 3 threads said hello" 1 -n 3 "$hello"
reference=$("$UPCRUN" --backend threads -n 4 "$across" | grep "reduce bits")
expect "across_hosts on two hosts" 0 "across_hosts: all parts right on 4 threads" 2 -n 4 "$across"
echo "$last_out" | grep -qxF "$reference" || { echo "FAILED: reduction bits differ from the threads backend's ($reference)"; failed=1; }
reference=$("$UPCRUN" --backend threads -n 3 "$across" | grep "reduce bits")
expect "across_hosts on three hosts" 0 "across_hosts: all parts right on 3 threads" 1 -n 3 "$across"
echo "$last_out" | grep -qxF "$reference" || { echo "FAILED: reduction bits differ from the threads backend's ($reference)"; failed=1; }
expect "stencil on two hosts" 0 "matches the sequential computation" 2 -n 4 "$stencil"
expect "the hosts as nodes in the traffic report" 0 "4 threads on 2 nodes x 2 threads (hosts)" 2 -n 4 --report=traffic "$across"
echo "$last_out" | grep -qE "total: .* within nodes, [1-9][0-9.]* [KMG]iB between nodes" ||
  { echo "FAILED: the traffic report counts no bytes between the hosts"; failed=1; }
expect "a throw on the second host" 1 "across_hosts deliberately threw" 2 -n 4 "$across" throw
expect "a return from main on the second host" 1 "thread 3 has already returned from main" 2 -n 4 "$across" return_early
expect "teams (upccoll) on two hosts" 0 "rank 1 of 2 in the even team, team sum 2" 2 -n 4 "$teams"
expect "conformance on two hosts" 0 "Status: SUCCESS!" 2 -n 4 "$conformance" --no-colors
expect "conformance-upccoll on two hosts" 0 "Status: SUCCESS!" 2 -n 4 "$conformance_upccoll" --no-colors
"$nas_is" --help >/dev/null 2>&1 || { echo "FAILED: $nas_is does not run"; failed=1; }
expect "NAS IS class S on two hosts" 0 '"verified": true' 2 -n 4 "$nas_is" --class=S
reference=$("$UPCRUN" --backend threads -n 4 "$nas_ft" --class=S | grep "checksums' bits" | head -1)
expect "NAS FT class S on two hosts" 0 "checksums' bits" 2 -n 4 "$nas_ft" --class=S
echo "$last_out" | grep -qxF "$reference" || { echo "FAILED: FT's checksum bits differ from the threads backend's ($reference)"; failed=1; }
expect "upccoll on MPI's non-blocking collectives, two hosts" 0 "upccoll_on_mpi: all parts right on 4 threads" 2 -n 4 "$upccoll_on_mpi"
echo "$last_out" | grep -qxF "(threads on several hosts)" || { echo "FAILED: upccoll_on_mpi did not see several hosts"; failed=1; }
expect "a throw while the others wait on the mpi rows, second host" 1 "upccoll_on_mpi deliberately threw" 2 -n 4 "$upccoll_on_mpi" throw
expect "across_hosts under --check on two hosts" 0 "across_hosts: all parts right on 4 threads" 2 -n 4 --check "$across"
expect "--check: a single-valued argument differing on the second host" 1 "must be single-valued" 2 -n 4 --check "$across" mismatch
[ $failed = 0 ] && echo "ok"
exit $failed
