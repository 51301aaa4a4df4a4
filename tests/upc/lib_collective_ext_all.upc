/* Every function of upcc's <upc_collective_ext.h> translates and links: the
 * address of each of the 643 (the list is the generator's, from the build
 * tree's extended_collectives_names.inc, so upcc needs -iquote BUILD/include: a -I
 * folder would be searched for <upc_collective_ext.h> too, before upcc's own). */
#include <upc.h>
#include <upc_collective_ext.h>
#include <stdio.h>
#include "extended_collectives_names.inc"

#define UPCC_ADDRESS(f) (void (*)(void))f,
static void (*const functions[])(void) = {UPCEMU_EXT_FUNCTIONS(UPCC_ADDRESS)};

int main(void) {
  const int n = (int)(sizeof functions / sizeof functions[0]);
  int null = 0;
  for (int i = 0; i < n; i++) null += functions[i] == NULL;
  if (MYTHREAD == 0) printf("lib_collective_ext_all: %d functions, %d null\n", n, null);
  return n != 643 || null != 0;
}
