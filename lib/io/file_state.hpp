// What each thread keeps of an open UPC-IO file (docs/upc-io.md), and the
// few collective steps every function is made of: the call's record, the
// sync flags, and an exchange of a few numbers between all threads.
//
// An open file is, on every thread, a POSIX file descriptor of its own and
// this private state; what the threads share is one small array from
// upc_all_alloc(THREADS, ...) (each thread's element: the numbers it hands the
// others) and a lock for the strong consistency mode. The upc_file_t * that
// the program sees is that array's address on thread 0: the same value on
// every thread, as the spec requires.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "../runtime/collective_call.hpp"
#include "upc_io.h"

namespace upc::io {

// The numbers one exchange carries from each thread.
constexpr int exchange_width = 8;
using row = std::array<std::int64_t, exchange_width>;

// An asynchronous operation: done when started, completed by fwait/ftest.
struct async_op {
  bool outstanding = false;
  upc_off_t result = 0;
  int error = 0;         // errno of a failed operation
  upc_flag_t flags = 0;  // its OUT part is applied at completion
};

struct file_state {
  std::uint64_t handle = 0;  // the upc_file_t * value: the exchange array's offset
  sptr<void> exchange_area;  // THREADS elements of two rounds of rows
  upc_lock_t* lock = nullptr;
  int fd = -1;
  std::string name;  // as this thread passed it
  int flags = 0;     // as opened, with the fcntl changes
  bool delete_at_close = false;  // UPC_DELETE_ON_CLOSE whose unlink at open failed
  upc_off_t individual_fp = 0;
  upc_off_t common_fp = 0;  // the same on every thread: every change is collective
  std::vector<std::pair<std::string, std::string>> hints;
  std::vector<upc_hint> hint_view;  // what UPC_GET_HINTS hands out
  std::uint32_t round = 0;          // exchanges made (their areas alternate)
  async_op async;

  ~file_state();
  bool common() const noexcept { return (flags & UPC_COMMON_FP) != 0; }
  bool strong() const noexcept { return (flags & UPC_STRONG_CA) != 0; }
  bool readable() const noexcept { return (flags & (UPC_RDONLY | UPC_RDWR)) != 0; }
  bool writable() const noexcept { return (flags & (UPC_WRONLY | UPC_RDWR)) != 0; }
  upc_off_t& fp() noexcept { return common() ? common_fp : individual_fp; }
  void set_hint(const char* key, const char* value);
};

// The open files of the calling thread (this run's only).
file_state* find(upc_file_t* fd) noexcept;
file_state& add(std::unique_ptr<file_state> f);
void forget(file_state* f) noexcept;  // closes nothing: the state's owner did
inline upc_file_t* handle_of(const file_state& f) noexcept {
  return reinterpret_cast<upc_file_t*>(static_cast<std::uintptr_t>(f.handle));
}

// The opening of every UPC-IO function: the collective call's record (its
// single-valued arguments, compared with thread 0's wherever the call meets
// the other threads), and under --check a meeting at once so that they are
// compared in every call.
class io_call {
 public:
  io_call(const char* function, const std::source_location& where,
          std::initializer_list<detail::collective_arg> args = {});
  const char* function() const noexcept { return function_; }
  // The runtime's barrier of all threads (never the user's upc_barrier).
  void barrier();
  // The IN part of `flags` before the buffers are touched (strong mode: always
  // ALLSYNC), and the OUT part after.
  void in_sync(const file_state& f, upc_flag_t flags);
  void out_sync(const file_state& f, upc_flag_t flags);
  // Every thread's row (a barrier): thread t's row is rows[t].
  std::vector<row> exchange(file_state& f, const row& mine);

 private:
  detail::collective_call call_;
  const char* function_;
  bool met_ = false;  // met the other threads since the call began (no buffer touched yet)
};

// The bytes of each thread's element of the exchange area.
std::size_t exchange_slot_bytes() noexcept;

// The value as an argument record, and a handle as one.
inline std::uint64_t as_arg(const void* p) noexcept { return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p)); }

// errno = e; returns -1 (the spec's error return).
upc_off_t error_return(int e) noexcept;

// Stops the run: an argument that must be the same on every thread differs
// from thread 0's ("argument nmemb must be single-valued ... with a common
// file pointer: this thread passed 4, thread 0 passed 8").
void check_same_as_thread0(const char* fn, const std::vector<row>& rows, int column, const char* what,
                           const char* why);

}  // namespace upc::io
