// Mistake: passing a row of a blocked shared array to a function that takes a
// `shared int *`. The study's participants "found it difficult to deal with
// shared array arguments in functions because of the block size definitions"
// (seed 003 §2.2.2). The matrix is blocked by rows (`shared [COLS*ROWS] int
// m[...]`); row_sum() takes `shared int *`, whose block size is 1, so
// row[j] steps to the next *thread* at every j, not to the next column. The
// compiler refused the call, and a cast made it compile. The fix: declare the
// parameter `shared [COLS*ROWS] int *` (upc::sptr<const int, B>), or pass a
// private copy of the row.
//
// upcemu says nothing (every element read exists); the program's own check
// finds the wrong sums.
#include <cstdio>

#include "upc.h"

constexpr int cols = 6, rows_per_thread = 2, block = cols * rows_per_thread;
upc::shared_array<int, block> m{upc::per_thread(block)};  // shared [12] int m[2*THREADS][6];

// shared int *row: block size 1
long row_sum(upc::sptr<const int> row, int n) {
  long sum = 0;
  for (int j = 0; j < n; ++j) sum += row[j];
  return sum;
}

int upc_main(int, char**) {
  const int rows = rows_per_thread * THREADS;
  upc_forall (int i = 0; i < rows * cols; i++, &m[i]) m[i] = i;
  upc_barrier;

  int wrong = 0;
  if (MYTHREAD == 0) {
    for (int r = 0; r < rows; ++r) {
      // MISTAKE: the cast drops the block size of the row's pointer
      const long got = row_sum(upc::sptr<const void>(&m[r * cols]), cols);
      const long expected = static_cast<long>(cols) * r * cols + cols * (cols - 1) / 2;
      if (got != expected && wrong++ < 3) std::printf("WRONG: row %d sums to %ld, expected %ld\n", r, got, expected);
    }
    std::printf("%s\n", wrong ? "the row sums are wrong" : "the row sums are right");
  }
  upc_barrier;
  return wrong ? 1 : 0;
}
