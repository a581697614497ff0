// The BLAS entry point of an emitted header on the GPU: tests/sgemm_blas_check.cu, built by
// nvcc against the header, runs every layout (row- and column-major), op pair, leading
// dimension (least, padded by 4, padded by 3), operand offset (0, 1 and 3 floats) and beta
// (0 over a NaN-filled C, 0.5) over edge shapes (127x129x131, 1x1x1, 33x4096x17,
// 17x33x1000, K = 0, M = 0, N = 0) and shapes the header's tuned entries serve, checking each
// result against the equivalent cublasSgemm call and that nothing outside C's M x N elements
// changed; every product but a tuned shape with plain aligned operands must take an edge
// path. Then `edges` runs each entry's edge kernel directly over odd
// shapes, every layout and op pair, aligned rows or not, K whole or split
// (tests/sgemm_blas_check.cu), and `huge` leading dimensions past the fast kernel's int
// offsets (where 24 GiB of GPU memory are free). The header is emitted from a
// database made here for this GPU (no tuning: the
// entries' timings are made up, their machine code is real), so that the tuned machine code
// of a data-parallel and of a stream-K tile, and a tile compiled from source, each serve
// padded operands. Skips, saying so, without a usable GPU or without nvcc.
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "example_program.h"
#include "gpu_test.h"
#include "tuned_db_fixture.h"

#include "tuner/emit/header.h"
#include "tuner/gpu/device_info.h"

namespace sgemm_tune {
namespace {

// The seed tile as a stream-K kernel.
const SgemmTile kStreamKTile{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 1};

// One "case ..." line of the program: its words by key ("layout", "ops", "shape", and the
// key=value words by key), and its verdict.
std::vector<std::map<std::string, std::string>> parse_cases(const std::string &text) {
  std::vector<std::map<std::string, std::string>> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.size() < 5 || w[0] != "case") continue;
    std::map<std::string, std::string> c{{"layout", w[1]}, {"ops", w[2]}, {"shape", w[3]}, {"verdict", w.back()}};
    for (const std::string &word : w)
      if (const auto eq = word.find('='); eq != std::string::npos) c[word.substr(0, eq)] = word.substr(eq + 1);
    c["line"] = line;
    out.push_back(c);
  }
  return out;
}

// The path that must serve a case: the timed kernel only for plain (NoTrans, NoTrans)
// products with 16-byte aligned rows (every leading dimension, as the program prints them, a
// multiple of 4, no offset) at a tuned shape (column-major 384x192x48 is the row-major
// 192x384x48, which is not); K = 0 (the scale pass alone) and empty products the default
// tile's edge kernel; everything else an edge kernel of a tuned tile: the edge kernel where
// B is untransposed in row-major terms (or both operands are transposed) and A and B are
// aligned; unaligned, the edge kernel's narrow bodies or the edge kernel after packing;
// with B transposed, the kernel of any operands or packing (which tile, how K is split and
// whether packing pays are the selection rule's business: its own tests).
std::string expected_path(const std::map<std::string, std::string> &c) {
  std::istringstream lds(c.at("lds")), shape_words(c.at("shape"));
  int lda = 0, ldb = 0, ldc = 0, M = 0, N = 0, K = 0;
  char sep;
  lds >> lda >> sep >> ldb >> sep >> ldc;
  shape_words >> M >> sep >> N >> sep >> K;
  if (M == 0 || N == 0 || K == 0) return "default-edge";
  const bool fast_layout = c.at("ops") == "NN" && c.at("off") == "0" && lda % 4 == 0 && ldb % 4 == 0 && ldc % 4 == 0;
  const std::string &shape = c.at("shape");
  if (fast_layout && (shape == "512x512x512" || shape == "640x640x640")) return "tuned-cubin";
  if (fast_layout && shape == "384x192x48" && c.at("layout") == "row") return "tuned-source";
  // The edge kernel reads A either way and B untransposed, in row-major terms: row-major
  // TN, column-major NT (row-major C^T = B^T A^T), and (T, T), which runs as the plain
  // product of the transposes; C may be unaligned or transposed.
  const std::string &ops = c.at("ops");
  const bool b_plain = ops == "NN" || ops == "TT" || ops == (c.at("layout") == "row" ? "TN" : "NT");
  // Rows of A or B off alignment: the edge kernel's narrow bodies, or packed first.
  const bool wide = c.at("off") == "0" && lda % 4 == 0 && ldb % 4 == 0;
  if (b_plain) return wide ? "tuned-edge" : "tuned-edge-or-packed";
  return "tuned-any-or-packed";
}

