#include <upc.h>
shared [4] int ok[4 * THREADS];
shared [2 * THREADS] int bad[2 * THREADS * THREADS];
int main(void) { return 0; }
