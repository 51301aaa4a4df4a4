// UPC-IO (<upc_io.h>, UPC 1.3 Optional Library Specifications §7.3): every
// function against a sequential model of the file (the bytes POSIX reads
// back, or the bytes a test wrote with POSIX) and of the file pointers, on
// THREADS 1-4 and both backends; the errors the spec asks to be returned
// (errno, the same on every thread where it says so); and the erroneous uses
// that stop the run (function, argument, thread).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "../support/spmd.hpp"
#include "upc_io.h"

namespace {

constexpr upc_flag_t all_sync = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
constexpr upc_flag_t no_sync = UPC_IN_NOSYNC | UPC_OUT_NOSYNC;

// One file per test and suite run, the same for every thread: under mpirun the
// ranks' parent (one per host) names it, elsewhere the test process.
std::string io_path(const std::string& name) {
  const int owner = spmd::mpi_ranks() > 0 ? static_cast<int>(getppid()) : static_cast<int>(getpid());
  return "/tmp/upcemu-io-" + std::to_string(owner) + "-" + name;
}

// The model's bytes: byte j of element i of stream `salt`.
unsigned char pattern(std::size_t i, std::size_t j, int salt) {
  return static_cast<unsigned char>((i * 31 + j * 7 + static_cast<std::size_t>(salt) * 101 + 5) & 0xff);
}
std::vector<unsigned char> model(std::size_t n, std::size_t esize, int salt) {
  std::vector<unsigned char> v(n * esize);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < esize; ++j) v[i * esize + j] = pattern(i, j, salt);
  return v;
}

// Element i of a buffer laid out as shared [block] of esize-byte elements from
// base (phase 0): the runtime's own layout arithmetic, not the library's.
upc::sptr<void> element(upc::sptr<void> base, std::size_t i, std::size_t esize, std::size_t block) {
  upc::shared_address a = base.address();
  a.phase = 0;
  return upc::sptr<void>(upc::layout::advance(a, static_cast<std::ptrdiff_t>(i), esize, block, THREADS));
}

// A buffer of n elements of esize bytes, shared [block] (0: all on thread 0).
upc::sptr<void> make_buffer(std::size_t n, std::size_t esize, std::size_t block) {
  if (block == 0) return upc_all_alloc(1, n * esize);
  return upc_all_alloc((n + block - 1) / block, block * esize);
}

// Each thread fills the elements it holds with the model's bytes.
void fill(upc::sptr<void> buf, std::size_t n, std::size_t esize, std::size_t block, int salt) {
  const std::vector<unsigned char> m = model(n, esize, salt);
  for (std::size_t i = 0; i < n; ++i) {
    const upc::sptr<void> e = element(buf, i, esize, block);
    if (static_cast<int>(e.address().thread) == MYTHREAD) upc_memput(e, &m[i * esize], esize);
  }
}

// The buffer's elements [0, n) as bytes, read element by element.
std::vector<unsigned char> contents(upc::sptr<void> buf, std::size_t n, std::size_t esize, std::size_t block) {
  std::vector<unsigned char> v(n * esize);
  for (std::size_t i = 0; i < n; ++i) upc_memget(&v[i * esize], element(buf, i, esize, block), esize);
  return v;
}

std::vector<unsigned char> posix_read(const std::string& path) {
  std::vector<unsigned char> v;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return v;
  unsigned char c[4096];
  for (std::size_t k; (k = std::fread(c, 1, sizeof c, f)) > 0;) v.insert(v.end(), c, c + k);
  std::fclose(f);
  return v;
}

void posix_write(const std::string& path, const std::vector<unsigned char>& v) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f) {
    std::fwrite(v.data(), 1, v.size(), f);
    std::fclose(f);
  }
}

std::vector<unsigned char> slice(const std::vector<unsigned char>& v, std::size_t from, std::size_t n) {
  return std::vector<unsigned char>(v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(from + n));
}

// ---- shared buffers through the common file pointer ----

