#include <upc.h>
/* the parameter spelled as a pointer to rows: the same error as a[][10*THREADS] */
int corner(int n, shared int (*a)[10 * THREADS]) { return a[n][0]; }
int main(void) { return 0; }
