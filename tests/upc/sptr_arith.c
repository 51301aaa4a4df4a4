/* upcemu_c.h's pointer-to-shared arithmetic (C) against the C++ runtime's
 * upc::layout::advance / distance, for many layouts, element sizes and THREADS. */
#include <stdio.h>
#include <upcemu_c.h>

upcemu_sptr ref_advance(upcemu_sptr p, ptrdiff_t i, size_t elem, size_t block, int threads);
ptrdiff_t ref_distance(upcemu_sptr p, upcemu_sptr q, size_t elem, size_t block, int threads);

int main(void) {
  static const size_t blocks[] = {0, 1, 2, 3, 4, 7, 16, 100};
  static const size_t elems[] = {1, 4, 8, 24};
  long checked = 0, bad = 0;
  for (int T = 1; T <= 6; T++) {
    upcemu_g_threads = T;
    for (unsigned b = 0; b < sizeof blocks / sizeof *blocks; b++)
      for (unsigned e = 0; e < sizeof elems / sizeof *elems; e++) {
        const size_t B = blocks[b], E = elems[e];
        upcemu_sptr base = {4096, 0, 0};
        for (ptrdiff_t i = 0; i < 60; i++) {
          upcemu_sptr p = upcemu_add(base, i, E, B), r = ref_advance(base, i, E, B, T);
          for (ptrdiff_t j = -i; j < 40; j += 3) {
            upcemu_sptr q = upcemu_add(p, j, E, B), rq = ref_advance(r, j, E, B, T);
            checked++;
            if (!upcemu_sptr_eq(q, rq) || q.phase != rq.phase || upcemu_diff(q, p, E, B) != ref_distance(rq, r, E, B, T) ||
                upcemu_diff(q, p, E, B) != j) {
              if (bad++ < 5)
                printf("T=%d B=%zu E=%zu i=%td j=%td: C {%llu,%u,%u} C++ {%llu,%u,%u}\n", T, B, E, i, j,
                       (unsigned long long)q.offset, q.thread, q.phase, (unsigned long long)rq.offset, rq.thread,
                       rq.phase);
            }
          }
        }
      }
  }
  printf("%ld cases, %ld wrong\n", checked, bad);
  return bad != 0;
}
