// --positions=FILE: the final positions of each version run, one line per
// version ("<variant> x0 y0 z0 x1 ..." in %.17g, so the numbers read back
// exactly), appended. The UPC app and its OpenMP and MPI peers
// (bench/peers/brownian) write the same format, and their test compares the
// lines of the same problem (bench/peers/brownian/compare_positions.py).
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace brownian {

// False, after saying why on stderr, when the file cannot be written.
inline bool append_positions(const std::string& path, const std::string& program, const char* variant,
                             const std::vector<double>& positions) {
  std::FILE* f = std::fopen(path.c_str(), "a");
  bool ok = f != nullptr && std::fprintf(f, "%s", variant) > 0;
  for (std::size_t i = 0; ok && i < positions.size(); ++i) ok = std::fprintf(f, " %.17g", positions[i]) > 0;
  ok = ok && std::fputc('\n', f) != EOF;
  if (f != nullptr && std::fclose(f) != 0) ok = false;
  if (!ok) std::fprintf(stderr, "%s: --positions=%s: cannot write the positions of %s\n", program.c_str(), path.c_str(), variant);
  return ok;
}

}  // namespace brownian
