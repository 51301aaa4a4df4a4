/* An array of a shared [*] typedef: its block is ambiguous (refused). */
#include <upc.h>
typedef int J[10];
typedef shared [*] J K[10];
K ks[3];
int main(void) { return 0; }
