#include "agreement.hpp"

#include <cstring>
#include <vector>

#include "upc_types.h"

namespace upc::coll::tasks {

namespace {

constexpr int sync_bits = UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC | UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC;

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
  if (across::load_seq(p) != op.seq) return false;
  across::acquire();  // the post's fields fresh when it is on another host
  std::memcpy(static_cast<void*>(&out), &p, uses_tail(op.kind) ? sizeof(post_data) : post_head_bytes);
  std::atomic_thread_fence(std::memory_order_acquire);
  return across::load_seq(p) == op.seq;
}

status compare_posts(const operation& op, int r, const post_data& d, difference& diff) {
  using field = difference::field;
  const post_data& mine = op.mine;
  const int them = op.t->thread_of(r);
  auto differ = [&](field what, std::uint64_t ours, std::uint64_t theirs, status s) {
    diff = difference{what, ours, theirs, them, -1};
    return s;
  };
  auto signed_value = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
  if (d.status) return differ(field::failed_call, 0, 0, static_cast<status>(d.status));
  if (d.kind != op.kind)
    return differ(field::kind, static_cast<std::uint64_t>(op.kind), static_cast<std::uint64_t>(d.kind), status::failed);
  if ((d.flags & sync_bits) != (mine.flags & sync_bits))
    return differ(field::sync_flags, std::uint64_t(mine.flags & sync_bits), std::uint64_t(d.flags & sync_bits),
                  status::bad_flags);
  // In place: every member or none where it is not the root's alone (MPI's rule).
  if (!is_rooted(op.kind) && d.in_place != mine.in_place)
    return differ(field::in_place, mine.in_place, d.in_place, status::bad_send_buffer);
  if (is_rooted(op.kind) && d.root != mine.root)
    return differ(field::root, signed_value(mine.root), signed_value(d.root), status::bad_root);
  if (is_reduction(op.kind)) {
    if (d.type_arg != mine.type_arg)
      return differ(field::type, signed_value(mine.type_arg), signed_value(d.type_arg), status::bad_type);
    if (d.op_arg != mine.op_arg || d.user_fn != mine.user_fn) return differ(field::op, 0, 0, status::bad_op);
    if (op.kind == collective::member_reduce_scatter && (d.count != mine.count || d.recv_bytes != mine.recv_bytes))
      return differ(field::block_counts, 0, 0, status::bad_recv_counts);
    if (d.count != mine.count) return differ(field::count, mine.count, d.count, status::bad_count);
  }
  if (fixed_movement(op.kind)) {
    const int me = op.t->rank();
    const std::uint64_t ours = agreed_block(mine, me == op.root), theirs = agreed_block(d, r == op.root);
    if (ours != theirs) {
      // The sender and the receiver as the call sees them.
      const bool they_send = op.kind == collective::member_gather ? r != op.root
                             : (op.kind == collective::member_broadcast || op.kind == collective::member_scatter)
                                 ? r == op.root
                                 : true;
      const int my_thread = op.t->thread_of(me);
      diff = they_send ? difference{field::block_bytes, theirs, ours, them, my_thread}
                       : difference{field::block_bytes, ours, theirs, my_thread, them};
      return status::bad_count;
    }
  }
  return status::ok;
}

namespace {

// h(s, d, n): the hash of "s sends n bytes to d".
std::uint64_t pair_hash(int s, int d, std::uint64_t n) {
  auto splitmix = [](std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  return splitmix(splitmix((std::uint64_t(std::uint32_t(s)) << 32) | std::uint32_t(d)) ^ n);
}

}  // namespace

std::uint64_t pair_balance(const post_data& p, const std::uint64_t* meta, int me, int P) {
  if (p.status || !is_vector(p.kind)) return 0;
  // Every member that holds counts has them staged (a failed staging is a status).
  const bool holds_counts = p.kind == collective::member_gather_allv || p.kind == collective::member_exchangev || me == p.root;
  if (holds_counts && !meta) return 0;
  auto at = [&](int which, int r) { return meta[std::size_t(which) * std::size_t(P) + std::size_t(r)]; };
  std::uint64_t b = 0;  // arithmetic mod 2^64: sends add, receipts subtract
  switch (p.kind) {
    case collective::member_scatterv:
      if (me == p.root)
        for (int d = 0; d < P; ++d) b += pair_hash(me, d, at(0, d));
      b -= pair_hash(p.root, me, p.recv_bytes);
      break;
    case collective::member_gatherv:
      if (me == p.root)
        for (int s = 0; s < P; ++s) b -= pair_hash(s, me, at(0, s));
      b += pair_hash(me, p.root, p.send_bytes);
      break;
    case collective::member_gather_allv:
      for (int r = 0; r < P; ++r) b += pair_hash(me, r, p.send_bytes) - pair_hash(r, me, at(0, r));
      break;
    case collective::member_exchangev:
      for (int r = 0; r < P; ++r) b += pair_hash(me, r, at(0, r)) - pair_hash(r, me, at(2, r));
      break;
    default: break;
  }
  return b;
}

failure verify_pairs(const operation& op) {
  const failure agree{status::ok, {}, {}};
  if (!is_vector(op.kind)) return agree;
  const int P = op.t->size();
  std::vector<post_data> posts(static_cast<std::size_t>(P));
  std::uint64_t sum = 0;
  for (int r = 0; r < P; ++r) {
    post_data& d = posts[static_cast<std::size_t>(r)];
    if (!snapshot(op, r, d)) return agree;  // over for everyone
    // A failed call or another collective fails the collective anyway (found
    // when the post was read): there are no counts to compare.
    if (d.status || d.kind != op.kind || (is_rooted(op.kind) && d.root != op.root)) return agree;
    sum += d.pair_balance;
  }
  if (sum == 0) return agree;
  // Some pair disagrees: find the first one, in an order every member walks alike.
  for (int r = 0; r < P; ++r)  // every member that holds counts has them
    if (!posts[static_cast<std::size_t>(r)].meta && (!is_rooted(op.kind) || r == op.root)) return agree;
  auto count = [&](int holder, int which, int r) -> std::uint64_t {
    const post_data& h = posts[static_cast<std::size_t>(holder)];
    return h.meta[static_cast<std::size_t>(which) * static_cast<std::size_t>(P) + static_cast<std::size_t>(r)];
  };
  difference diff;
  auto check = [&](int s, int d, std::uint64_t sent, std::uint64_t expected) {
    if (diff.what == difference::field::none && sent != expected)
      diff = difference{difference::field::block_bytes, sent, expected, op.t->thread_of(s), op.t->thread_of(d)};
  };
  const int root = op.root;
  const auto found = [&] { return diff.what != difference::field::none; };
  for (int s = 0; s < P && !found(); ++s)
    for (int d = 0; d < P && !found(); ++d) switch (op.kind) {
        case collective::member_scatterv:
          if (s == root) check(s, d, count(root, 0, d), posts[static_cast<std::size_t>(d)].recv_bytes);
          break;
        case collective::member_gatherv:
          if (d == root) check(s, d, posts[static_cast<std::size_t>(s)].send_bytes, count(root, 0, s));
          break;
        case collective::member_gather_allv: check(s, d, posts[static_cast<std::size_t>(s)].send_bytes, count(d, 0, s)); break;
        case collective::member_exchangev: check(s, d, count(s, 0, d), count(d, 2, s)); break;
        default: break;
      }
  // The counts read live in the posting members' slots: believe them only if
  // no post has been rewritten since (a slot is reused only once its
  // collective is over for everyone, and then there is nothing to report).
  std::atomic_thread_fence(std::memory_order_acquire);
  for (int r = 0; r < P; ++r)
    if (across::load_seq(op.t->post_of(r, op.seq)) != op.seq) return agree;
  return found() ? failure{status::bad_count, diff, {}} : agree;
}

}  // namespace upc::coll::tasks
