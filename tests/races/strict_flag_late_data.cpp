// Race kind: a strict handshake done wrong, the data written after the strict
// flag that announces it (the flag orders only what came before it). Right
// writes the data first.
#include "mode.hpp"
#include "upc.h"

upc::shared<int> data;
upc::strict_shared<int> flag;

int upc_main(int argc, char** argv) {
  const bool right = race_kind::done_right(argc, argv);
  if (MYTHREAD == 0) {
    if (right) data = 42;
    flag = 1;
    if (!right) data = 42;  // race: write
  } else if (MYTHREAD == 1) {
    while (flag.get() == 0) upc_poll();
    const int seen = data.get();  // race: read
    return right && seen != 42;
  }
  return 0;
}
