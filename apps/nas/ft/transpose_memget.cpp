// FT's transpose as NPB-UPC writes it (seed 003 Listing 3.19): both working
// arrays are shared, one block of a thread's whole slab per thread (NPB-UPC's
// array of THREADS structs, each a cell[] of the slab; a run-time block size
// here). Each thread packs its slab into the other array, and after a barrier
// fetches its piece of every thread's packed data with one upc_memget each,
// into its own part of the first array, then rearranges it locally.
#include "transpose.hpp"
#include "upc.h"

namespace ft {

namespace {

class memget_transpose final : public transpose {
 public:
  explicit memget_transpose(const shape& s) : s_(s) {
    // sloc ft/memget decl begin
    const std::size_t bytes = static_cast<std::size_t>(s.local) * sizeof(cplx);
    u1_ = upc::sptr<cplx, upc::dynamic_block>(upc_all_alloc(THREADS, bytes), static_cast<std::size_t>(s.local));
    u2_ = upc::sptr<cplx, upc::dynamic_block>(upc_all_alloc(THREADS, bytes), static_cast<std::size_t>(s.local));
    my_u1_ = (u1_ + MYTHREAD * s.local).local();
    my_u2_ = (u2_ + MYTHREAD * s.local).local();
    // sloc ft/memget decl end
  }
  ~memget_transpose() override {
    upc_all_free(u1_);
    upc_all_free(u2_);
  }

  cplx* first() override { return my_u1_; }
  cplx* second() override { return my_u2_; }

  cplx* to_pencils(cplx* slab, cplx* other) override {
    pack_slab(s_, slab, other);
    global(shared_of(other), slab);
    unpack_to_pencil(s_, slab, other);
    return other;
  }
  cplx* to_slabs(cplx* pencil, cplx* other) override {
    pack_pencil(s_, pencil, other);
    global(shared_of(other), pencil);
    unpack_to_slab(s_, pencil, other);
    return other;
  }

 private:
  upc::sptr<cplx, upc::dynamic_block> shared_of(const cplx* mine) const { return mine == my_u1_ ? u1_ : u2_; }

  // chunk i of my receive buffer <- chunk MYTHREAD of thread i's packed data
  void global(upc::sptr<cplx, upc::dynamic_block> src, cplx* dst) const {
    // sloc ft/memget comm begin
    const long chunk = s_.chunk;
    upc_barrier;  // every thread has packed
    for (int i = 0; i < THREADS; i++)
      upc_memget(dst + chunk * i, src + (i * s_.local + chunk * MYTHREAD), sizeof(cplx) * chunk);
    upc_barrier;  // nobody packs over data another thread is still reading
    // sloc ft/memget comm end
  }

  shape s_;
  // sloc ft/memget decl begin
  upc::sptr<cplx, upc::dynamic_block> u1_, u2_;  // shared [local] dcomplex u[THREADS * local]
  cplx *my_u1_ = nullptr, *my_u2_ = nullptr;     // my blocks, privatised
  // sloc ft/memget decl end
};

}  // namespace

std::unique_ptr<transpose> make_memget(const shape& s) { return std::make_unique<memget_transpose>(s); }

}  // namespace ft