class GpuBlas : public testing::GpuProgramTest {
 protected:
  // The tuner's environment on the GPU in hand: what emit compares the database's runs with.
  static CurrentEnvironment environment_of(const GpuInfo &gpu, const KernelSource &kernel) {
    CurrentEnvironment env = testing::h200_environment(kernel);
    env.gpu_name = gpu.name;
    env.compute_capability = gpu.compute_capability();
    env.driver_version = gpu.driver_version;
    return env;
  }

  // tests/sgemm_blas_check.cu built against the header in dir_, then run in `mode` (nothing
  // where it does not build); the program stays at program() for other modes.
  std::optional<testing::CommandOutput> build_and_run(const GpuInfo &gpu, const std::string &mode) {
    const testing::CommandOutput built = testing::build_blas_check(dir_.string(), gpu.arch(), program());
    if (built.exit_code != 0) {
      ADD_FAILURE() << "the emitted header's BLAS check does not build:\n" << built.text;
      return std::nullopt;
    }
    const testing::CommandOutput ran = testing::run_command(program() + " " + mode);
    std::cout << ran.text << std::flush;
    EXPECT_EQ(ran.exit_code, 0) << "a result differs from cuBLAS, touched memory outside C, or a call failed";
    return ran;
  }

  std::string program() const { return (dir_ / "sgemm_blas_check").string(); }
};

