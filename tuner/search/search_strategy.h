// Which candidates a tuning run times, and in what order. The run judges every candidate
// it can without a compiler (validity rules, tiling of the shapes, what the tile alone
// says about residency) and hands those that survive to a strategy. The strategy proposes
// them in batches; the run compiles each batch, prunes on the compiled kernel, verifies
// and times what is left, records everything, and tells the strategy what was timed before
// it asks for the next batch. A strategy never sees an invalid or pruned candidate and
// never touches the compiler, the GPU or the database, so it can be tested on made-up
// timings.
//
// A proposed candidate may still come back without a time (it failed to compile, was
// pruned on its registers, gave a wrong result): the strategy knows what it proposed, and
// what of that is missing from the history.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "tuner/space/search_space.h"

namespace sgemm_tune {

// One candidate verified and timed at one shape.
struct TimedResult {
  SgemmTile tile{};
  std::size_t shape = 0;  // index into the run's shapes
  double time_ms = 0;
  double percent_of_cublas = 0;
};

// A time the database held before the run, of a tile at another shape, on another GPU or
// under another fingerprint: what a learning search (model) starts from. `weight` says
// how much it says about this run (1: the same GPU and shape, under an older fingerprint).
struct PriorTiming {
  SgemmTile tile{};
  double percent_of_cublas = 0;
  double weight = 1;
};

struct SearchHistory {
  std::size_t shape_count = 0;
  // Every time so far, this run's and those an earlier run measured under the same
  // fingerprint, shape by shape; a dry run has none.
  std::vector<TimedResult> timed;
  std::vector<PriorTiming> prior;
};

struct SearchBatch {
  std::vector<SgemmTile> tiles;  // survivors, to time in this order
  // Where not every tile is timed at every shape: the shapes (indices into the run's) at
  // which each tile is timed, one non-empty list per tile in the order of `tiles`. Empty:
  // every tile at every shape. A survivor may come back in a later batch at shapes it was
  // not proposed at before (the staged search times BLAS shapes on its finalists only);
  // no survivor is proposed twice at one shape (proposal_ledger.h holds strategies to that).
  std::vector<std::vector<std::size_t>> shapes;
  std::string stage;  // for the progress line ("stage 1 of 2"); empty for a single batch
  // No batch follows: the survivors' shapes not proposed by now are recorded as not timed
  // (see SearchStrategy::not_proposed) before this batch is timed.
  bool last = false;
};

// A survivor the search did not take up is recorded as pruned, with this reason and detail.
struct NotProposed {
  std::string reason;
  std::string detail;
};

class SearchStrategy {
 public:
  virtual ~SearchStrategy() = default;
  virtual std::string name() const = 0;  // as --strategy spells it
  // Once, before the first batch: the survivors, in enumeration order.
  virtual void start(std::vector<SgemmTile> survivors) = 0;
  // The next batch, given everything timed so far; an empty batch ends the search.
  virtual SearchBatch next(const SearchHistory &history) = 0;
  virtual NotProposed not_proposed() const = 0;
  // The tile structures a search took to a later stage, for the report; empty when it has none.
  virtual std::vector<SgemmTile> finalists() const { return {}; }
};

// The strategy the space asks for (`strategy.kind`, which --strategy overrides), for a run
// over `shapes` (the space's, or those --shape gives).
std::unique_ptr<SearchStrategy> make_search_strategy(const SearchSpace &space, const std::vector<Shape> &shapes);

}  // namespace sgemm_tune
