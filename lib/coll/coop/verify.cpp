#include "verify.hpp"

#include <cstring>
#include <string>

#include "upccoll.h"

namespace upc::coll::coop {

bool snapshot(const operation& op, int r, post_data& out) {
  const post& p = op.t->post_of(r, op.seq);
  if (seq_of(p).load(std::memory_order_acquire) != op.seq) return false;
  std::memcpy(static_cast<void*>(&out), &p, uses_tail(op.kind) ? sizeof(post_data) : post_head_bytes);
  std::atomic_thread_fence(std::memory_order_acquire);
  return seq_of(p).load(std::memory_order_relaxed) == op.seq;
}

std::uint64_t fingerprint(const std::uint64_t* values, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over the 64-bit values
  for (std::size_t i = 0; i < n; ++i) {
    h ^= values[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

namespace {

bool rooted(collective k) { return is_rooted(k); }
bool reduction(collective k) { return is_reduction(k); }
constexpr int sync_bits = UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC | UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC;

std::string str(std::uint64_t v) { return std::to_string(v); }

// Counts are read from the staged arrays inside the seqlock window: the caller
// re-checks the post afterwards, so a value read from a reused slot is dropped.
struct checker {
  operation& op;
  int P, me;
  post_data mine, root;
  bool root_ok;  // the root's post can be read as this collective's

  std::string who(int r) const { return "thread " + std::to_string(op.t->thread_of(r)); }
  std::uint64_t meta(const post_data& d, int which, int r) const { return d.meta[std::size_t(which) * P + r]; }

  // The byte counts that post r and ours (or the root's) must agree on.
  int compare_bytes(int r, const post_data& d, std::string& why) const {
    if (d.status || d.kind != op.kind || reduction(op.kind) || op.kind == collective::barrier) return 0;
    auto differ = [&](std::uint64_t sent, std::uint64_t received, int from, int to) {
      why = who(from) + " sends " + str(sent) + " bytes to " + who(to) + ", which expects " + str(received);
      return UPCCOLL_ERROR_COUNT;
    };
    if (rooted(op.kind) && !root_ok) return 0;  // the root's own post is reported when r reaches it
    switch (op.kind) {
      case collective::member_broadcast:
      case collective::member_scatter:
        if (d.recv_bytes != root.send_bytes) return differ(root.send_bytes, d.recv_bytes, op.root, r);
        break;
      case collective::member_gather:
        if (d.send_bytes != root.recv_bytes) return differ(d.send_bytes, root.recv_bytes, r, op.root);
        break;
      case collective::member_scatterv:
        if (meta(root, 0, r) != d.recv_bytes) return differ(meta(root, 0, r), d.recv_bytes, op.root, r);
        break;
      case collective::member_gatherv:
        if (meta(root, 0, r) != d.send_bytes) return differ(d.send_bytes, meta(root, 0, r), r, op.root);
        break;
      case collective::member_gather_all:
      case collective::member_exchange:
        if (d.send_bytes != mine.send_bytes) return differ(d.send_bytes, mine.recv_bytes, r, me);
        if (d.recv_bytes != mine.recv_bytes) return differ(mine.send_bytes, d.recv_bytes, me, r);
        break;
      case collective::member_gather_allv:
        if (meta(mine, 0, r) != d.send_bytes) return differ(d.send_bytes, meta(mine, 0, r), r, me);
        break;
      case collective::member_exchangev:
        if (meta(d, 0, me) != meta(mine, 2, r)) return differ(meta(d, 0, me), meta(mine, 2, r), r, me);
        if (meta(mine, 0, r) != meta(d, 2, me)) return differ(meta(mine, 0, r), meta(d, 2, me), me, r);
        break;
      default: break;
    }
    return 0;
  }
};

}  // namespace

int compare_args(const operation& op, const post_data& mine, int r, const post_data& d, std::string& why) {
  auto who = [&] { return "thread " + std::to_string(op.t->thread_of(r)); };
  if (d.status) return why = who() + " failed its call", d.status;
  if (d.kind != op.kind) return why = who() + " called " + name_of(d.kind), UPCCOLL_ERROR;
  if ((d.flags & sync_bits) != (mine.flags & sync_bits))
    return why = "the sync flags are " + str(mine.flags & sync_bits) + " on this thread but " + str(d.flags & sync_bits) +
                 " on " + who(),
           UPCCOLL_ERROR_FLAGS;
  // UPCCOLL_IN_PLACE: every member or none where it is not the root's alone
  // (MPI's rule; the stage tasks of a staged collective count on it).
  if (!rooted(op.kind) && (d.flags & post_in_place) != (mine.flags & post_in_place))
    return why = std::string("sendbuf is ") + ((mine.flags & post_in_place) ? "" : "not ") +
                 "UPCCOLL_IN_PLACE on this thread but " + ((d.flags & post_in_place) ? "is" : "is not") + " on " + who() +
                 " (every member passes it, or none)",
           UPCCOLL_ERROR_SENDBUF;
  if (rooted(op.kind) && d.root != mine.root)
    return why = "root is " + std::to_string(mine.root) + " on this thread but " + std::to_string(d.root) + " on " + who(),
           UPCCOLL_ERROR_ROOT;
  if (reduction(op.kind)) {
    if (d.dtype != mine.dtype)
      return why = "dt is " + std::to_string(mine.dtype) + " on this thread but " + std::to_string(d.dtype) + " on " + who(),
             UPCCOLL_ERROR_DATATYPE;
    if (d.op != mine.op || d.user_fn != mine.user_fn) return why = "op differs between this thread and " + who(), UPCCOLL_ERROR_UPC_OP;
    if (op.kind == collective::member_reduce_scatter && (d.count != mine.count || d.recv_bytes != mine.recv_bytes))
      return why = "recvcounts differ between this thread and " + who(), UPCCOLL_ERROR_RECVCNTS;
    if (d.count != mine.count)
      return why = "count is " + str(mine.count) + " on this thread but " + str(d.count) + " on " + who(), UPCCOLL_ERROR_COUNT;
  }
  return 0;
}

void verify_posts(operation& op) {
  if (op.kind == collective::barrier || reduction(op.kind)) return;  // no byte counts to pair
  checker c{op, op.t->size(), op.t->rank(), op.mine, {}, true};
  if (rooted(op.kind) && !snapshot(op, op.root, c.root)) return;
  c.root_ok = !rooted(op.kind) || (c.root.status == 0 && c.root.kind == op.kind);
  for (int r = 0; r < c.P; ++r) {
    post_data d;
    if (!snapshot(op, r, d)) return;
    std::string why;
    const int code = c.compare_bytes(r, d, why);
    // Re-check both posts the comparison read (counts included) before believing it.
    post_data again;
    if (!snapshot(op, r, again) || (rooted(op.kind) && !snapshot(op, op.root, again))) return;
    if (code) {
      fail_collective(op, code, why);
      return;
    }
  }
}

}  // namespace upc::coll::coop
