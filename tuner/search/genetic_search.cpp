#include "tuner/search/genetic_search.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace sgemm_tune {
namespace {

constexpr int kTries = 32;                // children drawn before the nearest open survivor stands in
constexpr double kMutationRate = 0.5;     // chance that a child has one parameter moved a step
constexpr std::size_t kMaxPopulation = 32;

}  // namespace

void GeneticSearch::restart() {
  random_ = RandomSource(seed());
  grid_ = TileGrid(survivors());
}

// A generation of 32, or an eighth of the budget when that is smaller (at least 4): a
// small budget still gets several generations.
std::size_t GeneticSearch::batch_size() const {
  if (budget() == 0) return kMaxPopulation;
  return std::clamp<std::size_t>(budget() / 8, 4, kMaxPopulation);
}

std::vector<SgemmTile> GeneticSearch::choose(const SearchHistory &history, std::size_t count) {
  std::set<SgemmTile> open(unproposed().begin(), unproposed().end());
  const std::map<SgemmTile, double> score = scores(history);
  std::vector<SgemmTile> out;
  if (score.empty()) {  // the first generation, or nothing of it came back timed
    std::vector<SgemmTile> pool = unproposed();
    random_.shuffle(pool);
    pool.resize(count);
    return pool;
  }
  std::vector<std::pair<double, SgemmTile>> ranked;
  for (const auto &[tile, s] : score) ranked.emplace_back(-s, tile);
  std::sort(ranked.begin(), ranked.end());
  std::vector<SgemmTile> elite;
  for (std::size_t i = 0; i < ranked.size() && i < kMaxPopulation; ++i) elite.push_back(ranked[i].second);
  while (out.size() < count) {
    const SgemmTile child = breed(elite, open);
    open.erase(child);
    out.push_back(child);
  }
  return out;
}

SgemmTile GeneticSearch::breed(const std::vector<SgemmTile> &elite, const std::set<SgemmTile> &open) {
  // Elite is best first: the better of two draws is the one with the lower index.
  const auto parent = [&] { return elite[std::min(random_.below(elite.size()), random_.below(elite.size()))]; };
  const SgemmTile first = parent();
  for (int attempt = 0; attempt < kTries; ++attempt) {
    const GridPoint a = grid_.point(first), b = grid_.point(parent());
    GridPoint child{};
    for (std::size_t p = 0; p < child.size(); ++p) child[p] = random_.below(2) ? a[p] : b[p];
    if (random_.uniform() < kMutationRate) {
      const std::size_t p = random_.below(child.size());
      child[p] += random_.below(2) ? 1 : -1;
    }
    const SgemmTile tile = grid_.tile(child);
    if (open.count(tile)) return tile;
  }
  return nearest_open(first, open);
}

SgemmTile GeneticSearch::nearest_open(const SgemmTile &to, const std::set<SgemmTile> &open) const {
  const GridPoint target = grid_.point(to);
  SgemmTile best{};
  int best_distance = std::numeric_limits<int>::max();
  for (const SgemmTile &t : unproposed()) {  // enumeration order: ties go to the first
    if (!open.count(t)) continue;
    const GridPoint g = grid_.point(t);
    int d = 0;
    for (std::size_t p = 0; p < g.size(); ++p) d += std::abs(g[p] - target[p]);
    if (d < best_distance) {
      best_distance = d;
      best = t;
    }
  }
  return best;
}

}  // namespace sgemm_tune
