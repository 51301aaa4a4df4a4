// Stage 1 of the classroom Buffon-Laplace needle: the first UPC version, as the
// study's correct codes did it (seed 003 §2.2.2; the analogy with the
// seminar's pi): upc_forall deals the needles out round robin (needle i to
// thread i % THREADS), every hit is counted straight into the thread's element
// of a shared array, and the threads add their counts to a shared total under
// a lock, then wait at a barrier before thread 0 reads it. Leaving out that
// barrier, or the lock, were the study's two mistakes with this code
// (§2.2.2; mistakes/missing_barrier.cpp and mistakes/unlocked_accumulator.cpp).
//
//   shared long hits[THREADS];  shared long total;
//   upc_forall (i = 0; i < N; i++; i) if (drop_needle()) hits[MYTHREAD]++;
//   upc_lock(lock); total += hits[MYTHREAD]; upc_unlock(lock);
//   upc_barrier;
//
//   build/tools/upcrun -n 4 build/apps/classroom/buffon_laplace/naive [--trials=N]
#include <cstdint>

#include "buffon.hpp"

namespace {

int run(const buffon::options& opt) {
  const buffon::problem& p = opt.p;
  // sloc classroom/buffon_laplace/naive decl begin
  upc::shared_array<long> hits(upc::per_thread(1));  // shared long hits[THREADS];
  upc::shared<long> total;                           // shared long total;
  upc_lock_t* lock = upc_all_lock_alloc();           // the same lock on every thread
  montecarlo::stream rng = montecarlo::stream_of(MYTHREAD, buffon::seed);
  // sloc classroom/buffon_laplace/naive decl end
  // sloc classroom/buffon_laplace/naive comp begin
  hits[MYTHREAD] = 0;
  if (MYTHREAD == 0) total = 0;
  // sloc classroom/buffon_laplace/naive comp end
  upc_barrier;

  classroom::stopwatch clock;
  // sloc classroom/buffon_laplace/naive comp begin
  upc_forall (long i = 0; i < p.trials; i++, i)
    if (buffon::drop_needle(rng, p)) hits[MYTHREAD] += 1;
  // sloc classroom/buffon_laplace/naive comp end
  // sloc classroom/buffon_laplace/naive comm begin
  upc_lock(lock);  // total += ... reads and writes a shared scalar: one thread at a time
  total += hits[MYTHREAD];
  upc_unlock(lock);
  upc_barrier;  // every count is in before thread 0 reads the total
  // sloc classroom/buffon_laplace/naive comm end
  const double seconds = clock.seconds();

  int status = 0;
  if (MYTHREAD == 0) status = buffon::check("naive", opt, total.get(), THREADS, seconds);
  upc_all_lock_free(lock);
  return status;
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(buffon::code, "naive", run, argc, argv); }