void common_pointer_body(const std::string& path, std::size_t esize, std::size_t block) {
  const std::size_t n = 5 * static_cast<std::size_t>(THREADS) + 2;
  const std::vector<unsigned char> m = model(n, esize, 1);
  upc::sptr<void> a = make_buffer(n, esize, block), b = make_buffer(n, esize, block), c = make_buffer(n, esize, block);
  fill(a, n, esize, block, 1);
  upc_barrier;

  upc_file_t* fd = upc_all_fopen(path.c_str(), UPC_WRONLY | UPC_COMMON_FP | UPC_CREATE | UPC_TRUNC, 0, nullptr);
  SPMD_CHECK(fd != nullptr);
  SPMD_CHECK_EQ(upc_all_fwrite_shared(fd, a, block, esize, n, all_sync), static_cast<upc_off_t>(n * esize));
  SPMD_CHECK_EQ(upc_all_fseek(fd, 0, UPC_SEEK_CUR), static_cast<upc_off_t>(n * esize));
  SPMD_CHECK_EQ(upc_all_fget_size(fd), static_cast<upc_off_t>(n * esize));
  SPMD_CHECK_EQ(upc_all_fclose(fd), 0);
  SPMD_CHECK(posix_read(path) == m);  // the file is the buffer's elements in order

  // Read back in two calls: the common pointer moves by what was read; a read
  // past the end returns what is left, a read at the end 0.
  fd = upc_all_fopen(path.c_str(), UPC_RDONLY | UPC_COMMON_FP, 0, nullptr);
  SPMD_CHECK(fd != nullptr);
  const std::size_t k = n / 2 + 1;
  SPMD_CHECK_EQ(upc_all_fread_shared(fd, b, block, esize, k, all_sync), static_cast<upc_off_t>(k * esize));
  SPMD_CHECK(contents(b, k, esize, block) == slice(m, 0, k * esize));
  SPMD_CHECK_EQ(upc_all_fread_shared(fd, c, block, esize, n, all_sync), static_cast<upc_off_t>((n - k) * esize));
  SPMD_CHECK(contents(c, n - k, esize, block) == slice(m, k * esize, (n - k) * esize));
  SPMD_CHECK_EQ(upc_all_fread_shared(fd, c, block, esize, n, all_sync), 0);
  // Seek from the end, then an unsynchronised read of one element.
  SPMD_CHECK_EQ(upc_all_fseek(fd, -static_cast<upc_off_t>(esize), UPC_SEEK_END), static_cast<upc_off_t>((n - 1) * esize));
  SPMD_CHECK_EQ(upc_all_fread_shared(fd, c, block, esize, 1, no_sync), static_cast<upc_off_t>(esize));
  upc_barrier;
  SPMD_CHECK(contents(c, 1, esize, block) == slice(m, (n - 1) * esize, esize));
  SPMD_CHECK_EQ(upc_all_fclose(fd), 0);
}

TEST_CASE("upc_io: a shared buffer written and read through the common file pointer, every layout") {
  const std::string path = io_path("common");
  for (upc::backend_kind bk : spmd::backends)
    for (int t : {1, 2, 3, 4})
      for (std::size_t block : {0, 1, 3})
        for (std::size_t esize : {4, 12}) {
          INFO("block ", block, " element size ", esize);
          spmd::run_ok(t, bk, [&] { common_pointer_body(path, esize, block); });
        }
  std::remove(path.c_str());
}

// ---- private buffers and shared buffers through individual file pointers ----

void individual_body(const std::string& path) {
  const int T = THREADS, me = MYTHREAD;
  const std::size_t chunk = 37;  // bytes per thread: odd on purpose
  const std::vector<unsigned char> m = model(static_cast<std::size_t>(T) * chunk, 1, 2);

  upc_file_t* fd = upc_all_fopen(path.c_str(), UPC_RDWR | UPC_INDIVIDUAL_FP | UPC_CREATE | UPC_TRUNC, 0, nullptr);
  SPMD_CHECK(fd != nullptr);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_FP, nullptr), UPC_INDIVIDUAL_FP);
  // Each thread writes its chunk at its own place, in two calls.
  SPMD_CHECK_EQ(upc_all_fseek(fd, static_cast<upc_off_t>(me * chunk), UPC_SEEK_SET), static_cast<upc_off_t>(me * chunk));
  std::vector<unsigned char> mine = slice(m, static_cast<std::size_t>(me) * chunk, chunk);
  SPMD_CHECK_EQ(upc_all_fwrite_local(fd, mine.data(), 1, 10, no_sync), 10);
  SPMD_CHECK_EQ(upc_all_fwrite_local(fd, mine.data() + 10, 3, 9, all_sync), 27);
  SPMD_CHECK_EQ(upc_all_fseek(fd, 0, UPC_SEEK_CUR), static_cast<upc_off_t>((me + 1) * chunk));
  // A thread sees its own writes at once; the others' after upc_all_fsync.
  std::vector<unsigned char> back(chunk);
  SPMD_CHECK_EQ(upc_all_fseek(fd, -static_cast<upc_off_t>(chunk), UPC_SEEK_CUR), static_cast<upc_off_t>(me * chunk));
  SPMD_CHECK_EQ(upc_all_fread_local(fd, back.data(), chunk, 1, all_sync), static_cast<upc_off_t>(chunk));
  SPMD_CHECK(back == mine);
  SPMD_CHECK_EQ(upc_all_fsync(fd), 0);
  const int right = (me + 1) % T;
  SPMD_CHECK_EQ(upc_all_fseek(fd, static_cast<upc_off_t>(right * chunk), UPC_SEEK_SET), static_cast<upc_off_t>(right * chunk));
  SPMD_CHECK_EQ(upc_all_fread_local(fd, back.data(), 1, chunk, all_sync), static_cast<upc_off_t>(chunk));
  SPMD_CHECK(back == slice(m, static_cast<std::size_t>(right) * chunk, chunk));
  // Reading past the end: what is left; a zero-size read moves nothing.
  SPMD_CHECK_EQ(upc_all_fseek(fd, -5, UPC_SEEK_END), static_cast<upc_off_t>(T * chunk - 5));
  SPMD_CHECK_EQ(upc_all_fread_local(fd, back.data(), 1, chunk, all_sync), 5);
  SPMD_CHECK_EQ(upc_all_fread_local(fd, nullptr, 0, 9, all_sync), 0);
  SPMD_CHECK_EQ(upc_all_fseek(fd, 0, UPC_SEEK_CUR), static_cast<upc_off_t>(T * chunk));

  // A shared buffer with another thread's affinity, blocked by 2 elements of
  // 3 bytes: each thread writes it at its own place after the file's end.
  const std::size_t n = 7, esize = 3, block = 2;
  upc::sptr<void> s = make_buffer(n * static_cast<std::size_t>(T), esize, block);
  fill(s, n * static_cast<std::size_t>(T), esize, block, 3);
  upc_barrier;
  const std::vector<unsigned char> sm = model(n * static_cast<std::size_t>(T), esize, 3);
  const upc_off_t base = static_cast<upc_off_t>(T * chunk);
  // thread me's buffer: the elements from (right * n), a block boundary only by
  // chance, so its phase is not 0 in general: the spec says it is taken as 0.
  const std::size_t first = static_cast<std::size_t>(right) * 2 * block;  // a block boundary: phase 0
  upc::sptr<void> from = element(s, first, esize, block);
  SPMD_CHECK_EQ(upc_all_fseek(fd, base + static_cast<upc_off_t>(me * n * esize), UPC_SEEK_SET),
                base + static_cast<upc_off_t>(me * n * esize));
  SPMD_CHECK_EQ(upc_all_fwrite_shared(fd, from, block, esize, n, all_sync), static_cast<upc_off_t>(n * esize));
  SPMD_CHECK_EQ(upc_all_fsync(fd), 0);
  // Read them back into a second buffer, each thread the left neighbour's part,
  // at places 4 blocks apart: 7 elements from 2 blocks apart would overlap the
  // next thread's (two threads writing the same bytes: a data race).
  upc::sptr<void> r = make_buffer(4 * block * static_cast<std::size_t>(T), esize, block);
  const int left = (me + T - 1) % T;
  SPMD_CHECK_EQ(upc_all_fseek(fd, base + static_cast<upc_off_t>(left * n * esize), UPC_SEEK_SET),
                base + static_cast<upc_off_t>(left * n * esize));
  upc::sptr<void> into = element(r, static_cast<std::size_t>(me) * 4 * block, esize, block);
  SPMD_CHECK_EQ(upc_all_fread_shared(fd, into, block, esize, n, all_sync), static_cast<upc_off_t>(n * esize));
  // left wrote the elements from (me * 2 * block): the model's, and r holds them there.
  const std::vector<unsigned char> got = contents(into, n, esize, block);
  SPMD_CHECK(got == slice(sm, static_cast<std::size_t>(me) * 2 * block * esize, n * esize));
  SPMD_CHECK_EQ(upc_all_fget_size(fd), base + static_cast<upc_off_t>(static_cast<std::size_t>(T) * n * esize));
  SPMD_CHECK_EQ(upc_all_fclose(fd), 0);
}

