#include "tuner/pipeline/shape_rankings.h"

#include <algorithm>

namespace sgemm_tune {
namespace {

// Machine code kept per shape at the end of a run (sgemm-tune emit ships the best's).
constexpr std::size_t kKeptCodePerShape = 3;

}  // namespace

ShapeRankings::ShapeRankings(std::vector<ShapeReport> shapes)
    : shapes_(std::move(shapes)), best_ms_(shapes_.size(), 0.0) {}

void ShapeRankings::rank(const RankedResult &result, std::size_t shape) {
  shapes_.at(shape).ranked.push_back(result);
  std::lock_guard<std::mutex> lock(best_mutex_);
  if (best_ms_[shape] == 0 || result.time_ms < best_ms_[shape]) best_ms_[shape] = result.time_ms;
}

void ShapeRankings::keep_code(const CompiledKernel &kernel) {
  if (!contender_code_.count(kernel.tile))
    contender_code_.emplace(kernel.tile, std::make_pair(kernel.lowered_name, kernel.cubin));
}

std::vector<double> ShapeRankings::best_ms(const std::vector<std::size_t> &shapes) const {
  std::lock_guard<std::mutex> lock(best_mutex_);
  std::vector<double> out;
  for (const std::size_t s : shapes) out.push_back(best_ms_.at(s));
  return out;
}

SearchHistory ShapeRankings::history() const {
  SearchHistory h{shapes_.size(), {}, {}};
  for (std::size_t i = 0; i < shapes_.size(); ++i)
    for (const RankedResult &r : shapes_[i].ranked) h.timed.push_back(TimedResult{r.tile, i, r.time_ms, r.percent_of_cublas});
  return h;
}

void ShapeRankings::finish(RunDatabase &database) {
  for (ShapeReport &shape : shapes_) {
    auto &ranked = shape.ranked;
    std::sort(ranked.begin(), ranked.end(), [](const RankedResult &a, const RankedResult &b) {
      return a.time_ms != b.time_ms ? a.time_ms < b.time_ms : a.tile < b.tile;
    });
    for (std::size_t r = 0; r < ranked.size() && r < kKeptCodePerShape; ++r) {
      const auto code = contender_code_.find(ranked[r].tile);
      if (code != contender_code_.end()) database.keep_kernel(ranked[r].tile, code->second.first, code->second.second);
    }
  }
}

}  // namespace sgemm_tune
