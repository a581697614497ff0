#include "tuner/search/model_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace sgemm_tune {
namespace {

constexpr std::size_t kNeighbours = 5;
constexpr std::size_t kMaxBatch = 32;
constexpr double kExploreShare = 0.25;  // of each batch, drawn at random
constexpr std::size_t kMinPairsForFit = 5;

struct Sample {
  std::array<double, kTileParameters.size()> at{};
  double value = 0;
};

// The prior's mean percent of cuBLAS per tile, weighted.
std::map<SgemmTile, double> prior_by_tile(const std::vector<PriorTiming> &prior) {
  std::map<SgemmTile, std::pair<double, double>> sums;
  for (const PriorTiming &p : prior) {
    if (!(p.weight > 0) || !std::isfinite(p.percent_of_cublas)) continue;
    sums[p.tile].first += p.weight * p.percent_of_cublas;
    sums[p.tile].second += p.weight;
  }
  std::map<SgemmTile, double> out;
  for (const auto &[tile, s] : sums) out.emplace(tile, s.first / s.second);
  return out;
}

// y = a + b x by least squares over the tiles known both ways; identity when too few.
std::pair<double, double> fit_line(const std::map<SgemmTile, double> &prior, const std::map<SgemmTile, double> &now) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto &[tile, y] : now) {
    const auto p = prior.find(tile);
    if (p == prior.end()) continue;
    const double x = p->second;
    n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double var = n * sxx - sx * sx;
  if (n < kMinPairsForFit || var <= 1e-9 * n * n) return {0.0, 1.0};
  const double b = (n * sxy - sx * sy) / var;
  return {(sy - b * sx) / n, b};
}

}  // namespace

void ModelSearch::restart() {
  random_ = RandomSource(seed());
  grid_ = TileGrid(survivors());
}

std::size_t ModelSearch::batch_size() const {
  if (budget() == 0) return kMaxBatch;
  return std::clamp<std::size_t>(budget() / 10, 4, kMaxBatch);
}

std::vector<double> ModelSearch::predict(const SearchHistory &history) const {
  const std::map<SgemmTile, double> now = scores(history);
  const std::map<SgemmTile, double> prior = prior_by_tile(history.prior);
  const auto [a, b] = fit_line(prior, now);
  std::vector<Sample> samples;
  for (const auto &[tile, value] : now) samples.push_back(Sample{grid_.unit(tile), value});

  std::vector<double> out;
  out.reserve(unproposed().size());
  std::vector<std::pair<double, double>> nearest;  // (distance^2, value)
  for (const SgemmTile &tile : unproposed()) {
    double sum = 0, weights = 0;
    if (!samples.empty()) {
      const auto at = grid_.unit(tile);
      nearest.clear();
      for (const Sample &s : samples) {
        double d = 0;
        for (std::size_t p = 0; p < at.size(); ++p) d += (at[p] - s.at[p]) * (at[p] - s.at[p]);
        nearest.emplace_back(d, s.value);
      }
      const std::size_t k = std::min(kNeighbours, nearest.size());
      std::partial_sort(nearest.begin(), nearest.begin() + static_cast<std::ptrdiff_t>(k), nearest.end());
      for (std::size_t i = 0; i < k; ++i) {
        const double w = 1.0 / (nearest[i].first + 0.01);
        sum += w * nearest[i].second;
        weights += w;
      }
    }
    const auto p = prior.find(tile);
    if (p != prior.end()) {
      // A tile's own time elsewhere counts as much as a neighbour at no distance.
      const double w = 1.0 / 0.01;
      sum += w * (a + b * p->second);
      weights += w;
    }
    out.push_back(weights > 0 ? sum / weights : std::numeric_limits<double>::quiet_NaN());
  }
  return out;
}

std::vector<SgemmTile> ModelSearch::choose(const SearchHistory &history, std::size_t count) {
  const std::vector<double> predicted = predict(history);
  std::vector<std::size_t> order;  // indices into unproposed(), best predicted first
  for (std::size_t i = 0; i < predicted.size(); ++i)
    if (!std::isnan(predicted[i])) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return predicted[x] > predicted[y]; });
  const std::size_t exploit = std::min(order.size(), count - static_cast<std::size_t>(kExploreShare * count));

  std::set<std::size_t> taken(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(exploit));
  std::vector<std::size_t> rest;
  for (std::size_t i = 0; i < unproposed().size(); ++i)
    if (!taken.count(i)) rest.push_back(i);
  random_.shuffle(rest);
  std::vector<SgemmTile> out;
  for (std::size_t i = 0; i < exploit; ++i) out.push_back(unproposed()[order[i]]);
  for (std::size_t i = 0; out.size() < count; ++i) out.push_back(unproposed()[rest[i]]);
  return out;
}

}  // namespace sgemm_tune
