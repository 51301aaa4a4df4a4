/* Race: a handshake through a relaxed flag (the flag must be strict). */
#include <upc.h>
shared int data;
shared int flag;
int main(void) {
  if (MYTHREAD == 0) {
    data = 42;
    flag = 1;
  } else if (MYTHREAD == 1) {
    while (flag == 0) upc_poll();
    return data != 42;
  }
  return 0;
}
