// FT's transpose with the in-place extended exchange on private memory (seed
// 003 Listing 3.20, second approach): the packed chunks are exchanged within
// one private buffer (upc_all_exchange_in_place_priv), so the result is
// unpacked back into the array the data came from — no second receive buffer.
#include "private_buffer.hpp"
#include "transpose.hpp"
#include "upc.h"
#include "upc_collective.h"
#include "upc_collective_ext.h"

namespace ft {

namespace {

class in_place_priv_transpose final : public transpose {
 public:
  explicit in_place_priv_transpose(const shape& s)
      // sloc ft/in_place_priv decl begin
      : s_(s), u1_(static_cast<std::size_t>(s.local), 1), u2_(static_cast<std::size_t>(s.local), 2) {}
  // sloc ft/in_place_priv decl end

  cplx* first() override { return u1_.data(); }
  cplx* second() override { return u2_.data(); }

  cplx* to_pencils(cplx* slab, cplx* other) override {
    pack_slab(s_, slab, other);
    global(other);
    unpack_to_pencil(s_, other, slab);
    return slab;
  }
  cplx* to_slabs(cplx* pencil, cplx* other) override {
    pack_pencil(s_, pencil, other);
    global(other);
    unpack_to_slab(s_, other, pencil);
    return pencil;
  }

 private:
  void global(cplx* buffer) const {
    // sloc ft/in_place_priv comm begin
    upc_all_exchange_in_place_priv(buffer, sizeof(cplx) * s_.chunk, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    // sloc ft/in_place_priv comm end
  }

  shape s_;
  // sloc ft/in_place_priv decl begin
  private_buffer u1_, u2_;  // private working arrays
  // sloc ft/in_place_priv decl end
};

}  // namespace

std::unique_ptr<transpose> make_in_place_priv(const shape& s) { return std::make_unique<in_place_priv_transpose>(s); }

}  // namespace ft
