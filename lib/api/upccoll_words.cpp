#include "upccoll_words.hpp"

#include <cstdio>

#include "upccoll_state.hpp"

namespace upccoll_front {

using upc::coll::collective;
using field = upc::coll::tasks::difference::field;

const char* function_name(collective kind) noexcept {
  switch (kind) {
    case collective::barrier: return "upccoll_barrier";
    case collective::member_broadcast: return "upccoll_bcast";
    case collective::member_scatter: return "upccoll_scatter";
    case collective::member_scatterv: return "upccoll_scatterv";
    case collective::member_gather: return "upccoll_gather";
    case collective::member_gatherv: return "upccoll_gatherv";
    case collective::member_gather_all: return "upccoll_allgather";
    case collective::member_gather_allv: return "upccoll_allgatherv";
    case collective::member_exchange: return "upccoll_alltoall";
    case collective::member_exchangev: return "upccoll_alltoallv";
    case collective::member_reduce: return "upccoll_reduce";
    case collective::member_allreduce: return "upccoll_allreduce";
    case collective::member_reduce_scatter: return "upccoll_reduce_scatter";
    case collective::member_exclusive_scan: return "upccoll_scan";
    case collective::member_inclusive_scan: return "upccoll_scan_inclusive";
    default: return nullptr;
  }
}

namespace {

std::string str(std::uint64_t v) { return std::to_string(v); }
std::string signed_str(std::uint64_t v) { return std::to_string(static_cast<std::int64_t>(v)); }
std::string thread(int t) { return "thread " + std::to_string(t); }

// "X is MINE on this thread but THEIRS on thread T"
std::string differs(const char* what, const std::string& mine, const std::string& theirs, int t) {
  return std::string(what) + " is " + mine + " on this thread but " + theirs + " on " + thread(t);
}

}  // namespace

std::string words(const upc::coll::tasks::failure& f) {
  const upc::coll::tasks::difference& d = f.diff;
  switch (d.what) {
    case field::none: return f.text;
    case field::failed_call: return thread(d.thread) + " failed its call";
    case field::kind: {
      const char* name = function_name(static_cast<collective>(d.theirs));
      return thread(d.thread) + " called " + (name ? name : upc::coll::name_of(static_cast<collective>(d.theirs)));
    }
    case field::sync_flags:
      return "the sync flags are " + str(d.mine) + " on this thread but " + str(d.theirs) + " on " + thread(d.thread);
    case field::in_place:
      return std::string("sendbuf is ") + (d.mine ? "" : "not ") + "UPCCOLL_IN_PLACE on this thread but " +
             (d.theirs ? "is" : "is not") + " on " + thread(d.thread) + " (every member passes it, or none)";
    case field::root: return differs("root", signed_str(d.mine), signed_str(d.theirs), d.thread);
    case field::type: return differs("dt", signed_str(d.mine), signed_str(d.theirs), d.thread);
    case field::op: return "op differs between this thread and " + thread(d.thread);
    case field::block_counts: return "recvcounts differ between this thread and " + thread(d.thread);
    case field::count: return differs("count", str(d.mine), str(d.theirs), d.thread);
    case field::block_bytes:
      return thread(d.thread) + " sends " + str(d.mine) + " bytes to " + thread(d.receiver) + ", which expects " +
             str(d.theirs);
    case field::own_bytes:
      return thread(d.thread) + " sends " + str(d.mine) + " bytes to itself but receives " + str(d.theirs);
  }
  return f.text;
}

namespace {

void report_engine(const char* function, const upc::coll::tasks::failure& f, int seen_by_thread) {
  std::fprintf(stderr, "upcemu: %s: %s%s (seen by thread %d): %s\n", function, words(f).c_str(), site_text().c_str(),
               seen_by_thread, upccoll_error_name(from_status(f.code)));
}

}  // namespace

const upc::coll::tasks::front_end engine_words{"upccoll (completing what is in flight)", "upccoll (staged counts)",
                                               "upccoll (staged input)", report_engine, words};

}  // namespace upccoll_front
