#include <upc.h>
/* a call of an undeclared function: an error (its int result was lost before) */
int main(void) { shared int *p; p = not_declared(1); return p ? 0 : 1; }
