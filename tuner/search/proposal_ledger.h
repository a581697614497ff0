// What a search has proposed so far: which shapes of each survivor. The tuning run and the
// replay keep their books here, so both hold a strategy to the same rules: it proposes
// survivors only, each at a shape at most once. A survivor may be proposed again at
// shapes it was not proposed at before (the staged search times BLAS shapes, which need
// an edge kernel compiled, on its finalists only).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "tuner/search/search_strategy.h"

namespace sgemm_tune {

class ProposalLedger {
 public:
  ProposalLedger(const std::vector<SgemmTile> &survivors, std::size_t shape_count);

  // One tile of a batch, as the ledger took it up.
  struct Take {
    SgemmTile tile{};
    std::vector<bool> shapes;  // proposed in this batch, by shape index
    bool first = false;        // the tile's first proposal
  };
  // Takes up `batch`, in its order. Throws std::logic_error, naming `strategy`, when it
  // proposes a tile that is not a survivor, a tile twice in the batch, a tile at a shape
  // it was proposed at (or settled) before, or a shape list that does not fit the batch or
  // the run's shapes.
  std::vector<Take> take(const SearchBatch &batch, const std::string &strategy);

  // A survivor with shapes the search never proposed it at.
  struct Left {
    SgemmTile tile{};
    std::vector<bool> shapes;  // not proposed, by shape index
    bool never_proposed = false;
  };
  // What is left, in the survivors' order; nothing is left after.
  std::vector<Left> settle();

  std::size_t never_proposed() const;  // survivors proposed at no shape

 private:
  std::size_t shape_count_;
  std::vector<SgemmTile> order_;
  std::map<SgemmTile, std::vector<bool>> proposed_;
};

}  // namespace sgemm_tune
