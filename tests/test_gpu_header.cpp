// A header emitted from a real tuning, compiled by nvcc into tools/example (a user's
// program, built the way a user's build compiles it) and run through each of its paths,
// every result checked against cuBLAS by the example itself (beta = 0 over a NaN-filled C,
// and beta = 0.5): the machine code that was timed, the same tiles compiled from source,
// their edge kernels for a shape no tuned tile divides with aligned rows, and the kernel of
// any operands (or packing) for one whose rows are not aligned. Skips, saying so, on a
// machine without a usable GPU or without nvcc.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include <gtest/gtest.h>

#include "example_program.h"
#include "gpu_test.h"
#include "test_paths.h"

#include "tuner/emit/header.h"
#include "tuner/gpu/device_info.h"
#include "tuner/pipeline/tune.h"
#include "tuner/query/environment.h"
#include "tuner/record/result_store.h"

namespace sgemm_tune {
namespace {

// The "result" and "path" columns of the example's line for each shape.
std::map<std::string, std::pair<std::string, std::string>> results_by_shape(const std::string &text) {
  std::map<std::string, std::pair<std::string, std::string>> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.size() >= 3 && std::count(w[0].begin(), w[0].end(), 'x') == 2)
      out[w[0]] = {w[w.size() - 2], w[w.size() - 1]};
  }
  return out;
}

std::size_t parameter_index(std::string_view name) {
  return static_cast<std::size_t>(std::find(kTileParameters.begin(), kTileParameters.end(), name) -
                                  kTileParameters.begin());
}

class GpuHeader : public testing::GpuProgramTest {
 protected:
  // tests/data/small.json at one shape, with STREAMK fixed, into the test's database.
  void tune(const std::string &shape, int stream_k) const {
    TuneOptions o;
    o.space = load_search_space(testing::source_dir() + "/tests/data/small.json");
    o.space.values[parameter_index("STREAMK")] = {stream_k};
    o.shapes = {parse_shape(shape)};
    o.db_path = db_path();
    o.jobs = 4;
    o.kernel = KernelSource::embedded();
    o.command_line = "test";
    const TuneReport r = run_tuning(o);
    ASSERT_GT(r.counts.ok, 0u) << shape << " STREAMK=" << stream_k << ": nothing verified";
  }

  // Writes `header` to folder `name`, builds tools/example with it for this GPU, and runs
  // it on `shapes`, its output printed to the test log. Nothing when it does not build.
  std::optional<testing::CommandOutput> build_and_run(const std::string &name, const EmittedHeader &header,
                                                      const std::string &arch,
                                                      const std::vector<std::string> &shapes) const {
    const auto folder = dir_ / name;
    std::filesystem::create_directories(folder);
    write_file_atomically((folder / "sgemm_tuned.h").string(), header.text);
    const std::string program = (folder / "example").string();
    const testing::CommandOutput built = testing::build_example(folder.string(), arch, program);
    if (built.exit_code != 0) {
      ADD_FAILURE() << name << ": the emitted header does not build:\n" << built.text;
      return std::nullopt;
    }
    testing::CommandOutput ran = testing::run_example(program, shapes);
    std::cout << "== " << name << " header, exit " << ran.exit_code << ":\n" << ran.text << std::flush;
    return ran;
  }

  std::string db_path() const { return (dir_ / "tune.db").string(); }
};

