// UPC-IO: reading and writing (UPC 1.3 Optional Library Specifications
// §7.3.3-§7.3.6; docs/upc-io.md). One function per kind of transfer —
// private buffer, shared buffer (individual or common file pointer), list —
// shared by the blocking and the asynchronous forms: an asynchronous
// operation runs in its initiating call, and its OUT synchronisation waits
// for upc_all_fwait_async or upc_all_ftest_async.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "file_bytes.hpp"
#include "file_state.hpp"
#include "upc_io.h"

using namespace upc;
using namespace upc::io;

namespace upc::io {
int first_error(const std::vector<row>& rows, int column);
void refuse_while_async(const char* fn, const file_state& f);
}  // namespace upc::io

namespace {

enum class direction { read, write };

// The result of one transfer on this thread: bytes, or -1 with `error`.
struct outcome {
  upc_off_t bytes = 0;
  int error = 0;
};
outcome failed(int e) { return outcome{-1, e}; }

std::string str(std::uint64_t v) { return std::to_string(v); }

std::uint64_t product(const char* fn, const char* what, std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  if (__builtin_mul_overflow(a, b, &r) || r > static_cast<std::uint64_t>(INT64_MAX))
    detail::fail(fn, std::string(what) + " is too large (" + str(a) + " x " + str(b) + ")");
  return r;
}

// The strong mode's atomicity: one thread's whole transfer at a time.
struct strong_section {
  const file_state& f;
  explicit strong_section(const file_state& file) : f(file) {
    if (f.strong()) upc_lock(f.lock);
  }
  ~strong_section() {
    if (f.strong()) upc_unlock(f.lock);
  }
};

bool mode_allows(const file_state& f, direction d) { return d == direction::read ? f.readable() : f.writable(); }

// A private buffer through the individual file pointer.
outcome local_transfer(io_call& call, file_state& f, direction d, void* buffer, size_t size, size_t nmemb,
                       upc_flag_t flags) {
  const char* F = call.function();
  if (!mode_allows(f, d)) return failed(EBADF);
  if (f.common()) return failed(EINVAL);  // the spec: local buffers only with individual file pointers
  const std::uint64_t bytes = product(F, "size x nmemb", size, nmemb);
  if (bytes && !buffer) detail::fail(F, "buffer is a null pointer, but size x nmemb is " + str(bytes));
  call.in_sync(f, flags);
  long long n = 0;
  {
    strong_section s(f);
    if (bytes) n = d == direction::read ? read_at(f.fd, buffer, bytes, f.individual_fp) : write_at(f.fd, buffer, bytes, f.individual_fp);
  }
  if (n < 0) return failed(errno);
  f.individual_fp += n;
  return outcome{n, 0};
}

shared_stream stream_of(const char* fn, sptr<void> buffer, size_t blocksize, size_t size, std::uint64_t bytes) {
  const shared_address a = buffer.address();
  if (bytes && buffer.is_null()) detail::fail(fn, "buffer is a null pointer-to-shared, but size x nmemb is " + str(bytes));
  if (bytes && a.thread >= static_cast<std::uint32_t>(threads()))
    detail::fail(fn, "buffer names thread " + str(a.thread) + ", but THREADS is " + str(static_cast<std::uint64_t>(threads())));
  if (blocksize) product(fn, "blocksize x size", blocksize, size);
  return shared_stream{a, size, blocksize};
}

// A shared buffer. Individual file pointers: each thread its own transfer.
// A common one: one transfer of size x nmemb bytes, which the threads share
// out in contiguous parts of the file (thread t the t-th THREADS-th).
outcome shared_transfer(io_call& call, file_state& f, direction d, sptr<void> buffer, size_t blocksize, size_t size,
                        size_t nmemb, upc_flag_t flags) {
  const char* F = call.function();
  if (!mode_allows(f, d)) return failed(EBADF);
  const std::uint64_t bytes = product(F, "size x nmemb", size, nmemb);
  const shared_stream s = stream_of(F, buffer, blocksize, size, bytes);
  if (!f.common()) {
    call.in_sync(f, flags);
    long long n = 0;
    {
      strong_section sec(f);
      if (bytes)
        n = d == direction::read ? read_into_shared(F, f.fd, f.individual_fp, s, 0, bytes)
                                 : write_from_shared(F, f.fd, f.individual_fp, s, 0, bytes);
    }
    if (n < 0) return failed(errno);
    f.individual_fp += n;
    return outcome{n, 0};
  }
  // Common: every argument single-valued; the size of the file as thread 0
  // sees it bounds a read. The exchange is also the IN synchronisation.
  row mine{static_cast<std::int64_t>(s.base.offset), s.base.thread, static_cast<std::int64_t>(blocksize),
           static_cast<std::int64_t>(size), static_cast<std::int64_t>(nmemb), 0};
  if (mythread() == 0 && d == direction::read) {
    const off_t end = ::lseek(f.fd, 0, SEEK_END);
    mine[5] = end < 0 ? -errno : static_cast<std::int64_t>(end);
  }
  const std::vector<row> rows = call.exchange(f, mine);
  static const char* const why = " with a common file pointer";
  check_same_as_thread0(F, rows, 0, "buffer (its address)", why);
  check_same_as_thread0(F, rows, 1, "buffer (its thread)", why);
  check_same_as_thread0(F, rows, 2, "blocksize", why);
  check_same_as_thread0(F, rows, 3, "size", why);
  check_same_as_thread0(F, rows, 4, "nmemb", why);
  call.in_sync(f, flags);  // checks the flags; the threads have met
  if (rows[0][5] < 0) return failed(static_cast<int>(-rows[0][5]));
  const std::int64_t start = f.common_fp;
  const std::uint64_t total =
      d == direction::write ? bytes
                            : static_cast<std::uint64_t>(std::clamp<std::int64_t>(rows[0][5] - start, 0, static_cast<std::int64_t>(bytes)));
  const auto T = static_cast<unsigned __int128>(threads()), me = static_cast<unsigned __int128>(mythread());
  const auto from = static_cast<std::uint64_t>(total * me / T), to = static_cast<std::uint64_t>(total * (me + 1) / T);
  f.common_fp = start + static_cast<std::int64_t>(total);
  if (from == to) return outcome{static_cast<upc_off_t>(total), 0};
  const long long n = d == direction::read ? read_into_shared(F, f.fd, start + static_cast<std::int64_t>(from), s, from, to)
                                           : write_from_shared(F, f.fd, start + static_cast<std::int64_t>(from), s, from, to);
  if (n < 0) return failed(errno);
  if (static_cast<std::uint64_t>(n) != to - from) return failed(EIO);  // the file shrank meanwhile
  return outcome{static_cast<upc_off_t>(total), 0};
}

// ---- list I/O ----

// One memory vector entry, local or shared, as the walk sees it.
struct mem_entry {
  void* local = nullptr;
  shared_stream shared{};
  std::uint64_t len = 0;
};

std::uint64_t total_of(const char* fn, const char* what, std::size_t n, const std::uint64_t* lens) {
  std::uint64_t t = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (__builtin_add_overflow(t, lens[i], &t) || t > static_cast<std::uint64_t>(INT64_MAX))
      detail::fail(fn, std::string("the lengths of ") + what + " add up to more than a file can hold");
  return t;
}

// The spec's constraints on the vectors (a program that breaks them is
// erroneous): equal totals; filevec offsets not negative and in
// non-decreasing order; no overlap in the memory a read fills or in the file
// a write fills.
void check_lists(const char* fn, direction d, const std::vector<mem_entry>& mem, std::size_t filevec_entries,
                 const struct upc_filevec* filevec) {
  std::vector<std::uint64_t> lens;
  for (const mem_entry& m : mem) lens.push_back(m.len);
  const std::uint64_t mem_total = total_of(fn, "memvec", lens.size(), lens.data());
  lens.clear();
  for (std::size_t i = 0; i < filevec_entries; ++i) lens.push_back(filevec[i].len);
  const std::uint64_t file_total = total_of(fn, "filevec", lens.size(), lens.data());
  if (mem_total != file_total)
    detail::fail(fn, "memvec describes " + str(mem_total) + " bytes but filevec " + str(file_total) +
                         ": the totals must be equal");
  std::int64_t last = 0, last_end = 0;
  std::size_t last_i = 0;
  bool any = false;
  for (std::size_t i = 0; i < filevec_entries; ++i) {
    if (filevec[i].len == 0) continue;  // ignored, as the spec says
    if (filevec[i].offset < 0)
      detail::fail(fn, "filevec[" + str(i) + "].offset is negative (" + std::to_string(filevec[i].offset) + ")");
    if (any && filevec[i].offset < last)
      detail::fail(fn, "filevec[" + str(i) + "].offset " + std::to_string(filevec[i].offset) + " comes after filevec[" +
                           str(last_i) + "].offset " + std::to_string(last) +
                           ": the offsets must be in non-decreasing order");
    if (any && d == direction::write && filevec[i].offset < last_end)
      detail::fail(fn, "filevec[" + str(i) + "] overlaps filevec[" + str(last_i) +
                           "] in the file: the regions a list write fills must not overlap");
    last = filevec[i].offset;
    last_end = filevec[i].offset + static_cast<std::int64_t>(filevec[i].len);
    last_i = i;
    any = true;
  }
  if (d != direction::read) return;
  // The memory a read fills: (thread, start, end, entry) of every piece, sorted.
  std::vector<std::tuple<std::int64_t, std::uint64_t, std::uint64_t, std::size_t>> spans;
  for (std::size_t i = 0; i < mem.size(); ++i) {
    const mem_entry& m = mem[i];
    if (m.len == 0) continue;
    if (m.local) {
      const auto at = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(m.local));
      spans.emplace_back(-1, at, at + m.len, i);
    } else {
      for_each_piece(m.shared, 0, m.len, [&](const shared_address& a, std::uint64_t, std::uint64_t len) {
        spans.emplace_back(a.thread, a.offset, a.offset + len, i);
      });
    }
  }
  std::sort(spans.begin(), spans.end());
  for (std::size_t k = 1; k < spans.size(); ++k) {
    const auto& [t0, s0, e0, i0] = spans[k - 1];
    const auto& [t1, s1, e1, i1] = spans[k];
    if (t0 == t1 && s1 < e0)
      detail::fail(fn, "memvec[" + str(std::min(i0, i1)) + "] and memvec[" + str(std::max(i0, i1)) +
                           "] overlap in memory: the regions a list read fills must not overlap");
  }
}

