#include "submit.hpp"

#include "executor.hpp"
#include "plan_cache.hpp"
#include "race_model.hpp"
#include "registry.hpp"
#include "team.hpp"
#include "upc/runtime.hpp"
#include "validate.hpp"

namespace upc::coll {

detail::single_valued single_valued_args(const request& rq) {
  detail::single_valued f(rq.function);
  auto add_pointer = [&](const char* thread, const char* address, const char* phase, const shared_address& a) {
    f.add(thread, a.thread).add(address, a.offset).add(phase, a.phase);
  };
  switch (rq.kind) {
    case collective::sort: add_pointer("argument A (thread)", "argument A (address)", "argument A (phase)", rq.in.base); break;
    case collective::reduce:
    case collective::allreduce:
    case collective::prefix_reduce:
      add_pointer("argument dst (thread)", "argument dst (address)", "argument dst (phase)",
                  rq.kind == collective::prefix_reduce ? rq.out.base : rq.result);
      add_pointer("argument src (thread)", "argument src (address)", "argument src (phase)", rq.in.base);
      break;
    default:
      add_pointer("argument dst (thread)", "argument dst (address)", "argument dst (phase)", rq.dst.base);
      add_pointer("argument src (thread)", "argument src (address)", "argument src (phase)", rq.src.base);
      break;
  }
  if (rq.nbytes) f.add("argument nbytes", rq.nbytes);
  if (rq.read_args) add_pointer("argument perm (thread)", "argument perm (address)", "argument perm (phase)", rq.args_at);
  if (rq.in.n) {
    f.add("argument nelems", rq.in.n);
    f.add("argument blk_size", rq.in.blk);
    if (rq.kind == collective::sort) f.add("argument elem_size", rq.in.elem);
    else f.add("argument op", rq.op_arg);
    f.add("argument func", reinterpret_cast<std::uintptr_t>(rq.func));
  }
  for (int i = 0; i < rq.extra_single_valued_count; ++i)
    f.add(rq.extra_single_valued[i].name, rq.extra_single_valued[i].value);
  f.add("argument flags", static_cast<std::uint64_t>(rq.flags));
  return f;
}

namespace {

void check_single_valued(const request& rq, team& t) {
  if (!check_enabled()) return;
  t.check_single_valued(single_valued_args(rq), rq.function);
}

bool in_nosync(upc_flag_t f) { return f & UPC_IN_NOSYNC; }

}  // namespace

namespace {

// The request's run, its areas given to the open race_call (race_model.hpp)
// once they are known.
void run_request(request& rq, team& t, race_call* call) {
  auto note_areas = [&] {
    if (call) note_request(*call, rq, t);
  };
  // The same call as one made before, on an unchanged heap: its plan is kept,
  // it was validated and its algorithm chosen (plan_cache.hpp).
  if (!rq.read_args && !rq.chunks)
    if (const plan_cache::found f = plan_cache::of(t).find(rq, t); f.p) {
      note_last_algorithm(f.algorithm->name);
      note_areas();
      execute(rq, t, *f.p);
      return;
    }
  // a chunk list (the extended collectives) may come from argument arrays
  const bool areas_known = !rq.chunks && !(rq.kind == collective::chunks || rq.kind == collective::exchange_in_place);
  if (areas_known) validate_areas(rq, t);
  if (rq.read_args) {
    // Every member needs the whole argument array, written by its owners before
    // they entered: wait for everyone, read it, and move the data without
    // further IN synchronisation.
    if (!in_nosync(rq.flags)) {
      t.barrier(rq.function);
      rq.flags = (rq.flags & ~(UPC_IN_ALLSYNC | UPC_IN_MYSYNC)) | UPC_IN_NOSYNC;
    }
    rq.read_args(rq, t);
  }
  if (!areas_known) {
    // a chunk list seen before on an unchanged heap: its plan is kept, it was validated
    if (const plan_cache::found f = plan_cache::of(t).find(rq, t); f.p) {
      note_last_algorithm(f.algorithm->name);
      note_areas();
      execute(rq, t, *f.p);
      return;
    }
    validate_areas(rq, t);
  }
  note_areas();
  run(rq, t);
}

}  // namespace

void submit(request& rq) {
  team& t = rq.members ? *rq.members : team::world();
  // Under --check=races the call's bytes and sync flags as the specification
  // gives them (race_model.hpp); a front-end's call made of several requests
  // has opened one for the whole, and this one stays inert.
  race_call own(t, rq.flags, rq.function);
  check_single_valued(rq, t);
  run_request(rq, t, race_call::open());
  own.finish();
}

}  // namespace upc::coll