TEST_CASE("upc_io: private and shared buffers through individual file pointers") {
  const std::string path = io_path("individual");
  for (upc::backend_kind bk : spmd::backends)
    for (int t : {1, 2, 3, 4}) spmd::run_ok(t, bk, [&] { individual_body(path); });
  std::remove(path.c_str());
}

// ---- list I/O ----

void list_body(const std::string& path) {
  const int T = THREADS, me = MYTHREAD;
  const std::size_t span = 10 + 5 * static_cast<std::size_t>(T);
  std::vector<unsigned char> m = model(span + 5, 1, 4);
  if (me == 0) posix_write(path, m);
  upc_barrier;
  // The spec's example: two memory pieces, two file pieces of other lengths.
  upc_file_t* fd = upc_all_fopen(path.c_str(), UPC_RDWR | UPC_COMMON_FP, 0, nullptr);
  SPMD_CHECK(fd != nullptr);
  char buffer[12] = {};
  struct upc_local_memvec memvec[2] = {{&buffer[0], 4}, {&buffer[7], 3}};
  struct upc_filevec filevec[2] = {{static_cast<upc_off_t>(me * 5), 2}, {static_cast<upc_off_t>(10 + me * 5), 5}};
  SPMD_CHECK_EQ(upc_all_fread_list_local(fd, 2, memvec, 2, filevec, all_sync), 7);
  const std::size_t f0 = static_cast<std::size_t>(me) * 5, f1 = 10 + static_cast<std::size_t>(me) * 5;
  const unsigned char want[12] = {m[f0], m[f0 + 1], m[f1], m[f1 + 1], 0, 0, 0, m[f1 + 2], m[f1 + 3], m[f1 + 4], 0, 0};
  SPMD_CHECK(std::memcmp(buffer, want, 12) == 0);
  SPMD_CHECK_EQ(upc_all_fseek(fd, 0, UPC_SEEK_CUR), 0);  // list I/O moves no file pointer

  // Shared memory vectors: a shared [4] char array, entries on other threads,
  // read from one file region, written back reversed into another.
  const std::size_t per = 6;
  upc::sptr<void> s = make_buffer(8 * static_cast<std::size_t>(T), 1, 4);
  const std::size_t mine_at = static_cast<std::size_t>((me + 1) % T) * 8;  // two blocks of 4 per thread
  upc_shared_memvec sv[2] = {{element(s, mine_at + 4, 1, 4), 4, 2}, {element(s, mine_at, 1, 4), 4, 4}};
  upc_filevec fv[1] = {{static_cast<upc_off_t>(me * per), per}};
  SPMD_CHECK_EQ(upc_all_fread_list_shared(fd, 2, sv, 1, fv, all_sync), static_cast<upc_off_t>(per));
  std::vector<unsigned char> got(per);
  for (std::size_t j = 0; j < 2; ++j) upc_memget(&got[j], element(sv[0].baseaddr, j, 1, 4), 1);
  for (std::size_t j = 0; j < 4; ++j) upc_memget(&got[2 + j], element(sv[1].baseaddr, j, 1, 4), 1);
  SPMD_CHECK(got == slice(m, static_cast<std::size_t>(me) * per, per));
  // Write the same memory pieces to the end of the file, in the other order.
  const upc_off_t tail = static_cast<upc_off_t>(span + 5);
  upc_filevec out[2] = {{tail + static_cast<upc_off_t>(me * per), 4}, {tail + static_cast<upc_off_t>(me * per + 4), 2}};
  upc_shared_memvec back[2] = {sv[1], sv[0]};
  SPMD_CHECK_EQ(upc_all_fwrite_list_shared(fd, 2, back, 2, out, all_sync), static_cast<upc_off_t>(per));
  // And a private piece with a zero-length entry in each list.
  unsigned char tag[3] = {static_cast<unsigned char>(me), 0xAA, 0x55};
  upc_local_memvec lv[2] = {{tag, 0}, {tag, 3}};
  upc_filevec lf[2] = {{tail + static_cast<upc_off_t>(T * per + me * 3), 3}, {0, 0}};
  SPMD_CHECK_EQ(upc_all_fwrite_list_local(fd, 2, lv, 2, lf, all_sync), 3);
  SPMD_CHECK_EQ(upc_all_fclose(fd), 0);
  upc_barrier;
  const std::vector<unsigned char> file = posix_read(path);
  SPMD_CHECK_EQ(file.size(), static_cast<std::size_t>(tail) + static_cast<std::size_t>(T) * (per + 3));
  for (int t = 0; t < T; ++t) {
    const std::size_t at = static_cast<std::size_t>(tail) + static_cast<std::size_t>(t) * per, src = static_cast<std::size_t>(t) * per;
    // the reversed order: the 4 bytes read into sv[1] first, then the 2 of sv[0]
    const std::vector<unsigned char> w = {m[src + 2], m[src + 3], m[src + 4], m[src + 5], m[src], m[src + 1]};
    SPMD_CHECK(slice(file, at, per) == w);
    const std::size_t g = static_cast<std::size_t>(tail) + static_cast<std::size_t>(T) * per + static_cast<std::size_t>(t) * 3;
    SPMD_CHECK(file[g] == static_cast<unsigned char>(t) && file[g + 1] == 0xAA && file[g + 2] == 0x55);
  }
}

