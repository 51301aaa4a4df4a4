// xupc's collectives on private arrays of values (<xupc_collectiveav.h>; seed
// 001 Table I): chunk lists between the threads' private arrays (the engine's
// general data movement, which reads a private array only through its owner
// or, on the threads backend, in place), and the thesis's private reductions
// for the computational ones — no shared space, as the seed promises.
#include <cstring>
#include <string>
#include <vector>

#include "../../coll/engine.hpp"
#include "../../runtime/collective_call.hpp"
#include "../ext/call.hpp"
#include "chunks.hpp"
#include "upc/error.hpp"
#include "xupc_collectiveav.h"

namespace upc::xupcv {

namespace {

using coll::chunk;
using coll::place;
using detail::fail;
constexpr upc_flag_t all_sync = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

place at(int thread, std::uint64_t offset) { return place{offset, thread, true}; }

void check_bytes(const char* fn, std::size_t bytes) {
  if (bytes == 0) fail(fn, "nelems must be > 0");
}
void check_buffer(const char* fn, const char* arg, const void* p) {
  if (!p) fail(fn, std::string(arg) + " is a null pointer, and this thread's values are " + (std::strcmp(arg, "dst") == 0 || std::strcmp(arg, "rootdst") == 0 ? "written" : "read"));
}

}  // namespace

void check_root(const char* fn, int root) {
  if (root < 0 || root >= threads())
    fail(fn, "rootthread is " + std::to_string(root) + ", not a thread (THREADS is " + std::to_string(threads()) + ")");
}

namespace {
// A buffer argument, by its name.
struct named_buffer {
  const char* arg;
  const void* p;
};

// What every data movement starts with: the record its call leaves for the
// whole call (compared across threads: the size, and the root of a rooted
// one), then the checks of the size and the root, then those of the buffers
// (a rooted one's: the one every thread passes, the one the root passes).
// Then its chunks move between the threads' private arrays, fully synchronised.
struct movement_call {
  const char* fn;
  detail::collective_call call;
  movement_call(const char* fn, const where_t& w, std::size_t bytes, const void* src, void* dst)
      : fn(fn), call(fn, w, {{"bytes", bytes}}) {
    check_bytes(fn, bytes);
    check_buffer(fn, "src", src);
    check_buffer(fn, "dst", dst);
  }
  movement_call(const char* fn, const where_t& w, std::size_t bytes, int root, named_buffer mine, named_buffer roots = {})
      : fn(fn), call(fn, w, {{"bytes", bytes}, {"rootthread", static_cast<std::uint64_t>(root)}}) {
    check_bytes(fn, bytes);
    check_root(fn, root);
    check_buffer(fn, mine.arg, mine.p);
    if (roots.arg && MYTHREAD == root) check_buffer(fn, roots.arg, roots.p);
  }
  void move(const std::vector<chunk>& list, const void* src, void* dst) const {
    xupc::move_chunks(fn, list, static_cast<const char*>(src), static_cast<char*>(dst), all_sync);
  }
};
}  // namespace

void broadcast(void* values, std::size_t bytes, int root, const where_t& w) {
  const movement_call call("xupc_allv_broadcast", w, bytes, root, {"values", values});
  std::vector<chunk> list;
  for (int t = 0; t < threads(); ++t)
    if (t != root) list.push_back(chunk{at(root, 0), at(t, 0), bytes});
  call.move(list, values, values);
}

void scatter(void* dst, const void* rootsrc, std::size_t bytes, int root, const where_t& w) {
  const movement_call call("xupc_allv_scatter", w, bytes, root, {"dst", dst}, {"rootsrc", rootsrc});
  std::vector<chunk> list;
  for (int t = 0; t < threads(); ++t) list.push_back(chunk{at(root, static_cast<std::uint64_t>(t) * bytes), at(t, 0), bytes});
  call.move(list, rootsrc, dst);
}

void gather(void* rootdst, const void* src, std::size_t bytes, int root, const where_t& w) {
  const movement_call call("xupc_allv_gather", w, bytes, root, {"src", src}, {"rootdst", rootdst});
  std::vector<chunk> list;
  for (int t = 0; t < threads(); ++t) list.push_back(chunk{at(t, 0), at(root, static_cast<std::uint64_t>(t) * bytes), bytes});
  call.move(list, src, rootdst);
}

void gather_all(void* dst, const void* src, std::size_t bytes, const where_t& w) {
  const movement_call call("xupc_allv_gather_all", w, bytes, src, dst);
  std::vector<chunk> list;
  for (int j = 0; j < threads(); ++j)
    for (int t = 0; t < threads(); ++t) list.push_back(chunk{at(t, 0), at(j, static_cast<std::uint64_t>(t) * bytes), bytes});
  call.move(list, src, dst);
}

void exchange(void* dst, const void* src, std::size_t bytes, const where_t& w) {
  const movement_call call("xupc_allv_exchange", w, bytes, src, dst);
  std::vector<chunk> list;
  for (int i = 0; i < threads(); ++i)
    for (int j = 0; j < threads(); ++j)
      list.push_back(chunk{at(i, static_cast<std::uint64_t>(j) * bytes), at(j, static_cast<std::uint64_t>(i) * bytes), bytes});
  call.move(list, src, dst);
}

void permute(void* dst, const void* src, std::size_t bytes, int tothread, const where_t& w) {
  const movement_call call("xupc_allv_permute", w, bytes, src, dst);
  check_root(call.fn, tothread);
  // every thread's target, to every thread (they make the chunk list)
  const int T = threads();
  std::vector<int> targets(static_cast<std::size_t>(T));
  std::vector<chunk> spread;
  for (int j = 0; j < T; ++j)
    for (int t = 0; t < T; ++t) spread.push_back(chunk{at(t, 0), at(j, static_cast<std::uint64_t>(t) * sizeof(int)), sizeof(int)});
  call.move(spread, &tothread, targets.data());
  std::vector<int> from(static_cast<std::size_t>(T), -1);
  for (int t = 0; t < T; ++t) {
    int& f = from[static_cast<std::size_t>(targets[static_cast<std::size_t>(t)])];
    if (f >= 0)
      fail(call.fn, "tothread is not a permutation: threads " + std::to_string(f) + " and " + std::to_string(t) + " both send to thread " +
                   std::to_string(targets[static_cast<std::size_t>(t)]));
    f = t;
  }
  std::vector<chunk> list;
  for (int t = 0; t < T; ++t) list.push_back(chunk{at(t, 0), at(targets[static_cast<std::size_t>(t)], 0), bytes});
  call.move(list, src, dst);
}

namespace {
coll::elem_type type_of(const char* fn, const char* letter) {
#define XUPCV_LETTER(L, TYPE) \
  if (std::strcmp(letter, #L) == 0) return coll::element_type_of<TYPE>();
  UPCEMU_COLLECTIVE_TYPES(XUPCV_LETTER)
#undef XUPCV_LETTER
  fail(fn, std::string("TYPE (letter ") + letter + ") is not a type of the UPC reductions");
}

void reduction(const char* fn, ext::family fam, unsigned variant, void* dst, const void* src, std::size_t nelems, upc_op_t op,
               const char* letter, std::size_t size, const where_t& w) {
  if (op == UPC_FUNC || op == UPC_NONCOMM_FUNC)
    fail(fn, "op is UPC_FUNC or UPC_NONCOMM_FUNC, which the value interface has no function argument for");
  if (nelems == 0) fail(fn, "nelems must be > 0");
  ext::call c(fn, w, fam, variant);
  c.dst = ext::private_side(dst);
  c.src = ext::private_side(const_cast<void*>(src));  // read only
  c.op = op;
  c.count = nelems * static_cast<std::size_t>(threads());
  c.blk_size = nelems;  // thread t's values are elements t*nelems .. of one array
  c.flags = all_sync;
  c.type = type_of(fn, letter);
  c.type_size = size;
  ext::run(c);
}
}  // namespace

void reduce_all(const char* fn, void* dst, const void* src, std::size_t nelems, upc_op_t op, const char* letter, std::size_t size,
                const where_t& w) {
  reduction(fn, ext::family::allreduce, ext::variant::all | ext::variant::priv, dst, src, nelems, op, letter, size, w);
}

void prefix_reduce(void* dst, const void* src, std::size_t nelems, upc_op_t op, const char* letter, std::size_t size,
                   const where_t& w) {
  reduction("xupc_allv_prefix_reduce", ext::family::prefix_reduce, ext::variant::priv, dst, src, nelems, op, letter, size, w);
}

}  // namespace upc::xupcv
