#include <upc.h>
/* only a null pointer constant converts from an integer */
int main(void) { long addr = 64; shared void *p = (shared void *)addr; return p == NULL; }
