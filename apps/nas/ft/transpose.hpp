// What a version of FT provides: its two working arrays and the global
// transposes between the slab and the pencil layouts (ft_kernel.hpp). Each
// transpose may destroy its input and returns where its output is (one of the
// two arrays): the in-place exchange leaves the result in the array the data
// came from, the others in the other array.
#pragma once
#include <memory>
#include <string>

#include "ft_kernel.hpp"

namespace ft {

class transpose {
 public:
  virtual ~transpose() = default;
  virtual cplx* first() = 0;   // my part of the array the initial conditions go to
  virtual cplx* second() = 0;  // my part of the other working array
  virtual cplx* to_pencils(cplx* slab, cplx* other) = 0;
  virtual cplx* to_slabs(cplx* pencil, cplx* other) = 0;
  virtual double inspector_seconds() const { return 0; }  // remap: the schedules' cost, paid once
};

// Collective: every thread makes the same version at the same point.
std::unique_ptr<transpose> make_memget(const shape& s);         // seed 003 Listing 3.19
std::unique_ptr<transpose> make_priv(const shape& s);           // Listing 3.20, first approach
std::unique_ptr<transpose> make_in_place_priv(const shape& s);  // Listing 3.20, second approach
std::unique_ptr<transpose> make_remap(const shape& s);          // seed 004 §4.2

// The local rearrangements around the all-to-all of the versions that move
// contiguous chunks (memget, priv, in_place_priv): the piece for thread q is
// chunk q of the send buffer, the piece from thread p chunk p of the receive
// buffer.
void pack_slab(const shape& s, const cplx* slab, cplx* send);           // [zl][y][x] -> [q][zl][yl][x]
void unpack_to_pencil(const shape& s, const cplx* recv, cplx* pencil);  // [p][zl][yl][x] -> [yl][x][z]
void pack_pencil(const shape& s, const cplx* pencil, cplx* send);       // [yl][x][z] -> [q][yl][x][zl]
void unpack_to_slab(const shape& s, const cplx* recv, cplx* slab);      // [p][yl][x][zl] -> [zl][y][x]

}  // namespace ft
