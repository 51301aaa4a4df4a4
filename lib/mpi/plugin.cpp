// libupcemu_mpi.so: the MPI calls of the mpi backend (lib/runtime/backend_mpi.cpp),
// behind the table of lib/runtime/mpi_plugin.hpp.
// No C++ bindings: only the C API is used, and their headers warn.
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <sys/prctl.h>
#include <time.h>

#include <atomic>
#include <climits>
#include <mutex>
#include <cstdlib>
#include <cstring>
#include <string>
#include <algorithm>
#include <vector>

#include "../runtime/mpi_plugin.hpp"
#include "../runtime/patient_poll.hpp"

namespace {
using upc::detail::mpi_world;

thread_local std::string g_error;  // each thread reads its own call's
MPI_Comm g_host = MPI_COMM_NULL;
MPI_Comm g_rpc = MPI_COMM_NULL;   // requests to servers and their replies
MPI_Comm g_sync = MPI_COMM_NULL;  // UPC barriers across hosts
constexpr int request_tag = 1;  // see data_tag

int note(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return 0;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  g_error = std::string(call) + ": " + text;
  return rc;
}

int init(mpi_world* w) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    // MULTIPLE: the monitor thread of rank 0 may call MPI_Abort while the UPC
    // thread is inside MPI.
    if (int rc = note(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &w->thread_level), "MPI_Init_thread"))
      return rc;
  } else {
    MPI_Query_thread(&w->thread_level);
  }
  // Numbered for the runtime, which sees no mpi.h (the standard orders them).
  const int level = w->thread_level;
  w->thread_level = level == MPI_THREAD_MULTIPLE ? 3 : level == MPI_THREAD_SERIALIZED ? 2 : level == MPI_THREAD_FUNNELED ? 1 : 0;
  // Errors come back as codes and are reported by the runtime in its words.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_size(MPI_COMM_WORLD, &w->size);
  MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
  // UPCEMU_MPI_HOSTS=N (tests): N pretend hosts of consecutive ranks, each
  // with a segment of its own, so that the code for ranks on several hosts
  // runs on one machine without namespaces (docs/backends.md).
  const char* pretend = std::getenv("UPCEMU_MPI_HOSTS");
  const int pretend_hosts = pretend ? std::atoi(pretend) : 0;
  if (pretend_hosts > 1) {
    const int color = static_cast<int>(static_cast<long long>(w->rank) * pretend_hosts / w->size);
    if (int rc = note(MPI_Comm_split(MPI_COMM_WORLD, color, w->rank, &g_host), "MPI_Comm_split")) return rc;
  } else if (int rc = note(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &g_host),
                           "MPI_Comm_split_type")) {
    return rc;
  }
  MPI_Comm_size(g_host, &w->host_size);
  MPI_Comm_rank(g_host, &w->host_rank);
  // Hosts numbered by their lowest rank: a host's leader is its host rank 0,
  // which is also its lowest world rank (the split keeps world order).
  int leader = w->host_rank == 0 ? 1 : 0, before = 0;
  if (int rc = note(MPI_Exscan(&leader, &before, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Exscan")) return rc;
  if (w->rank == 0) before = 0;  // MPI_Exscan leaves rank 0's result undefined
  int host = leader ? before : 0;
  if (int rc = note(MPI_Bcast(&host, 1, MPI_INT, 0, g_host), "MPI_Bcast")) return rc;
  w->host = host;
  if (int rc = note(MPI_Comm_dup(MPI_COMM_WORLD, &g_rpc), "MPI_Comm_dup")) return rc;
  MPI_Comm_set_errhandler(g_rpc, MPI_ERRORS_RETURN);
  return note(MPI_Allreduce(&leader, &w->hosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
}

// Waits for `rq` without holding a core: a few polls, then sleeps that grow
// to 200 us (ranks oversubscribe the cores; a blocking MPI wait spins).
int wait_politely(MPI_Request* rq, const char* what) {
  long pause_ns = 0;
  for (int polls = 0;; ++polls) {
    int done = 0;
    if (int rc = note(MPI_Test(rq, &done, MPI_STATUS_IGNORE), what)) return rc;
    if (done) return 0;
    if (polls < 64) continue;
    pause_ns = pause_ns ? std::min(pause_ns * 2, 200'000L) : 2'000L;
    timespec ts{0, pause_ns};
    nanosleep(&ts, nullptr);
  }
}

const char* last_error() { return g_error.c_str(); }

int bcast(void* data, std::uint64_t bytes, int root) {
  auto* p = static_cast<char*>(data);
  while (bytes > 0) {  // MPI counts are int
    const int n = bytes > static_cast<std::uint64_t>(INT_MAX) ? INT_MAX : static_cast<int>(bytes);
    if (int rc = note(MPI_Bcast(p, n, MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast")) return rc;
    p += n;
    bytes -= static_cast<std::uint64_t>(n);
  }
  return 0;
}

int allreduce_min(std::int64_t* value) {
  return note(MPI_Allreduce(MPI_IN_PLACE, value, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
}

int barrier() { return note(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

void abort_all(int status) { MPI_Abort(MPI_COMM_WORLD, status); }

void free_agreement_types();

int finalize() {
  free_agreement_types();
  for (MPI_Comm* c : {&g_host, &g_rpc, &g_sync})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
  return note(MPI_Finalize(), "MPI_Finalize");
}

// The same order as upc::coll::mpi_op.
enum { op_bcast, op_scatter, op_gather, op_allgather, op_alltoall };

// The teams' communicators; a handle is an index + 1 (0: MPI_COMM_WORLD).
// The mpi family's live until MPI_Finalize, as the teams' blocks live until
// the run ends; the non-blocking collectives' are freed with their team.
// g_lock guards the tables (communicators, requests): the UPC thread and the
// rank's thread for non-blocking collectives (lib/runtime/mpi_jobs.cpp) both
// use them.
std::vector<MPI_Comm> g_comms;
std::mutex g_lock;

// Stores `v` in the first free entry of `table` (free: `null`); its handle, the index + 1.
template <class T>
std::uint64_t keep_in(std::vector<T>& table, T v, T null) {
  std::lock_guard<std::mutex> l(g_lock);
  std::size_t i = 0;
  while (i < table.size() && table[i] != null) ++i;
  if (i == table.size()) table.push_back(v);
  else table[i] = v;
  return i + 1;
}

std::uint64_t keep_comm(MPI_Comm c) { return keep_in(g_comms, c, MPI_COMM_NULL); }

MPI_Comm comm_of(std::uint64_t handle) {
  if (handle == 0) return MPI_COMM_WORLD;
  std::lock_guard<std::mutex> l(g_lock);
  return g_comms.at(handle - 1);
}

int team_comm(const int* ranks, int n, int tag, std::uint64_t* comm) {
  MPI_Group world, group;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  if (int rc = note(MPI_Group_incl(world, n, ranks, &group), "MPI_Group_incl")) return rc;
  MPI_Comm made = MPI_COMM_NULL;
  // A rank takes part in one creation at a time, in the order of its calls,
  // as every collective call is ordered; the tag keeps the mpi family's
  // creations (at a team's first call) apart from upccoll_team_split's.
  const int rc = note(MPI_Comm_create_group(MPI_COMM_WORLD, group, tag, &made), "MPI_Comm_create_group");
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  if (rc) return rc;
  MPI_Comm_set_errhandler(made, MPI_ERRORS_RETURN);
  *comm = keep_comm(made);
  return 0;
}

// MPI counts are int: the count of a piece, or MPI_ERR_COUNT (said) when it does not fit.
int piece_count(std::uint64_t bytes, int& n) {
  if (bytes > static_cast<std::uint64_t>(INT_MAX)) {
    g_error = "a piece of " + std::to_string(bytes) + " bytes is more than an MPI count of bytes holds (2 GiB)";
    return MPI_ERR_COUNT;
  }
  n = static_cast<int>(bytes);
  return 0;
}

int collective(int op, const void* send, void* recv, std::uint64_t bytes, int root, std::uint64_t handle) {
  const MPI_Comm comm = comm_of(handle);
  int n = 0;
  if (int rc = piece_count(bytes, n)) return rc;
  void* s = const_cast<void*>(send);
  switch (op) {
    case op_bcast: {
      // UPC's root also fills its own block, which MPI_Bcast does not. Small
      // pieces: that copy, then MPI_Bcast from the block. From 32 KiB on the
      // root sends from its source with MPI_Ibcast and copies meanwhile (the
      // choice depends on `bytes` only, so every rank makes the same one: a
      // blocking collective never matches a non-blocking one). The 32 KiB: measured on the 2-vCPU VM
      // (docs/benchmarks.md, "The mpi backend").
      int rank = 0;
      MPI_Comm_rank(comm, &rank);
      const bool copy = rank == root && send != recv;
      if (bytes < (32u << 10)) {
        if (copy) std::memcpy(recv, send, bytes);
        return note(MPI_Bcast(recv, n, MPI_BYTE, root, comm), "MPI_Bcast");
      }
      MPI_Request rq;
      if (int rc = note(MPI_Ibcast(copy ? s : recv, n, MPI_BYTE, root, comm, &rq), "MPI_Ibcast")) return rc;
      if (copy) std::memcpy(recv, send, bytes);
      return note(MPI_Wait(&rq, MPI_STATUS_IGNORE), "MPI_Wait");
    }
    case op_scatter: return note(MPI_Scatter(s, n, MPI_BYTE, recv, n, MPI_BYTE, root, comm), "MPI_Scatter");
    case op_gather: return note(MPI_Gather(s, n, MPI_BYTE, recv, n, MPI_BYTE, root, comm), "MPI_Gather");
    case op_allgather: return note(MPI_Allgather(s, n, MPI_BYTE, recv, n, MPI_BYTE, comm), "MPI_Allgather");
    case op_alltoall: return note(MPI_Alltoall(s, n, MPI_BYTE, recv, n, MPI_BYTE, comm), "MPI_Alltoall");
    default: g_error = "unknown collective " + std::to_string(op); return MPI_ERR_OP;
  }
}

// ---- ranks on several hosts ----

int host_bcast(void* data, std::uint64_t bytes) {
  if (bytes > static_cast<std::uint64_t>(INT_MAX)) return MPI_ERR_COUNT;
  return note(MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, 0, g_host), "MPI_Bcast");
}

int allreduce_min_n(std::int64_t* values, int n, int host) {
  return note(MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_INT64_T, MPI_MIN, host ? g_host : MPI_COMM_WORLD),
              "MPI_Allreduce");
}

int allgather(const void* send, void* recv, std::uint64_t bytes) {
  if (bytes > static_cast<std::uint64_t>(INT_MAX)) return MPI_ERR_COUNT;
  const int n = static_cast<int>(bytes);
  return note(MPI_Allgather(send, n, MPI_BYTE, recv, n, MPI_BYTE, MPI_COMM_WORLD), "MPI_Allgather");
}

// A request without reply: MPI_Issend, complete only once the server has taken
// it, so that none is left unread when the run's servers stop (a late one
// would reach the next run's server with an address of the old segment).
int rpc_send(int rank, const void* request, std::uint64_t bytes) {
  if (bytes > static_cast<std::uint64_t>(INT_MAX)) return MPI_ERR_COUNT;
  MPI_Request rq;
  if (int rc = note(MPI_Issend(request, static_cast<int>(bytes), MPI_BYTE, rank, request_tag, g_rpc, &rq), "MPI_Issend"))
    return rc;
  return wait_politely(&rq, "MPI_Issend");
}

// The data of a request (rpc_call's `data`) and the replies travel in pieces
// of at most this many bytes: below the TCP transport's eager limit (64 KiB
// with its headers), so each piece leaves as soon as it is sent, into the
// socket, without a rendezvous with a receiver that may be asleep between two
// polls; all the pieces of a copy are under way at once. (UPCEMU_MPI_PIECE:
// another size, for measurements.)
std::uint64_t piece_bytes() {
  static const std::uint64_t piece = [] {
    const char* e = std::getenv("UPCEMU_MPI_PIECE");
    const long long v = e ? std::atoll(e) : 0;
    return v >= 1024 && v <= (1LL << 30) ? static_cast<std::uint64_t>(v) : std::uint64_t{32} << 10;
  }();
  return piece;
}
// Requests carry tag 1 + 2 × channel (channel 0-3: rpc_server_only added),
// their replies that tag + 1, their data tag 9 + channel.
int data_tag(int channel) { return 9 + channel; }

// Posts one non-blocking call per piece of [p, p + bytes).
template <class Post>
int in_pieces(const void* p, std::uint64_t bytes, std::vector<MPI_Request>& out, Post post) {
  const std::uint64_t piece = piece_bytes();
  for (std::uint64_t at = 0; at < bytes; at += piece) {
    MPI_Request rq;
    if (int rc = post(static_cast<const char*>(p) + at, static_cast<int>(std::min(piece, bytes - at)), &rq)) return rc;
    out.push_back(rq);
  }
  return 0;
}

// How a thread waits between polls (patient_poll.hpp): 64 polls at once,
// then sleeps that grow from 1 us to 200 us with a timer slack of 1 us
// (ranks oversubscribe the cores; a blocking MPI wait spins). Any progress
// starts it over.
struct patience : upc::detail::patient_poll {
  patience() : patient_poll(64, false) {}
  void wait() { pause(); }
};

// The server's side. One thread at a time serves: the rank's server thread,
// or a thread of the rank waiting in rpc_call, which polls MPI anyway (when
// every rank waits for its own copy, as in a collective's data step, the
// requests are served at once, not when a sleeping server thread next looks;
// and the server thread stays out of MPI meanwhile, leaving the cores and
// MPI's locks to the threads that move the bytes).
std::atomic<upc::detail::mpi_rpc_handler> g_handler{nullptr};
std::mutex g_serving;
std::atomic<int> g_callers{0};  // threads in rpc_call

// Serves one request if one came: 1, 0 when none did, or an MPI error code
// (negated), of the channels [first, last] (2 and 3: rpc_server_only). The
// caller holds g_serving.
int serve_one(upc::detail::mpi_rpc_handler handler, int first, int last) {
  thread_local std::vector<char> in, out(64);
  thread_local std::vector<MPI_Request> rq;
  int flag = 0;
  MPI_Message msg;
  MPI_Status st;
  // Requests only (odd tags): replies on this communicator are the rank's own
  // calls'.
  for (int channel = first; channel <= last && !flag; ++channel)
    if (int rc = note(MPI_Improbe(MPI_ANY_SOURCE, request_tag + 2 * channel, g_rpc, &flag, &msg, &st), "MPI_Improbe"))
      return -rc;
  if (!flag) return 0;
  int n = 0;
  MPI_Get_count(&st, MPI_BYTE, &n);
  in.resize(static_cast<std::size_t>(n) + 1);
  if (int rc = note(MPI_Mrecv(in.data(), n, MPI_BYTE, &msg, MPI_STATUS_IGNORE), "MPI_Mrecv")) return -rc;
  upc::detail::mpi_rpc_reply reply;
  reply.buffer = out.data();
  reply.capacity = out.size();
  handler(in.data(), static_cast<std::uint64_t>(n), st.MPI_SOURCE, &reply);
  const int channel = (st.MPI_TAG - request_tag) / 2;
  rq.clear();
  if (int rc = in_pieces(reply.receive_into, reply.receive_bytes, rq, [&](const char* p, int k, MPI_Request* r) {
        return note(MPI_Irecv(const_cast<char*>(p), k, MPI_BYTE, st.MPI_SOURCE, data_tag(channel), g_rpc, r), "MPI_Irecv");
      }))
    return -rc;
  if (int rc = note(MPI_Waitall(static_cast<int>(rq.size()), rq.data(), MPI_STATUSES_IGNORE), "MPI_Waitall")) return -rc;
  if (reply.receive_bytes) std::atomic_thread_fence(std::memory_order_seq_cst);  // written before the reply says so
  rq.clear();
  const void* from = reply.from ? reply.from : reply.buffer;
  if (int rc = in_pieces(from, reply.bytes, rq, [&](const char* p, int k, MPI_Request* r) {
        return note(MPI_Isend(p, k, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG + 1, g_rpc, r), "MPI_Isend");
      }))
    return -rc;
  if (int rc = note(MPI_Waitall(static_cast<int>(rq.size()), rq.data(), MPI_STATUSES_IGNORE), "MPI_Waitall")) return -rc;
  return 1;
}

// serve_one, unless another thread of the rank is serving.
int serve_if_free() {
  const upc::detail::mpi_rpc_handler handler = g_handler.load();
  if (!handler || !g_serving.try_lock()) return 0;
  const int r = serve_one(handler, 0, 1);
  g_serving.unlock();
  return r;
}

int rpc_call(int rank, const void* request, std::uint64_t bytes, const void* data, std::uint64_t data_bytes, void* reply,
             std::uint64_t reply_bytes, int channel) {
  if (bytes > static_cast<std::uint64_t>(INT_MAX)) return MPI_ERR_COUNT;
  const int tag = request_tag + 2 * channel;
  thread_local std::vector<MPI_Request> rq;
  thread_local std::vector<int> done;
  rq.clear();
  // The replies are posted first (one thread of a rank has one call out at a
  // time), then the request, then its data.
  if (int rc = in_pieces(reply, reply_bytes, rq, [&](const char* p, int n, MPI_Request* r) {
        return note(MPI_Irecv(const_cast<char*>(p), n, MPI_BYTE, rank, tag + 1, g_rpc, r), "MPI_Irecv");
      }))
    return rc;
  rq.emplace_back();
  if (int rc = note(MPI_Isend(request, static_cast<int>(bytes), MPI_BYTE, rank, tag, g_rpc, &rq.back()), "MPI_Isend"))
    return rc;
  if (int rc = in_pieces(data, data_bytes, rq, [&](const char* p, int n, MPI_Request* r) {
        return note(MPI_Isend(p, n, MPI_BYTE, rank, data_tag(channel), g_rpc, r), "MPI_Isend");
      }))
    return rc;
  // Until every piece is in: polls that also serve the rank's requests.
  done.resize(rq.size());
  g_callers.fetch_add(1);
  std::size_t open = rq.size();
  int rc = 0;
  for (patience p; open > 0 && rc == 0; p.wait()) {
    int n = 0;
    rc = note(MPI_Testsome(static_cast<int>(rq.size()), rq.data(), &n, done.data(), MPI_STATUSES_IGNORE), "MPI_Testsome");
    if (rc || n == MPI_UNDEFINED) break;
    open -= static_cast<std::size_t>(n);
    const int served = serve_if_free();
    if (served < 0) rc = -served;
    if (n > 0 || served > 0) p.progressed();
  }
  g_callers.fetch_sub(1);
  return rc;
}

int rpc_serve(upc::detail::mpi_rpc_handler handler, const volatile int* stop) {
  g_handler.store(handler);
  for (patience p; !*stop; p.wait()) {
    std::unique_lock<std::mutex> l(g_serving, std::try_to_lock);
    if (!l) continue;
    // While a thread of the rank waits in rpc_call, it serves all but the
    // requests for the server thread alone.
    const int served = serve_one(handler, g_callers.load() > 0 ? 2 : 0, 3);
    if (served < 0) {
      g_handler.store(nullptr);
      return -served;
    }
    // Busy for a while after a request (a page of a copy is followed by the
    // next), then the sleeps of patience.
    if (served) p.progressed();
  }
  std::lock_guard<std::mutex> l(g_serving);  // no thread serves for the stopped server
  g_handler.store(nullptr);
  return 0;
}

// MPI_Request handles kept here; the runtime holds their index + 1.
std::vector<MPI_Request> g_requests;

std::uint64_t keep(MPI_Request rq) { return keep_in(g_requests, rq, MPI_REQUEST_NULL); }

int sync_begin() {
  // The last run's communicator may hold requests that never complete (ranks
  // stopped by a failure): it is freed when they do, if ever, and forgotten.
  if (g_sync != MPI_COMM_NULL) MPI_Comm_free(&g_sync);
  std::lock_guard<std::mutex> l(g_lock);
  for (MPI_Request& rq : g_requests) rq = MPI_REQUEST_NULL;
  if (int rc = note(MPI_Comm_dup(MPI_COMM_WORLD, &g_sync), "MPI_Comm_dup")) return rc;
  MPI_Comm_set_errhandler(g_sync, MPI_ERRORS_RETURN);
  return 0;
}

int ibarrier(std::uint64_t* request) {
  MPI_Request rq;
  if (int rc = note(MPI_Ibarrier(g_sync, &rq), "MPI_Ibarrier")) return rc;
  *request = keep(rq);
  return 0;
}

int iallreduce_min_n(std::int64_t* values, int n, std::uint64_t* request) {
  MPI_Request rq;
  if (int rc = note(MPI_Iallreduce(MPI_IN_PLACE, values, n, MPI_INT64_T, MPI_MIN, g_sync, &rq), "MPI_Iallreduce"))
    return rc;
  *request = keep(rq);
  return 0;
}

int test(std::uint64_t request, int* done) {
  MPI_Request rq;
  {
    std::lock_guard<std::mutex> l(g_lock);
    rq = g_requests.at(request - 1);
  }
  // A request is tested by the one thread that started it; MPI_Test sets it to
  // MPI_REQUEST_NULL when done, which frees its entry.
  const int rc = MPI_Test(&rq, done, MPI_STATUS_IGNORE);
  std::lock_guard<std::mutex> l(g_lock);
  g_requests.at(request - 1) = rq;
  return note(rc, "MPI_Test");
}

// ---- <upccoll.h> collectives on MPI's non-blocking ones ----

int comm_dup(std::uint64_t handle, std::uint64_t* made) {
  MPI_Comm c = MPI_COMM_NULL;
  if (int rc = note(MPI_Comm_dup(comm_of(handle), &c), "MPI_Comm_dup")) return rc;
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  *made = keep_comm(c);
  return 0;
}

int comm_free(std::uint64_t handle) {
  MPI_Comm c;
  {
    std::lock_guard<std::mutex> l(g_lock);
    c = g_comms.at(handle - 1);
    g_comms.at(handle - 1) = MPI_COMM_NULL;
  }
  return note(MPI_Comm_free(&c), "MPI_Comm_free");
}

int icollective(int op, const void* send, void* recv, std::uint64_t bytes, int root, std::uint64_t handle,
                std::uint64_t* request) {
  const MPI_Comm comm = comm_of(handle);
  int n = 0;
  if (int rc = piece_count(bytes, n)) return rc;
  void* s = const_cast<void*>(send);
  MPI_Request rq;
  int rc;
  switch (op) {
    // The root passes its source as send, the others nullptr.
    case op_bcast: rc = note(MPI_Ibcast(send ? s : recv, n, MPI_BYTE, root, comm, &rq), "MPI_Ibcast"); break;
    case op_scatter: rc = note(MPI_Iscatter(s, n, MPI_BYTE, recv, n, MPI_BYTE, root, comm, &rq), "MPI_Iscatter"); break;
    case op_gather: rc = note(MPI_Igather(s, n, MPI_BYTE, recv, n, MPI_BYTE, root, comm, &rq), "MPI_Igather"); break;
    case op_allgather: rc = note(MPI_Iallgather(s, n, MPI_BYTE, recv, n, MPI_BYTE, comm, &rq), "MPI_Iallgather"); break;
    case op_alltoall: rc = note(MPI_Ialltoall(s, n, MPI_BYTE, recv, n, MPI_BYTE, comm, &rq), "MPI_Ialltoall"); break;
    default: g_error = "unknown collective " + std::to_string(op); return MPI_ERR_OP;
  }
  if (rc) return rc;
  *request = keep(rq);
  return 0;
}

int icollective_v(int op, const void* send, const int* send_counts, const int* send_displs, void* recv,
                  const int* recv_counts, const int* recv_displs, int root, std::uint64_t handle,
                  std::uint64_t* request) {
  const MPI_Comm comm = comm_of(handle);
  void* s = const_cast<void*>(send);
  int* sc = const_cast<int*>(send_counts);
  int* sd = const_cast<int*>(send_displs);
  int* rc_ = const_cast<int*>(recv_counts);
  int* rd = const_cast<int*>(recv_displs);
  MPI_Request rq;
  int rc;
  switch (op) {
    case 5 + op_scatter:
      rc = note(MPI_Iscatterv(s, sc, sd, MPI_BYTE, recv, rc_[0], MPI_BYTE, root, comm, &rq), "MPI_Iscatterv");
      break;
    case 5 + op_gather:
      rc = note(MPI_Igatherv(s, sc[0], MPI_BYTE, recv, rc_, rd, MPI_BYTE, root, comm, &rq), "MPI_Igatherv");
      break;
    case 5 + op_allgather:
      rc = note(MPI_Iallgatherv(s, sc[0], MPI_BYTE, recv, rc_, rd, MPI_BYTE, comm, &rq), "MPI_Iallgatherv");
      break;
    case 5 + op_alltoall:
      rc = note(MPI_Ialltoallv(s, sc, sd, MPI_BYTE, recv, rc_, rd, MPI_BYTE, comm, &rq), "MPI_Ialltoallv");
      break;
    default: g_error = "unknown collective " + std::to_string(op); return MPI_ERR_OP;
  }
  if (rc) return rc;
  *request = keep(rq);
  return 0;
}

// The agreement's reduction: (min, min, sum) of three int64, one triple per
// element so that MPI never splits one.
MPI_Datatype g_triple = MPI_DATATYPE_NULL;
MPI_Op g_agree_op = MPI_OP_NULL;

void agree_fold(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const std::int64_t*>(in);
  auto* b = static_cast<std::int64_t*>(inout);
  for (int i = 0; i < *len; ++i, a += 3, b += 3) {
    b[0] = std::min(a[0], b[0]);
    b[1] = std::min(a[1], b[1]);
    b[2] = static_cast<std::int64_t>(static_cast<std::uint64_t>(a[2]) + static_cast<std::uint64_t>(b[2]));
  }
}

int iagree(std::int64_t* values, std::uint64_t handle, std::uint64_t* request) {
  {
    std::lock_guard<std::mutex> l(g_lock);
    if (g_triple == MPI_DATATYPE_NULL) {
      MPI_Type_contiguous(3, MPI_INT64_T, &g_triple);
      MPI_Type_commit(&g_triple);
      MPI_Op_create(agree_fold, 1, &g_agree_op);
    }
  }
  MPI_Request rq;
  if (int rc = note(MPI_Iallreduce(MPI_IN_PLACE, values, 1, g_triple, g_agree_op, comm_of(handle), &rq), "MPI_Iallreduce"))
    return rc;
  *request = keep(rq);
  return 0;
}

int ibarrier_on(std::uint64_t handle, std::uint64_t* request) {
  MPI_Request rq;
  if (int rc = note(MPI_Ibarrier(comm_of(handle), &rq), "MPI_Ibarrier")) return rc;
  *request = keep(rq);
  return 0;
}

void free_agreement_types() {
  if (g_agree_op != MPI_OP_NULL) MPI_Op_free(&g_agree_op);
  if (g_triple != MPI_DATATYPE_NULL) MPI_Type_free(&g_triple);
}

const upc::detail::mpi_plugin_ops g_ops{upc::detail::mpi_plugin_abi, init, last_error, bcast, allreduce_min,
                                        barrier, abort_all, finalize, collective, team_comm,
                                        host_bcast, allreduce_min_n, allgather, rpc_call, rpc_send, rpc_serve,
                                        sync_begin, ibarrier, iallreduce_min_n, test,
                                        comm_dup, comm_free, icollective, icollective_v, iagree, ibarrier_on};
}  // namespace

extern "C" const upc::detail::mpi_plugin_ops* upcemu_mpi_plugin_ops() { return &g_ops; }
