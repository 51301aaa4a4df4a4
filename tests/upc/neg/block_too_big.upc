#include <upc.h>
shared [8589934592] int big[THREADS];
int main(void) { return 0; }
