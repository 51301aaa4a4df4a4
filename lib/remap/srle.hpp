// Recursive strided run-length encoding of index streams: how the remap
// operator keeps its schedules small (Deitz, Chamberlain, Choi, Snyder, "The
// Design and Implementation of a Parallel Array Operator for the Arbitrary
// Remapping of Data", PPoPP'03, §4.5.3 "Schedule Compression").
//
// A stream is a sequence of tuples of `width` integers (an index of a rank-r
// remap: width r). A level-k run is a start tuple and, for each level
// j = 1..k (innermost first), a stride tuple and a length; it stands for
//
//   for i_k in 0..length_k-1:  …  for i_1 in 0..length_1-1:
//       start + i_1 * stride_1 + … + i_k * stride_k
//
// The paper's examples. 1, 2, 3, 4, 5, 6 (width 1, one level) is 1 1 6: start
// 1, stride 1, length 6. The 4 x 4 transpose pairs (1 1) (2 1) (3 1) (4 1)
// (1 2) … (4 4) are, with one level, four runs
//   (1 1) (1 0) 4   (1 2) (1 0) 4   (1 3) (1 0) 4   (1 4) (1 0) 4
// and with two levels one run: (1 1) (1 0) 4 (0 1) 4.
//
// flat() format (encoded schedules). Every top-level run has exactly `levels`
// levels and is laid out as
//   start[width], then for j = 1..levels: stride_j[width], length_j
// so a run takes width + levels * (width + 1) integers and flat() is the runs
// one after another. A run whose stream could not be merged at some level has
// length 1 there, and a level of length 1 always has the stride 0 (so
// 1..6, 10 with two levels is 1 1 6 0 1  10 0 1 0 1). A raw (unencoded)
// schedule's flat() is its tuples one after another.
//
// The encoder (srle_encoder) streams: each level keeps one open run, a closed
// level-(k-1) run is offered to level k, which extends its open run when the
// offered run has the same strides and lengths at every inner level and starts
// one outer stride after the last one it took. So the level-one encoding is
// never produced when levels > 1: memory is the final encoding plus a constant
// (levels open runs, each of at most levels x width strides). Merging is
// greedy, which may miss a better split but never loses a tuple.
//
// Giving up (the paper's "if the encoding does not appear to have a benefit, we
// will stop the encoding process early"): see srle_policy. Encoding can also be
// switched off entirely (the paper's NR, "no run-length encoding").
//
// Arithmetic on tuples wraps modulo 2^64, so any int64 stream round-trips.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace upc::remap {

constexpr int srle_max_width = 4;
constexpr int srle_max_levels = 8;

// When to stop encoding. Once at least judge_after tuples are in, the encoding
// is judged after every tuple and at finish: if its integers (closed top-level
// runs) exceed keep_fraction x width x count, everything so far is decoded and
// the schedule stays raw from then on. Below judge_after tuples the encoding is
// kept whatever its size (fewer than judge_after runs: a constant).
//
// So a finished schedule of n >= judge_after tuples takes at most
// keep_fraction x width x n integers encoded, or width x n raw. While
// encoding, the encoder holds at most one top-level run more than that (a push
// closes at most one) plus its open runs; giving up briefly holds both forms.
struct srle_policy {
  bool encode = true;               // false: always raw (the paper's NR)
  std::size_t judge_after = 32;     // tuples in before the encoding is judged
  double keep_fraction = 0.5;       // encoding must at least halve the raw size

  static srle_policy raw() { return {false, 0, 0.0}; }
  static srle_policy never_give_up() { return {true, 0, 1e300}; }
};

namespace detail {
// Modular (wrapping) int64 arithmetic: well defined for any stream.
inline std::int64_t wrap_add(std::int64_t a, std::int64_t b) noexcept {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
inline std::int64_t wrap_sub(std::int64_t a, std::int64_t b) noexcept {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}
inline std::int64_t wrap_mul(std::int64_t a, std::int64_t b) noexcept {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}
}  // namespace detail

// One top-level run of an encoded schedule, read in place from flat().
// Levels are numbered from 0 (innermost) to levels - 1.
class srle_run {
 public:
  srle_run(const std::int64_t* p, int width, int levels) noexcept : p_(p), width_(width), levels_(levels) {}
  std::span<const std::int64_t> start() const noexcept { return {p_, static_cast<std::size_t>(width_)}; }
  std::span<const std::int64_t> stride(int level) const noexcept {
    return {p_ + width_ + level * (width_ + 1), static_cast<std::size_t>(width_)};
  }
  std::int64_t length(int level) const noexcept { return p_[width_ + level * (width_ + 1) + width_]; }
  std::size_t count() const noexcept;  // tuples: the product of the lengths
  int levels() const noexcept { return levels_; }

 private:
  const std::int64_t* p_;
  int width_, levels_;
};

// A finished schedule: encoded runs, or raw tuples.
class srle {
 public:
  srle() = default;  // empty, width 1, one level, encoded

