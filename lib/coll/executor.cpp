#include "executor.hpp"

#include <algorithm>
#include <cstring>

#include "../runtime/collective_call.hpp"
#include "../runtime/dsm.hpp"
#include "../runtime/host_words.hpp"
#include "../runtime/traffic.hpp"

namespace upc::coll {

namespace {
bool in_all(upc_flag_t f) { return (f & (UPC_IN_MYSYNC | UPC_IN_NOSYNC)) == 0 || (f & UPC_IN_ALLSYNC); }
bool out_all(upc_flag_t f) { return (f & (UPC_OUT_MYSYNC | UPC_OUT_NOSYNC)) == 0 || (f & UPC_OUT_ALLSYNC); }
bool epoch_reached(std::uint32_t v, std::uint32_t target) { return static_cast<std::int32_t>(v - target) >= 0; }
}  // namespace

// Every flag is published with this execution's own epoch (not the team's
// latest), so with several non-blocking collectives in flight an earlier one can
// never satisfy a later one's waiters.
execution::execution(const request& rq, team& t, plan& p)
    : rq_(rq), t_(t), w_(t), p_(p), epoch_(w_.next_epoch(static_cast<std::uint32_t>(p.stages))) {
  w_.entered_hash(t_.rank()).store(detail::this_call().hash, std::memory_order_relaxed);  // published with entered
  w_.publish(w_.entered(t_.rank()), epoch_);
}

bool execution::ready(const std::atomic<std::uint32_t>& flag, std::uint32_t target) const {
  if (!detail::several_hosts()) return epoch_reached(flag.load(std::memory_order_acquire), target);
  // Across hosts: the flag from its owner, and then the data it announces fresh.
  if (!epoch_reached(detail::load_word(flag), target)) return false;
  detail::dsm_acquire();
  return true;
}

// Records what we wait for and reports whether we must stop here. Stage s of a
// ready flag is epoch epoch_ + s; every other flag waits for epoch_.
bool execution::blocked_on(const std::atomic<std::uint32_t>& flag, int rank, int stage) {
  const std::uint32_t target = epoch_ + static_cast<std::uint32_t>(stage);
  if (ready(flag, target)) return false;
  waiting_on_ = &flag;
  waiting_rank_ = rank;
  waiting_target_ = target;
  return true;
}

// The team barrier of the ALLSYNC policies, split so advance() never blocks:
// arrives once, then reports whether everyone has.
bool execution::team_barrier_passed() {
  if (!barrier_pending_) {
    barrier_phase_ = t_.barrier_arrive();
    barrier_pending_ = true;
  }
  if (!t_.barrier_passed(barrier_phase_)) {
    waiting_on_ = &t_.barrier_word();
    waiting_rank_ = -2;
    waiting_target_ = barrier_phase_;
    return false;
  }
  barrier_pending_ = false;
  return true;
}

// IN_MYSYNC calls compare their call with the first peer they waited for, by
// the fingerprint that sits beside its "entered" flag (already in cache): every
// rank comparing with one peer it touches chains the ranks together.
// Calls are numbered per thread, so only world-team calls can be matched this way.
void execution::match_peer(int rank) {
  if (matched_peer_ || !t_.is_world()) return;
  if (!detail::on_my_host(t_.thread_of(rank))) return;  // its call records are on its host
  matched_peer_ = true;
  if (w_.entered(rank).load(std::memory_order_acquire) != epoch_) return;  // moved on: nothing to compare
  detail::match_call_with(t_.thread_of(rank), w_.entered_hash(rank).load(std::memory_order_relaxed));
}

bool execution::advance() {
  const int me = t_.rank();
  waiting_on_ = nullptr;
  switch (stage_) {
    case stage::in_sync:
      if (in_all(rq_.flags)) {
        if (!team_barrier_passed()) return false;
      } else if (rq_.flags & UPC_IN_MYSYNC) {
        for (; index_ < p_.touches.size(); ++index_) {
          if (blocked_on(w_.entered(p_.touches[index_]), p_.touches[index_])) return false;
          match_peer(p_.touches[index_]);  // it has entered: is it the same call?
        }
      }
      stage_ = stage::steps;
      index_ = 0;
      [[fallthrough]];
    case stage::steps:
      for (; index_ < p_.steps.size(); ++index_) {
        const step& s = p_.steps[index_];
        if (s.is_data()) {
          run_data_step(s, p_);
          continue;
        }
        switch (s.kind) {
          case step::wait_ready:
            if (blocked_on(w_.ready(s.peer), s.peer, s.stage)) return false;
            break;
          case step::publish_ready: w_.publish(w_.ready(me), epoch_ + static_cast<std::uint32_t>(s.stage)); break;
          case step::wait_ready2:
            if (blocked_on(w_.ready2(s.peer), s.peer)) return false;
            break;
          case step::publish_ready2: w_.publish(w_.ready2(me), epoch_); break;
          case step::ack: w_.publish(w_.ack(s.peer, me), epoch_); break;
          case step::wait_acks:
            for (; sub_ < p_.ack_from.size(); ++sub_)
              if (blocked_on(w_.ack(me, p_.ack_from[sub_]), p_.ack_from[sub_])) return false;
            sub_ = 0;
            break;
          default: break;
        }
      }
      stage_ = stage::out_publish;
      index_ = 0;
      [[fallthrough]];
    case stage::out_publish:
      if (out_all(rq_.flags)) {
        if (!team_barrier_passed()) return false;
        stage_ = stage::finished;
        return true;
      }
      if (rq_.flags & UPC_OUT_MYSYNC)
        for (int r : p_.touches) w_.publish(w_.done(r, me), epoch_);
      stage_ = stage::out_wait;
      [[fallthrough]];
    case stage::out_wait:
      if (rq_.flags & UPC_OUT_MYSYNC) {
        for (; index_ < p_.touchers.size(); ++index_)
          if (blocked_on(w_.done(me, p_.touchers[index_]), p_.touchers[index_])) return false;
      }
      stage_ = stage::finished;
      [[fallthrough]];
    case stage::finished:
      return true;
  }
  return true;
}

void execution::run() {
  if (detail::several_hosts()) {
    // No futex reaches across hosts: poll, politely.
    detail::blocked_scope blocked(detail::blocked_kind::collective, -1, rq_.function, nullptr, 0);
    for (int round = 0; !advance(); ++round) detail::polite_pause(round);
    return;
  }
  while (!advance()) w_.wait(*waiting_on_, waiting_target_, waiting_rank_, rq_.function);
}

void execute(const request& rq, team& t, plan& p) {
  if (detail::traffic::g_active) {
    // how many other members touch this member's data (or read its scratch) in this call
    std::vector<int> touching = p.touchers;
    touching.insert(touching.end(), p.ack_from.begin(), p.ack_from.end());
    std::sort(touching.begin(), touching.end());
    touching.erase(std::unique(touching.begin(), touching.end()), touching.end());
    detail::traffic::fan_in(static_cast<int>(touching.size()), p.algorithm);
  }
  execution e(rq, t, p);
  e.run();
}

}  // namespace upc::coll
