// The irregular all-to-all under aggregate() and gather(): every pair of a
// KeyValue goes to the rank destination(key, keybytes) names. The pairs are
// packed per destination into one send buffer, the byte counts are swapped
// with MPI_Alltoall and the pairs with one MPI_Alltoallv (MR-MPI's "all2all"
// setting), and the received pairs become the rank's new KeyValue.
#pragma once
#include <mpi.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "key_value.hpp"

namespace mrmpi {

template <class Destination>
key_value exchange(const key_value& kv, MPI_Comm comm, Destination destination) {
  int ranks = 0, rank = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &rank);
  std::vector<long long> bytes_to(static_cast<std::size_t>(ranks), 0);
  kv.for_each([&](const char* k, int kb, const char*, int vb) {
    bytes_to[static_cast<std::size_t>(destination(k, kb))] += static_cast<long long>(pair_bytes(kb, vb));
  });
  std::vector<int> send_counts(static_cast<std::size_t>(ranks)), send_offsets(static_cast<std::size_t>(ranks));
  long long total = 0;
  for (int r = 0; r < ranks; ++r) {
    send_offsets[static_cast<std::size_t>(r)] = static_cast<int>(total);
    send_counts[static_cast<std::size_t>(r)] = static_cast<int>(bytes_to[static_cast<std::size_t>(r)]);
    total += bytes_to[static_cast<std::size_t>(r)];
  }
  if (total > INT_MAX) {  // MPI_Alltoallv's counts and offsets are ints
    std::fprintf(stderr, "mrmpi::exchange: rank %d: %lld bytes of pairs to send, more than one MPI_Alltoallv carries (%d)\n",
                 rank, total, INT_MAX);
    MPI_Abort(comm, 2);
  }
  std::vector<char> send(static_cast<std::size_t>(total));
  std::vector<int> fill(send_offsets);
  kv.for_each([&](const char* k, int kb, const char* v, int vb) {
    int& at = fill[static_cast<std::size_t>(destination(k, kb))];
    at = static_cast<int>(write_pair(send.data() + at, k, kb, v, vb) - send.data());
  });
  std::vector<int> recv_counts(static_cast<std::size_t>(ranks)), recv_offsets(static_cast<std::size_t>(ranks));
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  long long received = 0;
  for (int r = 0; r < ranks; ++r) {
    recv_offsets[static_cast<std::size_t>(r)] = static_cast<int>(received);
    received += recv_counts[static_cast<std::size_t>(r)];
  }
  if (received > INT_MAX) {
    std::fprintf(stderr, "mrmpi::exchange: rank %d: %lld bytes of pairs to receive, more than one MPI_Alltoallv carries (%d)\n",
                 rank, received, INT_MAX);
    MPI_Abort(comm, 2);
  }
  std::vector<char> recv(static_cast<std::size_t>(received));
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, recv.data(), recv_counts.data(),
                recv_offsets.data(), MPI_BYTE, comm);
  key_value out(kv.page_bytes());
  out.add_packed(recv.data(), recv.data() + recv.size());
  return out;
}

}  // namespace mrmpi