// Walks memvec and filevec together, in order, moving each stretch the two
// have in common; a read stops at the end of the file.
outcome list_transfer(io_call& call, file_state& f, direction d, const std::vector<mem_entry>& mem,
                      std::size_t filevec_entries, const struct upc_filevec* filevec, upc_flag_t flags) {
  const char* F = call.function();
  if (!mode_allows(f, d)) return failed(EBADF);
  if (filevec_entries && !filevec) detail::fail(F, "filevec is a null pointer, but filevec_entries is " + str(filevec_entries));
  check_lists(F, d, mem, filevec_entries, filevec);
  call.in_sync(f, flags);
  strong_section sec(f);
  std::size_t mi = 0, fi = 0;
  std::uint64_t mpos = 0, fpos = 0, done = 0;
  while (true) {
    while (mi < mem.size() && mpos == mem[mi].len) ++mi, mpos = 0;
    while (fi < filevec_entries && fpos == filevec[fi].len) ++fi, fpos = 0;
    if (mi == mem.size() || fi == filevec_entries) break;
    const std::uint64_t n = std::min(mem[mi].len - mpos, filevec[fi].len - fpos);
    const std::int64_t off = filevec[fi].offset + static_cast<std::int64_t>(fpos);
    long long moved;
    if (mem[mi].local) {
      char* p = static_cast<char*>(mem[mi].local) + mpos;
      moved = d == direction::read ? read_at(f.fd, p, n, off) : write_at(f.fd, p, n, off);
    } else {
      moved = d == direction::read ? read_into_shared(F, f.fd, off, mem[mi].shared, mpos, mpos + n)
                                   : write_from_shared(F, f.fd, off, mem[mi].shared, mpos, mpos + n);
    }
    if (moved < 0) return failed(errno);
    done += static_cast<std::uint64_t>(moved);
    if (static_cast<std::uint64_t>(moved) < n) break;  // end of file
    mpos += n;
    fpos += n;
  }
  return outcome{static_cast<upc_off_t>(done), 0};
}

