// The checks of the conformance harness of the standard collectives
// (coll_harness.hpp): a thread's partition of an area against the bytes the
// model (tests/support/coll_model.hpp) gives for it, the algorithm that ran
// against the forced one, and the report that stops the run on a mismatch
// (the case, the algorithm, the first bytes that differ and, for reductions,
// the values).
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "../support/coll_model.hpp"
#include "../support/spmd.hpp"
#include "coll_inputs.hpp"
#include "upc.h"
#include "upc/coll.hpp"

namespace conf {

inline std::string hex(unsigned v) {
  static const char* d = "0123456789abcdef";
  return std::string("0x") + d[(v >> 4) & 15] + d[v & 15];
}

// One checked area: `len` bytes from `base` in every partition; pointers into it
// start `skew` bytes in.
struct area {
  const char* name;
  std::uint64_t base;
  std::size_t len;
  std::size_t skew;
};

// Compares partition `p` of an area with the model; returns "" or a report.
inline std::string check_area(const coll_model::effect& e, const coll_model::memory& before, int p, const area& a) {
  if (a.len == 0) return "";
  const coll_model::window w = coll_model::expected_bytes(e, before, p, a.base, a.len);
  std::vector<std::uint8_t> got(a.len);
  if (p == MYTHREAD) {
    std::memcpy(got.data(), local_bytes(a.base), a.len);
  } else {
    upc_memget(got.data(), upc::sptr<void>(address(p, a.base)), a.len);
  }
  if (w.all_care && std::memcmp(w.bytes.data(), got.data(), a.len) == 0) return "";
  std::ostringstream s;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.len; ++i) {
    if (!w.care[i] || w.bytes[i] == got[i]) continue;
    if (bad < 6) {
      s << (bad ? "; " : "") << a.name << " on thread " << p << " byte " << i << " (index "
        << static_cast<long long>(i) - static_cast<long long>(a.skew) << " from the pointer): expected "
        << hex(w.bytes[i]) << ", got " << hex(got[i]);
      if (bad == 0) {  // where the model takes that byte from
        const std::uint64_t x = a.base + i;
        bool copied = false;
        for (const coll_model::block_copy& c : e.copies)
          if (static_cast<int>(c.dst.thread) == p && x >= c.dst.offset && x < c.dst.offset + c.bytes) {
            s << " [copied from thread " << c.src.thread << ", byte " << (x - c.dst.offset) << " of the block at offset "
              << c.src.offset << "]";
            copied = true;
          }
        if (!copied) s << " [outside every destination block: must stay untouched]";
      }
    }
    ++bad;
  }
  if (!bad) return "";
  std::ostringstream r;
  r << bad << " byte(s) differ from the model: " << s.str();
  return r.str();
}

[[noreturn]] inline void fail_case(const std::string& what, const std::string& algo, const std::string& report) {
  throw spmd::check_failed(what + " | forced algorithm " + algo + ", ran " + upc::coll::last_algorithm() +
                           " | thread " + std::to_string(MYTHREAD) + " of " + std::to_string(THREADS) +
                           " checking: " + report);
}

// The last algorithm must be the forced one.
inline void check_algorithm(const std::string& what, const std::string& algo) {
  if (algo == "auto") return;
  const std::string ran = upc::coll::last_algorithm();
  if (ran != algo) fail_case(what, algo, "the collective ran algorithm '" + ran + "', not the forced one");
}

template <class T>
std::string value_text(T v) {
  std::ostringstream s;
  if constexpr (std::is_floating_point_v<T>) {
    s.precision(std::numeric_limits<T>::max_digits10);
    s << v;
  } else {
    s << static_cast<long long>(v);
  }
  return s.str();
}

// The results the model writes in this thread's partition that differ, as values.
template <class T>
std::string wrong_values(const coll_model::effect& e, bool prefix) {
  std::ostringstream s;
  int shown = 0;
  for (std::size_t k = 0; k < e.writes.size() && shown < 4; ++k) {
    const coll_model::write& w = e.writes[k];
    if (static_cast<int>(w.at.thread) != MYTHREAD) continue;
    const std::uint8_t* got = local_bytes(w.at.offset);
    bool same = true;
    for (std::size_t i = 0; i < sizeof(T); ++i) same = same && (!w.care[i] || w.bytes[i] == got[i]);
    if (same) continue;
    T g, x;
    std::memcpy(static_cast<void*>(&g), got, sizeof(T));
    std::memcpy(static_cast<void*>(&x), w.bytes.data(), sizeof(T));
    s << (shown ? "; " : " | in values: ") << (prefix ? "dst[" + std::to_string(k) + "]" : std::string("the result"))
      << " is " << value_text(g) << ", the model says " << value_text(x);
    ++shown;
  }
  return s.str();
}

}  // namespace conf
