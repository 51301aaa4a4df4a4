/* Race: a strict flag set before the data it announces is written. */
#include <upc.h>
shared int data;
strict shared int flag;
int main(void) {
  if (MYTHREAD == 0) {
    flag = 1;
    data = 42;
  } else if (MYTHREAD == 1) {
    while (flag == 0) upc_poll();
    return data != 42;
  }
  return 0;
}