std::vector<mem_entry> local_entries(const char* fn, std::size_t n, const struct upc_local_memvec* v) {
  if (n && !v) detail::fail(fn, "memvec is a null pointer, but memvec_entries is " + str(n));
  std::vector<mem_entry> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (v[i].len && !v[i].baseaddr) detail::fail(fn, "memvec[" + str(i) + "].baseaddr is a null pointer");
    out[i].local = v[i].baseaddr;
    out[i].len = v[i].len;
  }
  return out;
}

std::vector<mem_entry> shared_entries(const char* fn, std::size_t n, const struct upc_shared_memvec* v) {
  if (n && !v) detail::fail(fn, "memvec is a null pointer, but memvec_entries is " + str(n));
  std::vector<mem_entry> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const shared_address a = v[i].baseaddr.address();
    if (v[i].len && v[i].baseaddr.is_null()) detail::fail(fn, "memvec[" + str(i) + "].baseaddr is a null pointer-to-shared");
    if (v[i].len && a.thread >= static_cast<std::uint32_t>(threads()))
      detail::fail(fn, "memvec[" + str(i) + "].baseaddr names thread " + str(a.thread) + ", but THREADS is " +
                           str(static_cast<std::uint64_t>(threads())));
    out[i].shared = shared_stream{a, 1, v[i].blocksize};  // blocksize in bytes here
    out[i].len = v[i].len;
  }
  return out;
}

