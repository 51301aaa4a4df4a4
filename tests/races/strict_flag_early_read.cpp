// Race kind: a strict handshake done wrong, the data read before the strict
// flag that announces it (only what comes after the flag's read is ordered).
// Right reads the data after the flag.
#include "mode.hpp"
#include "upc.h"

upc::shared<int> data;
upc::strict_shared<int> flag;

int upc_main(int argc, char** argv) {
  const bool right = race_kind::done_right(argc, argv);
  if (MYTHREAD == 0) {
    data = 42;  // race: write
    flag = 1;
  } else if (MYTHREAD == 1) {
    int seen = 0;
    if (!right) seen = data.get();  // race: read
    while (flag.get() == 0) upc_poll();
    if (right) seen = data.get();
    return right && seen != 42;
  }
  return 0;
}
