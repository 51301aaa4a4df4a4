// The checks of the <upccoll.h> conformance harness (upccoll_harness.hpp): the
// return codes (UC_EXPECT, UC_OK), and a thread's windows after the call
// against the model (tests/support/upccoll_model.hpp): its receive window as
// the model computes it, its send window untouched, and under OUT_ALLSYNC its
// next team rank's receive window too.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "../support/spmd.hpp"
#include "../support/upccoll_model.hpp"
#include "upc.h"
#include "upccoll.h"
#include "upccoll_cases.hpp"
#include "upccoll_inputs.hpp"

namespace uconf {

namespace M = upccoll_model;
using M::collective;

// ---------------------------------------------------------------------------
// Return codes

inline std::string code_name(int rc) {
  if (rc < 0 || rc > UPCCOLL_ERROR_UNINITIALIZED) return "(code " + std::to_string(rc) + ")";
  const char* n = upccoll_error_name(static_cast<upccoll_return_t>(rc));
  return n ? std::string(n) : "(code " + std::to_string(rc) + ", no name)";
}

[[noreturn]] inline void fail(const std::string& what) {
  throw spmd::check_failed(what + " [thread " + std::to_string(MYTHREAD) + " of " + std::to_string(THREADS) + "]");
}

inline void expect_rc(int got, int want, const std::string& what) {
  if (got != want) fail(what + ": returned " + code_name(got) + ", expected " + code_name(want));
}

}  // namespace uconf

// Inside a body: `expr` (a upccoll call) must return `want`.
#define UC_EXPECT(expr, want) \
  ::uconf::expect_rc(static_cast<int>(expr), static_cast<int>(want), std::string(__FILE__ ":") + std::to_string(__LINE__) + ": " #expr)
#define UC_OK(expr) UC_EXPECT(expr, UPCCOLL_SUCCESS)

namespace uconf {

// ---------------------------------------------------------------------------
// A thread's windows against the model

// What thread t's receive window holds after the call, by the model.
inline M::window expected_window(const prepared& p, int t) {
  const std::vector<std::uint8_t> before = recv_window_before(p, t);
  const std::size_t skew = p.recv_skew[t];
  const std::vector<int>& mem = p.plan.members[t];
  const M::send_source send = [&](int rank, std::size_t off, std::size_t n, std::uint8_t* out) {
    const int from = mem.at(rank);
    send_window_bytes(p, from, p.send_skew[from] + off, n, out);
  };
  M::bytes tail(before.begin() + static_cast<std::ptrdiff_t>(skew), before.end());
  const M::window inner = M::expected_recv(p.call_of[t], p.plan.rank[t], tail, send);
  M::window w{before, std::vector<std::uint8_t>(before.size(), 1)};
  std::copy(inner.data.begin(), inner.data.end(), w.data.begin() + static_cast<std::ptrdiff_t>(skew));
  std::copy(inner.care.begin(), inner.care.end(), w.care.begin() + static_cast<std::ptrdiff_t>(skew));
  return w;
}

inline std::string hex(unsigned v) {
  static const char* d = "0123456789abcdef";
  return std::string("0x") + d[(v >> 4) & 15] + d[v & 15];
}

// "" when got matches, else the first differences.
inline std::string compare(const char* what, int t, std::size_t skew, const std::uint8_t* got, const M::window& w) {
  std::ostringstream s;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < w.data.size(); ++i) {
    if (!w.care[i] || w.data[i] == got[i]) continue;
    if (bad < 6)
      s << (bad ? "; " : "") << what << " of thread " << t << " byte " << static_cast<long long>(i) - static_cast<long long>(skew)
        << " from the pointer: expected " << hex(w.data[i]) << ", got " << hex(got[i]);
    ++bad;
  }
  if (!bad) return "";
  return std::to_string(bad) + " byte(s) differ from the model: " + s.str();
}

// This thread's checks once its call is complete ("" or a report): its receive
// window against the model, its send window untouched, and under OUT_ALLSYNC its
// next team rank's receive window too.
inline std::string check(const prepared& p, const areas& ar) {
  const ucase& c = p.c;
  const int me = MYTHREAD;
  const int rank = p.plan.rank[me], n = p.call_of[me].size;
  const std::vector<int>& mem = p.plan.members[me];
  if (c.kind == collective::barrier) {
    for (int t : mem) {
      std::uint64_t stamp = 0;
      upc_memget(&stamp, upc::sptr<void>(address(t, ar.stamps)), sizeof stamp);
      if (stamp != c.seed)
        return "after the barrier, team member thread " + std::to_string(t) + " has not stamped its slot (not entered?)";
    }
    return "";
  }
  const M::window w = expected_window(p, me);
  std::string report = compare("recv window", me, p.recv_skew[me], local_bytes(ar.recv), w);
  if (report.empty()) {
    const std::size_t sw = p.send_win[me];
    M::window sw_expect{M::bytes(sw), std::vector<std::uint8_t>(sw, 1)};
    send_window_bytes(p, me, 0, sw, sw_expect.data.data());
    report = compare("send window (must stay untouched)", me, p.send_skew[me], local_bytes(ar.send), sw_expect);
  }
  if (report.empty() && out_allsync(c.flags) && n > 1) {
    const int right = mem[(rank + 1) % n];
    const M::window rwin = expected_window(p, right);
    std::vector<std::uint8_t> got(p.recv_win[right]);
    upc_memget(got.data(), upc::sptr<void>(address(right, ar.recv)), got.size());
    report = compare("recv window (OUT_ALLSYNC: complete on every rank)", right, p.recv_skew[right], got.data(), rwin);
  }
  return report;
}

}  // namespace uconf
