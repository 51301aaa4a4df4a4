#include <upc.h>
/* the block size is an integer constant expression: checked whatever its spelling */
shared [UPC_MAX_BLOCK_SIZE + 1] int y[THREADS];
int main(void) { return 0; }
