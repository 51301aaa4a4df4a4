// A call circle: ping (this file and ping.hpp) calls pong, pong calls ping.
#include "ping.hpp"
#include "pong.hpp"

int ping(int n) {
  return n > 0 ? pong(n - 1) : 0;
}
