#include "file_bytes.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <string>

#include "upc.h"
#include "upc/error.hpp"

namespace upc::io {

long long read_at(int fd, void* buf, std::size_t n, std::int64_t off) noexcept {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t r = ::pread(fd, static_cast<char*>(buf) + done, n - done, static_cast<off_t>(off + static_cast<std::int64_t>(done)));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;  // end of file
    done += static_cast<std::size_t>(r);
  }
  return static_cast<long long>(done);
}

long long write_at(int fd, const void* buf, std::size_t n, std::int64_t off) noexcept {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t r =
        ::pwrite(fd, static_cast<const char*>(buf) + done, n - done, static_cast<off_t>(off + static_cast<std::int64_t>(done)));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    done += static_cast<std::size_t>(r);
  }
  return static_cast<long long>(done);
}

namespace {
// Bytes moved through one buffer at a time.
constexpr std::uint64_t window = 1u << 22;

// The bytes between the file and the buffer's pieces, one window at a time
// (not zeroed: every byte used is read or gathered first).
struct staging {
  std::unique_ptr<char[]> memory;
  char* data;
  explicit staging(std::uint64_t bytes)
      : memory(new char[static_cast<std::size_t>(std::min(window, bytes)) + 1]), data(memory.get()) {}
};

// A upc_mem* refusal (a buffer running past its object or the heap) said as
// the UPC-IO function's.
template <class F>
void as_buffer_of(const char* fn, F f) {
  try {
    f();
  } catch (const upc::error& e) {
    detail::fail(fn, "the shared buffer: " + e.message());
  }
}

// The stream's bytes [from, to) one window at a time through one staging
// buffer: move(buffer, w, end) moves the window [w, end) and returns the bytes
// it moved (fewer: the end of the file, which ends the walk) or -1. Returns
// the bytes moved in all, or -1.
template <class Move>
long long by_windows(std::uint64_t from, std::uint64_t to, Move move) {
  staging buf(to > from ? to - from : 0);
  std::uint64_t done = 0;
  for (std::uint64_t w = from; w < to; w += window) {
    const std::uint64_t end = std::min(to, w + window);
    const long long moved = move(buf.data, w, end);
    if (moved < 0) return -1;
    done += static_cast<std::uint64_t>(moved);
    if (static_cast<std::uint64_t>(moved) < end - w) break;  // end of file
  }
  return static_cast<long long>(done);
}
}  // namespace

long long read_into_shared(const char* fn, int fd, std::int64_t off, const shared_stream& s, std::uint64_t from,
                           std::uint64_t to) {
  return by_windows(from, to, [&](char* buf, std::uint64_t w, std::uint64_t end) {
    const long long got = read_at(fd, buf, static_cast<std::size_t>(end - w), off + static_cast<std::int64_t>(w - from));
    if (got < 0) return got;
    for_each_piece(s, w, w + static_cast<std::uint64_t>(got), [&](const shared_address& a, std::uint64_t pos, std::uint64_t len) {
      as_buffer_of(fn, [&] { upc_memput(sptr<void>(a), buf + (pos - w), static_cast<std::size_t>(len)); });
    });
    return got;
  });
}

long long write_from_shared(const char* fn, int fd, std::int64_t off, const shared_stream& s, std::uint64_t from,
                            std::uint64_t to) {
  // (write_at writes the whole window or fails: a write never ends the walk early)
  return by_windows(from, to, [&](char* buf, std::uint64_t w, std::uint64_t end) {
    for_each_piece(s, w, end, [&](const shared_address& a, std::uint64_t pos, std::uint64_t len) {
      as_buffer_of(fn, [&] { upc_memget(buf + (pos - w), sptr<void>(a), static_cast<std::size_t>(len)); });
    });
    return write_at(fd, buf, static_cast<std::size_t>(end - w), off + static_cast<std::int64_t>(w - from));
  });
}

}  // namespace upc::io
