// Our MapReduce-over-MPI library, in the design of Sandia's MapReduce-MPI
// (MR-MPI; written from its documentation, none of its code): a MapReduce
// object holds a KeyValue (pairs, in pages) or a KeyMultiValue (each key with
// its values) spread over the ranks, and the calls move it along:
//   map(nmap, mymap, ptr)   mymap(itask, kv, ptr) for this rank's block of tasks
//   aggregate()             each pair to the rank its key hashes to (MPI_Alltoallv)
//   convert()               KeyValue -> KeyMultiValue, on each rank
//   collate()               aggregate() then convert()
//   reduce(myreduce, ptr)   myreduce(key, kb, multivalue, nvalues, valuebytes, kv, ptr)
//                           once per distinct key; its pairs are the new KeyValue
//   gather(n)               every pair to ranks 0..n-1
// Each call returns the number of pairs (or keys) held on all ranks, as MR-MPI's do.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>

#include "exchange.hpp"
#include "key_hash.hpp"
#include "key_multi_value.hpp"
#include "key_value.hpp"
#include "map_tasks.hpp"

namespace mrmpi {

using map_function = void (*)(int itask, key_value* kv, void* ptr);
using reduce_function = void (*)(char* key, int keybytes, char* multivalue, int nvalues, int* valuebytes, key_value* kv,
                                 void* ptr);

class mapreduce {
 public:
  explicit mapreduce(MPI_Comm comm, std::size_t page_bytes = default_page_bytes) : comm_(comm), page_bytes_(page_bytes) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &ranks_);
  }

  std::uint64_t map(int nmap, map_function mymap, void* ptr) {
    kmv_.reset();
    kv_ = std::make_unique<key_value>(page_bytes_);
    const task_range mine = chunk_of(nmap, rank_, ranks_);
    for (std::int64_t t = mine.first; t < mine.last; ++t) mymap(static_cast<int>(t), kv_.get(), ptr);
    return total(kv_->pairs());
  }

  std::uint64_t aggregate() {
    const int ranks = ranks_;
    *kv_ = exchange(*kv_, comm_, [ranks](const char* k, int kb) {
      return static_cast<int>(key_hash(k, kb) % static_cast<std::uint32_t>(ranks));
    });
    return total(kv_->pairs());
  }

  std::uint64_t convert() {
    kmv_ = std::make_unique<key_multi_value>(*kv_);  // keeps pointers into *kv_, kept until reduce()
    return total(kmv_->keys());
  }

  std::uint64_t collate() {
    aggregate();
    return convert();
  }

  std::uint64_t reduce(reduce_function myreduce, void* ptr) {
    auto out = std::make_unique<key_value>(page_bytes_);
    kmv_->for_each([&](const char* k, int kb, const char* mv, int n, const int* sizes) {
      myreduce(const_cast<char*>(k), kb, const_cast<char*>(mv), n, const_cast<int*>(sizes), out.get(), ptr);
    });
    kmv_.reset();
    kv_ = std::move(out);
    return total(kv_->pairs());
  }

  std::uint64_t gather(int nprocs) {
    const int n = nprocs < ranks_ ? nprocs : ranks_, rank = rank_;
    *kv_ = exchange(*kv_, comm_, [n, rank](const char*, int) { return rank % n; });
    return total(kv_->pairs());
  }

  // This rank's pairs (after map, aggregate, reduce or gather).
  const key_value& kv() const { return *kv_; }
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }

 private:
  std::uint64_t total(std::uint64_t mine) const {
    unsigned long long all = 0, m = mine;
    MPI_Allreduce(&m, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm_);
    return all;
  }

  MPI_Comm comm_;
  std::size_t page_bytes_;
  int rank_ = 0, ranks_ = 1;
  std::unique_ptr<key_value> kv_ = std::make_unique<key_value>();
  std::unique_ptr<key_multi_value> kmv_;
};

}  // namespace mrmpi