// The opening shared by every transfer: the call's record, the open file.
// `blocking`: a handle that is not open is an error return (EBADF); an
// asynchronous call has no return value, so it stops the run instead.
file_state* usable(io_call& call, upc_file_t* fd, bool blocking) {
  file_state* f = find(fd);
  if (!f) {
    if (blocking) return nullptr;
    detail::fail(call.function(), "fd is not an open UPC-IO file (never opened, or closed)");
  }
  if (!blocking && f->async.outstanding)
    detail::fail(call.function(), "an asynchronous operation is already outstanding on this file: only one at a time "
                                  "(complete it with upc_all_fwait_async or upc_all_ftest_async)");
  refuse_while_async(call.function(), *f);
  return f;
}

upc_off_t finish(io_call& call, file_state& f, outcome o, upc_flag_t flags) {
  call.out_sync(f, flags);
  if (o.bytes < 0) return error_return(o.error);
  return o.bytes;
}

// A blocking call returns its result after its OUT synchronisation; an
// asynchronous one records it for upc_all_fwait_async / upc_all_ftest_async.
enum class mode { blocking, async };

template <class Transfer>
upc_off_t run(io_call& call, upc_file_t* fd, upc_flag_t flags, mode m, Transfer transfer) {
  file_state* f = usable(call, fd, m == mode::blocking);
  if (!f) return error_return(EBADF);
  const outcome o = transfer(*f);
  if (m == mode::blocking) return finish(call, *f, o, flags);
  f->async = async_op{true, o.bytes, o.error, flags};
  return 0;
}

#define UPCEMU_IO_CALL(name) io_call call(name, where, {{"fd", as_arg(fd)}, {"flags", static_cast<std::uint64_t>(flags)}})

// The three kinds of transfer, each behind the entry points of its forms.
upc_off_t local_call(const char* name, mode m, direction d, upc_file_t* fd, void* buffer, size_t size, size_t nmemb,
                     upc_flag_t flags, const std::source_location& where) {
  UPCEMU_IO_CALL(name);
  return run(call, fd, flags, m,
             [&](file_state& f) { return local_transfer(call, f, d, buffer, size, nmemb, flags); });
}

upc_off_t shared_call(const char* name, mode m, direction d, upc_file_t* fd, sptr<void> buffer, size_t blocksize,
                      size_t size, size_t nmemb, upc_flag_t flags, const std::source_location& where) {
  UPCEMU_IO_CALL(name);
  return run(call, fd, flags, m,
             [&](file_state& f) { return shared_transfer(call, f, d, buffer, blocksize, size, nmemb, flags); });
}

std::vector<mem_entry> entries(const char* fn, std::size_t n, const struct upc_local_memvec* v) {
  return local_entries(fn, n, v);
}
std::vector<mem_entry> entries(const char* fn, std::size_t n, const struct upc_shared_memvec* v) {
  return shared_entries(fn, n, v);
}

template <class Memvec>
upc_off_t list_call(const char* name, mode m, direction d, upc_file_t* fd, size_t memvec_entries, const Memvec* memvec,
                    size_t filevec_entries, const struct upc_filevec* filevec, upc_flag_t flags,
                    const std::source_location& where) {
  UPCEMU_IO_CALL(name);
  return run(call, fd, flags, m, [&](file_state& f) {
    const auto mem = entries(call.function(), memvec_entries, memvec);
    return list_transfer(call, f, d, mem, filevec_entries, filevec, flags);
  });
}

}  // namespace

// ---- the entry points: each names its kind, form and direction ----

