/* Private arrays whose element type is a typedef of a pointer-to-shared (Berkeley's
   bug148/bug149: `typedef upc_lock_t *LOCK; LOCK locks[100];`): the array size is
   not an initialiser. Used through the arrays: locks, element pointers. */
#include <upc.h>
#include <stdio.h>
typedef upc_lock_t *LOCK;
upc_lock_t *lock_1[4];
LOCK lock_2[4];
typedef shared int *SP;
shared int data[THREADS];
SP arr[3];
SP one = 0, two[2] = {0, 0};
int main() {
  lock_2[1] = upc_all_lock_alloc();
  lock_1[2] = lock_2[1];
  arr[2] = &data[THREADS - 1];
  two[1] = arr[2];
  upc_lock(lock_1[2]);
  *two[1] += 1;
  upc_unlock(lock_2[1]);
  upc_barrier;
  if (MYTHREAD == 0) { printf("%d\n", data[THREADS - 1]); return data[THREADS - 1] == THREADS ? 0 : 1; }
  return 0;
}