TEST_CASE("upc_io: list I/O, private and shared memory vectors") {
  const std::string path = io_path("list");
  for (upc::backend_kind bk : spmd::backends)
    for (int t : {1, 2, 3, 4}) spmd::run_ok(t, bk, [&] { list_body(path); });
  std::remove(path.c_str());
}

// ---- asynchronous forms ----

void async_body(const std::string& path) {
  const int T = THREADS, me = MYTHREAD;
  const std::size_t n = 4 * static_cast<std::size_t>(T) + 1, esize = 8, block = 2;
  const std::vector<unsigned char> m = model(n, esize, 5);
  upc::sptr<void> a = make_buffer(n, esize, block), b = make_buffer(n, esize, block);
  fill(a, n, esize, block, 5);
  upc_barrier;
  upc_file_t* fd = upc_all_fopen(path.c_str(), UPC_RDWR | UPC_COMMON_FP | UPC_CREATE | UPC_TRUNC, 0, nullptr);
  SPMD_CHECK(fd != nullptr);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_ASYNC_OUTSTANDING, nullptr), 0);
  upc_all_fwrite_shared_async(fd, a, block, esize, n, all_sync);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_ASYNC_OUTSTANDING, nullptr), 1);
  SPMD_CHECK_EQ(upc_all_fwait_async(fd), static_cast<upc_off_t>(n * esize));
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_ASYNC_OUTSTANDING, nullptr), 0);
  SPMD_CHECK_EQ(upc_all_fseek(fd, 0, UPC_SEEK_SET), 0);
  upc_all_fread_shared_async(fd, b, block, esize, n, all_sync);
  int flag = 0;
  SPMD_CHECK_EQ(upc_all_ftest_async(fd, &flag), static_cast<upc_off_t>(n * esize));
  SPMD_CHECK_EQ(flag, 1);
  SPMD_CHECK(contents(b, n, esize, block) == m);
  SPMD_CHECK_EQ(upc_all_fsync(fd), 0);

  // Individual pointers: private buffers and lists.
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_SET_INDIVIDUAL_FP, nullptr), 0);
  SPMD_CHECK_EQ(upc_all_fseek(fd, 0, UPC_SEEK_CUR), 0);  // the change seeks to the beginning
  std::vector<unsigned char> mine(esize);
  SPMD_CHECK_EQ(upc_all_fseek(fd, static_cast<upc_off_t>(me * esize), UPC_SEEK_SET), static_cast<upc_off_t>(me * esize));
  upc_all_fread_local_async(fd, mine.data(), esize, 1, no_sync);
  SPMD_CHECK_EQ(upc_all_fwait_async(fd), static_cast<upc_off_t>(esize));
  SPMD_CHECK(mine == slice(m, static_cast<std::size_t>(me) * esize, esize));
  const upc_off_t end = static_cast<upc_off_t>(n * esize);
  std::vector<unsigned char> stamp(4, static_cast<unsigned char>(0x40 + me));
  SPMD_CHECK_EQ(upc_all_fseek(fd, end + me * 4, UPC_SEEK_SET), end + me * 4);
  upc_all_fwrite_local_async(fd, stamp.data(), 2, 2, all_sync);
  SPMD_CHECK_EQ(upc_all_fwait_async(fd), 4);
  upc_local_memvec lv[1] = {{stamp.data(), 4}};
  upc_filevec lf[1] = {{end + static_cast<upc_off_t>(T * 4 + me * 4), 4}};
  upc_all_fwrite_list_local_async(fd, 1, lv, 1, lf, all_sync);
  SPMD_CHECK_EQ(upc_all_fwait_async(fd), 4);
  SPMD_CHECK_EQ(upc_all_fsync(fd), 0);
  std::vector<unsigned char> other(4);
  const int right = (me + 1) % T;
  upc_local_memvec rv[1] = {{other.data(), 4}};
  upc_filevec rf[1] = {{end + static_cast<upc_off_t>(T * 4 + right * 4), 4}};
  upc_all_fread_list_local_async(fd, 1, rv, 1, rf, all_sync);
  SPMD_CHECK_EQ(upc_all_ftest_async(fd, &flag), 4);
  SPMD_CHECK(other == std::vector<unsigned char>(4, static_cast<unsigned char>(0x40 + right)));
  // Shared lists: the file's first element into an element of b, and back at
  // the end; each thread its own element (the first of its block: all into the
  // same one would be a data race).
  upc_shared_memvec sv[1] = {{element(b, 2 * static_cast<std::size_t>(me), esize, block), block * esize, esize}};
  upc_filevec sf[1] = {{0, esize}};
  upc_filevec tf[1] = {{end + static_cast<upc_off_t>(T * 8) + me * static_cast<upc_off_t>(esize), esize}};
  upc_all_fread_list_shared_async(fd, 1, sv, 1, sf, all_sync);
  SPMD_CHECK_EQ(upc_all_fwait_async(fd), static_cast<upc_off_t>(esize));
  upc_all_fwrite_list_shared_async(fd, 1, sv, 1, tf, all_sync);
  SPMD_CHECK_EQ(upc_all_fwait_async(fd), static_cast<upc_off_t>(esize));
  const upc_off_t last = end + static_cast<upc_off_t>(T * 8) + static_cast<upc_off_t>((T + me) * esize);
  SPMD_CHECK_EQ(upc_all_fseek(fd, last, UPC_SEEK_SET), last);
  upc_all_fwrite_shared_async(fd, b, block, esize, 1, all_sync);  // individual: at my pointer
  SPMD_CHECK_EQ(upc_all_fwait_async(fd), static_cast<upc_off_t>(esize));
  SPMD_CHECK_EQ(upc_all_fclose(fd), 0);
  const std::vector<unsigned char> file = posix_read(path);
  SPMD_CHECK(slice(file, 0, n * esize) == m);
  for (int t = 0; t < 2 * T; ++t)  // the list write, then the individual one
    SPMD_CHECK(slice(file, static_cast<std::size_t>(end) + static_cast<std::size_t>(T) * 8 + static_cast<std::size_t>(t) * esize, esize) ==
               slice(m, 0, esize));
}

