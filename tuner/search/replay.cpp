#include "tuner/search/replay.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

#include "tuner/search/proposal_ledger.h"

namespace sgemm_tune {
namespace {

// Best recorded time per shape.
std::vector<double> best_times(const ReplayData &data) {
  std::vector<double> best(data.shapes.size(), 0);
  for (const ReplayRow &r : data.rows)
    if (r.status == CandidateStatus::ok && (best[r.shape] == 0 || r.time_ms < best[r.shape])) best[r.shape] = r.time_ms;
  return best;
}

std::string count_text(std::size_t n) { return n == kNotReached ? "never" : std::to_string(n); }

}  // namespace

ReplayTrial replay_trial(SearchStrategy &strategy, const ReplayData &data, const std::vector<double> &margins,
                         const std::vector<PriorTiming> &prior) {
  const auto times = data.times();
  const std::vector<double> best = best_times(data);
  const std::vector<SgemmTile> survivors = data.survivors();
  ProposalLedger ledger(survivors, data.shapes.size());
  std::set<SgemmTile> came_back_timed;
  std::vector<double> best_so_far(data.shapes.size(), 0);
  ReplayTrial trial;
  trial.reached.assign(margins.size(), kNotReached);
  SearchHistory history{data.shapes.size(), {}, prior};
  strategy.start(survivors);
  while (true) {
    const SearchBatch batch = strategy.next(history);
    if (batch.tiles.empty()) break;
    for (const ProposalLedger::Take &take : ledger.take(batch, strategy.name())) {
      const SgemmTile &tile = take.tile;
      if (take.first) trial.proposed.push_back(tile);
      bool timed = false;
      for (std::size_t s = 0; s < data.shapes.size(); ++s) {
        if (!take.shapes[s]) continue;
        const auto t = times.find({tile, s});
        if (t == times.end()) continue;
        timed = true;
        history.timed.push_back(TimedResult{tile, s, t->second, 100.0 * data.cublas_ms[s] / t->second});
        if (best_so_far[s] == 0 || t->second < best_so_far[s]) best_so_far[s] = t->second;
      }
      if (!timed) continue;
      // A tile counts once, when it first comes back with a time; a tile taken again may
      // still bring the best within the margin.
      if (came_back_timed.insert(tile).second) ++trial.timed;
      for (std::size_t m = 0; m < margins.size(); ++m) {
        if (trial.reached[m] != kNotReached) continue;
        bool all = true;
        for (std::size_t s = 0; s < best.size(); ++s)
          all = all && best_so_far[s] > 0 && best_so_far[s] <= best[s] * (1 + margins[m]);
        if (all) trial.reached[m] = trial.timed;
      }
    }
  }
  return trial;
}

ReplaySummary replay_strategy(StrategySettings::Kind kind, const ReplayData &data, std::size_t budget,
                              std::size_t seeds, const std::vector<double> &margins,
                              const std::vector<PriorTiming> &prior) {
  const bool seeded = kind != StrategySettings::Kind::exhaustive && kind != StrategySettings::Kind::staged;
  ReplaySummary out{strategy_name(kind), seeded ? budget : 0, seeds, margins, {}, {}, {}, 0};
  std::vector<std::vector<std::size_t>> counts(margins.size());
  double timed = 0;
  const auto run = [&](std::size_t seed) {
    SearchSpace space = data.space;
    space.strategy.kind = kind;
    space.strategy.budget = budget;
    space.strategy.seed = seed;
    const auto strategy = make_search_strategy(space, data.shapes);
    return replay_trial(*strategy, data, margins, prior);
  };
  const ReplayTrial deterministic = seeded ? ReplayTrial{} : run(1);
  for (std::size_t seed = 1; seed <= seeds; ++seed) {
    const ReplayTrial trial = seeded ? run(seed) : deterministic;
    timed += static_cast<double>(trial.timed);
    for (std::size_t m = 0; m < margins.size(); ++m) counts[m].push_back(trial.reached[m]);
  }
  out.mean_timed = seeds ? timed / static_cast<double>(seeds) : 0;
  for (auto &c : counts) {
    std::sort(c.begin(), c.end());  // kNotReached sorts last
    out.median.push_back(c.empty() ? kNotReached : c[(c.size() - 1) / 2]);
    out.worst.push_back(c.empty() ? kNotReached : c.back());
    out.reached_by.push_back(static_cast<std::size_t>(std::count_if(c.begin(), c.end(), [](std::size_t n) { return n != kNotReached; })));
  }
  return out;
}

std::vector<PriorTiming> prior_from_replay(const ReplayData &data, double weight) {
  std::vector<PriorTiming> out;
  for (const ReplayRow &r : data.rows)
    if (r.status == CandidateStatus::ok)
      out.push_back(PriorTiming{r.tile, 100.0 * data.cublas_ms[r.shape] / r.time_ms, weight});
  return out;
}

nlohmann::json replay_summaries_to_json(const ReplayData &data, const std::vector<ReplaySummary> &summaries) {
  using nlohmann::json;
  const auto count = [](std::size_t n) { return n == kNotReached ? json(nullptr) : json(n); };
  json out;
  out["schema_version"] = 1;
  out["survivors"] = data.survivors().size();
  json shapes = json::array();
  const std::vector<double> best = best_times(data);
  for (std::size_t s = 0; s < data.shapes.size(); ++s)
    shapes.push_back({{"shape", data.shapes[s].to_string()}, {"best_ms", best[s]}, {"cublas_ms", data.cublas_ms[s]}});
  out["shapes"] = shapes;
  json list = json::array();
  for (const ReplaySummary &s : summaries) {
    json margins = json::array();
    for (std::size_t m = 0; m < s.margins.size(); ++m)
      margins.push_back({{"margin", s.margins[m]},
                         {"median", count(s.median[m])},
                         {"worst", count(s.worst[m])},
                         {"seeds_reached", s.reached_by[m]}});
    list.push_back({{"strategy", s.strategy},
                    {"budget", s.budget},
                    {"seeds", s.seeds},
                    {"mean_timed", s.mean_timed},
                    {"within", margins}});
  }
  out["strategies"] = list;
  return out;
}

std::string replay_summaries_to_text(const ReplayData &data, const std::vector<ReplaySummary> &summaries) {
  std::ostringstream out;
  const std::size_t survivors = data.survivors().size();
  const std::vector<double> best = best_times(data);
  out << "replay: " << survivors << " survivors" << (data.gpu.empty() ? "" : " on " + data.gpu);
  if (!data.description.empty()) out << " (" << data.description << ")";
  out << "\n";
  for (std::size_t s = 0; s < data.shapes.size(); ++s) {
    char line[160];
    std::snprintf(line, sizeof line, "  %s: best recorded %.4f ms, %.1f%% of cuBLAS\n",
                  data.shapes[s].to_string().c_str(), best[s], 100.0 * data.cublas_ms[s] / best[s]);
    out << line;
  }
  out << "candidates timed until the best so far is within the margin of the best recorded, at every shape\n";
  out << "(median and worst over the seeds; 'never': not within the budget for some seed)\n";
  char head[200];
  std::snprintf(head, sizeof head, "%-11s %7s %6s %10s", "strategy", "budget", "seeds", "mean timed");
  out << head;
  if (!summaries.empty())
    for (const double m : summaries.front().margins) {
      char col[64];
      std::snprintf(col, sizeof col, "  %23s", ("within " + std::to_string(static_cast<int>(100 * m + 0.5)) +
                                                 "%: median worst %surv").c_str());
      out << col;
    }
  out << "\n";
  for (const ReplaySummary &s : summaries) {
    char row[200];
    std::snprintf(row, sizeof row, "%-11s %7s %6zu %10.1f", s.strategy.c_str(),
                  s.budget ? std::to_string(s.budget).c_str() : "-", s.seeds, s.mean_timed);
    out << row;
    for (std::size_t m = 0; m < s.margins.size(); ++m) {
      char col[96];
      const std::string pct = s.median[m] == kNotReached
                                  ? "-"
                                  : [&] {
                                      char b[16];
                                      std::snprintf(b, sizeof b, "%.1f%%", 100.0 * static_cast<double>(s.median[m]) /
                                                                               static_cast<double>(survivors));
                                      return std::string(b);
                                    }();
      std::snprintf(col, sizeof col, "  %11s %6s %6s", count_text(s.median[m]).c_str(), count_text(s.worst[m]).c_str(),
                    pct.c_str());
      out << col;
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace sgemm_tune
