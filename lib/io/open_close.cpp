// UPC-IO: opening and closing files and the operations on a whole file
// (UPC 1.3 Optional Library Specifications §7.3.2 "UPC File Operations";
// docs/upc-io.md). The errors the spec asks to be returned (a bad flag, a
// handle that is not open, a failure of the file system) return -1 (NULL for
// upc_all_fopen) with errno, the same on every thread where the spec says so;
// what the spec calls erroneous (arguments that differ between threads, a
// call while an asynchronous operation is outstanding) stops the run with a
// report.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "file_state.hpp"
#include "upc_io.h"

using namespace upc;
using namespace upc::io;

namespace upc::io {

// The lowest thread's nonzero value in `column` (the error every thread
// reports), or 0.
int first_error(const std::vector<row>& rows, int column) {
  for (const row& r : rows)
    if (r[static_cast<std::size_t>(column)] != 0) return static_cast<int>(r[static_cast<std::size_t>(column)]);
  return 0;
}

// Operations the spec forbids while an asynchronous one is outstanding.
void refuse_while_async(const char* fn, const file_state& f) {
  if (f.async.outstanding)
    detail::fail(fn, "an asynchronous operation is outstanding on this file: complete it with upc_all_fwait_async or "
                     "upc_all_ftest_async first");
}

// Thread 0 flushes the file to storage, then every thread learns how it went:
// the implicit upc_all_fsync of several functions, and upc_all_fsync itself
// (the exchange is the barrier before it returns).
int sync_file(io_call& call, file_state& f, const row& extra = row{}) {
  row mine = extra;
  mine[0] = 0;
  if (mythread() == 0 && ::fsync(f.fd) != 0 && errno != EINVAL && errno != EROFS) mine[0] = errno;
  return first_error(call.exchange(f, mine), 0);
}

// The open file `fd` names, with no asynchronous operation outstanding (a
// call on it then stops the run); nullptr when `fd` is not open.
file_state* idle_file(const char* fn, upc_file_t* fd) {
  file_state* f = find(fd);
  if (f) refuse_while_async(fn, *f);
  return f;
}
}  // namespace upc::io