TEST_F(GpuBlas, EveryLayoutOpPaddingOffsetAndEdgeShapeMatchesCublas) {
  const GpuInfo gpu = open_gpu(0);
  const KernelSource kernel = KernelSource::embedded();
  const CurrentEnvironment env = environment_of(gpu, kernel);
  {
    // 512^3: a data-parallel tile; 640^3: a stream-K one whose 50 tiles are all split
    // (prepare pass, atomics); both shipped as machine code. 384x192x48: the seed tile as if
    // tuned under another NVRTC, which emit cannot compile again, so nvcc compiles it.
    ResultStore store((dir_ / "tune.db").string());
    const Fingerprint current = env.fingerprint_for(env.gpu_name, env.compute_capability);
    const std::int64_t run = store.begin_run(testing::h200_provenance(current));
    // 0.06 ms: what 8 blocks of 128 x 256 on as many SMs can do; a faster time would tell
    // the selection the tile runs full waves at an impossible rate, and packing, which costs
    // microseconds, would never pay.
    store.record(run, testing::ok_row(Shape{512, 512, 512}, testing::kBigTile, 0.060, 0.060));
    store.record(run, testing::ok_row(Shape{640, 640, 640}, kStreamKTile, 0.020, 0.020));
    store.finish_run(run, true);
    testing::record_under_other_nvrtc(store, env, Shape{384, 192, 48}, testing::kSeedTile);
    const EmittedHeader header = testing::emit_into(dir_, store, env, kernel);
    ASSERT_EQ(header.entries, 3u);
    ASSERT_EQ(header.with_code, 2u);
    ASSERT_EQ(header.with_edges_code, 2u);
  }

  const std::optional<testing::CommandOutput> ran = build_and_run(gpu, "cases");
  ASSERT_TRUE(ran.has_value());
  const std::string program = this->program();

  const auto cases = parse_cases(ran->text);
  // 12 shapes x 2 layouts x 4 op pairs x 3 paddings x 3 offsets x 2 betas.
  EXPECT_EQ(cases.size(), 1728u);
  std::map<std::string, int> by_path;
  for (const auto &c : cases) {
    EXPECT_EQ(c.at("verdict"), "ok") << c.at("line");
    // Which tuned tile serves an edge shape is the selection rule's business (its own tests).
    std::string path = c.at("path");
    const std::string expected = expected_path(c);
    // Packed: every operand, or a transposed B alone, which only a transposed B takes.
    const bool packed = path.rfind("tuned-packed-", 0) == 0;
    const bool transposed_alone = path.rfind("tuned-packed-transposed-", 0) == 0;
    if (path.rfind("tuned-edge-", 0) == 0) path = expected == "tuned-edge-or-packed" ? expected : "tuned-edge";
    if (path.rfind("tuned-any-", 0) == 0) path = "tuned-any-or-packed";
    if (packed) path = expected == "tuned-edge-or-packed" && !transposed_alone ? expected : "tuned-any-or-packed";
    EXPECT_EQ(path, expected) << c.at("line");
    ++by_path[c.at("path")];
  }
  // Each of the header's paths served some of them (the edge variant as machine code: the
  // entries it would pick from source are rated far slower). Whether packing pays at these
  // sizes is the selection's business: the packed path is run below, entry by entry.
  for (const char *path : {"tuned-cubin", "tuned-source", "tuned-edge-cubin", "tuned-any-cubin", "default-edge"})
    EXPECT_GT(by_path[path], 0) << path;

  // The measured dispatch (sgemm_tune::Dispatch::measured), in a process of its own: every
  // result right, C outside M x N untouched, and each predicted product's kernel chosen by
  // timing candidates; an exact match and the scale pass alone are never timed.
  const testing::CommandOutput measured = testing::run_command(program + " measured");
  std::cout << measured.text << std::flush;
  EXPECT_EQ(measured.exit_code, 0) << "with the measured dispatch a result differs from cuBLAS or a call failed";
  const auto measured_cases = parse_cases(measured.text);
  // 6 shapes x 2 layouts x 4 op pairs x 2 paddings x 2 offsets x 2 betas.
  EXPECT_EQ(measured_cases.size(), 384u);
  int timed_several = 0, timed_on_a_copy = 0;
  for (const auto &c : measured_cases) {
    EXPECT_EQ(c.at("verdict"), "ok") << c.at("line");
    const std::string expected = expected_path(c);
    const int timed = std::stoi(c.at("timed"));
    if (expected == "tuned-cubin" || expected == "tuned-source" || expected == "default-edge")
      EXPECT_EQ(timed, 0) << c.at("line");
    else
      EXPECT_GE(timed, 1) << c.at("line");
    timed_several += timed >= 2;
    // Beta 0.5 runs first: its kernels were timed on a copy of C, and C came out right.
    timed_on_a_copy += timed >= 2 && c.at("beta") == "0.5";
  }
  EXPECT_GT(timed_several, 0) << "no product's kernel was chosen among several timed ones";
  EXPECT_GT(timed_on_a_copy, 0) << "no product at beta 0.5 had its kernels timed on a copy of C";

  // Each entry's edge variant, called directly: a data-parallel and a stream-K tile as
  // machine code, the seed tile from source.
  const testing::CommandOutput edges = testing::run_command(program + " edges");
  std::cout << edges.text << std::flush;
  EXPECT_EQ(edges.exit_code, 0) << "an edge variant differs from cuBLAS, touched memory outside C, or failed";
  // Between the packed products the workspaces' memory was handed back, and those after took it again.
  EXPECT_NE(edges.text.find("release_workspaces: cudaSuccess"), std::string::npos);
  // A split of K that fits the GPU as clusters was one launch there, two elsewhere.
  EXPECT_NE(edges.text.find("cluster split: "), std::string::npos);
  const auto edge_cases = parse_cases(edges.text);
  // 3 entries x 6 shapes x 2 layouts x 4 op pairs x aligned or not x 3 launches (K whole,
  // split 3 ways, tail split) x 2 betas, then packed: 3 entries x 2 shapes x 2 layouts x 4 op
  // pairs x 3 launches x 2 betas, and the transposed B alone packed: 3 entries x 2 shapes x 2
  // layouts x 3 launches x 2 betas, and the thin aligned shape: 3 entries x 2 layouts x 4 op
  // pairs x 3 launches x 2 betas, and the tail split's whole waves with a split last wave:
  // 3 entries x 2 shapes x 2 orientations of A x 2 betas, and splits that leave some parts
  // no slices: 3 entries x 2 Ks x 2 splits x 2 layouts x 4 op pairs x aligned or not x 2 betas.
  EXPECT_EQ(edge_cases.size(), 1728u + 288u + 72u + 144u + 24u + 384u);
  // Each entry's two edge kernels ran: the one for plain operands and the one for any; and
  // the edge kernel after packing, every operand or the transposed one alone. The kernel of
  // any operands, asked for a tail split, which it does not have, refused it and left C
  // alone; every other tail split ran.
  std::map<std::string, int> by_entry;
  int tail_split = 0, refused = 0;
  for (const auto &c : edge_cases) {
    EXPECT_EQ(c.at("verdict"), "ok") << c.at("line");
    ++by_entry[c.at("path")];
    if (c.at("splits") != "0") continue;
    ++tail_split;
    refused += c.at("path") == "refused";
  }
  EXPECT_EQ(tail_split, 768);
  EXPECT_GT(refused, 0);
  EXPECT_LT(refused, tail_split / 2);
  by_entry.erase("refused");
  EXPECT_EQ(by_entry.size(), 12u);
  for (const char *kernel : {"entry-0-edge-", "entry-1-edge-", "entry-2-edge-", "entry-0-any-", "entry-1-any-",
                             "entry-2-any-", "entry-0-packed-", "entry-1-packed-", "entry-2-packed-",
                             "entry-0-packed-transposed-", "entry-1-packed-transposed-", "entry-2-packed-transposed-"}) {
    int n = 0;
    for (const auto &[path, count] : by_entry)
      if (path.rfind(kernel, 0) == 0) n += count;
    EXPECT_GT(n, 0) << kernel;
  }
  // Every case asked for the transposed B alone took it: 2 shapes x 2 layouts x 3 launches x
  // 2 betas an entry (its rows unaligned, so it differs from packing every operand).
  for (const char *kernel : {"entry-0-packed-transposed-", "entry-1-packed-transposed-", "entry-2-packed-transposed-"}) {
    int n = 0;
    for (const auto &[path, count] : by_entry)
      if (path.rfind(kernel, 0) == 0) n += count;
    EXPECT_EQ(n, 24) << kernel;
  }

  // Leading dimensions past the fast kernel's int offsets, one operand of 9 to 18 GB at a
  // time: 3 entries x A, B, C x aligned or not x 2 splits x 2 betas, and 3 x 2 x 2 betas
  // through sgemm_tuned.
  const testing::CommandOutput huge = testing::run_command(program + " huge");
  std::cout << huge.text << std::flush;
  EXPECT_EQ(huge.exit_code, 0) << "a product with a leading dimension past the int offsets differs from cuBLAS";
  if (huge.text.find("skip huge:") != std::string::npos) {
    std::cout << "the products of leading dimensions past the int offsets were skipped: too little GPU memory\n";
  } else {
    const auto huge_cases = parse_cases(huge.text);
    EXPECT_EQ(huge_cases.size(), 72u + 12u);
    for (const auto &c : huge_cases) EXPECT_EQ(c.at("verdict"), "ok") << c.at("line");
  }
}