TEST_CASE("upc_io: the asynchronous forms, completed by fwait and ftest") {
  const std::string path = io_path("async");
  for (upc::backend_kind bk : spmd::backends)
    for (int t : {1, 2, 3, 4}) spmd::run_ok(t, bk, [&] { async_body(path); });
  std::remove(path.c_str());
}

// ---- whole-file operations, fcntl, open flags ----

void file_ops_body(const std::string& path) {
  const int me = MYTHREAD;
  if (me == 0) std::remove(path.c_str());  // UPC_EXCL below needs a new file
  upc_barrier;
  struct upc_hint hints[2] = {{"access_style", "read_mostly,sequential"}, {"file_perm", "0600"}};
  upc_file_t* fd = upc_all_fopen(path.c_str(), UPC_WRONLY | UPC_INDIVIDUAL_FP | UPC_CREATE | UPC_EXCL, 2, hints);
  SPMD_CHECK(fd != nullptr);
  struct stat st{};
  SPMD_CHECK(::stat(path.c_str(), &st) == 0);
  SPMD_CHECK_EQ(st.st_mode & 0777, 0600u);  // the file_perm hint
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_FL, nullptr), UPC_WRONLY | UPC_INDIVIDUAL_FP | UPC_CREATE | UPC_EXCL);
  const char* name = nullptr;
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_FN, &name), 0);
  SPMD_CHECK(name && path == name);
  const upc_hint_t* got = nullptr;
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_HINTS, &got), 2);
  SPMD_CHECK(std::strcmp(got[1].key, "file_perm") == 0 && std::strcmp(got[1].value, "0600") == 0);
  const upc_hint_t more = {"access_style", "write_once"};
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_SET_HINT, const_cast<upc_hint_t*>(&more)), 0);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_HINTS, &got), 2);
  SPMD_CHECK(std::strcmp(got[0].value, "write_once") == 0);
  // Consistency modes and pointer kinds.
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_CA_SEMANTICS, nullptr), 0);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_SET_STRONG_CA_SEMANTICS, nullptr), 0);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_CA_SEMANTICS, nullptr), UPC_STRONG_CA);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_FL, nullptr) & UPC_STRONG_CA, UPC_STRONG_CA);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_SET_WEAK_CA_SEMANTICS, nullptr), 0);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_CA_SEMANTICS, nullptr), 0);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_SET_COMMON_FP, nullptr), 0);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_FP, nullptr), UPC_COMMON_FP);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_FL, nullptr) & (UPC_COMMON_FP | UPC_INDIVIDUAL_FP), UPC_COMMON_FP);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, 999, nullptr), -1);
  SPMD_CHECK_EQ(errno, EINVAL);
  // Sizes: set, preallocate (never shrinks), the pointers untouched.
  SPMD_CHECK_EQ(upc_all_fseek(fd, 7, UPC_SEEK_SET), 7);
  SPMD_CHECK_EQ(upc_all_fset_size(fd, 100), 0);
  SPMD_CHECK_EQ(upc_all_fget_size(fd), 100);
  SPMD_CHECK_EQ(upc_all_fpreallocate(fd, 50), 0);
  SPMD_CHECK_EQ(upc_all_fget_size(fd), 100);
  SPMD_CHECK_EQ(upc_all_fpreallocate(fd, 4096), 0);
  SPMD_CHECK_EQ(upc_all_fget_size(fd), 4096);
  SPMD_CHECK_EQ(upc_all_fset_size(fd, 3), 0);
  SPMD_CHECK_EQ(upc_all_fget_size(fd), 3);
  SPMD_CHECK_EQ(upc_all_fseek(fd, 0, UPC_SEEK_CUR), 7);  // beyond the end now: allowed
  SPMD_CHECK_EQ(upc_all_fseek(fd, 2, UPC_SEEK_END), 5);
  SPMD_CHECK_EQ(upc_all_fseek(fd, -6, UPC_SEEK_CUR), -1);  // a negative position
  SPMD_CHECK_EQ(errno, EINVAL);
  SPMD_CHECK_EQ(upc_all_fseek(fd, 0, 17), -1);
  SPMD_CHECK_EQ(errno, EINVAL);
  SPMD_CHECK_EQ(upc_all_fclose(fd), 0);
  SPMD_CHECK(posix_read(path).size() == 3);

  // APPEND starts at the end; reading a write-only file, or a private buffer
  // through a common pointer, are errors.
  fd = upc_all_fopen(path.c_str(), UPC_WRONLY | UPC_INDIVIDUAL_FP | UPC_APPEND, 0, nullptr);
  SPMD_CHECK(fd != nullptr);
  SPMD_CHECK_EQ(upc_all_fseek(fd, 0, UPC_SEEK_CUR), 3);
  char c = 0;
  SPMD_CHECK_EQ(upc_all_fread_local(fd, &c, 1, 1, all_sync), -1);
  SPMD_CHECK_EQ(errno, EBADF);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_SET_COMMON_FP, nullptr), 0);
  SPMD_CHECK_EQ(upc_all_fwrite_local(fd, &c, 1, 1, all_sync), -1);
  SPMD_CHECK_EQ(errno, EINVAL);
  SPMD_CHECK_EQ(upc_all_fclose(fd), 0);
  fd = upc_all_fopen(path.c_str(), UPC_RDONLY | UPC_COMMON_FP, 0, nullptr);
  SPMD_CHECK_EQ(upc_all_fset_size(fd, 0), -1);
  SPMD_CHECK_EQ(errno, EBADF);
  SPMD_CHECK_EQ(upc_all_fclose(fd), 0);

  // Errors of upc_all_fopen: NULL and the same errno on every thread.
  SPMD_CHECK(upc_all_fopen(path.c_str(), UPC_RDWR | UPC_COMMON_FP | UPC_CREATE | UPC_EXCL, 0, nullptr) == nullptr);
  SPMD_CHECK_EQ(errno, EEXIST);
  SPMD_CHECK(upc_all_fopen((path + ".none").c_str(), UPC_RDONLY | UPC_COMMON_FP, 0, nullptr) == nullptr);
  SPMD_CHECK_EQ(errno, ENOENT);
  for (int bad : {UPC_RDONLY, UPC_COMMON_FP, UPC_RDONLY | UPC_WRONLY | UPC_COMMON_FP,
                  UPC_RDONLY | UPC_COMMON_FP | UPC_INDIVIDUAL_FP, UPC_RDWR | UPC_COMMON_FP | UPC_EXCL,
                  UPC_RDONLY | UPC_COMMON_FP | UPC_TRUNC, UPC_RDONLY | UPC_COMMON_FP | (1 << 20)}) {
    errno = 0;
    SPMD_CHECK(upc_all_fopen(path.c_str(), bad, 0, nullptr) == nullptr);
    SPMD_CHECK_EQ(errno, EINVAL);
  }
  // TRUNC empties, DELETE_ON_CLOSE removes at the close.
  fd = upc_all_fopen(path.c_str(), UPC_RDWR | UPC_INDIVIDUAL_FP | UPC_TRUNC | UPC_DELETE_ON_CLOSE, 0, nullptr);
  SPMD_CHECK(fd != nullptr);
  SPMD_CHECK_EQ(upc_all_fget_size(fd), 0);
  SPMD_CHECK_EQ(upc_all_fwrite_local(fd, &c, 1, 1, all_sync), 1);
  // A closed or unknown handle: EBADF on every call that returns a value.
  SPMD_CHECK_EQ(upc_all_fclose(fd), 0);
  upc_barrier;
  SPMD_CHECK(::access(path.c_str(), F_OK) != 0);
  SPMD_CHECK_EQ(upc_all_fclose(fd), -1);
  SPMD_CHECK_EQ(errno, EBADF);
  SPMD_CHECK_EQ(upc_all_fsync(fd), -1);
  SPMD_CHECK_EQ(upc_all_fget_size(fd), -1);
  SPMD_CHECK_EQ(upc_all_fcntl(fd, UPC_GET_FP, nullptr), -1);
  SPMD_CHECK_EQ(upc_all_fread_local(fd, &c, 1, 1, all_sync), -1);
  SPMD_CHECK_EQ(errno, EBADF);
  (void)me;
}

