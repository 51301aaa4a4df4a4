// The parallel Cholesky decomposition with MPI (§5.4.3–5.4.4, Listing 5.3's
// algorithm): each rank owns consecutive rows of the upper triangle of D, as
// many elements as the others (balanced_rows, Figure 5.3).
//
// Per time step:
//   calc_force  my particles' forces, MPI_Allgather in place (all F); my rows of D (j >= i).
//   move        D g: my rows' upper part, plus what my rows add to later rows
//               (D_ji = D_ij), sent to their owners with one in-place
//               MPI_Alltoall and summed there.
//   covar       for every row k: its owner scales it by √pivot and adds L_kk ξ_k
//               to R_k; MPI_Bcast from the owner sends it to every rank; each
//               rank removes it from its later rows and adds L_jk ξ_k to R_j.
//   then        Δr of my rows, MPI_Allgather in place: every Δr.
// The pieces of the all-to-all and the allgather are all max_rows long.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "decomposition.hpp"
#include "kernels.hpp"
#include "mpi_team.hpp"
#include "physics.hpp"

namespace brownian {

class cholesky_mpi {
 public:
  explicit cholesky_mpi(const problem& p)
      : p_(p), n_(p.rows()), blocks_(p.particles, team_.size), first_row_(balanced_rows(n_, team_.size)) {
    const int ranks = team_.size;
    lo_ = first_row_[static_cast<std::size_t>(team_.rank)];
    hi_ = first_row_[static_cast<std::size_t>(team_.rank) + 1];
    for (int t = 0; t < ranks; ++t) max_rows_ = std::max(max_rows_, first_row_[static_cast<std::size_t>(t) + 1] - first_row_[static_cast<std::size_t>(t)]);
    max_rows_ = std::max(max_rows_, 1);
    slot_.resize(static_cast<std::size_t>(n_));
    owner_.resize(static_cast<std::size_t>(n_));
    for (int t = 0; t < ranks; ++t)
      for (int i = first_row_[static_cast<std::size_t>(t)]; i < first_row_[static_cast<std::size_t>(t) + 1]; ++i) {
        owner_[static_cast<std::size_t>(i)] = t;
        slot_[static_cast<std::size_t>(i)] = t * max_rows_ + (i - first_row_[static_cast<std::size_t>(t)]);
      }
    std::size_t size = 0;
    for (int i = lo_; i < hi_; ++i) {
      offset_.push_back(size);
      size += static_cast<std::size_t>(n_ - i);
    }
    U_.resize(size);
    F_.assign(blocks_.padded_rows(), 0.0);
    g_.assign(blocks_.padded_rows(), 0.0);
    pieces_.assign(static_cast<std::size_t>(ranks) * static_cast<std::size_t>(max_rows_), 0.0);
    upper_.resize(static_cast<std::size_t>(hi_ - lo_));
    L_row_.resize(static_cast<std::size_t>(n_));
    R_.assign(static_cast<std::size_t>(n_), 0.0);
  }

  std::size_t length() const { return static_cast<std::size_t>(n_); }

  void build(const double* pos) {
    mpi_forces(p_, blocks_, team_.rank, pos, F_, g_);
    if (lo_ == hi_) return;
    double b[9];
    for (int ip = lo_ / 3; ip <= (hi_ - 1) / 3; ++ip)
      for (int jp = ip; jp < p_.particles; ++jp) {
        if (jp == ip) self_block(b);
        else rpy_block(pos, ip, jp, b);
        for (int a = 0; a < 3; ++a) {
          const int i = 3 * ip + a;
          if (i < lo_ || i >= hi_) continue;
          for (int c = 0; c < 3; ++c)
            if (3 * jp + c >= i) row(i)[3 * jp + c - i] = b[3 * a + c];
        }
      }
  }

  void displacement(const double* xi, double* dr) {
    // move(): D g from the upper triangle alone
    std::fill(pieces_.begin(), pieces_.end(), 0.0);
    for (int i = lo_; i < hi_; ++i) {
      const double* u = row(i);
      const double gi = g_[static_cast<std::size_t>(i)];
      upper_[static_cast<std::size_t>(i - lo_)] = row_times(u, &g_[static_cast<std::size_t>(i)], n_ - i);
      for (int j = i + 1; j < n_; ++j) pieces_[static_cast<std::size_t>(slot_[static_cast<std::size_t>(j)])] += u[j - i] * gi;
    }
    alltoall_in_place(pieces_.data(), max_rows_);
    for (int i = lo_; i < hi_; ++i) {
      double s = upper_[static_cast<std::size_t>(i - lo_)];
      for (int t = 0; t < team_.size; ++t) s += pieces_[static_cast<std::size_t>(t * max_rows_ + (i - lo_))];
      dr[i] = s;
    }
    // covar(): one broadcast per row of D
    for (int i = lo_; i < hi_; ++i) R_[static_cast<std::size_t>(i)] = 0.0;
    for (int k = 0; k < n_; ++k) {
      const int count = n_ - k;
      if (k >= lo_ && k < hi_) {
        double* u = row(k);
        if (!scale_pivot(u, count)) positive_definite_ = false;
        R_[static_cast<std::size_t>(k)] += u[0] * xi[k];
        std::copy(u, u + count, L_row_.begin());
      }
      mpi_check(MPI_Bcast(L_row_.data(), count, MPI_DOUBLE, owner_[static_cast<std::size_t>(k)], MPI_COMM_WORLD), "MPI_Bcast");
      for (int j = std::max(k + 1, lo_); j < hi_; ++j) {
        const double ljk = L_row_[static_cast<std::size_t>(j - k)];
        eliminate(row(j), ljk, &L_row_[static_cast<std::size_t>(j - k)], n_ - j);
        R_[static_cast<std::size_t>(j)] += ljk * xi[k];
      }
    }
    const double c = std::sqrt(2.0 * p_.dt);
    for (int i = lo_; i < hi_; ++i) dr[i] += c * R_[static_cast<std::size_t>(i)];
  }

  // My rows of dr -> every row everywhere.
  void share(double* dr) {
    for (int i = lo_; i < hi_; ++i) pieces_[static_cast<std::size_t>(slot_[static_cast<std::size_t>(i)])] = dr[i];
    allgather_in_place(pieces_.data(), max_rows_);
    for (int i = 0; i < n_; ++i) dr[i] = pieces_[static_cast<std::size_t>(slot_[static_cast<std::size_t>(i)])];
  }

  // Collective: whether every pivot of every step, on every rank, was positive.
  bool positive_definite() const { return allreduce(positive_definite_ ? 1.0 : 0.0, MPI_MIN) == 1.0; }

 private:
  double* row(int i) { return &U_[offset_[static_cast<std::size_t>(i - lo_)]]; }

  mpi_team team_;
  problem p_;
  int n_;
  particle_blocks blocks_;
  std::vector<int> first_row_, slot_, owner_;
  int lo_ = 0, hi_ = 0, max_rows_ = 0;
  std::vector<std::size_t> offset_;
  std::vector<double> U_, F_, g_, pieces_, upper_, L_row_, R_;
  bool positive_definite_ = true;
};

}  // namespace brownian
