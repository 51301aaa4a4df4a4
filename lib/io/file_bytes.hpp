// Moving bytes between a file and memory for UPC-IO: whole positioned reads
// and writes on one descriptor, and a shared buffer seen as a stream of bytes
// laid out in blocks over the threads (the spec's blocksize and size: block
// b of the stream is on thread (t0 + b) % THREADS, the buffer's phase taken
// as 0).
#pragma once
#include <cstddef>
#include <cstdint>

#include "upc/layout.hpp"
#include "upc/runtime.hpp"

namespace upc::io {

// Reads n bytes at off (fewer at end of file); -1 and errno on an error.
long long read_at(int fd, void* buf, std::size_t n, std::int64_t off) noexcept;
// Writes n bytes at off; -1 and errno on an error.
long long write_at(int fd, const void* buf, std::size_t n, std::int64_t off) noexcept;

// A shared buffer as a byte stream: element i (elem bytes) is element i of
// `shared [block] char[elem] *` starting at base with phase 0; block 0 is the
// indefinite block size (everything on base's thread).
struct shared_stream {
  shared_address base;
  std::size_t elem = 1;
  std::size_t block = 0;
};

// The stream's bytes [from, to) one piece at a time: f(address, stream
// position, length), each piece inside one block (one thread, contiguous).
template <class F>
void for_each_piece(const shared_stream& s, std::uint64_t from, std::uint64_t to, F&& f) {
  if (from >= to) return;
  if (s.block == 0) {
    shared_address a = s.base;
    a.phase = 0;
    a.offset += from;
    f(a, from, to - from);
    return;
  }
  const std::uint64_t block_bytes = static_cast<std::uint64_t>(s.block) * s.elem;
  const std::uint64_t T = static_cast<std::uint64_t>(threads());
  std::uint64_t b = from / block_bytes;
  for (std::uint64_t pos = from; pos < to; ++b) {
    const std::uint64_t end = (b + 1) * block_bytes < to ? (b + 1) * block_bytes : to;
    const std::uint64_t t = s.base.thread + b;
    shared_address a{s.base.offset + (t / T) * block_bytes + (pos - b * block_bytes), static_cast<std::uint32_t>(t % T), 0};
    f(a, pos, end - pos);
    pos = end;
  }
}

// Reads the file from `off` into the stream's bytes [from, to); returns the
// bytes read (fewer at end of file) or -1 with errno. `fn` names the caller
// in a report about a buffer outside shared memory.
long long read_into_shared(const char* fn, int fd, std::int64_t off, const shared_stream& s, std::uint64_t from,
                           std::uint64_t to);
// Writes the stream's bytes [from, to) to the file at `off`; the bytes written or -1.
long long write_from_shared(const char* fn, int fd, std::int64_t off, const shared_stream& s, std::uint64_t from,
                            std::uint64_t to);

}  // namespace upc::io
