#include <upc.h>
/* UPC 1.3 6.4.3: a pointer-to-local cannot be cast to a pointer-to-shared */
int main(void) { int i = 3, *lp = &i; shared int *p = (shared int *)lp; return p == NULL; }
