#include "tuner/search/proposal_ledger.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace sgemm_tune {
namespace {

bool none_of_them(const std::vector<bool> &shapes) {
  return std::none_of(shapes.begin(), shapes.end(), [](bool b) { return b; });
}

}  // namespace

ProposalLedger::ProposalLedger(const std::vector<SgemmTile> &survivors, std::size_t shape_count)
    : shape_count_(shape_count) {
  for (const SgemmTile &tile : survivors)
    if (proposed_.emplace(tile, std::vector<bool>(shape_count, false)).second) order_.push_back(tile);
}

std::vector<ProposalLedger::Take> ProposalLedger::take(const SearchBatch &batch, const std::string &strategy) {
  const auto refuse = [&](const std::string &what) {
    throw std::logic_error(strategy + " search proposed " + what);
  };
  if (!batch.shapes.empty() && batch.shapes.size() != batch.tiles.size())
    refuse("shapes for " + std::to_string(batch.shapes.size()) + " tiles in a batch of " +
           std::to_string(batch.tiles.size()));
  std::vector<Take> out;
  std::set<SgemmTile> in_batch;
  for (std::size_t i = 0; i < batch.tiles.size(); ++i) {
    const SgemmTile &tile = batch.tiles[i];
    const auto it = proposed_.find(tile);
    if (it == proposed_.end()) refuse(describe_tile(tile) + ", which is not a survivor");
    if (!in_batch.insert(tile).second) refuse(describe_tile(tile) + " twice in one batch");
    std::vector<bool> &done = it->second;
    Take t{tile, std::vector<bool>(shape_count_, batch.shapes.empty()), none_of_them(done)};
    if (!batch.shapes.empty()) {
      if (batch.shapes[i].empty()) refuse(describe_tile(tile) + " at no shape");
      for (const std::size_t s : batch.shapes[i]) {
        if (s >= shape_count_)
          refuse(describe_tile(tile) + " at shape " + std::to_string(s) + " of a run of " +
                 std::to_string(shape_count_));
        t.shapes[s] = true;
      }
    }
    for (std::size_t s = 0; s < shape_count_; ++s) {
      if (!t.shapes[s]) continue;
      if (done[s])
        refuse(describe_tile(tile) + " at shape " + std::to_string(s) + ", where it was proposed or settled before");
      done[s] = true;
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<ProposalLedger::Left> ProposalLedger::settle() {
  std::vector<Left> out;
  for (const SgemmTile &tile : order_) {
    std::vector<bool> &done = proposed_.at(tile);
    if (std::all_of(done.begin(), done.end(), [](bool b) { return b; })) continue;
    Left left{tile, std::vector<bool>(shape_count_), none_of_them(done)};
    for (std::size_t s = 0; s < shape_count_; ++s) left.shapes[s] = !done[s];
    done.assign(shape_count_, true);
    out.push_back(std::move(left));
  }
  return out;
}

std::size_t ProposalLedger::never_proposed() const {
  return static_cast<std::size_t>(
      std::count_if(proposed_.begin(), proposed_.end(), [](const auto &entry) { return none_of_them(entry.second); }));
}

}  // namespace sgemm_tune
