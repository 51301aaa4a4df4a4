// The drivers of the <upccoll.h> conformance harness (upccoll_harness.hpp):
// runs of cases on every thread, one after another or all started before any
// completes, each call checked once it is complete here; the matrix
// (upccoll_cases.hpp) for every algorithm, backend and THREADS count; and an
// environment variable set for a scope.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "../support/spmd.hpp"
#include "../support/upccoll_model.hpp"
#include "upc.h"
#include "upc/coll.hpp"
#include "upccoll.h"
#include "upccoll_call.hpp"
#include "upccoll_cases.hpp"
#include "upccoll_checks.hpp"
#include "upccoll_inputs.hpp"

namespace uconf {

namespace M = upccoll_model;
using M::collective;

// ---------------------------------------------------------------------------
// Running cases

// Whether to require upc::coll::last_algorithm() == the forced one after a
// blocking call (what shows that forcing reached the collective).
inline bool g_check_algorithm = true;

inline void run_one(const prepared& p, const areas& ar, const user_ops& ops, const std::string& algo, std::size_t index) {
  in_flight x;
  x.p = &p;
  x.ar = ar;
  x.what = "case " + std::to_string(index) + ": " + describe(p.c);
  const ucase& c = p.c;
  make_team(x);
  fill_data(x);
  if (in_nosync(c.flags)) upc_barrier;
  start(x, ops);
  complete(c.how, x.h, static_cast<int>(c.seed >> 3), x.what);
  if (c.how == completion::blocking && g_check_algorithm && algo != "auto") {
    const std::string ran = upc::coll::last_algorithm();
    if (ran != algo) fail(x.what + ": the collective ran algorithm '" + ran + "', not the forced '" + algo + "'");
  }
  if (out_nosync(c.flags)) upc_barrier;
  const std::string report = check(*x.p, x.ar);
  if (!report.empty())
    fail(x.what + " | forced algorithm " + algo + " | rank " + std::to_string(p.plan.rank[MYTHREAD]) + ": " + report);
  if (!out_nosync(c.flags)) scribble(x);
  upc_barrier;
  free_team(x);
}

// A run body: every case in order, on every thread.
inline void run_cases(const std::vector<ucase>& cases, const std::string& algo) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  user_ops ops;
  ops.create();
  const int T = THREADS;
  std::vector<prepared> ps;
  std::size_t scap = 8, rcap = 8;
  for (const ucase& c : cases) {
    ps.push_back(prepare(c, T));
    for (int t = 0; t < T; ++t) {
      scap = std::max(scap, ps.back().send_win[t]);
      rcap = std::max(rcap, ps.back().recv_win[t]);
    }
  }
  const upc::sptr<void> s = upc_all_alloc(T, scap), r = upc_all_alloc(T, rcap), st = upc_all_alloc(T, 8);
  const areas ar{s.address().offset, r.address().offset, st.address().offset};
  for (std::size_t i = 0; i < ps.size(); ++i) run_one(ps[i], ar, ops, algo, i);
  ops.free();
  UC_OK(upccoll_finalize());
  upc_all_free(st);
  upc_all_free(r);
  upc_all_free(s);
  SPMD_CHECK_EQ(g_bad_user_calls.load(), 0);
}

