// A plan: the calling rank's ordered steps for one collective, as data (issue
// 9), plus the ranks whose user data it touches and the ranks that touch its
// user data (the executor derives IN/OUT_MYSYNC from these two lists).
//
// Data steps move or combine bytes; every byte a collective moves goes through
// one of them, run by run_data_step (steps.cpp), the one place that can count
// and charge it. Sync steps publish or wait for the team's flags. A plan is
// plain data: it can be appended to another (composition: allreduce is a
// reduce's plan and a copy) and kept for the next identical call (plan_cache).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "blocks.hpp"
#include "copy_step.hpp"
#include "element_ops.hpp"

namespace upc::coll {

// The MPI collectives an mpi-family plan hands its data to (mpi_backend.hpp).
enum class mpi_op : int { bcast, scatter, gather, allgather, alltoall };

struct step {
  enum kind_t : std::uint8_t {
    // data
    copy,           // bytes from src to dst
    copy_strided,   // count items of `bytes`: dst + i*dst_stride <- src + i*src_stride
    copy_indirect,  // bytes from (the pointer stored at src) + src_stride to dst: another thread's
                    // private buffer, whose address that thread publishes at run time (threads backend)
    combine,        // dst[i] = dst[i] op src[i], count elements
    fold_runs,      // count runs of run elements: dst + i*dst_stride = left fold of the run at src + i*src_stride
    scan_runs,      // count runs: the run at dst + i*dst_stride = inclusive scan of the run at src + i*src_stride,
                    // each element combined on the left with prefix + i*prefix_stride when prefix is set
    copy_to_array,  // count runs of `run` elements from src (contiguous) into plan.arrays[aux]: run i to the
                    // elements from (bytes + i * dst_stride) on, in array order
    fold_interleaved,  // *dst = left fold over k < count of the element at table[k % m] + (k / m) * src_stride,
                       // table = plan.pointers[aux .. aux + m), m = bytes; null entries are skipped
    scan_interleaved,  // the same walk; each element but the first present one gets, at
                       // outputs[k % m] + (k / m) * src_stride (outputs = plan.pointers[aux2 ..]), the fold of
                       // the elements before it: an exclusive scan in place of an interleaving
    sort_array,     // sorts plan.sorts[aux]
    mpi_collective, // the mpi backend's MPI collective `aux` (mpi_op) on communicator `count` (0: the
                    // world): src = send buffer, dst = receive buffer, bytes per piece, peer = the root
    // synchronisation
    wait_ready, publish_ready, wait_ready2, publish_ready2, ack, wait_acks
  };
  kind_t kind;
  int peer = -1;                 // sync: the rank waited for or acked
  int stage = 0;                 // wait_ready / publish_ready: which of the plan's stages
  int aux = 0;                   // copy_to_array, sort_array, *_interleaved: index into the plan's side tables
  int aux2 = 0;
  char* dst = nullptr;
  const char* src = nullptr;
  const char* prefix = nullptr;
  std::size_t bytes = 0;         // copy, copy_strided: bytes (of one item)
  std::size_t count = 0;         // items, elements or runs
  std::size_t run = 0;           // fold_runs, scan_runs: elements per run; copy_to_array: first element
  std::ptrdiff_t dst_stride = 0, src_stride = 0, prefix_stride = 0;

  bool is_data() const noexcept { return kind < wait_ready; }
};

// upc_all_sort's job: the array and the caller's comparison.
struct sort_job {
  blocked_array a;
  int (*cmp)(const void*, const void*, const void* ctx);
  const void* ctx;
};

class plan;
// Runs one data step of plan p (the one place where a collective's bytes move).
void run_data_step(const step& s, const plan& p);


class plan {
 public:
  void clear() {
    steps.clear();
    touches.clear();
    touchers.clear();
    ack_from.clear();
    arrays.clear();
    sorts.clear();
    pointers.clear();
    local.clear();
    stages = 1;
    op = element_op{};
    algorithm = nullptr;
  }

