#include "race_model.hpp"

#include <algorithm>

#include "../runtime/call_site.hpp"
#include "../runtime/collective_call.hpp"
#include "request.hpp"
#include "team.hpp"
#include "upc/runtime.hpp"
#include "validate.hpp"

namespace upc::coll {

using namespace upc::detail;

in_sync in_sync_of(upc_flag_t f) noexcept {
  if (f & UPC_IN_ALLSYNC) return in_sync::all;
  if (f & UPC_IN_MYSYNC) return in_sync::mine;
  if (f & UPC_IN_NOSYNC) return in_sync::none;
  return in_sync::all;
}
out_sync out_sync_of(upc_flag_t f) noexcept {
  if (f & UPC_OUT_ALLSYNC) return out_sync::all;
  if (f & UPC_OUT_MYSYNC) return out_sync::mine;
  if (f & UPC_OUT_NOSYNC) return out_sync::none;
  return out_sync::all;
}

access_site call_site_of(const char* function) noexcept {
  const current_call& c = this_call();
  if (c.function && c.file) return access_site{c.file, c.line, nullptr, function};
  if (tl_c_site.file) return access_site{tl_c_site.file, tl_c_site.line, nullptr, function};
  return access_site{nullptr, 0, nullptr, function};
}

namespace {
thread_local race_call* tl_open = nullptr;
}

struct race_call::state {
  team& t;
  out_sync out = out_sync::all;
  bool finished = false;
  access_site site;
  race_clock agent;         // agent(this thread)'s clock for the call
  std::vector<area> areas;  // this thread's bytes the call reads and writes
  race_quiet_scope quiet;
  explicit state(team& members) : t(members) {}
};

race_call* race_call::open() noexcept { return tl_open; }

void race_call::begin(team& t, upc_flag_t flags, const char* function, const access_site* site) {
  if (tl_open || race_threads() == 0) return;
  race_clock entry = race_clock_now();
  race_tick();  // what this thread does after entering is not part of its entry
  s_ = new state(t);  // quiet from here on
  tl_open = this;
  state& s = *s_;
  s.out = out_sync_of(flags);
  s.site = site ? *site : call_site_of(function);
  s.site.collective = function;
  switch (in_sync_of(flags)) {
    case in_sync::all: {
      // The members exchange their entry clocks (with the agents their earlier
      // UPC_OUT_NOSYNC calls left for the next barrier: everyone has returned
      // from those once everyone has entered this one).
      const race_clock deferred = race_deferred();
      for (std::size_t i = 0; i < entry.size(); ++i) entry[i] = std::max(entry[i], deferred[i]);
      race_barrier_exchange(&entry, &s.agent);
      t.barrier(function);
      race_clear_deferred();
      race_set_floor(t.race_identity(), s.agent);
      break;
    }
    case in_sync::mine: s.agent = entry; break;
    case in_sync::none: s.agent = race_floor(t.race_identity()); break;
  }
  s.agent[static_cast<std::size_t>(race_threads() + tl_mythread)] = race_next_agent_epoch(tl_mythread);
}

void race_call::end() noexcept {
  delete s_;
  s_ = nullptr;
  tl_open = nullptr;
}

// The accesses are noted at the end of the call's data movement (finish): a
// call that fails on every member (an error the program catches) moved nothing
// it answers for.
void race_call::note(const area& a) {
  if (!s_ || a.thread != tl_mythread || a.hi <= a.lo) return;
  s_->areas.push_back(a);
}

void race_call::note(const std::vector<area>& areas) {
  if (!s_) return;
  for (const area& a : areas) note(a);
}

void race_call::finish_active() {
  state& s = *s_;
  if (s.finished) return;
  s.finished = true;
  {
    race_agent_scope agent(tl_mythread, s.agent);
    for (const area& a : s.areas) {
      char* p = g_partitions + static_cast<std::uint64_t>(a.thread) * g_partition_bytes + a.lo;
      note_shared_access(p, a.hi - a.lo, a.write ? access_write : access_read, s.site);
    }
  }
  switch (s.out) {
    case out_sync::all: {
      // Every member's agent has noted its accesses before it arrives here, so
      // nobody returns before they are all noted.
      race_clock all;
      race_barrier_exchange(&s.agent, &all);
      s.t.barrier(s.site.collective);
      race_join(all);
      break;
    }
    case out_sync::mine: race_join(s.agent); break;
    case out_sync::none: race_defer_to_barrier(s.agent); break;
  }
}

// ---- the task executor ----

namespace {
// A key of the detector's own for (team, slot of the call, in or out).
std::uint64_t task_key(const team& t, std::uint32_t seq, int which) {
  const auto base = reinterpret_cast<std::uintptr_t>(t.race_identity());
  return (base ? base : 1) * 128 + (seq % 32) * 2 + static_cast<std::uint64_t>(which);
}

void note_as_agent(race_clock& agent, const std::vector<area>& areas, const access_site& site) {
  race_agent_scope scope(tl_mythread, agent);
  for (const area& a : areas) {
    if (a.thread != tl_mythread || a.hi <= a.lo) continue;
    char* p = g_partitions + static_cast<std::uint64_t>(a.thread) * g_partition_bytes + a.lo;
    note_shared_access(p, a.hi - a.lo, a.write ? access_write : access_read, site);
  }
}

void set_agent_epoch(race_clock& c) {
  c[static_cast<std::size_t>(race_threads() + tl_mythread)] = race_next_agent_epoch(tl_mythread);
}

void join_into(race_clock& into, const race_clock& from) {
  for (std::size_t i = 0; i < into.size() && i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}
}  // namespace

void race_task_start(race_task& r, const team& t, std::uint32_t seq, bool is_barrier, int flags,
                     const std::vector<area>* areas, const access_site& site) {
  r = race_task{};
  if (!g_races || race_threads() == 0) return;
  r.active = true;
  r.site = site;
  r.key_in = task_key(t, seq, 0);
  r.key_out = task_key(t, seq, 1);
  race_clock entry = race_clock_now();
  race_tick();
  const bool in_all = is_barrier || (flags & UPC_IN_ALLSYNC);
  if (in_all) {
    // Everyone has returned from this member's earlier UPC_OUT_NOSYNC
    // collectives once everyone has started this one.
    race_clock published = entry;
    join_into(published, race_deferred());
    race_publish(r.key_in, published);
  }
  if (is_barrier) {
    r.barrier = true;
    return;
  }
  r.out_all = (flags & UPC_OUT_ALLSYNC) != 0;
  if (in_all && !r.out_all) {
    r.note_at_completion = true;
    r.clock = entry;
    if (areas) r.areas = *areas;
    return;
  }
  r.clock = entry;
  set_agent_epoch(r.clock);
  if (areas) note_as_agent(r.clock, *areas, r.site);
  if (r.out_all) race_publish(r.key_out, r.clock);
}

void race_task_complete(race_task& r) {
  if (!r.active || r.completed) return;
  r.completed = true;
  if (r.barrier) {
    race_join(race_read(r.key_in));
    return;
  }
  if (r.note_at_completion) {
    race_clock agent = race_read(r.key_in);
    join_into(agent, r.clock);
    set_agent_epoch(agent);
    note_as_agent(agent, r.areas, r.site);
    race_join(agent);
    return;
  }
  race_join(r.out_all ? race_read(r.key_out) : r.clock);
}

void note_request(race_call& call, const request& rq, const team& t) {
  if (!call.active()) return;
  if (rq.chunks) {
    for (const chunk& c : *rq.chunks) {
      if (!c.bytes) continue;
      if (!c.src.is_private && !(rq.in_place && c.src == c.dst))
        call.note(area{c.src.thread, c.src.offset, c.src.offset + c.bytes, false, "src", -1});
      if (!c.dst.is_private) call.note(area{c.dst.thread, c.dst.offset, c.dst.offset + c.bytes, true, "dst", -1});
    }
    return;
  }
  thread_local std::vector<area> areas;
  areas.clear();
  areas_of(rq, t, areas);
  call.note(areas);
}

}  // namespace upc::coll
