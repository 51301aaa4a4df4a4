#include "pong.hpp"
#include "ping.hpp"

int pong(int n) {
  return n > 0 ? ping(n - 1) : 1;
}
