/* The race check's non-blocking and handshake kinds done right: every one runs
 * clean under --check=races. A non-blocking put or get synced before the
 * barrier that orders it for the other threads (an explicit handle, a
 * upc_sync_attempt loop, implicit handles with upc_synci, Berkeley's async
 * forms and an access region); a strict flag set after the data it announces
 * and read before the data, in a ping-pong of two flags. */
#include <upc.h>
#include <upc_nb.h>
#include <stdio.h>
shared [4] int blocks[4 * THREADS];
shared int data;
strict shared int ping, pong;

/* Each thread's block must hold 4 * left + 0..3 (what its left neighbour put). */
static int check_blocks(const char *what) {
  int left = (MYTHREAD + THREADS - 1) % THREADS, i;
  for (i = 0; i < 4; i++)
    if (blocks[4 * MYTHREAD + i] != 4 * left + i) {
      printf("%s: thread %d's block[%d] is %d, expected %d\n", what, MYTHREAD, i, blocks[4 * MYTHREAD + i], 4 * left + i);
      return 1;
    }
  return 0;
}

int main(void) {
  int right = (MYTHREAD + 1) % THREADS, mine[4], got[4], i, bad = 0;
  for (i = 0; i < 4; i++) mine[i] = 4 * MYTHREAD + i;
  shared int *to_right = &blocks[4 * right];

  upc_handle_t h = upc_memput_nb(to_right, mine, sizeof mine);
  upc_sync(h);
  upc_barrier;
  bad |= check_blocks("upc_memput_nb");
  upc_barrier;

  h = upc_memget_nb(got, to_right, sizeof got);
  while (!upc_sync_attempt(h)) upc_poll();
  upc_barrier;
  for (i = 0; i < 4; i++) blocks[4 * MYTHREAD + i] = -1; /* the get is complete: overwrite */
  bad |= got[0] != 4 * MYTHREAD;
  upc_barrier;

  upc_memput_nbi(to_right, mine, sizeof mine);
  upc_synci();
  upc_barrier;
  bad |= check_blocks("upc_memput_nbi");
  upc_barrier;

  bupc_handle_t b = bupc_memput_async(to_right, mine, sizeof mine);
  bupc_waitsync(b);
  bupc_begin_accessregion();
  bupc_memget_asynci(got, to_right, sizeof got);
  bupc_handle_t region = bupc_end_accessregion();
  bupc_waitsync(region);
  upc_barrier;
  bad |= check_blocks("bupc_memput_async") | (got[0] != 4 * MYTHREAD);
  upc_barrier;

  /* ping-pong: the data is written before the flag, read after it */
  if (MYTHREAD == 0 && THREADS > 1) {
    for (i = 1; i <= 3; i++) {
      data = 100 + i;
      ping = i;
      while (pong != i) upc_poll();
      bad |= data != 200 + i;
    }
  } else if (MYTHREAD == 1) {
    for (i = 1; i <= 3; i++) {
      while (ping != i) upc_poll();
      bad |= data != 100 + i;
      data = 200 + i;
      pong = i;
    }
  }
  upc_barrier;
  return bad;
}
