// The control block: all runtime state that every UPC thread must see lives at the
// start of the one shared mapping, so the threads and processes backends share one
// implementation. Nothing here holds a pointer into private memory except the
// source-location strings, which are string literals of the same executable (same
// address in every forked process).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "upc/runtime.hpp"

namespace upc::detail {

constexpr std::uint64_t control_magic = 0x757063656d753031ULL;  // "upcemu01"
constexpr std::size_t error_text_bytes = 8192;
constexpr std::uint64_t no_chunk = ~0ULL;  // end of a heap free list

// What a thread is blocked in, for the deadlock watchdog and error reports.
enum class blocked_kind : std::uint32_t { none, barrier_wait, lock, exit, sync, collective };

enum class thread_state : std::uint32_t { not_started, running, finished, failed };

// One collective call of a thread, as the other threads see it: which function,
// where in the user's program, and the arguments that must be the same on every
// thread. A thread keeps its last call_records calls (indexed by call number);
// `seq` is written last and re-read by readers, so a record being overwritten is
// never mistaken for a complete one (a seqlock).
constexpr int call_records = 4;
constexpr int call_record_args = 4;
constexpr std::uint32_t no_call = ~0u;
// Each record has its own cache lines; what a comparison reads (seq, function,
// args) is the first line, the names for messages the second.
struct alignas(64) call_record {
  std::atomic<std::uint32_t> seq;                       // call number, no_call while written
  std::atomic<std::uint32_t> line;
  std::atomic<const char*> function;
  std::atomic<std::uint64_t> args[call_record_args];
  std::atomic<const char*> file;
  std::atomic<const char*> arg_names[call_record_args];  // nullptr: unused
};

struct alignas(64) thread_slot {
  std::atomic<std::uint32_t> state;
  std::atomic<std::uint32_t> blocked;        // blocked_kind
  std::atomic<std::int64_t> blocked_arg;     // barrier id / lock address
  std::atomic<const char*> blocked_file;
  std::atomic<std::uint32_t> blocked_line;
  std::atomic<const char*> blocked_function;
  std::atomic<std::uint32_t> blocked_seq;    // bumped each time the thread starts waiting
  // the thread's last runtime call with a known source location (reports)
  std::atomic<const char*> last_function;
  std::atomic<const char*> last_file;
  std::atomic<std::uint32_t> last_line;
  std::int32_t pid;
  std::atomic<std::int32_t> tid;             // the kernel's id of the UPC thread (the watchdog reads its state)
  std::int32_t exit_code;                    // main's status (mpi backend: every rank reads them all)
  std::atomic<std::uint32_t> ended_by_exit;  // 1: the thread called exit() (libc_exit.cpp)
  std::int32_t exit_call_status;             // ...with this status, named in reports
  // split-phase barrier state of this thread
  std::uint32_t phase;                       // number of completed notify/wait pairs
  std::uint32_t notified;                    // 1 between upc_notify and upc_wait
  std::int32_t notify_id;
  std::uint32_t notify_has_id;
  // local heap (upc_alloc) of this thread's partition: [local_floor, partition end)
  std::uint64_t local_floor;
  std::uint64_t local_free_head;
  // internal rendezvous made so far (double-buffers collective results and checks)
  std::uint32_t collective_seq;
  // collective calls made so far, and the last few of them for the others to compare
  std::atomic<std::uint32_t> call_seq;
  std::uint32_t world_phase;                 // world barrier phases passed
  call_record calls[call_records];
  // single-valued arguments of the thread's last calls (single_valued.hpp),
  // two sets by the parity of the call's round
  std::atomic<std::uint64_t> single_valued[2][24];
};

// Thrown by futex_mutex::lock in a thread that must never wait for a lock (a
// server thread of a run spread over hosts, remote_ops.hpp: its host's UPC
// thread may hold the lock while it waits for this very server's answer).
struct lock_busy {};

struct futex_mutex {
  std::atomic<std::uint32_t> word;  // 0 free, 1 locked, 2 locked with waiters
  void lock();  // lock_busy in a thread that must not wait (above)
  void unlock() noexcept;
};

struct barrier_state {
  alignas(64) std::atomic<std::uint32_t> arrived;
  alignas(64) std::atomic<std::uint32_t> generation;
  std::atomic<std::uint32_t> sleepers;
  // Notify ids of the current and next phase: 0 = none yet, else
  // (thread << 33) | (1 << 32) | uint32(id), thread being the one that gave the id
  std::atomic<std::uint64_t> id_slot[2];
  // World barrier: thread 0's call fingerprint for even and odd phases, in the
  // line every waiter reads anyway (collective_call.hpp).
  std::atomic<std::uint64_t> call_hash[2];
};

// NUL-separated names, appended under the lock, never removed during a run.
// `used` is published after the bytes it covers, so a name already there is
// found without the lock (shared_names.cpp).
struct shared_name_table {
  futex_mutex lock;
  std::atomic<std::uint32_t> used;
  char bytes[16384 - 8];
};

constexpr int race_key_slots = 2048;

struct control_block {
  std::uint64_t magic;
  std::int32_t threads;
  std::int32_t nodes;
  std::uint64_t partition_bytes;
  std::uint64_t header_bytes;
  std::uint32_t check;
  std::uint32_t backend;