// A product tuned as a BLAS shape runs, through the header, on the kernel the tuner timed it
// on and split as the tuner split it: the kernel of any operands with K split to fill the GPU
// (127x129x131:NT), the edge kernel with its tail split (17x33x1000:NN:col). So does every
// call of the same row-major product whose rows keep the tuned ones' 16-byte alignment; any
// other call of those sizes is predicted, from the one plain entry (the BLAS entries have no
// plain rate to predict with). Every result against cuBLAS.
TEST_F(GpuBlas, ATunedBlasProductRunsOnTheKernelItWasTimedOn) {
  const GpuInfo gpu = open_gpu(0);
  const KernelSource kernel = KernelSource::embedded();
  const CurrentEnvironment env = environment_of(gpu, kernel);
  {
    ResultStore store((dir_ / "tune.db").string());
    const std::int64_t run =
        store.begin_run(testing::h200_provenance(env.fingerprint_for(env.gpu_name, env.compute_capability)));
    store.record(run, testing::ok_row(Shape{512, 512, 512}, testing::kBigTile, 0.060, 0.060));
    store.record(run, testing::ok_row(parse_shape("127x129x131:NT"), testing::kSeedTile, 0.010, 0.010));
    store.record(run, testing::ok_row(parse_shape("17x33x1000:NN:col"), kStreamKTile, 0.010, 0.010));
    store.finish_run(run, true);
    const EmittedHeader header = testing::emit_into(dir_, store, env, kernel);
    ASSERT_EQ(header.entries, 3u);
    ASSERT_EQ(header.with_edges_code, 3u);
  }
  const std::optional<testing::CommandOutput> ran = build_and_run(gpu, "exact");
  ASSERT_TRUE(ran.has_value());

  const auto cases = parse_cases(ran->text);
  // 2 shapes x 2 layouts x 4 op pairs x 3 paddings x 3 offsets x 2 betas.
  ASSERT_EQ(cases.size(), 288u);
  int nt = 0, nn = 0;
  for (const auto &c : cases) {
    EXPECT_EQ(c.at("verdict"), "ok") << c.at("line");
    std::istringstream lds(c.at("lds"));
    int lda = 0, ldb = 0, ldc = 0;
    char sep;
    lds >> lda >> sep >> ldb >> sep >> ldc;
    // Rows 16-byte aligned: a multiple of 4 floats apart, from an aligned start.
    const auto aligned = [&](int ld) { return ld % 4 == 0 && c.at("off") == "0"; };
    const std::string how = c.at("layout") + " " + c.at("ops") + " " + c.at("shape");
    // Tuned dense: every row of 127x129x131:NT unaligned (lda 131, ldb 131, ldc 129); of
    // 17x33x1000:NN:col, B's aligned (ldb 1000), A's and C's not (17).
    if (how == "row NT 127x129x131" && !aligned(lda) && !aligned(ldb) && !aligned(ldc)) {
      ++nt;
      EXPECT_EQ(c.at("entry"), "127x129x131") << c.at("line");
      EXPECT_EQ(c.at("path"), "tuned-any-cubin") << c.at("line");
      EXPECT_EQ(c.at("route_splits"), "-1") << c.at("line");
    } else if (how == "col NN 17x33x1000" && aligned(ldb) && !aligned(lda) && !aligned(ldc)) {
      ++nn;
      EXPECT_EQ(c.at("entry"), "17x33x1000") << c.at("line");
      EXPECT_EQ(c.at("path"), "tuned-edge-cubin") << c.at("line");
      EXPECT_EQ(c.at("route_splits"), "0") << c.at("line");
    } else {
      // Predicted: the one entry with a rate to predict from.
      EXPECT_EQ(c.at("entry"), "512x512x512") << c.at("line");
    }
  }
  // NT: paddings 0 and 4 at every offset, padding 3 off alignment (offsets 1 and 3); NN col:
  // paddings 0 and 4 at offset 0; each at two betas.
  EXPECT_EQ(nt, 16);
  EXPECT_EQ(nn, 4);
}

}  // namespace
}  // namespace sgemm_tune
