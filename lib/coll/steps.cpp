// The data steps of a plan, run (plan.hpp): every byte an owner-executor
// collective moves or combines passes through run_data_step.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "plan.hpp"
#include "../runtime/mpi_session.hpp"
#include "../runtime/copy_bytes.hpp"
#include "../runtime/traffic.hpp"

namespace upc::coll {

namespace {

// The thread whose partition holds p (-1: not in the shared segment).
int owner_thread(const void* p) noexcept {
  const char* a = static_cast<const char*>(p);
  const std::uint64_t span = static_cast<std::uint64_t>(detail::g_threads) * detail::g_partition_bytes;
  if (a < detail::g_partitions || static_cast<std::uint64_t>(a - detail::g_partitions) >= span) return -1;
  return static_cast<int>(static_cast<std::uint64_t>(a - detail::g_partitions) / detail::g_partition_bytes);
}

// A compute step's operand on another thread (a partial read in place, a
// result written into another thread's element) is traffic too: counted, and
// charged by the network model between nodes, as a copy of its bytes. Local
// operands are not (they are the thread's own arithmetic, not a transfer).
// `algorithm`: the label the traffic is counted under (plan::algorithm).
void note_remote(const void* dst, const void* src, std::size_t bytes, const char* algorithm) {
  if (!detail::traffic::g_active || !bytes) return;
  const int from = owner_thread(src), to = owner_thread(dst), me = detail::tl_mythread;
  if ((from >= 0 && from != me) || (to >= 0 && to != me)) detail::traffic::copied(dst, src, bytes, -1, algorithm);
}

// run elements at src, left-folded into *dst.
void fold_run(char* dst, const char* src, std::size_t run, const element_op& op) {
  std::memcpy(dst, src, op.size);
  if (run > 1) op.fold(dst, src + op.size, run - 1);
}

// Elements [first, first + count) of `a`, from a contiguous buffer: one copy per
// stretch of a block.
void copy_to_array(const blocked_array& a, std::uint64_t first, std::size_t count, const char*& src,
                   const char* algorithm) {
  const std::size_t E = a.elem;
  while (count) {
    std::size_t run = count;
    if (a.blk) {
      const std::uint64_t phase = (a.v0() + first) % a.blk;
      run = static_cast<std::size_t>(std::min<std::uint64_t>(count, a.blk - phase));
    }
    note_remote(a.element(first), src, run * E, algorithm);
    std::memcpy(a.element(first), src, run * E);
    src += run * E;
    first += run;
    count -= run;
  }
}

// upc_all_sort: sorts indices with the caller's comparison, then writes the
// elements back in order (stable; the comparison takes element indices).
void sort_array(const sort_job& job, const char* algorithm) {
  const blocked_array& a = job.a;
  const std::size_t n = a.n, E = a.elem;
  std::vector<std::uint64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // i goes before j when cmp says j's element comes after i's (cmp(b, a) > 0),
  // which works for three-way comparators and for the v1.0 reference's "1 when
  // a must come after b, else 0" ones alike.
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint64_t i, std::uint64_t j) { return job.cmp(&j, &i, job.ctx) > 0; });
  std::vector<char> sorted(n * E);
  for (std::size_t k = 0; k < n; ++k) std::memcpy(sorted.data() + k * E, a.element(order[k]), E);
  const char* from = sorted.data();
  copy_to_array(a, 0, n, from, algorithm);
}

// fold_interleaved / scan_interleaved (plan.hpp): one left fold over the walk.
void walk_interleaved(const step& s, const plan& p) {
  const std::size_t m = s.bytes, E = p.op.size;
  const char* const* in = p.pointers.data() + s.aux;
  const char* const* out = p.pointers.data() + s.aux2;
  alignas(16) char running[64];
  bool have = false;
  if (detail::traffic::g_active)  // each entry's elements, read (and for a scan written) as one transfer
    for (std::size_t j = 0; j < m && j < s.count; ++j) {
      const std::size_t elements = (s.count - j + m - 1) / m;
      if (in[j]) note_remote(running, in[j], elements * E, p.algorithm);
      if (s.kind == step::scan_interleaved && out[j]) note_remote(out[j], running, elements * E, p.algorithm);
    }
  for (std::size_t k = 0; k < s.count; ++k) {
    const char* base = in[k % m];
    if (!base) continue;
    const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(k / m) * s.src_stride;
    if (s.kind == step::scan_interleaved && have) std::memcpy(const_cast<char*>(out[k % m]) + at, running, E);
    if (!have) std::memcpy(running, base + at, E);
    else p.op.combine(running, base + at, 1);
    have = true;
  }
  if (s.kind == step::fold_interleaved && have) std::memcpy(s.dst, running, E);
}

}  // namespace

