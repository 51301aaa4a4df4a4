// The streaming encoder of srle.hpp and the reads of a finished schedule.
#include "srle.hpp"

#include <stdexcept>
#include <string>

namespace upc::remap {

using detail::wrap_add;
using detail::wrap_mul;
using detail::wrap_sub;

std::size_t srle_run::count() const noexcept {
  std::size_t n = 1;
  for (int j = 0; j < levels_; ++j) n *= static_cast<std::size_t>(length(j));
  return n;
}

std::vector<std::int64_t> srle::decode() const {
  if (!encoded_) return data_;
  std::vector<std::int64_t> out;
  out.reserve(count_ * static_cast<std::size_t>(width_));
  for_each([&](const std::int64_t* t) { out.insert(out.end(), t, t + width_); });
  return out;
}

std::optional<std::int64_t> srle::straight_offset(std::span<const std::int64_t> weights) const {
  if (weights.size() != static_cast<std::size_t>(width_))
    throw std::invalid_argument("srle::straight_offset: " + std::to_string(weights.size()) + " weights for tuples of width " +
                                std::to_string(width_));
  auto offset = [&](std::span<const std::int64_t> t) {
    std::int64_t o = 0;
    for (int d = 0; d < width_; ++d) o = wrap_add(o, wrap_mul(weights[d], t[d]));
    return o;
  };
  if (count_ == 0) return std::nullopt;
  const std::size_t w = static_cast<std::size_t>(width_);
  if (!encoded_) {
    const std::int64_t first = offset({data_.data(), w});
    for (std::size_t i = 1; i < count_; ++i)
      if (offset({data_.data() + i * w, w}) != wrap_add(first, static_cast<std::int64_t>(i))) return std::nullopt;
    return first;
  }
  // A run is straight when each level that repeats (length > 1) steps the
  // offset by the number of tuples one pass of the levels inside it covers;
  // the runs chain when each starts where the previous one ended.
  const std::int64_t first = offset(run(0).start());
  std::int64_t next = first;
  for (std::size_t r = 0, n = runs(); r < n; ++r) {
    const srle_run run = this->run(r);
    if (offset(run.start()) != next) return std::nullopt;
    std::int64_t inner = 1;
    for (int j = 0; j < levels_; ++j) {
      if (run.length(j) == 1) continue;
      if (offset(run.stride(j)) != inner) return std::nullopt;
      inner = wrap_mul(inner, run.length(j));
    }
    next = wrap_add(next, inner);
  }
  return first;
}

srle_encoder::srle_encoder(int width, int levels, srle_policy policy)
    : width_(width), levels_(levels), policy_(policy), raw_(!policy.encode) {
  if (width < 1 || width > srle_max_width)
    throw std::invalid_argument("srle: tuple width " + std::to_string(width) + " is not in 1.." + std::to_string(srle_max_width));
  if (levels < 1 || levels > srle_max_levels)
    throw std::invalid_argument("srle: " + std::to_string(levels) + " levels is not in 1.." + std::to_string(srle_max_levels));
}

bool srle_encoder::same(const tuple_t& a, const tuple_t& b) const noexcept {
  for (int d = 0; d < width_; ++d)
    if (a[d] != b[d]) return false;
  return true;
}

bool srle_encoder::same(const std::int64_t* a, const tuple_t& b) const noexcept {
  for (int d = 0; d < width_; ++d)
    if (a[d] != b[d]) return false;
  return true;
}

void srle_encoder::push(std::span<const std::int64_t> tuple) {
  if (tuple.size() != static_cast<std::size_t>(width_))
    throw std::invalid_argument("srle: a tuple of " + std::to_string(tuple.size()) + " for width " + std::to_string(width_));
  push(tuple.data());
}

void srle_encoder::push(const std::int64_t* tuple) {
  ++count_;
  if (raw_) {
    out_.insert(out_.end(), tuple, tuple + width_);
    return;
  }
  take_tuple(tuple);
  // One push closes at most one top-level run, so judging after each keeps
  // the output within one run of the limit.
  if (count_ >= policy_.judge_after && !paying()) give_up();
}

// Level 0: tuples. A run of one tuple takes any next tuple (its stride was 0,
// a placeholder); a longer one only the tuple one stride after its last.
void srle_encoder::take_tuple(const std::int64_t* t) {
  open_run& o = open_[0];
  if (o.active) {
    if (o.length[0] == 1) {
      for (int d = 0; d < width_; ++d) o.stride[0][d] = wrap_sub(t[d], o.start[d]);
      o.length[0] = 2;
      for (int d = 0; d < width_; ++d) o.last[d] = t[d];
      return;
    }
    tuple_t expected{};
    for (int d = 0; d < width_; ++d) expected[d] = wrap_add(o.last[d], o.stride[0][d]);
    if (same(t, expected)) {
      ++o.length[0];
      for (int d = 0; d < width_; ++d) o.last[d] = t[d];
      return;
    }
    close(0);
  }
  o.active = true;
  for (int d = 0; d < width_; ++d) o.start[d] = o.last[d] = t[d];
  o.stride[0] = tuple_t{};
  o.length[0] = 1;
}

// Level k > 0: closed level-(k-1) runs. The open run takes `inner` when its
// levels 0..k-1 are identical to inner's (strides and lengths; a level of
// length 1 has the stride 0 on both sides, so placeholders compare equal) and
// inner starts one level-k stride after the last inner run taken.
void srle_encoder::take_run(int level, const open_run& inner) {
  open_run& o = open_[level];
  if (o.active) {
    bool shape = true;
    for (int j = 0; j < level && shape; ++j) shape = o.length[j] == inner.length[j] && same(o.stride[j], inner.stride[j]);
    if (shape) {
      if (o.length[level] == 1) {
        for (int d = 0; d < width_; ++d) o.stride[level][d] = wrap_sub(inner.start[d], o.start[d]);
        o.length[level] = 2;
        o.last = inner.start;
        return;
      }
      tuple_t expected{};
      for (int d = 0; d < width_; ++d) expected[d] = wrap_add(o.last[d], o.stride[level][d]);
      if (same(inner.start, expected)) {
        ++o.length[level];
        o.last = inner.start;
        return;
      }
    }
    close(level);
  }
  o.active = true;
  o.start = o.last = inner.start;
  for (int j = 0; j < level; ++j) {
    o.stride[j] = inner.stride[j];
    o.length[j] = inner.length[j];
  }
  o.stride[level] = tuple_t{};
  o.length[level] = 1;
}

// Hands the open run of `level` up (or, at the top, out in flat() form).
void srle_encoder::close(int level) {
  open_run& o = open_[level];
  if (level + 1 < levels_) {
    take_run(level + 1, o);
  } else {
    out_.insert(out_.end(), o.start.begin(), o.start.begin() + width_);
    for (int j = 0; j < levels_; ++j) {
      out_.insert(out_.end(), o.stride[j].begin(), o.stride[j].begin() + width_);
      out_.push_back(o.length[j]);
    }
  }
  o.active = false;
}

// Innermost first: each closed run may still merge into the open run above.
void srle_encoder::flush() {
  for (int level = 0; level < levels_; ++level)
    if (open_[level].active) close(level);
}

bool srle_encoder::paying() const noexcept {
  return static_cast<double>(out_.size()) <= policy_.keep_fraction * static_cast<double>(count_) * width_;
}

void srle_encoder::give_up() {
  flush();
  const srle so_far(width_, levels_, true, count_, std::move(out_));
  out_ = so_far.decode();
  raw_ = true;
}

srle srle_encoder::finish() {
  if (!raw_) {
    flush();
    if (count_ >= policy_.judge_after && !paying()) give_up();
  }
  srle done(width_, levels_, !raw_, count_, std::move(out_));
  out_ = {};
  count_ = 0;
  raw_ = !policy_.encode;
  open_ = {};
  return done;
}

srle srle_encode(std::span<const std::int64_t> tuples, int width, int levels, srle_policy policy) {
  srle_encoder e(width, levels, policy);
  if (tuples.size() % static_cast<std::size_t>(width) != 0)
    throw std::invalid_argument("srle: " + std::to_string(tuples.size()) + " integers are not tuples of width " +
                                std::to_string(width));
  for (std::size_t i = 0; i < tuples.size(); i += static_cast<std::size_t>(width)) e.push(tuples.data() + i);
  return e.finish();
}

}  // namespace upc::remap