TEST_F(GpuHeader, EveryPathOfAnEmittedHeaderMatchesCublas) {
  // Two runs into one database, so that the header carries a stream-K entry (1024^3) and a
  // data-parallel one (1024x512x256): both launch plans go through the shipped runtime.
  tune("1024x1024x1024", 1);
  if (HasFatalFailure()) return;
  tune("1024x512x256", 0);
  if (HasFatalFailure()) return;
  // A BLAS product, timed on the kernel of any operands: the header runs its own call so.
  const std::string blas = "200x300x100:NT";
  tune(blas, 0);
  if (HasFatalFailure()) return;

  const GpuInfo gpu = open_gpu(0);
  const KernelSource kernel = KernelSource::embedded();
  const CurrentEnvironment env = current_environment(kernel, {}, 0);
  ResultStore store(db_path());
  const std::vector<BestEntry> entries = best_entries(store.database(), env);
  ASSERT_EQ(entries.size(), 3u);
  for (const BestEntry &e : entries) {
    EXPECT_FALSE(e.stale()) << e.shape.to_string();
    EXPECT_EQ(e.tile.STREAMK, e.shape.to_string() == "1024x1024x1024" ? 1 : 0)
        << e.shape.to_string() << ": " << describe_tile(e.tile);
  }

  EmitOptions options;
  options.database_label = "tune.db";
  options.kernel = &kernel;
  const EmittedHeader shipped = emit_header(store.database(), env, options);
  EXPECT_EQ(shipped.entries, 3u);
  EXPECT_EQ(shipped.with_code, 3u);
  EXPECT_EQ(shipped.with_edges_code, 3u);
  // Without the kept machine code (and no recompiling) every entry is compiled from source
  // by nvcc: launch_fast<...> in the header.
  store.database().exec("DELETE FROM kernels");
  options.kernel = nullptr;
  const EmittedHeader from_source = emit_header(store.database(), env, options);
  EXPECT_EQ(from_source.with_code, 0u);
  EXPECT_NE(from_source.text.find("launch_fast<"), std::string::npos);

  // Tuned exactly (stream-K, data-parallel); divided by the tuned tiles but not tuned;
  // divided by nothing, rows 16-byte aligned; divided by nothing, rows not aligned (K = 131).
  const std::vector<std::string> divided = {"1024x1024x1024", "1024x512x256", "1280x1152x1024", "768x384x320"};
  const std::string edges = "1000x1000x1000";
  const std::string undivided = "127x129x131";
  std::vector<std::string> shapes = divided;
  shapes.push_back(edges);
  shapes.push_back(undivided);
  shapes.push_back(blas);
  struct Variant {
    std::string name;
    const EmittedHeader &header;
    std::string tuned_path;  // the path that serves the tuned tiles
    std::string edges_path;  // and their edge kernels
    std::string packed_path; // or their edge kernels after packing
    std::string any_path;    // and their kernels of any operands
  };
  for (const Variant &v : {Variant{"cubin", shipped, "tuned-cubin", "tuned-edge-cubin", "tuned-packed-cubin",
                                   "tuned-any-cubin"},
                           Variant{"source", from_source, "tuned-source", "tuned-edge-source", "tuned-packed-source",
                                   "tuned-any-source"}}) {
    const std::optional<testing::CommandOutput> ran = build_and_run(v.name, v.header, gpu.arch(), shapes);
    if (!ran) continue;
    EXPECT_EQ(ran->exit_code, 0) << v.name << " header: a result differs from cuBLAS, or a call failed";
    const auto results = results_by_shape(ran->text);
    for (const std::string &s : shapes) {
      const auto found = results.find(s);
      if (found == results.end()) {
        ADD_FAILURE() << v.name << " header: no result for " << s;
        continue;
      }
      EXPECT_EQ(found->second.first, "ok") << v.name << " header, " << s;
      // A tuned shape takes its timed kernel (a BLAS one the kernel it was timed on); a shape
      // the tuned tiles divide, the fast or the edge kernel, whichever the selection predicts
      // faster (its own tests say which); any other shape an edge kernel: where rows are not
      // aligned its narrow bodies (4-byte accesses), or the edge kernel after packing them,
      // whichever the selection predicts faster.
      const std::string &path = found->second.second;
      const bool tuned = std::any_of(entries.begin(), entries.end(),
                                     [&](const BestEntry &e) { return e.shape.to_string() == s; });
      if (s == blas)  // an exact match, as it was timed: never packed
        EXPECT_EQ(path, v.any_path) << v.name << " header, " << s;
      else if (tuned)
        EXPECT_EQ(path, v.tuned_path) << v.name << " header, " << s;
      else if (std::find(divided.begin(), divided.end(), s) != divided.end())
        EXPECT_TRUE(path == v.tuned_path || path == v.edges_path) << v.name << " header, " << s << ": " << path;
      else if (s == undivided)
        EXPECT_TRUE(path == v.edges_path || path == v.packed_path) << v.name << " header, " << s << ": " << path;
      else
        EXPECT_EQ(path, v.edges_path) << v.name << " header, " << s;
    }
  }
}

}  // namespace
}  // namespace sgemm_tune
