#include <upc.h>
shared int x[THREADS];
void g(int);
/* gcc finds this one: its message speaks of pointers-to-shared, not of upcemu types */
int main(void) { shared int *p = &x[0]; g(p); return 0; }
