// Race kind: a handshake through a relaxed flag. Thread 0 writes data and
// raises a flag; thread 1 spins on the flag and reads the data. A relaxed flag
// orders nothing, and is itself raced on; right uses a strict one.
#include "mode.hpp"
#include "upc.h"

upc::shared<int> data;
upc::shared<int> relaxed_flag;
upc::strict_shared<int> strict_flag;

int upc_main(int argc, char** argv) {
  const bool right = race_kind::done_right(argc, argv);
  if (MYTHREAD == 0) {
    data = 42;
    if (right) strict_flag = 1;
    else relaxed_flag = 1;  // race: write
  } else if (MYTHREAD == 1) {
    if (right)
      while (strict_flag.get() == 0) upc_poll();
    else
      while (relaxed_flag.get() == 0) upc_poll();  // race: read
    return data.get() != 42;
  }
  return 0;
}
