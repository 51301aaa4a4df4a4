#include "agreement.hpp"

#include <cstring>
#include <string>

#include "upc_types.h"

namespace upc::coll::tasks {

namespace {

constexpr int sync_bits = UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC | UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC;

std::string str(std::uint64_t v) { return std::to_string(v); }

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

bool fixed_movement(collective k) {
  switch (k) {
    case collective::member_broadcast:
    case collective::member_scatter:
    case collective::member_gather:
    case collective::member_gather_all:
    case collective::member_exchange: return true;
    default: return false;
  }
}

}  // namespace

std::uint64_t fingerprint(const std::uint64_t* values, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over the 64-bit values
  for (std::size_t i = 0; i < n; ++i) {
    h ^= values[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::uint64_t agreed_block(const post_data& p, bool at_root) {
  switch (p.kind) {
    case collective::member_broadcast:
    case collective::member_scatter: return at_root ? p.send_bytes : p.recv_bytes;
    case collective::member_gather: return at_root ? p.recv_bytes : p.send_bytes;
    case collective::member_gather_all:
    case collective::member_exchange: return p.send_bytes;
    default: return 0;
  }
}

std::uint64_t agreement_key(const post_data& p, bool at_root) {
  std::uint64_t h = mix(0x51ed27, static_cast<std::uint64_t>(p.kind));
  h = mix(h, static_cast<std::uint64_t>(p.status));
  h = mix(h, static_cast<std::uint64_t>(p.flags & sync_bits));
  if (!is_rooted(p.kind)) h = mix(h, p.in_place);
  if (is_rooted(p.kind)) h = mix(h, static_cast<std::uint64_t>(p.root));
  if (is_reduction(p.kind)) {
    h = mix(h, static_cast<std::uint64_t>(p.type_arg));
    h = mix(h, p.op_arg);
    h = mix(h, reinterpret_cast<std::uintptr_t>(p.user_fn));
    h = mix(h, p.count);
    if (p.kind == collective::member_reduce_scatter) h = mix(h, p.recv_bytes);
  }
  if (fixed_movement(p.kind)) h = mix(h, agreed_block(p, at_root));
  return h | 1;  // never 0
}

bool snapshot(const operation& op, int r, post_data& out) {
  const post& p = op.t->post_of(r, op.seq);
  if (seq_of(p).load(std::memory_order_acquire) != op.seq) return false;
  std::memcpy(static_cast<void*>(&out), &p, uses_tail(op.kind) ? sizeof(post_data) : post_head_bytes);
  std::atomic_thread_fence(std::memory_order_acquire);
  return seq_of(p).load(std::memory_order_relaxed) == op.seq;
}

status compare_posts(const operation& op, int r, const post_data& d, std::string& why) {
  const post_data& mine = op.mine;
  auto who = [&] { return "thread " + std::to_string(op.t->thread_of(r)); };
  if (d.status) return why = who() + " failed its call", static_cast<status>(d.status);
  if (d.kind != op.kind) return why = who() + " called " + name_of(d.kind), status::failed;
  if ((d.flags & sync_bits) != (mine.flags & sync_bits))
    return why = "the sync flags are " + str(mine.flags & sync_bits) + " on this thread but " + str(d.flags & sync_bits) +
                 " on " + who(),
           status::bad_flags;
  // In place: every member or none where it is not the root's alone (MPI's rule).
  if (!is_rooted(op.kind) && d.in_place != mine.in_place)
    return why = std::string("sendbuf is ") + (mine.in_place ? "" : "not ") + "UPCCOLL_IN_PLACE on this thread but " +
                 (d.in_place ? "is" : "is not") + " on " + who() + " (every member passes it, or none)",
           status::bad_send_buffer;
  if (is_rooted(op.kind) && d.root != mine.root)
    return why = "root is " + std::to_string(mine.root) + " on this thread but " + std::to_string(d.root) + " on " + who(),
           status::bad_root;
  if (is_reduction(op.kind)) {
    if (d.type_arg != mine.type_arg)
      return why = "dt is " + std::to_string(mine.type_arg) + " on this thread but " + std::to_string(d.type_arg) + " on " +
                   who(),
             status::bad_type;
    if (d.op_arg != mine.op_arg || d.user_fn != mine.user_fn) return why = "op differs between this thread and " + who(), status::bad_op;
    if (op.kind == collective::member_reduce_scatter && (d.count != mine.count || d.recv_bytes != mine.recv_bytes))
      return why = "recvcounts differ between this thread and " + who(), status::bad_recv_counts;
    if (d.count != mine.count)
      return why = "count is " + str(mine.count) + " on this thread but " + str(d.count) + " on " + who(), status::bad_count;
  }
  if (fixed_movement(op.kind)) {
    const int me = op.t->rank();
    const std::uint64_t ours = agreed_block(mine, me == op.root), theirs = agreed_block(d, r == op.root);
    if (ours != theirs) {
      // Name the sender and the receiver as the call sees them.
      const bool they_send = op.kind == collective::member_gather ? r != op.root
                             : (op.kind == collective::member_broadcast || op.kind == collective::member_scatter)
                                 ? r == op.root
                                 : true;
      const std::string me_name = "thread " + std::to_string(op.t->thread_of(me));
      why = they_send ? who() + " sends " + str(theirs) + " bytes to " + me_name + ", which expects " + str(ours)
                      : me_name + " sends " + str(ours) + " bytes to " + who() + ", which expects " + str(theirs);
      return status::bad_count;
    }
  }
  return status::ok;
}

void verify_pairs(operation& op) {
  if (!is_vector(op.kind)) return;
  const int P = op.t->size(), me = op.t->rank();
  const post_data& mine = op.mine;
  post_data root{};
  if (is_rooted(op.kind) && (!snapshot(op, op.root, root) || root.status || root.kind != op.kind)) return;
  auto who = [&](int r) { return "thread " + std::to_string(op.t->thread_of(r)); };
  auto meta = [&](const post_data& p, int which, int rank) {
    return p.meta[static_cast<std::size_t>(which) * static_cast<std::size_t>(P) + static_cast<std::size_t>(rank)];
  };
  for (int r = 0; r < P; ++r) {
    post_data d;
    if (!snapshot(op, r, d)) return;  // over for everyone
    if (d.status || d.kind != op.kind) continue;  // reported when it was seen
    std::string why;
    auto differ = [&](std::uint64_t sent, std::uint64_t received, int from, int to) {
      why = who(from) + " sends " + str(sent) + " bytes to " + who(to) + ", which expects " + str(received);
    };
    switch (op.kind) {
      case collective::member_scatterv:
        if (meta(root, 0, r) != d.recv_bytes) differ(meta(root, 0, r), d.recv_bytes, op.root, r);
        break;
      case collective::member_gatherv:
        if (meta(root, 0, r) != d.send_bytes) differ(d.send_bytes, meta(root, 0, r), r, op.root);
        break;
      case collective::member_gather_allv:
        if (meta(mine, 0, r) != d.send_bytes) differ(d.send_bytes, meta(mine, 0, r), r, me);
        break;
      case collective::member_exchangev:
        if (meta(d, 0, me) != meta(mine, 2, r)) differ(meta(d, 0, me), meta(mine, 2, r), r, me);
        else if (meta(mine, 0, r) != meta(d, 2, me)) differ(meta(mine, 0, r), meta(d, 2, me), me, r);
        break;
      default: break;
    }
    // Re-check both posts the comparison read (counts included) before believing it.
    post_data again;
    if (!snapshot(op, r, again) || (is_rooted(op.kind) && !snapshot(op, op.root, again))) return;
    if (!why.empty()) {
      fail_collective(op, status::bad_count, why);
      return;
    }
  }
}

}  // namespace upc::coll::tasks
