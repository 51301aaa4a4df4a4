/* Race: the data read before the strict flag that announces it. */
#include <upc.h>
shared int data;
strict shared int flag;
int main(void) {
  if (MYTHREAD == 0) {
    data = 42;
    flag = 1;
  } else if (MYTHREAD == 1) {
    int seen = data;
    while (flag == 0) upc_poll();
    return seen != 0 && seen != 42;
  }
  return 0;
}