  // Data steps, named for what they do.
  void copy(char* dst, const char* src, std::size_t bytes) {
    if (!bytes || dst == src) return;
    if (immediate) run_copy(dst, src, bytes, algorithm);  // what run_data_step does with it, without the step
    else add({.kind = step::copy, .dst = dst, .src = src, .bytes = bytes});
  }
  void copy_strided(char* dst, std::ptrdiff_t dst_stride, const char* src, std::ptrdiff_t src_stride,
                    std::size_t item_bytes, std::size_t count) {
    if (!item_bytes || !count) return;
    if (count == 1) return copy(dst, src, item_bytes);
    add({.kind = step::copy_strided, .dst = dst, .src = src, .bytes = item_bytes, .count = count,
         .dst_stride = dst_stride, .src_stride = src_stride});
  }
  // `bytes` from offset `offset` of the buffer whose address is stored at `slot`.
  void copy_indirect(char* dst, const char* slot, std::ptrdiff_t offset, std::size_t bytes) {
    if (bytes) add({.kind = step::copy_indirect, .dst = dst, .src = slot, .bytes = bytes, .src_stride = offset});
  }
  void combine(char* dst, const char* src, std::size_t elements) {
    if (elements) add({.kind = step::combine, .dst = dst, .src = src, .count = elements});
  }
  void fold_runs(char* dst, std::ptrdiff_t dst_stride, const char* src, std::ptrdiff_t src_stride,
                 std::size_t run_elements, std::size_t runs) {
    if (run_elements && runs)
      add({.kind = step::fold_runs, .dst = dst, .src = src, .count = runs, .run = run_elements,
           .dst_stride = dst_stride, .src_stride = src_stride});
  }
  void scan_runs(char* dst, std::ptrdiff_t dst_stride, const char* src, std::ptrdiff_t src_stride,
                 std::size_t run_elements, std::size_t runs, const char* prefix, std::ptrdiff_t prefix_stride) {
    if (run_elements && runs)
      add({.kind = step::scan_runs, .dst = dst, .src = src, .prefix = prefix, .count = runs, .run = run_elements,
           .dst_stride = dst_stride, .src_stride = src_stride, .prefix_stride = prefix_stride});
  }
  // runs × run_elements elements from src into array a: run i goes to the
  // elements from first + i × element_stride on, in array order.
  void copy_to_array(const blocked_array& a, std::uint64_t first, std::size_t run_elements, std::size_t runs,
                     std::ptrdiff_t element_stride, const char* src) {
    if (!run_elements || !runs) return;
    arrays.push_back(a);
    add({.kind = step::copy_to_array, .aux = static_cast<int>(arrays.size() - 1), .src = src,
         .bytes = static_cast<std::size_t>(first), .count = runs, .run = run_elements, .dst_stride = element_stride});
  }
  // Folds (or scans) elements spread over `table` (one pointer per position of a
  // cycle, null where there is nothing), cycle after cycle `stride` bytes further.
  void fold_interleaved(char* dst, const std::vector<const char*>& table, std::size_t count, std::ptrdiff_t stride) {
    const int at = add_table(table);
    add({.kind = step::fold_interleaved, .aux = at, .dst = dst, .bytes = table.size(), .count = count,
         .src_stride = stride});
  }
  void scan_interleaved(const std::vector<const char*>& inputs, const std::vector<const char*>& outputs,
                        std::size_t count, std::ptrdiff_t stride) {
    const int in = add_table(inputs), out = add_table(outputs);
    add({.kind = step::scan_interleaved, .aux = in, .aux2 = out, .bytes = inputs.size(), .count = count,
         .src_stride = stride});
  }
  // One MPI collective over the team's communicator (the mpi algorithm
  // family): every member's plan holds the same call, its own buffers.
  void mpi_collective(mpi_op op, char* recv, const char* send, std::size_t bytes, int root, std::uint64_t comm) {
    add({.kind = step::mpi_collective, .peer = root, .aux = static_cast<int>(op), .dst = recv, .src = send,
         .bytes = bytes, .count = static_cast<std::size_t>(comm)});
  }
  void sort(const sort_job& job) {
    sorts.push_back(job);
    add({.kind = step::sort_array, .aux = static_cast<int>(sorts.size() - 1)});
  }

  // Ready flags may be staged (multi-round algorithms: ring, recursive doubling):
  // publish_ready(s) says "my data of stage s is there", wait_ready(r, s) waits
  // for rank r's stage s (or later). Stages are < `stages`.
  void wait_ready(int rank, int stage = 0) { add({.kind = step::wait_ready, .peer = rank, .stage = stage}); }
  void publish_ready(int stage = 0) { add({.kind = step::publish_ready, .stage = stage}); }
  void wait_ready2(int rank) { add({.kind = step::wait_ready2, .peer = rank}); }
  void publish_ready2() { add({.kind = step::publish_ready2}); }
  // Tell `owner` that this rank no longer reads its internal buffers.
  void ack(int owner) { add({.kind = step::ack, .peer = owner}); }
  // Wait for the acks of every rank in ack_from.
  void wait_acks() { add({.kind = step::wait_acks}); }

  // Appends another plan of the same rank and collective (its side tables and
  // touch lists too); the stages are the larger of the two.
  void append(const plan& other);

  std::vector<step> steps;
  std::vector<int> touches;   // ranks (not me) whose user data my steps read or write
  std::vector<int> touchers;  // ranks (not me) whose steps read or write my user data
  std::vector<int> ack_from;  // ranks whose acks wait_acks waits for
  std::vector<blocked_array> arrays;
  std::vector<sort_job> sorts;
  std::vector<const char*> pointers;  // the tables of the interleaved steps
  std::vector<char> local;            // this rank's private buffer (sized once, before steps point into it)
  element_op op;              // the reduction of combine / fold_runs / scan_runs steps
  // Epochs this plan takes from the team: stage s of the ready flags is epoch
  // first + s. Must be the same on every rank (derive it from single-valued
  // arguments and the team size only).
  int stages = 1;
  // The name of the algorithm that built it, which its traffic is counted
  // under (traffic.hpp): set by whoever selected the algorithm (a label passed
  // down, so the step runner needs no selection). Null: the caller's
  // traffic::task_scope names it (the task executor's plans).
  const char* algorithm = nullptr;
  // A plan that runs its data steps as they are added instead of keeping them
  // (the task executor's: a task is planned by the member that runs it, at
  // once, and a large reduction's thousands of steps need not be stored).
  bool immediate = false;

 private:
  void add(const step& s) {
    if (immediate && s.is_data()) run_data_step(s, *this);
    else steps.push_back(s);
  }
  int add_table(const std::vector<const char*>& t) {
    const int at = static_cast<int>(pointers.size());
    pointers.insert(pointers.end(), t.begin(), t.end());
    return at;
  }
};


}  // namespace upc::coll
