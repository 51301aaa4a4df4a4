// Stage 1 of the classroom pi: the seminar's first UPC version. upc_forall
// deals the trials out round robin (trial i to thread i % THREADS), every hit
// is counted straight into the thread's element of a shared array, and the
// threads add their counts to a shared total under a lock.
//
//   shared long hits[THREADS];  shared long total;
//   upc_forall (i = 0; i < N; i++; i) if (dart()) hits[MYTHREAD]++;
//   upc_lock(lock); total += hits[MYTHREAD]; upc_unlock(lock);
//   upc_barrier;
//
// What it costs: every thread still runs the loop header for all N trials (to
// test whose turn it is), and every hit is a shared access.
//
//   build/tools/upcrun -n 4 build/apps/classroom/pi/naive [--trials=N]
#include <cstdint>

#include "pi.hpp"

namespace {

int run(const pi::options& opt) {
  // sloc classroom/pi/naive decl begin
  upc::shared_array<long> hits(upc::per_thread(1));  // shared long hits[THREADS];
  upc::shared<long> total;                           // shared long total;
  upc_lock_t* lock = upc_all_lock_alloc();           // the same lock on every thread
  montecarlo::stream rng = montecarlo::stream_of(MYTHREAD, pi::seed);
  // sloc classroom/pi/naive decl end
  // sloc classroom/pi/naive comp begin
  hits[MYTHREAD] = 0;
  if (MYTHREAD == 0) total = 0;
  // sloc classroom/pi/naive comp end
  upc_barrier;

  classroom::stopwatch clock;
  // sloc classroom/pi/naive comp begin
  upc_forall (std::int64_t i = 0; i < opt.trials; i++, i)
    if (pi::throw_dart(rng)) hits[MYTHREAD] += 1;
  // sloc classroom/pi/naive comp end
  // sloc classroom/pi/naive comm begin
  upc_lock(lock);  // total += ... reads and writes a shared scalar: one thread at a time
  total += hits[MYTHREAD];
  upc_unlock(lock);
  upc_barrier;  // every count is in before thread 0 reads the total
  // sloc classroom/pi/naive comm end
  const double seconds = clock.seconds();

  int status = 0;
  if (MYTHREAD == 0) status = pi::check("naive", opt, total.get(), THREADS, seconds);
  upc_all_lock_free(lock);
  return status;
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(pi::code, "naive", run, argc, argv); }