// `return static_cast<R>(...)` serves both the blocking forms (R = upc_off_t)
// and the asynchronous ones (R = void).
#define UPCEMU_IO_LOCAL(name, R, m, d)                                                                            \
  R name(upc_file_t* fd, void* buffer, size_t size, size_t nmemb, upc_flag_t flags,                                 \
         const std::source_location& where) {                                                                       \
    return static_cast<R>(local_call(#name, m, d, fd, buffer, size, nmemb, flags, where));                          \
  }
#define UPCEMU_IO_SHARED(name, R, m, d)                                                                           \
  R name(upc_file_t* fd, sptr<void> buffer, size_t blocksize, size_t size, size_t nmemb, upc_flag_t flags,          \
         const std::source_location& where) {                                                                       \
    return static_cast<R>(shared_call(#name, m, d, fd, buffer, blocksize, size, nmemb, flags, where));              \
  }
#define UPCEMU_IO_LIST(name, R, m, d, memvec_type)                                                                \
  R name(upc_file_t* fd, size_t memvec_entries, const struct memvec_type* memvec, size_t filevec_entries,           \
         const struct upc_filevec* filevec, upc_flag_t flags, const std::source_location& where) {                  \
    return static_cast<R>(                                                                                          \
        list_call(#name, m, d, fd, memvec_entries, memvec, filevec_entries, filevec, flags, where));                \
  }

UPCEMU_IO_LOCAL(upc_all_fread_local, upc_off_t, mode::blocking, direction::read)
UPCEMU_IO_LOCAL(upc_all_fwrite_local, upc_off_t, mode::blocking, direction::write)
UPCEMU_IO_LOCAL(upc_all_fread_local_async, void, mode::async, direction::read)
UPCEMU_IO_LOCAL(upc_all_fwrite_local_async, void, mode::async, direction::write)
UPCEMU_IO_SHARED(upc_all_fread_shared, upc_off_t, mode::blocking, direction::read)
UPCEMU_IO_SHARED(upc_all_fwrite_shared, upc_off_t, mode::blocking, direction::write)
UPCEMU_IO_SHARED(upc_all_fread_shared_async, void, mode::async, direction::read)
UPCEMU_IO_SHARED(upc_all_fwrite_shared_async, void, mode::async, direction::write)
UPCEMU_IO_LIST(upc_all_fread_list_local, upc_off_t, mode::blocking, direction::read, upc_local_memvec)
UPCEMU_IO_LIST(upc_all_fread_list_shared, upc_off_t, mode::blocking, direction::read, upc_shared_memvec)
UPCEMU_IO_LIST(upc_all_fwrite_list_local, upc_off_t, mode::blocking, direction::write, upc_local_memvec)
UPCEMU_IO_LIST(upc_all_fwrite_list_shared, upc_off_t, mode::blocking, direction::write, upc_shared_memvec)
UPCEMU_IO_LIST(upc_all_fread_list_local_async, void, mode::async, direction::read, upc_local_memvec)
UPCEMU_IO_LIST(upc_all_fread_list_shared_async, void, mode::async, direction::read, upc_shared_memvec)
UPCEMU_IO_LIST(upc_all_fwrite_list_local_async, void, mode::async, direction::write, upc_local_memvec)
UPCEMU_IO_LIST(upc_all_fwrite_list_shared_async, void, mode::async, direction::write, upc_shared_memvec)

namespace {
// fwait and ftest: the outstanding operation's OUT synchronisation and result.
upc_off_t complete(io_call& call, upc_file_t* fd) {
  file_state* f = find(fd);
  if (!f) return error_return(EBADF);
  if (!f->async.outstanding)
    detail::fail(call.function(), "no asynchronous operation is outstanding on this file (each is completed once)");
  const async_op op = f->async;
  f->async = async_op{};
  return finish(call, *f, outcome{op.result, op.error}, op.flags);
}
}  // namespace

upc_off_t upc_all_fwait_async(upc_file_t* fd, const std::source_location& where) {
  io_call call("upc_all_fwait_async", where, {{"fd", as_arg(fd)}});
  return complete(call, fd);
}

// The operation finished in its initiating call, so the test always finds it
// complete (the same flag on every thread).
upc_off_t upc_all_ftest_async(upc_file_t* fd, int* flag, const std::source_location& where) {
  io_call call("upc_all_ftest_async", where, {{"fd", as_arg(fd)}});
  if (!flag) detail::fail(call.function(), "flag is a null pointer");
  *flag = 1;
  return complete(call, fd);
}
