#!/usr/bin/env bash
# Several "hosts" on this machine for the mpi backend (docs/backends.md): network
# namespaces joined by veth pairs to a bridge, each with its own host name, and
# Open MPI told to start its daemons in them and to talk TCP between them. A
# real cluster without the cluster: what runs here across two namespaces
# crosses Open MPI's TCP transport as it would between two machines.
#
#   sudo tools/netns_hosts.sh up [N]     make N hosts (default 2): upcemu-h1 ... upcemu-hN,
#                                        10.77.0.11 ... on bridge upcemu-br0 (10.77.0.1)
#   sudo tools/netns_hosts.sh run SLOTS UPCRUN_ARGS...
#                                        upcrun --backend mpi with a host file of the N
#                                        hosts, SLOTS ranks each, and the Open MPI settings
#                                        below; e.g. run 2 -n 4 build/examples/hello
#   sudo tools/netns_hosts.sh down       remove them
#   tools/netns_hosts.sh agent HOST CMD  (what Open MPI calls in place of ssh)
#
# Needs root (namespaces), iproute2 and util-linux (unshare). The Open MPI
# settings it exports: plm_rsh_agent (this script's `agent`: `ip netns exec`
# into the host's namespace, with its own UTS namespace and host name, so that
# Open MPI sees different nodes), oob/btl_tcp_if_include (the bridge's subnet).
set -euo pipefail

subnet=10.77.0
bridge=upcemu-br0
self=$(readlink -f "${BASH_SOURCE[0]}")
hosts_file=/run/upcemu-netns-hosts

ns_of_ip() { echo "upcemu-h$(( ${1##*.} - 10 ))"; }

up() {
  local n=${1:-2}
  ip link show "$bridge" >/dev/null 2>&1 || {
    ip link add "$bridge" type bridge
    ip addr add "$subnet.1/24" dev "$bridge"
    ip link set "$bridge" up
  }
  : >"$hosts_file"
  for i in $(seq 1 "$n"); do
    local ns=upcemu-h$i ip=$subnet.$((10 + i))
    if ! ip netns list | grep -qw "$ns"; then
      ip netns add "$ns"
      ip link add "upcemu-v$i" type veth peer name eth0 netns "$ns"
      ip link set "upcemu-v$i" master "$bridge" up
      ip netns exec "$ns" ip addr add "$ip/24" dev eth0
      ip netns exec "$ns" ip link set eth0 up
      ip netns exec "$ns" ip link set lo up
      ip netns exec "$ns" ip route add default via "$subnet.1"
    fi
    echo "$ip" >>"$hosts_file"
  done
  echo "hosts: $(tr '\n' ' ' <"$hosts_file")(namespaces upcemu-h1..upcemu-h$n)"
}

down() {
  for ns in $(ip netns list | awk '/^upcemu-h/ {print $1}'); do ip netns del "$ns"; done
  ip link del "$bridge" 2>/dev/null || true
  rm -f "$hosts_file"
}

# Open MPI's launcher calls `agent [options] HOST COMMAND...` as it would ssh.
agent() {
  while [[ $# -gt 0 && $1 == -* ]]; do shift; done
  local host=$1
  shift
  local ns
  ns=$(ns_of_ip "$host")
  exec ip netns exec "$ns" unshare --uts /bin/sh -c "hostname $ns; $*"
}

run() {
  local slots=$1
  shift
  [[ -s $hosts_file ]] || { echo "netns_hosts.sh: no hosts: run '$0 up' first" >&2; exit 2; }
  local hostfile
  hostfile=$(mktemp)
  while read -r ip; do echo "$ip slots=$slots"; done <"$hosts_file" >"$hostfile"
  export OMPI_MCA_plm_rsh_agent="$self agent"
  export OMPI_MCA_oob_tcp_if_include="$subnet.0/24" OMPI_MCA_btl_tcp_if_include="$subnet.0/24"
  local root
  root=$(cd "$(dirname "$self")/.." && pwd)
  local status=0
  "${UPCRUN:-$root/build/tools/upcrun}" --backend mpi --hostfile "$hostfile" "$@" || status=$?
  rm -f "$hostfile"
  return $status
}

case "${1:-}" in
  up) shift; up "$@" ;;
  down) down ;;
  run) shift; run "$@" ;;
  agent) shift; agent "$@" ;;
  *) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
