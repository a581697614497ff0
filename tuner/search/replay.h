// Search strategies run against recorded timings instead of a GPU: the strategy proposes
// batches as in a tuning run, each proposed candidate "comes back" with what the
// recording holds for it (a time, or none), and the replay counts how many candidates
// were timed before the best so far came within a margin of the best recorded, at every
// shape. Comparing strategies this way costs no GPU time.
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tuner/search/replay_data.h"
#include "tuner/search/search_strategy.h"

namespace sgemm_tune {

inline constexpr std::size_t kNotReached = std::numeric_limits<std::size_t>::max();

struct ReplayTrial {
  std::vector<SgemmTile> proposed;  // in the order first proposed, each once
  std::size_t timed = 0;            // candidates that came back with a time
  // Per margin: candidates timed when the best so far first came within it at every
  // shape, or kNotReached.
  std::vector<std::size_t> reached;
};

// Runs `strategy` to its end over `data`. `prior` goes to the strategy as SearchHistory::prior.
// Throws std::logic_error when the strategy proposes a non-survivor, or a tile twice at one
// shape (proposal_ledger.h).
ReplayTrial replay_trial(SearchStrategy &strategy, const ReplayData &data, const std::vector<double> &margins,
                         const std::vector<PriorTiming> &prior = {});

struct ReplaySummary {
  std::string strategy;
  std::size_t budget = 0;
  std::size_t seeds = 0;
  std::vector<double> margins;
  // Per margin, over the seeds: median and worst candidates timed (kNotReached when some
  // seed never got there), and how many seeds got there.
  std::vector<std::size_t> median, worst, reached_by;
  double mean_timed = 0;
};

// The strategy `kind` with `budget`, for seeds 1..seeds (the deterministic exhaustive and
// staged searches run once and stand for every seed).
ReplaySummary replay_strategy(StrategySettings::Kind kind, const ReplayData &data, std::size_t budget,
                              std::size_t seeds, const std::vector<double> &margins,
                              const std::vector<PriorTiming> &prior = {});

// Another recording (an earlier shape, another GPU) as prior knowledge for the model search.
std::vector<PriorTiming> prior_from_replay(const ReplayData &data, double weight);

nlohmann::json replay_summaries_to_json(const ReplayData &data, const std::vector<ReplaySummary> &summaries);
// The table: one row per strategy, the survivors and best recorded above it.
std::string replay_summaries_to_text(const ReplayData &data, const std::vector<ReplaySummary> &summaries);

}  // namespace sgemm_tune
