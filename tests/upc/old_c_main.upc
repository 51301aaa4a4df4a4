/* Old C that gcc and Berkeley UPC take with warnings: `void main`, a `char *argv`,
 * library calls without their headers (C89's implicit declarations), and a main
 * with nothing UPC in it but MYTHREAD. Every thread checks what it was given. */
#include <upc.h>

void main(int argc, char *argv)
{
  char **args = (char **)argv;
  if (argc < 1 || args[0] == 0) {
    printf("thread %d: main got argc %d\n", MYTHREAD, argc);
    exit(1);
  }
  srand(MYTHREAD + 1);
  if (MYTHREAD >= THREADS) abort();
}