namespace {

constexpr int known_open_flags = UPC_RDONLY | UPC_WRONLY | UPC_RDWR | UPC_INDIVIDUAL_FP | UPC_COMMON_FP | UPC_APPEND |
                                 UPC_CREATE | UPC_EXCL | UPC_STRONG_CA | UPC_TRUNC | UPC_DELETE_ON_CLOSE;

bool one_of(int bits) { return bits != 0 && (bits & (bits - 1)) == 0; }

// The spec's rules for upc_all_fopen's flags (an error, EINVAL, when broken):
// exactly one access mode and one file pointer kind, UPC_EXCL with
// UPC_CREATE only; UPC_TRUNC needs a mode that writes.
bool valid_open_flags(int flags) {
  if (flags & ~known_open_flags) return false;
  if (!one_of(flags & (UPC_RDONLY | UPC_WRONLY | UPC_RDWR))) return false;
  if (!one_of(flags & (UPC_INDIVIDUAL_FP | UPC_COMMON_FP))) return false;
  if ((flags & UPC_EXCL) && !(flags & UPC_CREATE)) return false;
  if ((flags & UPC_TRUNC) && (flags & UPC_RDONLY)) return false;
  return true;
}

std::uint64_t fnv(std::uint64_t h, const char* s) {
  for (; s && *s; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 1099511628211ULL;
  return (h ^ 0xff) * 1099511628211ULL;  // a separator, so ("ab","c") differs from ("a","bc")
}

std::uint64_t hints_hash(const char* fn, std::size_t numhints, const upc_hint* hints) {
  if (numhints == 0) return 0;
  if (!hints) detail::fail(fn, "hints is a null pointer, but numhints is " + std::to_string(numhints));
  std::uint64_t h = 1469598103934665603ULL;
  for (std::size_t i = 0; i < numhints; ++i) {
    if (!hints[i].key || !hints[i].value)
      detail::fail(fn, "hints[" + std::to_string(i) + "] has a null " + (hints[i].key ? "value" : "key"));
    h = fnv(fnv(h, hints[i].key), hints[i].value);
  }
  return h;
}

// The permission bits of a new file: the "file_perm" hint when it is an octal
// number (0644), else 0666 (both less the umask, as open(2) does).
mode_t creation_mode(const file_state& f) {
  for (const auto& h : f.hints)
    if (h.first == "file_perm") {
      char* end = nullptr;
      const long v = std::strtol(h.second.c_str(), &end, 8);
      if (end != h.second.c_str() && *end == '\0' && v >= 0 && v <= 07777) return static_cast<mode_t>(v);
    }
  return 0666;
}

int access_flags(int flags) {
  return ((flags & UPC_RDONLY) ? O_RDONLY : (flags & UPC_WRONLY) ? O_WRONLY : O_RDWR) | O_CLOEXEC;
}

// A failed open: what upc_all_fopen made is given back, collectively.
upc_file_t* give_up(file_state* f, int error) {
  upc_all_lock_free(f->lock);
  upc_all_free(f->exchange_area);
  delete f;
  errno = error;
  return nullptr;
}

int fail_with(int error) {
  errno = error;
  return -1;
}

}  // namespace

upc_file_t* upc_all_fopen(const char* fname, int flags, size_t numhints, const struct upc_hint* hints,
                          const std::source_location& where) {
  const char* F = "upc_all_fopen";
  const std::uint64_t hash = hints_hash(F, numhints, hints);
  io_call call(F, where, {{"flags", static_cast<std::uint64_t>(flags)}, {"numhints", numhints},
                          {"hints (their keys and values)", hash}});
  if (!fname) detail::fail(F, "fname is a null pointer");
  if (!valid_open_flags(flags)) {
    errno = EINVAL;
    return nullptr;
  }
  auto* f = new file_state;
  f->exchange_area = upc_all_alloc(static_cast<size_t>(threads()), exchange_slot_bytes());
  f->handle = f->exchange_area.address().offset;
  f->lock = upc_all_lock_alloc();
  f->flags = flags;
  f->name = fname;
  for (std::size_t i = 0; i < numhints; ++i) f->set_hint(hints[i].key, hints[i].value);
  const int me = mythread();

  // Thread 0 creates or truncates the file, then the others open it as it is.
  auto open_here = [&](int extra) {
    row r{};
    f->fd = ::open(fname, access_flags(flags) | extra, creation_mode(*f));
    struct stat st{};
    if (f->fd < 0) r[0] = errno;
    else if (::fstat(f->fd, &st) != 0) r[0] = errno;
    else {
      r[1] = static_cast<std::int64_t>(st.st_dev);
      r[2] = static_cast<std::int64_t>(st.st_ino);
      r[3] = static_cast<std::int64_t>(st.st_size);
    }
    return r;
  };
  row first{};
  if (me == 0)
    first = open_here(((flags & UPC_CREATE) ? O_CREAT : 0) | ((flags & UPC_EXCL) ? O_EXCL : 0) |
                      ((flags & UPC_TRUNC) ? O_TRUNC : 0));
  const int creator_error = static_cast<int>(call.exchange(*f, first)[0][0]);
  if (creator_error) return give_up(f, creator_error);
  const std::vector<row> opened = call.exchange(*f, me == 0 ? first : open_here(0));
  if (const int e = first_error(opened, 0)) return give_up(f, e);
  const row& zero = opened[0];
  const row& mine = opened[static_cast<std::size_t>(me)];
  if (mine[1] != zero[1] || mine[2] != zero[2])
    detail::fail(F, std::string("fname \"") + fname + "\" is another file on this thread than on thread 0 (device " +
                        std::to_string(mine[1]) + ", inode " + std::to_string(mine[2]) + " against device " +
                        std::to_string(zero[1]) + ", inode " + std::to_string(zero[2]) +
                        "): every thread must name the same file");
  if (flags & UPC_APPEND) f->individual_fp = f->common_fp = zero[3];
  // Deleted now that every thread holds it open: gone at the close, and also
  // when the program ends without closing it (or fails).
  if ((flags & UPC_DELETE_ON_CLOSE) && me == 0 && ::unlink(fname) != 0) f->delete_at_close = true;
  return handle_of(add(std::unique_ptr<file_state>(f)));
}

int upc_all_fclose(upc_file_t* fd, const std::source_location& where) {
  const char* F = "upc_all_fclose";
  io_call call(F, where, {{"fd", as_arg(fd)}});
  file_state* f = find(fd);
  if (!f) return fail_with(EBADF);
  if (f->async.outstanding) return fail_with(EBUSY);  // the spec: an error, not a stop
  row mine{};
  if (mythread() == 0 && ::fsync(f->fd) != 0 && errno != EINVAL && errno != EROFS) mine[0] = errno;
  if (::close(f->fd) != 0 && mine[0] == 0) mine[0] = errno;
  f->fd = -1;
  const int e = first_error(call.exchange(*f, mine), 0);
  if (mythread() == 0 && f->delete_at_close) ::unlink(f->name.c_str());
  upc_all_lock_free(f->lock);
  upc_all_free(f->exchange_area);
  forget(f);
  return e ? fail_with(e) : 0;
}

int upc_all_fsync(upc_file_t* fd, const std::source_location& where) {
  io_call call("upc_all_fsync", where, {{"fd", as_arg(fd)}});
  file_state* f = idle_file(call.function(), fd);
  if (!f) return fail_with(EBADF);
  const int e = sync_file(call, *f);
  return e ? fail_with(e) : 0;
}

upc_off_t upc_all_fseek(upc_file_t* fd, upc_off_t offset, int origin, const std::source_location& where) {
  io_call call("upc_all_fseek", where, {{"fd", as_arg(fd)}});
  file_state* f = idle_file(call.function(), fd);
  if (!f) return error_return(EBADF);
  auto size_here = [&]() -> std::int64_t {
    struct stat st{};
    return ::fstat(f->fd, &st) == 0 ? static_cast<std::int64_t>(st.st_size) : -errno;
  };
  std::int64_t end = 0;
  if (f->common()) {
    // offset and origin are single-valued; the end of the file is thread 0's view.
    row mine{origin, offset, mythread() == 0 ? size_here() : 0};
    const std::vector<row> rows = call.exchange(*f, mine);
    check_same_as_thread0(call.function(), rows, 0, "origin", " with a common file pointer");
    check_same_as_thread0(call.function(), rows, 1, "offset", " with a common file pointer");
    end = rows[0][2];
  } else if (origin == UPC_SEEK_END) {
    end = size_here();
  }
  if (origin != UPC_SEEK_SET && origin != UPC_SEEK_CUR && origin != UPC_SEEK_END) return error_return(EINVAL);
  if (origin == UPC_SEEK_END && end < 0) return error_return(static_cast<int>(-end));
  const std::int64_t base = origin == UPC_SEEK_SET ? 0 : origin == UPC_SEEK_CUR ? f->fp() : end;
  std::int64_t to = 0;
  if (__builtin_add_overflow(base, offset, &to) || to < 0) return error_return(EINVAL);
  f->fp() = to;
  return to;
}

namespace {
// upc_all_fset_size and upc_all_fpreallocate: the same checks, then thread 0
// changes the file (`change` returns 0 or an errno) and every thread returns
// its result. `sync_first`: the call implies a upc_all_fsync before
// (upc_all_fset_size).
int change_size(const char* fn, upc_file_t* fd, upc_off_t size, const std::source_location& where, bool sync_first,
                int (*change)(int fd, off_t size)) {
  io_call call(fn, where, {{"fd", as_arg(fd)}, {"size", static_cast<std::uint64_t>(size)}});
  file_state* f = idle_file(call.function(), fd);
  if (!f) return fail_with(EBADF);
  if (!f->writable()) return fail_with(EBADF);
  if (size < 0) return fail_with(EINVAL);
  if (sync_first)
    if (const int e = sync_file(call, *f)) return fail_with(e);
  row mine{};
  if (mythread() == 0) mine[0] = change(f->fd, static_cast<off_t>(size));
  const int e = first_error(call.exchange(*f, mine), 0);
  return e ? fail_with(e) : 0;
}
}  // namespace

int upc_all_fset_size(upc_file_t* fd, upc_off_t size, const std::source_location& where) {
  return change_size("upc_all_fset_size", fd, size, where, true,
                     [](int file, off_t to) { return ::ftruncate(file, to) == 0 ? 0 : errno; });
}

upc_off_t upc_all_fget_size(upc_file_t* fd, const std::source_location& where) {
  io_call call("upc_all_fget_size", where, {{"fd", as_arg(fd)}});
  file_state* f = idle_file(call.function(), fd);
  if (!f) return error_return(EBADF);
  row mine{};
  if (mythread() == 0) {
    struct stat st{};
    if (::fstat(f->fd, &st) == 0) mine[1] = static_cast<std::int64_t>(st.st_size);
    else mine[0] = errno;
  }
  const std::vector<row> rows = call.exchange(*f, mine);
  if (rows[0][0]) return error_return(static_cast<int>(rows[0][0]));
  return rows[0][1];
}

int upc_all_fpreallocate(upc_file_t* fd, upc_off_t size, const std::source_location& where) {
  // posix_fallocate keeps what is written and extends the size only upwards.
  return change_size("upc_all_fpreallocate", fd, size, where, false,
                     [](int file, off_t to) { return to > 0 ? ::posix_fallocate(file, 0, to) : 0; });
}

int upc_all_fcntl(upc_file_t* fd, int cmd, void* arg, const std::source_location& where) {
  const char* F = "upc_all_fcntl";
  io_call call(F, where, {{"fd", as_arg(fd)}, {"cmd", static_cast<std::uint64_t>(cmd)}});
  file_state* f = find(fd);
  if (!f) return fail_with(EBADF);
  if (cmd == UPC_ASYNC_OUTSTANDING) return f->async.outstanding ? 1 : 0;  // allowed while one is
  refuse_while_async(F, *f);
  switch (cmd) {
    case UPC_GET_CA_SEMANTICS:
      return f->strong() ? UPC_STRONG_CA : 0;
    case UPC_SET_WEAK_CA_SEMANTICS:
    case UPC_SET_STRONG_CA_SEMANTICS: {
      if (const int e = sync_file(call, *f)) return fail_with(e);
      f->flags = (f->flags & ~UPC_STRONG_CA) | (cmd == UPC_SET_STRONG_CA_SEMANTICS ? UPC_STRONG_CA : 0);
      return 0;
    }
    case UPC_GET_FP:
      return f->common() ? UPC_COMMON_FP : UPC_INDIVIDUAL_FP;
    case UPC_SET_COMMON_FP:
    case UPC_SET_INDIVIDUAL_FP: {
      if (const int e = sync_file(call, *f)) return fail_with(e);
      f->flags = (f->flags & ~(UPC_COMMON_FP | UPC_INDIVIDUAL_FP)) |
                 (cmd == UPC_SET_COMMON_FP ? UPC_COMMON_FP : UPC_INDIVIDUAL_FP);
      f->individual_fp = f->common_fp = 0;  // "and seeks to the beginning of the file"
      return 0;
    }
    case UPC_GET_FL:
      return f->flags;
    case UPC_GET_FN:
      if (!arg) return fail_with(EINVAL);
      *static_cast<const char**>(arg) = f->name.c_str();
      return 0;
    case UPC_GET_HINTS:
      if (!arg) return fail_with(EINVAL);
      *static_cast<const upc_hint_t**>(arg) = f->hint_view.empty() ? nullptr : f->hint_view.data();
      return static_cast<int>(f->hint_view.size());
    case UPC_SET_HINT: {
      const upc_hint* h = static_cast<const upc_hint*>(arg);
      if (!h || !h->key || !h->value) return fail_with(EINVAL);
      row extra{};
      extra[1] = static_cast<std::int64_t>(hints_hash(F, 1, h));
      const std::vector<row> rows = call.exchange(*f, extra);
      check_same_as_thread0(F, rows, 1, "arg (the hint's key and value)", " for UPC_SET_HINT");
      if (const int e = sync_file(call, *f)) return fail_with(e);
      f->set_hint(h->key, h->value);
      return 0;
    }
    default:
      return fail_with(EINVAL);
  }
}