TEST_CASE("upc_io: whole-file operations, fcntl, hints and the flags of upc_all_fopen") {
  const std::string path = io_path("fileops");
  for (upc::backend_kind bk : spmd::backends)
    for (int t : {1, 2, 3, 4}) spmd::run_ok(t, bk, [&] { file_ops_body(path); });
  std::remove(path.c_str());
}

// Strong consistency: each thread's list write is atomic, so the two regions
// every thread writes end up holding one thread's bytes, both of them.
void strong_body(const std::string& path) {
  upc_file_t* fd =
      upc_all_fopen(path.c_str(), UPC_RDWR | UPC_INDIVIDUAL_FP | UPC_CREATE | UPC_TRUNC | UPC_STRONG_CA, 0, nullptr);
  SPMD_CHECK(fd != nullptr);
  std::vector<unsigned char> mine(4096, static_cast<unsigned char>('a' + MYTHREAD));
  for (int round = 0; round < 5; ++round) {
    upc_local_memvec mv[2] = {{mine.data(), 2048}, {mine.data() + 2048, 2048}};
    upc_filevec fv[2] = {{0, 2048}, {100000, 2048}};
    SPMD_CHECK_EQ(upc_all_fwrite_list_local(fd, 2, mv, 2, fv, no_sync), 4096);
    std::vector<unsigned char> got(4096);
    upc_local_memvec gv[1] = {{got.data(), 4096}};
    upc_filevec gf[2] = {{0, 2048}, {100000, 2048}};
    SPMD_CHECK_EQ(upc_all_fread_list_local(fd, 1, gv, 2, gf, no_sync), 4096);
    for (unsigned char ch : got) SPMD_CHECK(ch == got[0]);  // never a mix of two writes
  }
  SPMD_CHECK_EQ(upc_all_fclose(fd), 0);
}

