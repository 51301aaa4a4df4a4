// A private working array of complex numbers for the versions whose transposes
// work on private memory (priv, in_place_priv). Large allocations all start at
// the same offset within a 4 KiB page, so two arrays that a loop reads and
// writes in step (evolve: u0 and the pencil; the exchange: send and receive)
// alias in the store buffer ("4K aliasing") and the loop runs at half speed:
// measured 0.2 s of 1.2 s on class A, 1 thread. Each buffer is therefore
// shifted by its own number of cache lines (its `slot`) inside its allocation;
// the shared arrays of the memget version get distinct offsets from the heap.
#pragma once
#include <fftw3.h>

#include <cstddef>
#include <new>

#include "ft_kernel.hpp"

namespace ft {

class private_buffer {
 public:
  private_buffer(std::size_t count, int slot) {
    constexpr std::size_t step = 1024;  // 16 cache lines per slot
    raw_ = static_cast<char*>(fftw_malloc(count * sizeof(cplx) + step * (static_cast<std::size_t>(slot) + 1)));
    if (!raw_) throw std::bad_alloc();
    data_ = reinterpret_cast<cplx*>(raw_ + step * static_cast<std::size_t>(slot));
  }
  ~private_buffer() { fftw_free(raw_); }
  private_buffer(const private_buffer&) = delete;
  private_buffer& operator=(const private_buffer&) = delete;

  cplx* data() const { return data_; }

 private:
  char* raw_ = nullptr;
  cplx* data_ = nullptr;
};

}  // namespace ft