void run_data_step(const step& s, const plan& p) {
  switch (s.kind) {
    case step::copy:
      run_copy(s.dst, s.src, s.bytes, p.algorithm);
      break;
    case step::copy_indirect: {
      const char* base;
      std::memcpy(&base, s.src, sizeof base);
      // the slot is in the scratch of the thread whose private buffer this is
      if (detail::traffic::g_active) detail::traffic::copied(s.dst, base + s.src_stride, s.bytes, owner_thread(s.src), p.algorithm);
      detail::copy_bytes(s.dst, base + s.src_stride, s.bytes);
      break;
    }
    case step::mpi_collective:
      // The bytes cross in MPI (traffic reports are not kept on this backend).
      detail::mpi_collective(s.aux, s.src, s.dst, s.bytes, s.peer, s.count);
      break;
    case step::copy_strided:
      for (std::size_t i = 0; i < s.count; ++i) {
        char* d = s.dst + static_cast<std::ptrdiff_t>(i) * s.dst_stride;
        const char* from = s.src + static_cast<std::ptrdiff_t>(i) * s.src_stride;
        if (detail::traffic::g_active) detail::traffic::copied(d, from, s.bytes, -1, p.algorithm);
        detail::copy_bytes(d, from, s.bytes);
      }
      break;
    case step::combine:
      note_remote(s.dst, s.src, s.count * p.op.size, p.algorithm);
      p.op.combine(s.dst, s.src, s.count);
      break;
    case step::fold_runs:
      for (std::size_t i = 0; i < s.count; ++i) {
        char* d = s.dst + static_cast<std::ptrdiff_t>(i) * s.dst_stride;
        const char* from = s.src + static_cast<std::ptrdiff_t>(i) * s.src_stride;
        note_remote(d, from, s.run * p.op.size, p.algorithm);
        fold_run(d, from, s.run, p.op);
      }
      break;
    case step::scan_runs:
      for (std::size_t i = 0; i < s.count; ++i) {
        char* d = s.dst + static_cast<std::ptrdiff_t>(i) * s.dst_stride;
        const char* from = s.src + static_cast<std::ptrdiff_t>(i) * s.src_stride;
        const char* prefix = s.prefix ? s.prefix + static_cast<std::ptrdiff_t>(i) * s.prefix_stride : nullptr;
        note_remote(d, from, s.run * p.op.size, p.algorithm);
        if (prefix) note_remote(d, prefix, p.op.size, p.algorithm);
        p.op.scan(d, from, s.run, prefix);
      }
      break;
    case step::copy_to_array: {
      const char* from = s.src;
      for (std::size_t i = 0; i < s.count; ++i)
        copy_to_array(p.arrays[static_cast<std::size_t>(s.aux)],
                      static_cast<std::uint64_t>(static_cast<std::ptrdiff_t>(s.bytes) + static_cast<std::ptrdiff_t>(i) * s.dst_stride),
                      s.run, from, p.algorithm);
      break;
    }
    case step::fold_interleaved:
    case step::scan_interleaved: walk_interleaved(s, p); break;
    case step::sort_array: sort_array(p.sorts[static_cast<std::size_t>(s.aux)], p.algorithm); break;
    default: break;
  }
}

void plan::append(const plan& other) {
  // Steps point into their plan's private buffer: only a plan without one moves.
  if (!other.local.empty()) throw std::logic_error("plan::append: the appended plan has a private buffer");
  const int arrays_base = static_cast<int>(arrays.size()), sorts_base = static_cast<int>(sorts.size());
  const int pointers_base = static_cast<int>(pointers.size());
  for (step s : other.steps) {
    if (s.kind == step::copy_to_array) s.aux += arrays_base;
    if (s.kind == step::sort_array) s.aux += sorts_base;
    if (s.kind == step::fold_interleaved || s.kind == step::scan_interleaved) {
      s.aux += pointers_base;
      s.aux2 += pointers_base;
    }
    steps.push_back(s);
  }
  arrays.insert(arrays.end(), other.arrays.begin(), other.arrays.end());
  sorts.insert(sorts.end(), other.sorts.begin(), other.sorts.end());
  pointers.insert(pointers.end(), other.pointers.begin(), other.pointers.end());
  auto merge = [](std::vector<int>& into, const std::vector<int>& from) {
    for (int r : from)
      if (std::find(into.begin(), into.end(), r) == into.end()) into.push_back(r);
  };
  merge(touches, other.touches);
  merge(touchers, other.touchers);
  merge(ack_from, other.ack_from);
  if (other.op.valid()) op = other.op;
  stages = std::max(stages, other.stages);
}

}  // namespace upc::coll
