#!/bin/sh
# The mpi backend's code for ranks on several hosts, on one machine: the ranks
# split into pretend hosts (UPCEMU_MPI_HOSTS=H: blocks of consecutive ranks,
# each host with a segment of its own, so other hosts' partitions come through
# the page cache and their atomics through the servers, as across real hosts).
# The hosts are the job's nodes (upc::nodes(), --report=traffic).
# In suite `mpi` (CI); the same checks on network-namespace hosts, through
# Open MPI's TCP transport, are suite `hosts` (netns_hosts_test.sh).
#   pretend_hosts_test.sh UPCRUN ACROSS_HOSTS TEAMS NAS_IS [CONFORMANCE]
# With CONFORMANCE (suite full): that suite too, on two pretend hosts.
set -u
upcrun=$1 across=$2 teams=$3 nas_is=$4 conformance=${5:-}
. "$(dirname "$0")/expect_run.sh"
# expect NAME STATUS TEXT HOSTS UPCRUN_ARGS...: the run ends with STATUS and says TEXT
expect() {
  name=$1 want=$2 text=$3 hosts=$4
  shift 4
  expect_run "$name" "$want" "$text" env UPCEMU_MPI_HOSTS="$hosts" "$upcrun" --backend mpi --timeout 600 "$@"
}
if [ -n "$conformance" ]; then
  expect "conformance on two pretend hosts" 0 "Status: SUCCESS!" 2 -n 4 "$conformance" --no-colors
  exit $failed
fi
reference=$("$upcrun" --backend threads -n 4 "$across" | grep "reduce bits")
expect "across_hosts on two hosts of two" 0 "across_hosts: all parts right on 4 threads" 2 -n 4 "$across"
echo "$last_out" | grep -qxF "$reference" || { echo "FAILED: reduction bits differ from the threads backend's ($reference)"; failed=1; }
expect "across_hosts on three hosts of one" 0 "across_hosts: all parts right on 3 threads" 3 -n 3 "$across"
# The hosts are the nodes of --report=traffic (no --nodes given), and the
# bulk copies to the next thread cross them.
expect "the hosts as nodes in the traffic report" 0 "4 threads on 2 nodes x 2 threads (hosts)" 2 -n 4 --report=traffic "$across"
echo "$last_out" | grep -qE "total: .* within nodes, [1-9][0-9.]* [KMG]iB between nodes" ||
  { echo "FAILED: the traffic report counts no bytes between the hosts"; failed=1; }
expect "across_hosts under --check" 0 "across_hosts: all parts right on 4 threads" 2 -n 4 --check "$across"
expect "teams (upccoll)" 0 "rank 1 of 2 in the even team, team sum 2" 2 -n 4 "$teams"
expect "NAS IS class S" 0 '"verified": true' 2 -n 4 "$nas_is" --class=S
expect "a throw on the second host" 1 "across_hosts deliberately threw" 2 -n 4 "$across" throw
expect "a return from main on the second host" 1 "thread 3 has already returned from main" 2 -n 4 "$across" return_early
expect "--check: nbytes differing on the second host" 1 "must be single-valued" 2 -n 4 --check "$across" mismatch
[ $failed = 0 ] && echo "ok"
exit $failed
