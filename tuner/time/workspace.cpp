#include "tuner/time/workspace.h"

#include <algorithm>

#include "tuner/gpu/device_kernels.h"

namespace sgemm_tune {
namespace {
constexpr std::size_t kMaxSets = 64;

std::size_t floats(long long rows, long long cols) { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); }
std::size_t set_floats(const Shape &s) { return floats(s.M, s.K) + floats(s.K, s.N) + floats(s.M, s.N); }
}  // namespace

std::size_t ShapeWorkspace::set_count(const Shape &shape, std::size_t min_working_set_bytes) {
  const std::size_t per_set = set_floats(shape) * sizeof(float);
  return std::clamp<std::size_t>((min_working_set_bytes + per_set - 1) / per_set, 1, kMaxSets);
}

std::size_t ShapeWorkspace::bytes_needed(const Shape &shape, std::size_t min_working_set_bytes) {
  return (set_count(shape, min_working_set_bytes) * set_floats(shape) + 2 * floats(shape.M, shape.N)) * sizeof(float);
}

ShapeWorkspace::ShapeWorkspace(const Shape &shape, std::size_t min_working_set_bytes, std::uint64_t seed,
                               cudaStream_t stream)
    : shape_(shape) {
  const std::string what = "problem shape " + shape.to_string();
  const std::size_t sets = set_count(shape, min_working_set_bytes);
  for (std::size_t s = 0; s < sets; ++s) {
    a_.push_back(DeviceFloats::allocate(floats(shape.M, shape.K), what));
    b_.push_back(DeviceFloats::allocate(floats(shape.K, shape.N), what));
    c_.push_back(DeviceFloats::allocate(floats(shape.M, shape.N), what));
    fill_uniform(a_.back().data(), a_.back().count(), seed + 3 * s, stream);
    fill_uniform(b_.back().data(), b_.back().count(), seed + 3 * s + 1, stream);
    fill_uniform(c_.back().data(), c_.back().count(), seed + 3 * s + 2, stream);
  }
  reference_ = DeviceFloats::allocate(floats(shape.M, shape.N), what);
  c_before_ = DeviceFloats::allocate(floats(shape.M, shape.N), what);
  scratch_ = DeviceFloats::allocate(error_norms_scratch_bytes() / sizeof(float) + 1, "verification scratch");
}

GemmArgs ShapeWorkspace::args(std::size_t set, float alpha, float beta) const {
  const std::size_t s = set % a_.size();
  return GemmArgs{shape_, alpha, a_[s].data(), b_[s].data(), beta, c_[s].data()};
}

}  // namespace sgemm_tune
