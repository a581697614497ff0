#include "tuner/search/search_strategy.h"

#include "tuner/search/exhaustive_search.h"
#include "tuner/search/genetic_search.h"
#include "tuner/search/model_search.h"
#include "tuner/search/random_search.h"
#include "tuner/search/staged_search.h"

namespace sgemm_tune {

std::unique_ptr<SearchStrategy> make_search_strategy(const SearchSpace &space, const std::vector<Shape> &shapes) {
  switch (space.strategy.kind) {
    case StrategySettings::Kind::exhaustive: return std::make_unique<ExhaustiveSearch>();
    case StrategySettings::Kind::staged: {
      std::vector<SgemmTile> references;
      for (const auto &[name, tile] : space.references) references.push_back(tile);
      return std::make_unique<StagedSearch>(space.strategy, std::move(references), shapes);
    }
    case StrategySettings::Kind::random: return std::make_unique<RandomSearch>(space.strategy);
    case StrategySettings::Kind::genetic: return std::make_unique<GeneticSearch>(space.strategy);
    case StrategySettings::Kind::model: return std::make_unique<ModelSearch>(space.strategy);
  }
  return std::make_unique<ExhaustiveSearch>();
}

}  // namespace sgemm_tune
