/* The machine and the MPI library, for the peers' `#` header lines (the fields
 * harness/report.hpp's machine_fields gives the UPC benchmarks). */
#ifndef UPCEMU_BENCH_MPI_MACHINE_H
#define UPCEMU_BENCH_MPI_MACHINE_H

#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct mb_machine {
  char peer[256];    /* "Open MPI v4.1.4": the library's version up to the first comma */
  char cpu[256];     /* /proc/cpuinfo's model name, or "unknown" */
  char date[32];     /* now, UTC, ISO 8601 */
};

/* The library's version, fit for a JSON string: one line, no quotes or backslashes. */
static inline void mb_library_version(char* out, size_t size) {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);
  for (char* c = version; *c; ++c)
    if (*c == '\n' || *c == '"' || *c == '\\') *c = ' ';
  char* comma = strchr(version, ','); /* "Open MPI v4.1.4, package: ..." -> "Open MPI v4.1.4" */
  if (comma) *comma = '\0';
  snprintf(out, size, "%s", version);
}

static inline void mb_cpu_model(char* out, size_t size) {
  snprintf(out, size, "unknown");
  FILE* f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "model name", 10)) {
      char* c = strchr(line, ':');
      if (c) {
        c += 2;
        c[strcspn(c, "\n")] = '\0';
        snprintf(out, size, "%s", c);
      }
      break;
    }
  fclose(f);
}

static inline void mb_machine_info(struct mb_machine* m) {
  mb_library_version(m->peer, sizeof m->peer);
  mb_cpu_model(m->cpu, sizeof m->cpu);
  time_t now = time(NULL);
  strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
}

#endif