TEST_CASE("upc_io: UPC_STRONG_CA makes each thread's list write atomic") {
  const std::string path = io_path("strong");
  for (upc::backend_kind bk : spmd::backends)
    for (int t : {2, 4}) spmd::run_ok(t, bk, [&] { strong_body(path); });
  std::remove(path.c_str());
}

// ---- erroneous programs stop with a report ----

// A run that must fail with `phrase` in its report (skipped under mpirun when
// THREADS is not the number of ranks).
void expect_failure(int threads, upc::backend_kind b, const std::function<void()>& body, const std::string& phrase) {
  if (spmd::skip_run(threads, b)) return;
  const std::string e = spmd::run_failing(threads, b, body);
  INFO(e);
  CHECK(spmd::contains(e, phrase));
}

TEST_CASE("upc_io: erroneous uses stop the run naming the function, the argument and the thread") {
  const std::string path = io_path("errors");
  auto opened = [path](int flags) {
    upc_file_t* fd = upc_all_fopen(path.c_str(), flags | UPC_CREATE, 0, nullptr);
    if (!fd) throw std::runtime_error("open failed");
    return fd;
  };
  for (upc::backend_kind bk : spmd::backends) {
    expect_failure(3, bk, [&] {
      upc_file_t* fd = opened(UPC_RDWR | UPC_COMMON_FP);
      upc::sptr<void> b = upc_all_alloc(THREADS, 16);
      upc_all_fread_shared(fd, b, 4, 1, MYTHREAD == 2 ? 8 : 16, all_sync);
    }, "upc_all_fread_shared: argument nmemb must be single-valued (the same on every thread) "
       "with a common file pointer: this thread passed 8, thread 0 passed 16 (thread 2)");
    {  // under --check every call meets the others, so even unsynchronised calls are compared
      upc::launch_options o = spmd::options(2, bk);
      o.check = true;
      o.timeout_seconds = 30;
      const upc::run_result r = spmd::skip_run(2, bk) ? upc::run_result{} : upc::run(o, [&] {
        upc_file_t* fd = opened(UPC_RDWR | UPC_INDIVIDUAL_FP);
        char c[4];
        upc_all_fread_local(fd, c, 1, 4, MYTHREAD == 0 ? all_sync : no_sync);
      });
      if (!spmd::skip_run(2, bk)) {
        CHECK(r.failed);
        CHECK(spmd::contains(r.error, "upc_all_fread_local: argument flags must be single-valued"));
      }
    }
    expect_failure(2, bk, [&] {
      upc_file_t* fd = opened(UPC_RDWR | UPC_INDIVIDUAL_FP);
      char c[4];
      upc_all_fread_local_async(fd, c, 1, 4, all_sync);
      upc_all_fwrite_local_async(fd, c, 1, 4, all_sync);
    }, "upc_all_fwrite_local_async: an asynchronous operation is already outstanding on this file");
    expect_failure(2, bk, [&] {
      upc_file_t* fd = opened(UPC_RDWR | UPC_INDIVIDUAL_FP);
      upc_all_fwait_async(fd);
    }, "upc_all_fwait_async: no asynchronous operation is outstanding on this file");
    expect_failure(2, bk, [&] {
      upc_file_t* fd = opened(UPC_RDWR | UPC_INDIVIDUAL_FP);
      char c[4];
      upc_all_fread_local_async(fd, c, 1, 4, all_sync);
      upc_all_fseek(fd, 0, UPC_SEEK_SET);
    }, "upc_all_fseek: an asynchronous operation is outstanding on this file");
    expect_failure(2, bk, [&] {
      upc_file_t* fd = opened(UPC_RDWR | UPC_INDIVIDUAL_FP);
      char c[8];
      upc_local_memvec mv[1] = {{c, 8}};
      upc_filevec fv[2] = {{0, 4}, {2, 4}};
      upc_all_fwrite_list_local(fd, 1, mv, 2, fv, all_sync);
    }, "upc_all_fwrite_list_local: filevec[1] overlaps filevec[0] in the file");
    expect_failure(2, bk, [&] {
      upc_file_t* fd = opened(UPC_RDWR | UPC_INDIVIDUAL_FP);
      char c[8];
      upc_local_memvec mv[1] = {{c, 8}};
      upc_filevec fv[2] = {{10, 4}, {2, 4}};
      upc_all_fread_list_local(fd, 1, mv, 2, fv, all_sync);
    }, "filevec[1].offset 2 comes after filevec[0].offset 10");
    expect_failure(2, bk, [&] {
      upc_file_t* fd = opened(UPC_RDWR | UPC_INDIVIDUAL_FP);
      char c[8];
      upc_local_memvec mv[2] = {{c, 4}, {c + 2, 4}};
      upc_filevec fv[1] = {{0, 7}};
      upc_all_fread_list_local(fd, 2, mv, 1, fv, all_sync);
    }, "memvec describes 8 bytes but filevec 7");
    expect_failure(2, bk, [&] {
      upc_file_t* fd = opened(UPC_RDWR | UPC_INDIVIDUAL_FP);
      char c[8];
      upc_local_memvec mv[2] = {{c, 4}, {c + 2, 4}};
      upc_filevec fv[1] = {{0, 8}};
      upc_all_fread_list_local(fd, 2, mv, 1, fv, all_sync);
    }, "memvec[0] and memvec[1] overlap in memory");
    expect_failure(2, bk, [&] {
      upc_file_t* fd = opened(UPC_RDWR | UPC_INDIVIDUAL_FP);
      upc_all_fread_local(fd, nullptr, 1, 4, all_sync);
    }, "upc_all_fread_local: buffer is a null pointer, but size x nmemb is 4");
    expect_failure(2, bk, [&] {
      upc_file_t* fd = opened(UPC_RDWR | UPC_INDIVIDUAL_FP);
      char c[4];
      upc_all_fread_local(fd, c, 1, 4, UPC_IN_ALLSYNC | UPC_IN_NOSYNC);
    }, "flags combines more than one of UPC_IN_ALLSYNC, UPC_IN_MYSYNC, UPC_IN_NOSYNC");
  }
  std::remove(path.c_str());
}

TEST_CASE("upc_io: fclose with an asynchronous operation outstanding is an error (EBUSY), then the file closes") {
  const std::string path = io_path("busy");
  for (upc::backend_kind bk : spmd::backends)
    spmd::run_ok(3, bk, [&] {
      upc_file_t* fd = upc_all_fopen(path.c_str(), UPC_RDWR | UPC_INDIVIDUAL_FP | UPC_CREATE | UPC_TRUNC, 0, nullptr);
      SPMD_CHECK(fd != nullptr);
      char c[2] = {'x', 'y'};
      upc_all_fwrite_local_async(fd, c, 1, 2, all_sync);
      SPMD_CHECK_EQ(upc_all_fclose(fd), -1);
      SPMD_CHECK_EQ(errno, EBUSY);
      SPMD_CHECK_EQ(upc_all_fwait_async(fd), 2);
      SPMD_CHECK_EQ(upc_all_fclose(fd), 0);
    });
  std::remove(path.c_str());
}

}  // namespace
