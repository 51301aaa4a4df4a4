// FT's transpose with the thesis's extended exchange on private memory (seed
// 003 Listing 3.20, first approach): upc_all_exchange_priv moves chunk q of
// my private send buffer to chunk MYTHREAD of thread q's private receive
// buffer. Nothing of FT is shared any more: the working arrays are private.
#include "private_buffer.hpp"
#include "transpose.hpp"
#include "upc.h"
#include "upc_collective.h"
#include "upc_collective_ext.h"

namespace ft {

namespace {

class priv_transpose final : public transpose {
 public:
  explicit priv_transpose(const shape& s)
      // sloc ft/priv decl begin
      : s_(s), u1_(static_cast<std::size_t>(s.local), 1), u2_(static_cast<std::size_t>(s.local), 2) {}
  // sloc ft/priv decl end

  cplx* first() override { return u1_.data(); }
  cplx* second() override { return u2_.data(); }

  cplx* to_pencils(cplx* slab, cplx* other) override {
    pack_slab(s_, slab, other);
    global(other, slab);
    unpack_to_pencil(s_, slab, other);
    return other;
  }
  cplx* to_slabs(cplx* pencil, cplx* other) override {
    pack_pencil(s_, pencil, other);
    global(other, pencil);
    unpack_to_slab(s_, pencil, other);
    return other;
  }

 private:
  void global(const cplx* send, cplx* recv) const {
    // sloc ft/priv comm begin
    upc_all_exchange_priv(recv, send, sizeof(cplx) * s_.chunk, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    // sloc ft/priv comm end
  }

  shape s_;
  // sloc ft/priv decl begin
  private_buffer u1_, u2_;  // private working arrays
  // sloc ft/priv decl end
};

}  // namespace

std::unique_ptr<transpose> make_priv(const shape& s) { return std::make_unique<priv_transpose>(s); }

}  // namespace ft