  int width() const noexcept { return width_; }
  int levels() const noexcept { return levels_; }
  bool encoded() const noexcept { return encoded_; }
  std::size_t count() const noexcept { return count_; }                // tuples
  std::size_t size_in_ints() const noexcept { return data_.size(); }  // storage, for memory reports
  std::size_t run_ints() const noexcept { return static_cast<std::size_t>(width_ + levels_ * (width_ + 1)); }
  std::size_t runs() const noexcept { return encoded_ ? data_.size() / run_ints() : count_; }
  srle_run run(std::size_t i) const noexcept { return {data_.data() + i * run_ints(), width_, levels_}; }  // encoded only
  const std::vector<std::int64_t>& flat() const noexcept { return data_; }  // see the header comment

  // Calls f(const std::int64_t* tuple) for every tuple, in stream order.
  template <class F>
  void for_each(F&& f) const;
  std::vector<std::int64_t> decode() const;  // all tuples, one after another

  // The §4.5.5 test for a straight copy: with offset(t) = sum_d weights[d] *
  // t[d] (e.g. row-major element strides), whether the tuples' offsets are
  // first, first + 1, first + 2, … in stream order; then first. Read from the
  // runs without decoding when encoded. Empty schedule: nullopt (nothing to
  // copy). weights.size() must be width().
  std::optional<std::int64_t> straight_offset(std::span<const std::int64_t> weights) const;

 private:
  friend class srle_encoder;
  srle(int width, int levels, bool encoded, std::size_t count, std::vector<std::int64_t> data)
      : width_(width), levels_(levels), encoded_(encoded), count_(count), data_(std::move(data)) {}

  int width_ = 1, levels_ = 1;
  bool encoded_ = true;
  std::size_t count_ = 0;
  std::vector<std::int64_t> data_;
};

// Streams tuples in and the schedule out. width 1..srle_max_width and levels
// 1..srle_max_levels (the paper's default: levels = width), else
// std::invalid_argument.
class srle_encoder {
 public:
  srle_encoder(int width, int levels, srle_policy policy = {});

  void push(const std::int64_t* tuple);        // width() integers
  void push(std::span<const std::int64_t> tuple);  // size width(), else std::invalid_argument
  // The schedule so far; the encoder starts over empty (same width, levels, policy).
  srle finish();

  int width() const noexcept { return width_; }
  int levels() const noexcept { return levels_; }
  std::size_t count() const noexcept { return count_; }
  bool encoding() const noexcept { return !raw_; }  // false once given up (or NR)
  std::size_t size_in_ints() const noexcept { return out_.size(); }  // closed output so far

 private:
  using tuple_t = std::array<std::int64_t, srle_max_width>;
  // A run being built at level k (0-based): levels 0..k-1 are fixed (copied
  // from the first inner run it took); level k grows.
  struct open_run {
    bool active = false;
    tuple_t start{}, last{};  // of the run, and of the latest tuple / inner run taken
    std::array<tuple_t, srle_max_levels> stride{};
    std::array<std::int64_t, srle_max_levels> length{};
  };

  void take_tuple(const std::int64_t* t);
  void take_run(int level, const open_run& inner);
  void close(int level);
  void flush();
  bool paying() const noexcept;
  void give_up();
  bool same(const tuple_t& a, const tuple_t& b) const noexcept;
  bool same(const std::int64_t* a, const tuple_t& b) const noexcept;

  int width_, levels_;
  srle_policy policy_;
  bool raw_;
  std::size_t count_ = 0;
  std::array<open_run, srle_max_levels> open_{};
  std::vector<std::int64_t> out_;  // closed top-level runs (flat()), or raw tuples once given up
};

// All of `tuples` (width integers each) through one encoder.
srle srle_encode(std::span<const std::int64_t> tuples, int width, int levels, srle_policy policy = {});

template <class F>
void srle::for_each(F&& f) const {
  const std::size_t w = static_cast<std::size_t>(width_);
  if (!encoded_) {
    for (std::size_t i = 0; i < count_; ++i) f(data_.data() + i * w);
    return;
  }
  for (std::size_t r = 0, n = runs(); r < n; ++r) {
    const srle_run run = this->run(r);
    std::array<std::int64_t, srle_max_width> cur{};
    std::array<std::int64_t, srle_max_levels> at{};  // the odometer, innermost first
    for (std::size_t d = 0; d < w; ++d) cur[d] = run.start()[d];
    for (;;) {
      f(static_cast<const std::int64_t*>(cur.data()));  // const: f may not change the odometer
      int j = 0;
      for (; j < levels_; ++j) {
        const auto s = run.stride(j);
        if (++at[j] < run.length(j)) {
          for (std::size_t d = 0; d < w; ++d) cur[d] = detail::wrap_add(cur[d], s[d]);
          break;
        }
        at[j] = 0;  // wind this level back to its first position and carry
        for (std::size_t d = 0; d < w; ++d) cur[d] = detail::wrap_sub(cur[d], detail::wrap_mul(run.length(j) - 1, s[d]));
      }
      if (j == levels_) break;
    }
  }
}

}  // namespace upc::remap
