#include <upc.h>
shared int a[THREADS][THREADS];
int main(void) { return 0; }
