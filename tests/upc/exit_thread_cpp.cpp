// exit_thread.upc in the C++ API: std::exit on one UPC thread ends that thread
// with the status as a return from upc_main would, after its atexit handlers;
// the others go on. The call is made from frames with objects to destroy and
// from inside a try block (a process's exit destroys no automatic object; the
// thread leaves those frames without unwinding them). Modes as in
// exit_thread.upc: one, statuses, barrier.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "upc.h"

namespace {

upc::shared_array<int> written{upc::per_thread(1)};
upc::strict_shared<int> exited_flag;

thread_local bool second_ran = false;  // thread-local: a namespace-scope variable is shared

void second_registered() { second_ran = true; }
void first_registered() {
  std::printf("thread %d: atexit handlers ran%s\n", MYTHREAD, second_ran ? ", last registered first" : " in the wrong order");
}

void deep(int depth, int status) {
  const std::string frame = "frame " + std::to_string(depth);  // destroyed on the way back, never by exit
  std::vector<int> more(16, depth);
  if (depth == 0) {
    try {
      std::printf("thread %d: calls exit(%d)\n", MYTHREAD, status);
      std::exit(status);
    } catch (...) {
      std::printf("thread %d: exit threw (never printed)\n", MYTHREAD);
    }
    return;
  }
  deep(depth - 1, status);
  std::printf("thread %d: after exit (never printed) %s %d\n", MYTHREAD, frame.c_str(), more[0]);
}

}  // namespace

int upc_main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "one";
  const int last = THREADS - 1;
  std::atexit(first_registered);
  std::atexit(second_registered);
  upc_barrier;
  if (mode == "one") {
    if (MYTHREAD == last) {
      written[MYTHREAD] = 4242;
      exited_flag = 1;  // strict: written[] is visible first
      upc_forall (int i = 0; i < THREADS; i++, i)
        deep(3, 5);
    }
    if (MYTHREAD == 0) {
      while (exited_flag.get() == 0) {
      }
      if (written[last] != 4242) {
        std::printf("thread 0: thread %d's shared data is gone\n", last);
        return 1;
      }
    }
    std::printf("thread %d: went on after thread %d called exit\n", MYTHREAD, last);
    return 0;
  }
  if (mode == "statuses") {
    if (MYTHREAD > 0) deep(1, 10 + MYTHREAD);
    return 0;
  }
  if (mode == "barrier") {
    if (MYTHREAD == last) deep(0, 4);
    upc_barrier;
    std::printf("thread %d: past a barrier thread %d never reached\n", MYTHREAD, last);
    return 0;
  }
  std::printf("unknown mode %s\n", mode.c_str());
  return 2;
}
