// The hash aggregate() sends a pair by (MR-MPI's default is a hash of the key's
// bytes, modulo the number of ranks): FNV-1a over the key bytes, so equal keys
// meet on one rank whatever their type.
#pragma once
#include <cstdint>

namespace mrmpi {

inline std::uint32_t key_hash(const char* key, int keybytes) {
  std::uint32_t h = 2166136261u;
  for (int i = 0; i < keybytes; ++i) h = (h ^ static_cast<unsigned char>(key[i])) * 16777619u;
  return h;
}

}  // namespace mrmpi
