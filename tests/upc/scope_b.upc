/* The second translation unit of scope_a.upc. */
#include <upc.h>

shared int total;
shared [2] long table[2 * THREADS];

int count_calls(void) { return total; }

long sum_table(void) {
  static shared long sum[THREADS];
  long s = 0;
  for (int i = 0; i < 2 * THREADS; i++) s += table[i];
  sum[MYTHREAD] = s;
  return sum[MYTHREAD];
}
