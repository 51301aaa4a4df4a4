#include "executor.hpp"

#include <cstring>

namespace upc::coll {

namespace {
bool in_all(upc_flag_t f) { return (f & (UPC_IN_MYSYNC | UPC_IN_NOSYNC)) == 0 || (f & UPC_IN_ALLSYNC); }
bool out_all(upc_flag_t f) { return (f & (UPC_OUT_MYSYNC | UPC_OUT_NOSYNC)) == 0 || (f & UPC_OUT_ALLSYNC); }
}  // namespace

void execute(const request& rq, team& t, plan& p) {
  const int me = t.rank();
  t.next_epoch();
  t.publish(t.entered(me));
  if (in_all(rq.flags)) {
    t.barrier(rq.function);
  } else if (rq.flags & UPC_IN_MYSYNC) {
    for (int r : p.touches) t.wait_for(t.entered(r), r, rq.function);
  }

  for (step& s : p.steps) {
    switch (s.kind) {
      case step::copy: std::memcpy(s.dst, s.src, s.bytes); break;
      case step::wait_ready: t.wait_for(t.ready(s.peer), s.peer, rq.function); break;
      case step::publish_ready: t.publish(t.ready(me)); break;
      case step::wait_ready2: t.wait_for(t.ready2(s.peer), s.peer, rq.function); break;
      case step::publish_ready2: t.publish(t.ready2(me)); break;
      case step::ack: t.publish(t.ack(s.peer, me)); break;
      case step::wait_acks:
        for (int r : p.ack_from) t.wait_for(t.ack(me, r), r, rq.function);
        break;
      case step::compute: s.work(); break;
    }
  }

  if (out_all(rq.flags)) {
    t.barrier(rq.function);
  } else if (rq.flags & UPC_OUT_MYSYNC) {
    for (int r : p.touches) t.publish(t.done(r, me));
    for (int r : p.touchers) t.wait_for(t.done(me, r), r, rq.function);
  }
}

}  // namespace upc::coll
