/* <upc_io.h> through upcc: a shared array written collectively through the
 * common file pointer, read back individually (private buffers, shared
 * buffers) and collectively, asynchronously, and by list I/O; every value
 * checked against what the array holds (element i is value(i)), and the file
 * against a plain read of it. */
#include <upc.h>
#include <upc_io.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define N 10 /* elements per thread */
#define B 3  /* the arrays' block size: blocks straddle the threads' shares of the file */
shared [B] int a[N * THREADS];
shared [B] int b[N * THREADS];
shared [] char path_shared[128]; /* all on thread 0 */

static int failures;
#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      printf("thread %d: line %d: ", MYTHREAD, __LINE__); \
      printf(__VA_ARGS__);                                \
      printf("\n");                                       \
      failures++;                                         \
    }                                                     \
  } while (0)

static int value(int i) { return 1000 + 7 * i; }

int main(void) {
  const int total = N * THREADS, bytes = N * THREADS * (int)sizeof(int);
  const int next = (MYTHREAD + 1) % THREADS;
  const upc_flag_t sync = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
  char path[128];
  int i;
  /* one file for every thread: thread 0 names it */
  if (MYTHREAD == 0) {
    snprintf(path, sizeof path, "/tmp/upcemu-lib-io-%ld.dat", (long)getpid());
    upc_memput(path_shared, path, sizeof path);
  }
  upc_barrier;
  upc_memget(path, path_shared, sizeof path);
  upc_forall (i = 0; i < total; i++; &a[i]) a[i] = value(i);

  /* 1. The whole array, collectively, through the common file pointer. */
  upc_file_t *fd = upc_all_fopen(path, UPC_WRONLY | UPC_COMMON_FP | UPC_CREATE | UPC_TRUNC, 0, NULL);
  CHECK(fd != NULL, "open for writing: errno %d", errno);
  upc_off_t n = upc_all_fwrite_shared(fd, a, upc_blocksizeof(a), upc_elemsizeof(a), total, sync);
  CHECK(n == bytes, "fwrite_shared wrote %ld", (long)n);
  CHECK(upc_all_fseek(fd, 0, UPC_SEEK_CUR) == bytes, "common pointer after the write");
  CHECK(upc_all_fget_size(fd) == bytes, "file size");
  CHECK(upc_all_fclose(fd) == 0, "close");
  {
    int plain[N * 8];
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(plain, sizeof(int), (size_t)total, f) : 0;
    if (f) fclose(f);
    CHECK(got == (size_t)total, "plain read of the file: %zu elements", got);
    for (i = 0; i < (int)got; i++) CHECK(plain[i] == value(i), "file element %d is %d", i, plain[i]);
  }

  /* 2. Read back individually into private buffers (the spec's Example 1). */
  fd = upc_all_fopen(path, UPC_RDONLY | UPC_INDIVIDUAL_FP, 0, NULL);
  CHECK(fd != NULL, "open for reading");
  int mine[N];
  CHECK(upc_all_fseek(fd, MYTHREAD * N * (upc_off_t)sizeof(int), UPC_SEEK_SET) == MYTHREAD * N * (upc_off_t)sizeof(int),
        "seek");
  n = upc_all_fread_local(fd, mine, sizeof(int), N, sync);
  CHECK(n == N * (upc_off_t)sizeof(int), "fread_local read %ld", (long)n);
  for (i = 0; i < N; i++) CHECK(mine[i] == value(MYTHREAD * N + i), "fread_local [%d] = %d", i, mine[i]);
  /* ... and into a shared buffer of my own (indefinite block size), the next
   * thread's part of the file. */
  shared [] int *own = (shared [] int *)upc_alloc(N * sizeof(int));
  CHECK(upc_all_fseek(fd, next * N * (upc_off_t)sizeof(int), UPC_SEEK_SET) == next * N * (upc_off_t)sizeof(int), "seek");
  n = upc_all_fread_shared(fd, own, 0, sizeof(int), N, sync);
  CHECK(n == N * (upc_off_t)sizeof(int), "fread_shared (individual) read %ld", (long)n);
  for (i = 0; i < N; i++) CHECK(own[i] == value(next * N + i), "fread_shared (individual) [%d] = %d", i, own[i]);
  /* reading at the end: 0 bytes */
  CHECK(upc_all_fseek(fd, 0, UPC_SEEK_END) == bytes, "seek to the end");
  CHECK(upc_all_fread_local(fd, mine, sizeof(int), N, sync) == 0, "read at the end");
  CHECK(upc_all_fclose(fd) == 0, "close");

  /* 3. Collectively, through the common pointer, into b (another array). */
  fd = upc_all_fopen(path, UPC_RDWR | UPC_COMMON_FP, 0, NULL);
  CHECK(fd != NULL, "open read-write");
  n = upc_all_fread_shared(fd, b, B, sizeof(int), total, sync);
  CHECK(n == bytes, "fread_shared (common) read %ld", (long)n);
  upc_forall (i = 0; i < total; i++; &b[i]) CHECK(b[i] == value(i), "fread_shared (common) b[%d] = %d", i, b[i]);
  upc_barrier;

  /* 4. Asynchronously: the same read again, then a write of b after the end. */
  upc_forall (i = 0; i < total; i++; &b[i]) b[i] = -1;
  CHECK(upc_all_fseek(fd, 0, UPC_SEEK_SET) == 0, "rewind");
  upc_all_fread_shared_async(fd, b, B, sizeof(int), total, sync);
  CHECK(upc_all_fcntl(fd, UPC_ASYNC_OUTSTANDING, NULL) == 1, "outstanding");
  int flag = 0;
  n = upc_all_ftest_async(fd, &flag);
  CHECK(flag == 1 && n == bytes, "ftest: flag %d, %ld bytes", flag, (long)n);
  upc_forall (i = 0; i < total; i++; &b[i]) CHECK(b[i] == value(i), "async read b[%d] = %d", i, b[i]);
  upc_all_fwrite_shared_async(fd, b, B, sizeof(int), total, sync);
  CHECK(upc_all_fwait_async(fd) == bytes, "fwait");
  CHECK(upc_all_fget_size(fd) == 2 * bytes, "size after the async write");

  /* 5. List I/O: each thread reads its first and last element of the second
   * copy into a private buffer, and writes the pair, swapped, after it. */
  int pair[2] = {0, 0};
  struct upc_local_memvec mv[2] = {{&pair[1], sizeof(int)}, {&pair[0], sizeof(int)}};
  struct upc_filevec fv[2];
  fv[0].offset = bytes + MYTHREAD * N * (upc_off_t)sizeof(int);
  fv[0].len = sizeof(int);
  fv[1].offset = bytes + (MYTHREAD * N + N - 1) * (upc_off_t)sizeof(int);
  fv[1].len = sizeof(int);
  n = upc_all_fread_list_local(fd, 2, mv, 2, fv, sync);
  CHECK(n == 2 * (upc_off_t)sizeof(int), "list read %ld", (long)n);
  CHECK(pair[1] == value(MYTHREAD * N) && pair[0] == value(MYTHREAD * N + N - 1), "list read %d %d", pair[0], pair[1]);
  struct upc_filevec out[1];
  out[0].offset = 2 * bytes + MYTHREAD * 2 * (upc_off_t)sizeof(int);
  out[0].len = 2 * sizeof(int);
  struct upc_local_memvec whole[1] = {{pair, sizeof pair}};
  CHECK(upc_all_fwrite_list_local(fd, 1, whole, 1, out, sync) == 2 * (upc_off_t)sizeof(int), "list write");
  /* shared memory vectors: my block of b (3 elements) from the file's start */
  upc_forall (i = 0; i < total; i++; &b[i]) b[i] = 0;
  upc_barrier;
  struct upc_shared_memvec sv[1] = {{&b[MYTHREAD * B], B * sizeof(int), B * sizeof(int)}};
  struct upc_filevec sf[1];
  sf[0].offset = MYTHREAD * B * (upc_off_t)sizeof(int);
  sf[0].len = B * sizeof(int);
  CHECK(upc_all_fread_list_shared(fd, 1, sv, 1, sf, sync) == B * (upc_off_t)sizeof(int), "shared list read");
  for (i = 0; i < B; i++)
    CHECK(b[MYTHREAD * B + i] == value(MYTHREAD * B + i), "shared list read [%d] = %d", i, b[MYTHREAD * B + i]);
  CHECK(upc_all_fsync(fd) == 0, "fsync");
  CHECK(upc_all_fclose(fd) == 0, "close");
  {
    int plain[2];
    FILE *f = fopen(path, "rb");
    if (f) {
      fseek(f, (long)(2 * bytes + next * 2 * (int)sizeof(int)), SEEK_SET);
      CHECK(fread(plain, sizeof(int), 2, f) == 2, "plain read of the list write");
      fclose(f);
      CHECK(plain[0] == value(next * N + N - 1) && plain[1] == value(next * N), "list write: %d %d", plain[0], plain[1]);
    }
  }

  /* 6. Errors the spec returns: the same errno on every thread. */
  CHECK(upc_all_fopen(path, UPC_RDONLY, 0, NULL) == NULL && errno == EINVAL, "no file pointer kind: EINVAL");
  CHECK(upc_all_fopen(path, UPC_RDONLY | UPC_COMMON_FP | UPC_CREATE | UPC_EXCL, 0, NULL) == NULL && errno == EEXIST,
        "exclusive create of an existing file: EEXIST");
  CHECK(upc_all_fclose(fd) == -1 && errno == EBADF, "closing twice: EBADF");

  upc_barrier;
  if (MYTHREAD == 0) remove(path);
  if (failures) printf("thread %d: %d failures\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_io: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
