#include <upc.h>
shared int x[THREADS];
/* a pointer-to-shared has no integer value: its parts are upc_threadof & co. */
int main(void) { long v = (long)&x[1]; return v == 0; }
