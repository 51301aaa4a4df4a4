#include <upc.h>
/* a call of an undeclared function is accepted as C89 and gcc do (gcc warns), but its int
   result cannot become a pointer-to-shared: an error, not a silent null */
int main(void) { shared int *p; p = not_declared(1); return p ? 0 : 1; }