// Starts every case before completing any (blocking ones complete as they are
// made), then completes the non-blocking ones in an order: 0 the reverse of the
// starts, 1 a random order of this thread's own, 2 the order of the starts; the
// fenced ones at one upccoll_fence. Each is checked as soon as it is complete
// here (OUT_NOSYNC ones after a final upc_barrier). The cases' teams are made
// before anything starts.
inline void run_overlapped(const std::vector<ucase>& cases, int order_kind) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  user_ops ops;
  ops.create();
  const int T = THREADS;
  const std::size_t N = cases.size();
  std::vector<prepared> ps;
  for (const ucase& c : cases) ps.push_back(prepare(c, T));
  std::vector<upc::sptr<void>> allocs;
  std::vector<in_flight> xs(N);
  for (std::size_t i = 0; i < N; ++i) {
    std::size_t scap = 8, rcap = 8;
    for (int t = 0; t < T; ++t) {
      scap = std::max(scap, ps[i].send_win[t]);
      rcap = std::max(rcap, ps[i].recv_win[t]);
    }
    const upc::sptr<void> s = upc_all_alloc(T, scap), r = upc_all_alloc(T, rcap), st = upc_all_alloc(T, 8);
    allocs.insert(allocs.end(), {s, r, st});
    xs[i].p = &ps[i];
    xs[i].ar = areas{s.address().offset, r.address().offset, st.address().offset};
    xs[i].what = "overlapped call " + std::to_string(i) + " of " + std::to_string(N) + ": " + describe(cases[i]);
  }
  for (in_flight& x : xs) make_team(x);
  bool any_in_nosync = false;
  for (in_flight& x : xs) {
    fill_data(x);
    any_in_nosync = any_in_nosync || in_nosync(x.p->c.flags);
  }
  if (any_in_nosync) upc_barrier;
  auto check_now = [&](const in_flight& x) {
    const std::string report = check(*x.p, x.ar);
    if (!report.empty()) fail(x.what + " | rank " + std::to_string(x.p->plan.rank[MYTHREAD]) + ": " + report);
  };
  for (in_flight& x : xs) {
    start(x, ops);
    if (x.p->c.how == completion::blocking && !out_nosync(x.p->c.flags)) check_now(x);
  }
  std::vector<std::size_t> order(N);
  for (std::size_t i = 0; i < N; ++i) order[i] = order_kind == 0 ? N - 1 - i : i;
  if (order_kind == 1)
    for (std::size_t i = N; i > 1; --i) std::swap(order[i - 1], order[hash3(cases[0].seed, MYTHREAD, i) % i]);
  for (std::size_t i : order) {
    in_flight& x = xs[i];
    if (x.p->c.how != completion::wait && x.p->c.how != completion::test) continue;
    complete(x.p->c.how, x.h, static_cast<int>(i), x.what);
    if (!out_nosync(x.p->c.flags)) check_now(x);
  }
  upccoll_fence();
  for (in_flight& x : xs)
    if (x.p->c.how == completion::fence && !out_nosync(x.p->c.flags)) check_now(x);
  upc_barrier;
  for (in_flight& x : xs)
    if (out_nosync(x.p->c.flags)) check_now(x);
  upc_barrier;
  for (auto it = xs.rbegin(); it != xs.rend(); ++it) free_team(*it);
  ops.free();
  UC_OK(upccoll_finalize());
  for (auto it = allocs.rbegin(); it != allocs.rend(); ++it) upc_all_free(*it);
  SPMD_CHECK_EQ(g_bad_user_calls.load(), 0);
}

// ---------------------------------------------------------------------------
// Running the matrix

inline upc::launch_options run_options(int threads, upc::backend_kind b) {
  upc::launch_options o = spmd::options(threads, b);
  o.heap_per_thread = 16u << 20;
  o.timeout_seconds = 120;
  return o;
}

// One run of `body` with `algorithm` forced for `collective` (outside the run).
inline void run_forced(const std::string& collective_name, const std::string& algorithm, upc::backend_kind b,
                       int threads, const std::function<void()>& body) {
  if (spmd::skip_run(threads, b)) return;
  upc::coll::force_algorithm(collective_name, algorithm);
  const upc::run_result r = upc::run(run_options(threads, b), body);
  upc::coll::reset_algorithms();
  INFO("collective ", collective_name, ", algorithm ", algorithm, ", backend ", spmd::name(b), ", THREADS ", threads);
  CHECK_MESSAGE(r.ok(), r.error);
}

// The algorithms to test: every registered one, then "auto".
inline std::vector<std::string> algorithms_of(collective k) {
  std::vector<std::string> v = upc::coll::algorithms(M::registry_name(k));
  v.push_back("auto");
  return v;
}

inline std::uint64_t salt_of(collective k, const std::string& algo, upc::backend_kind b, int T) {
  std::uint64_t h = 1469598103934665603ull;
  for (char ch : std::string(M::name(k)) + "/" + algo) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  return hash3(h, static_cast<std::uint64_t>(b), static_cast<std::uint64_t>(T));
}

inline void run_matrix(collective k, level lv, std::initializer_list<int> counts, std::size_t quick_keep = 16) {
  const std::vector<std::string> algos = algorithms_of(k);
  REQUIRE(algos.size() >= 2);  // at least one registered algorithm
  for (const std::string& algo : algos)
    for (upc::backend_kind b : spmd::backends)
      for (int T : counts) {
        const std::vector<ucase> cases = matrix(k, T, lv, salt_of(k, algo, b, T), quick_keep);
        run_forced(M::registry_name(k), algo, b, T, [&] { run_cases(cases, algo); });
      }
}

// Sets an environment variable for a scope (restoring the old value after).
class env_guard {
 public:
  env_guard(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~env_guard() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  env_guard(const env_guard&) = delete;
  env_guard& operator=(const env_guard&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace uconf
