// sgemm-tune replay: search strategies against recorded timings, no GPU; and
// sgemm-tune replay-data: a database's exhaustive run as replay data to commit.
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "tuner/cli/commands.h"
#include "tuner/common/errors.h"
#include "tuner/emit/header.h"
#include "tuner/record/database_file.h"
#include "tuner/record/replay_recording.h"
#include "tuner/search/replay.h"

namespace sgemm_tune::cli {
namespace {

const std::vector<std::string> kStrategies = {"exhaustive", "staged", "random", "genetic", "model"};

// The space file as JSON, after every field is checked as tune checks it.
nlohmann::json space_object(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(path + ": cannot open search space file");
  std::ostringstream text;
  text << in.rdbuf();
  parse_search_space(text.str(), path);
  return nlohmann::json::parse(text.str());
}

}  // namespace

Command add_replay_command(CLI::App &root) {
  struct Args {
    std::string data;
    std::vector<std::string> strategies;
    std::size_t budget = 0;
    std::size_t seeds = 20;
    std::vector<std::string> priors;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App *sub = root.add_subcommand(
      "replay",
      "Run search strategies against recorded timings (replay data, see replay-data), with no GPU, and print how\n"
      "many candidates each timed before coming within 1% and 2% of the best recorded");
  sub->add_option("data", args->data, "Replay data file (sgemm-tune replay-data)")->required();
  sub->add_option("--strategy", args->strategies, "Strategy to replay; repeatable (default: all)")
      ->check(CLI::IsMember(kStrategies));
  sub->add_option("--budget", args->budget,
                  "Candidates timed per replay of random, genetic and model (default: a tenth of the survivors)");
  sub->add_option("--seeds", args->seeds, "Seeds to replay each strategy with (1 to K)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
  sub->add_option("--prior", args->priors,
                  "Replay data of another shape or GPU, known to the model search before it starts; repeatable");
  sub->add_flag("--json", args->json, "Print one JSON object (schema_version 1) instead of the table");
  return Command{sub, [args](const std::string &) {
                   const ReplayData data = load_replay_data(args->data);
                   std::vector<PriorTiming> prior;
                   for (const std::string &p : args->priors) {
                     const auto more = prior_from_replay(load_replay_data(p), 0.5);
                     prior.insert(prior.end(), more.begin(), more.end());
                   }
                   const std::size_t budget = args->budget ? args->budget : std::max<std::size_t>(1, data.survivors().size() / 10);
                   std::vector<ReplaySummary> summaries;
                   for (const std::string &name : args->strategies.empty() ? kStrategies : args->strategies) {
                     const StrategySettings::Kind kind = *strategy_kind(name);
                     if (kind == StrategySettings::Kind::staged && data.space.strategy.probe.empty())
                       throw UserError(args->data + ": the recorded space has no strategy.probe: staged cannot be replayed");
                     summaries.push_back(replay_strategy(kind, data, budget, args->seeds, {0.01, 0.02}, prior));
                   }
                   if (args->json) std::cout << replay_summaries_to_json(data, summaries).dump(2) << "\n";
                   else std::cout << replay_summaries_to_text(data, summaries);
                   return 0;
                 }};
}

Command add_replay_data_command(CLI::App &root) {
  struct Args {
    std::string from, space, out, description;
    std::vector<std::string> shapes;
    std::optional<std::int64_t> run;
    bool partial = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App *sub = root.add_subcommand(
      "replay-data",
      "Write an exhaustive run of a database (or an export) as replay data: every survivor of the space and its\n"
      "time at each shape");
  sub->add_option("--from", args->from, "Database or export holding the run")->required();
  sub->add_option("--space", args->space, "The search space file the run searched")->required();
  sub->add_option("--shape", args->shapes, "Take only this shape of the run's (repeatable; default: the space's)")
      ->type_name("SHAPE");
  sub->add_option("--run", args->run, "The run's id in the database (default: the newest run)");
  sub->add_option("--description", args->description, "What the recording is, in one line");
  sub->add_option("--out", args->out, "File to write")->required();
  sub->add_flag("--partial", args->partial,
                "Accept a run that was not exhaustive: leave out what its search did not take up (a trial only)");
  return Command{sub, [args](const std::string &) {
                   Database db = load_tunings_into_memory(args->from);
                   nlohmann::json space = space_object(args->space);
                   if (!args->shapes.empty()) {
                     for (const std::string &s : args->shapes) parse_shape(s);  // checked before use
                     space["shapes"] = args->shapes;
                   }
                   const ReplayData data = replay_data_from_database(
                       db, RecordingSelection{space, args->run, args->description, args->partial});
                   const std::string text = replay_data_to_text(data);
                   parse_replay_data(nlohmann::json::parse(text), args->out);  // what is written reads back
                   write_file_atomically(args->out, text);
                   std::size_t timed = 0;
                   for (const ReplayRow &r : data.rows) timed += r.status == CandidateStatus::ok;
                   std::cerr << "wrote " << args->out << ": " << data.survivors().size() << " survivors, " << timed
                             << " timings at " << data.shapes.size() << " shape(s)\n";
                   return 0;
                 }};
}

}  // namespace sgemm_tune::cli