  alignas(64) std::atomic<std::uint32_t> abort;         // nonzero: every thread must stop
  std::atomic<std::uint32_t> start_gate;                // 0 until every worker exists (futex word)
  std::atomic<std::int32_t> failure_status;             // exit status the recorded failure asks for (0: 1)
  std::atomic<std::uint32_t> report_printed;            // the failure report has been written to stderr
  std::atomic<std::uint32_t> global_exit_called;
  std::atomic<std::int32_t> global_exit_status;
  std::atomic<std::uint32_t> exited;                    // threads that returned from main
  std::atomic<std::uint64_t> progress;                  // bumped by barriers, locks, ...
  std::atomic<std::uint32_t> job_report_claimed;        // mpi across hosts: thread 0's host's says who reports

  // --check=all-races: the races reported so far (race_report.cpp), each pair of
  // places once (open addressing over nonzero keys), and how many there were.
  alignas(64) std::atomic<std::uint32_t> races_keep_going;
  std::atomic<std::uint32_t> races_reported;
  std::atomic<std::uint64_t> race_keys[race_key_slots];

  alignas(64) std::atomic<std::int32_t> error_thread;   // first failing thread, -1: none
  std::atomic<std::uint32_t> error_claimed;
  std::atomic<std::uint32_t> error_ready;
  char error_text[error_text_bytes];

  // The most collective calls any thread has entered: a thread that ends looks
  // for the call it will never make only when it made fewer (collective_call.cpp),
  // instead of reading every thread's slot (a page each, and at 4096 processes
  // those reads took most of the run). Its own line: written once per call number.
  alignas(64) std::atomic<std::uint32_t> most_calls;

  alignas(64) barrier_state barrier;           // upc_barrier / upc_notify / upc_wait
  // The runtime's own barrier of all threads (collective calls, collective
  // allocation): never the user's, so the two can never pair.
  alignas(64) barrier_state world_barrier;

  // Allocation: one mutex for both heaps; symmetric heap occupies [0, sym_top) of
  // every partition, its chunk headers live in partition 0.
  alignas(64) futex_mutex alloc_mutex;
  std::uint64_t sym_top;
  std::uint64_t sym_free_head;
  // Results of collective allocations, double-buffered by collective sequence number.
  std::atomic<std::uint64_t> collective_result[2];
  // Bumped by every free: a thread's cached heap lookups (heap_index.hpp) older than it are stale.
  std::atomic<std::uint64_t> heap_generation;

  // Names made at run time ("shared_array<int> (declared at f.cpp:3)") that other
  // threads, the monitor or other processes may read (shared_names.hpp).
  alignas(64) shared_name_table names;

  thread_slot slots[1];  // really [threads]
};

extern control_block* g_control;

inline control_block& control() noexcept { return *g_control; }
inline thread_slot& my_slot() noexcept { return g_control->slots[tl_mythread]; }

std::size_t control_block_bytes(int threads);

// Throws stop_unwind if the run is being stopped; cheap enough for every slow path.
inline void check_abort() {
  if (g_control->abort.load(std::memory_order_relaxed)) [[unlikely]]
    throw stop_unwind{g_control->global_exit_status.load()};
}

// The thread holding the lock at this address (a blocked_arg of a lock wait), or -1.
int lock_holder(std::int64_t address) noexcept;

// Marks the calling thread blocked (for the watchdog); cleared by the destructor.
class blocked_scope {
 public:
  blocked_scope(blocked_kind kind, std::int64_t arg, const char* function,
                const char* file, std::uint32_t line) noexcept;
  ~blocked_scope();
  blocked_scope(const blocked_scope&) = delete;
  blocked_scope& operator=(const blocked_scope&) = delete;
};

}  // namespace upc::detail
