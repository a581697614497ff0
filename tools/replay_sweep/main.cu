// Replays the generated header's choice of kernel against a sweep (bench_shapes --sweep),
// with no GPU: for each problem of the sweep, the entry, kernel and K split that the
// selection in kernel_templates/ picks now, its measured time from the sweep, the best time
// any swept choice reached (the oracle), and cuBLAS's. Prints one line per problem, then per
// set the geometric means of cuBLAS time / chosen time and of the oracle's, so that a change
// of the selection's model is judged on thousands of measured choices before a GPU run.
//   replay_sweep SWEEP.csv [--quiet] [--measured N] [--sets SET,SET...] [--min SET=PERCENT ...]
//                [--no-tail-split] [--cluster-split] [--cluster-slots N2,N3,...,N8]
// --measured: replay a header that measures its choice (sgemm_tune::Dispatch::measured): of
// the N kernels the selection ranks fastest (and the first one's other ways of packing,
// measured_kinds), the one the sweep measured fastest.
// --sets: replay only the problems of these sets (random, suite, named): a sweep of older
// kernels still judges the choices whose kernels have not changed since.
// --min: exit 1 when the choice made now reaches less than PERCENT of cuBLAS (geometric mean)
// on set SET, or when a problem's choice was never swept: a guard against a change of the
// model that makes its choices worse on measured data.
// Each set that holds products with A's and B's rows 16-byte aligned and products without
// is summed for each class apart as well.
// --cluster-split: the selection of a GPU and machine code that split K as clusters where
// cluster_split_fits, with no scale pass (kOperandClusterSplit): for a sweep of kernels that
// did so. Without it the selection prices every split with the scale pass, as the sweeps
// taken before clusters ran them (a sweep does not say which it timed). The clusters the GPU
// holds at once at one block per SM (ClusterSlots), which a split as clusters is held to,
// are read from the sweep's "# cluster_slots" line (bench_shapes writes it since session 38);
// a sweep without one is replayed as if any SMs held a cluster (uniform_cluster_slots), as
// the header chose before, unless --cluster-slots gives them: N2 .. N8, the clusters of 2 to
// 8 blocks (it implies --cluster-split). A split the GPU's clusters no longer fit is priced
// after the scale pass, but a sweep taken before timed it as clusters: where the replay
// chooses one, its time is the clusters'.
// --no-tail-split: the selection without the edge kernel's tail split (splits 0), as it chose
// before it had one; a sweep that holds no tail split is replayed so anyway. A sweep that never
// timed a transposed B packed alone (kernel "packed-transposed") is replayed without that path.
// Host code only; CUDA language so that the header's runtime, which it replays, compiles.
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sgemm_tuned_runtime.cuh"

namespace {

namespace k = sgemm_tune_kernels;
namespace rt = sgemm_tune_runtime;

std::vector<std::string> split_csv(const std::string &line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) out.push_back(field);
  return out;
}

struct Choice {
  int entry, splits;
  std::string kernel;
  double predicted_ms, ms;
};

struct Problem {
  int number = 0;
  std::string set, layout, ops;
  int M = 0, N = 0, K = 0, lda = 0, ldb = 0, ldc = 0, offset = 0;
  double cublas_ms = 0;
  int recorded_entry = -1, recorded_splits = 1;
  std::string recorded_kernel;
  std::vector<Choice> choices;
};

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "replay_sweep: %s\n", what.c_str());
  std::exit(2);
}

// An integer in [lo, hi].
long long integer(const std::string &s, const std::string &where, long long lo = 0, long long hi = 2147483647) {
  char *end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno == ERANGE) fail(where + ": '" + s + "' is not an integer");
  if (v < lo || v > hi)
    fail(where + ": " + s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

int int_field(const std::string &s, const std::string &where, int lo = 0) {
  return static_cast<int>(integer(s, where, lo));
}

double real(const std::string &s, const std::string &where) {
  char *end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0') fail(where + ": '" + s + "' is not a number");
  return v;
}

const char *kind_name(rt::KernelKind kind) {
  switch (kind) {
    case rt::KernelKind::fast: return "fast";
    case rt::KernelKind::edges: return "edge";
    case rt::KernelKind::any: return "any";
    case rt::KernelKind::packed: return "packed";
    case rt::KernelKind::packed_transposed: return "packed-transposed";
  }
  return "?";
}

// A pointer `offset` floats past a 256-byte boundary: the product's alignment as it was swept.
const float *at_offset(int offset) { return reinterpret_cast<const float *>(std::uintptr_t{1} << 20) + offset; }

double geometric_mean(const std::vector<double> &v) {
  double s = 0;
  for (double x : v) s += std::log(x);
  return v.empty() ? NAN : std::exp(s / v.size());
}

}  // namespace

int main(int argc, char **argv) {
  const auto usage = [] {
    std::fprintf(stderr, "usage: replay_sweep SWEEP.csv [--quiet] [--measured N] [--sets SET,SET...] "
                         "[--min SET=PERCENT ...] [--no-tail-split] [--cluster-split] "
                         "[--cluster-slots N2,N3,...,N8]\n");
    return 2;
  };
  if (argc < 2) return usage();
  bool quiet = false;
  int measured = 1;  // candidates timed per problem; 1: the predicted choice alone
  std::map<std::string, double> minimum;  // percent of cuBLAS, by set
  std::set<std::string> only;              // --sets; empty: every set
  bool no_tail_split = false;              // the selection as it was before the tail split
  bool cluster_split = false;              // splits of K as clusters, priced without the scale pass
  std::vector<int> given_slots;            // --cluster-slots: clusters of 2 .. 8 blocks at once
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quiet") {
      quiet = true;
    } else if (arg == "--no-tail-split") {
      no_tail_split = true;
    } else if (arg == "--cluster-split") {
      cluster_split = true;
    } else if (arg == "--cluster-slots" && i + 1 < argc) {
      for (const std::string &n : split_csv(argv[++i])) given_slots.push_back(int_field(n, "--cluster-slots", 0));
      if (given_slots.size() != k::kMaxClusterSplit - 1) return usage();
      cluster_split = true;
    } else if (arg == "--measured" && i + 1 < argc) {
      char *end = nullptr;
      const long n = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || n < 1 || n > rt::kMaxMeasuredCandidates) return usage();
      measured = static_cast<int>(n);
    } else if (arg == "--sets" && i + 1 < argc) {
      for (const std::string &set : split_csv(argv[++i])) {
        if (set != "random" && set != "suite" && set != "named") return usage();
        only.insert(set);
      }
    } else if (arg == "--min" && i + 1 < argc) {
      const std::string v = argv[++i];
      const std::size_t eq = v.find('=');
      char *end = nullptr;
      const double percent = eq == std::string::npos ? 0 : std::strtod(v.c_str() + eq + 1, &end);
      if (eq == std::string::npos || eq == 0 || end == v.c_str() + eq + 1 || *end != '\0' || !(percent > 0))
        return usage();
      minimum[v.substr(0, eq)] = percent;
    } else {
      return usage();
    }
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) fail(std::string("cannot read ") + argv[1]);
  // Sweeps are kept gzipped under bench/results and tests/data; read as text, one would
  // only hold "no entries or no choices".
  if (in.peek() == 0x1f) {
    in.get();
    if (in.peek() == 0x8b)
      fail(std::string(argv[1]) + " is gzip-compressed: decompress it first (gzip -dc " + argv[1] + " > sweep.csv)");
    in.clear();
    in.seekg(0);
  }
  std::vector<k::TunedShape> entries;
  std::map<int, Problem> problems;
  int sms = 132;
  // How the sweep timed (bench_shapes --sweep writes "# timing,stream" or "# timing,graphs";
  // sweeps before session 37 say nothing and timed back to back).
  std::string timing = "stream";
  std::vector<int> sweep_slots;  // "# cluster_slots,N2,...,N8"
  std::string line;
  int line_number = 0;
  // A sweep taken before the edge kernel had the tail split holds no timing of it: the replay
  // then leaves it out of the selection, which would otherwise choose kernels it cannot score.
  bool sweep_has_tail_split = false;
  bool sweep_has_transposed = false;  // a transposed B packed alone (Path::tuned_packed_transposed_*) was timed
  while (std::getline(in, line)) {
    ++line_number;
    const std::string where = std::string(argv[1]) + ":" + std::to_string(line_number);
    const std::vector<std::string> f = split_csv(line);
    if (f.size() == 2 && f[0] == "# sms") sms = int_field(f[1], where, 1);
    if (f.size() == 2 && f[0] == "# timing") timing = f[1];
    if (f.size() == k::kMaxClusterSplit && f[0] == "# cluster_slots") {
      sweep_slots.clear();
      for (std::size_t i = 1; i < f.size(); ++i) sweep_slots.push_back(int_field(f[i], where, 0));
    }
    if (f.empty() || (f[0] != "entry" && f[0] != "choice") || (f.size() > 1 && (f[1] == "M" || f[1] == "problem")))
      continue;
    if (f[0] == "entry") {
      if (f.size() != 17 && f.size() != 22 && f.size() != 24) fail(where + ": an entry has 17, 22 or 24 fields");
      k::TunedShape e{};
      e.M = integer(f[1], where, 1), e.N = integer(f[2], where, 1), e.K = integer(f[3], where, 1);
      int *tile[] = {&e.tile.BM, &e.tile.BN, &e.tile.BK, &e.tile.WM, &e.tile.WN, &e.tile.WNITER,
                     &e.tile.TM, &e.tile.TN, &e.tile.STAGES, &e.tile.PREFETCH, &e.tile.STREAMK};
      for (int i = 0; i < 11; ++i) *tile[i] = int_field(f[4 + i], where);
      e.tflops = real(f[15], where);
      e.percent_of_cublas = real(f[16], where);
      if (f.size() >= 22) {  // sweeps since rates (22 fields) and since BLAS entries (24)
        e.blocks_per_sm = static_cast<int>(integer(f[17], where, 0, 1024));
        e.rate_M = integer(f[18], where), e.rate_N = integer(f[19], where), e.rate_K = integer(f[20], where);
        e.rate_tflops = real(f[21], where);
      }
      if (f.size() == 24) {  // sweeps since BLAS entries: what their exact match and prediction read
        e.blas_product = int_field(f[22], where, 0) != 0;
        e.blas_ops = static_cast<unsigned>(integer(f[23], where, 0, 0xffffffffLL));
      }
      if (k::check_tile(e.tile) != k::TileRule::ok) fail(where + ": the tile breaks the kernel's rules");
      entries.push_back(e);
      continue;
    }
    if (f.size() != 22) fail(where + ": a choice has 22 fields");
    const int number = int_field(f[1], where, 1);
    Problem &p = problems[number];
    if (p.number == 0) {
      p.number = number;
      p.set = f[2], p.layout = f[3], p.ops = f[4];
      if (p.layout != "row" && p.layout != "col") fail(where + ": layout '" + p.layout + "' is not row or col");
      if (p.ops.size() != 2 || (p.ops[0] != 'N' && p.ops[0] != 'T') || (p.ops[1] != 'N' && p.ops[1] != 'T'))
        fail(where + ": ops '" + p.ops + "' are not two of N and T");
      p.M = int_field(f[5], where, 1), p.N = int_field(f[6], where, 1), p.K = int_field(f[7], where, 1);
      p.lda = int_field(f[8], where, 1), p.ldb = int_field(f[9], where, 1), p.ldc = int_field(f[10], where, 1);
      p.offset = int_field(f[11], where);
      p.cublas_ms = real(f[12], where);
      if (!(p.cublas_ms > 0)) fail(where + ": cuBLAS's time is not positive");
      p.recorded_entry = int_field(f[13], where, -1);
      p.recorded_kernel = f[14];
      p.recorded_splits = int_field(f[15], where, k::kEdgeFillSplit);  // -1: an exact BLAS match's fill split
    }
    // Splits 0: the edge kernel's tail split (kEdgeTailSplit).
    const Choice c{int_field(f[16], where), int_field(f[18], where, 0), f[17], real(f[19], where),
                   real(f[20], where)};
    sweep_has_tail_split |= c.splits == k::kEdgeTailSplit;
    sweep_has_transposed |= c.kernel == "packed-transposed";
    if (c.entry < 0 || c.entry >= static_cast<int>(entries.size())) fail(where + ": no such entry");
    p.choices.push_back(c);
  }
  for (auto it = problems.begin(); it != problems.end();)
    it = only.empty() || only.count(it->second.set) ? std::next(it) : problems.erase(it);
  if (entries.empty() || problems.empty())
    fail(std::string(argv[1]) + " holds no entries or no choices" + (only.empty() ? "" : " of the sets asked for"));

  // The clusters the selection holds a split to: given, else the sweep's, else any SMs'.
  k::ClusterSlots slots = k::uniform_cluster_slots(sms);
  const std::vector<int> &known_slots = given_slots.empty() ? sweep_slots : given_slots;
  for (std::size_t i = 0; i < known_slots.size(); ++i) slots.at_once[i + 2] = known_slots[i];
  const char *slots_from = !given_slots.empty() ? "given" : !sweep_slots.empty() ? "the sweep's" : "uniform";

  std::map<std::string, std::vector<double>> chosen_ratio, oracle_ratio;
  // The same by whether A's and B's rows start 16-byte aligned, as the header reads them
  // (a_rows_aligned16, b_rows_aligned16): the rest run on the narrow bodies or are packed
  // first, and that is where the random sets lose (bench/NOTES.md, session 32).
  std::map<std::string, std::vector<double>> chosen_by_rows, oracle_by_rows;
  int agree = 0, unswept = 0;
  std::vector<double> measured_over_predicted;
  if (!quiet) std::printf("%4s %-6s %-3s %2s %5s %5s %5s  %-18s %9s %9s %7s  %-18s %9s %7s  %s\n", "#", "set", "lay", "op",
                          "M", "N", "K", "chosen now", "pred ms", "ms", "ratio", "oracle", "ms", "ratio", "recorded");
  for (const auto &numbered : problems) {
    const int number = numbered.first;
    const Problem &p = numbered.second;
    const sgemm_tune::Layout layout = p.layout == "row" ? sgemm_tune::Layout::RowMajor : sgemm_tune::Layout::ColMajor;
    const auto op = [](char c) { return c == 'T' ? sgemm_tune::Op::Trans : sgemm_tune::Op::NoTrans; };
    const k::RowMajorGemm product =
        k::to_row_major(layout, op(p.ops[0]), op(p.ops[1]), p.M, p.N, p.K, 1.0f, at_offset(p.offset), p.lda,
                        at_offset(p.offset), p.ldb, 0.0f, const_cast<float *>(at_offset(p.offset)), p.ldc);
    const std::string rows_class =
        p.set + (k::a_rows_aligned16(product) && k::b_rows_aligned16(product) ? ", rows aligned" : ", rows not aligned");
    k::Selection candidates[rt::kMaxMeasuredCandidates];
    const int found =
        rt::select_candidates(entries.data(), static_cast<int>(entries.size()), product, sms, candidates, measured,
                              sweep_has_tail_split && !no_tail_split, cluster_split ? &slots : nullptr);
    const auto kind_of = [&](const k::Selection &c) {
      return kind_name(
          rt::kernel_kind(c, entries[c.entry].tile, product, rt::Packing::when_faster, true, sweep_has_transposed));
    };
    const auto swept = [&](const k::Selection &c, const char *kind) -> const Choice * {
      for (const Choice &m : p.choices)
        if (m.entry == c.entry && m.kernel == kind && m.splits == (c.edges ? c.splits : 1)) return &m;
      return nullptr;
    };
    // The choice: the first candidate on its predicted kind, or, measuring, of the kinds the
    // header times (measured_kinds: the first candidate's other kinds too), the one the sweep
    // timed fastest of those it timed (a header would time the others too: no better than it
    // could do).
    k::Selection s = found > 0 ? candidates[0] : k::Selection{k::SelectKind::none, -1, false, 1, 0.0};
    const char *kind = s.entry < 0 ? "none" : kind_of(s);
    const Choice *chosen = nullptr;
    for (int c = 0; c < found; ++c) {
      const k::SgemmTile &tile = entries[candidates[c].entry].tile;
      rt::KernelKind kinds[rt::kMaxKindsPerSelection] = {
          rt::kernel_kind(candidates[c], tile, product, rt::Packing::when_faster, true, sweep_has_transposed)};
      const int n =
          measured > 1 ? rt::measured_kinds(candidates[c], tile, product, true, c == 0, kinds, sweep_has_transposed) : 1;
      for (int j = 0; j < n; ++j) {
        const Choice *m = swept(candidates[c], kind_name(kinds[j]));
        if (m == nullptr || !std::isfinite(m->ms)) continue;
        if (chosen == nullptr || m->ms < chosen->ms) {
          chosen = m;
          s = candidates[c];
          kind = kind_name(kinds[j]);
        }
      }
    }
    const Choice *oracle = nullptr;
    for (const Choice &c : p.choices)
      if (std::isfinite(c.ms) && (oracle == nullptr || c.ms < oracle->ms)) oracle = &c;
    const bool same = s.entry == p.recorded_entry && p.recorded_kernel == kind && (s.edges ? s.splits : 1) == p.recorded_splits;
    agree += same;
    if (chosen == nullptr || !std::isfinite(chosen->ms)) ++unswept;
    if (chosen != nullptr && std::isfinite(chosen->ms)) {
      chosen_ratio[p.set].push_back(p.cublas_ms / chosen->ms);
      chosen_by_rows[rows_class].push_back(p.cublas_ms / chosen->ms);
      if (s.kind == k::SelectKind::predicted) measured_over_predicted.push_back(chosen->ms / (s.predicted_ps * 1e-9));
    }
    if (oracle != nullptr) {
      oracle_ratio[p.set].push_back(p.cublas_ms / oracle->ms);
      oracle_by_rows[rows_class].push_back(p.cublas_ms / oracle->ms);
    }
    if (quiet) continue;
    char now[64], best[64], recorded[64];
    std::snprintf(now, sizeof now, "e%d %s/%d", s.entry, kind, s.edges ? s.splits : 1);
    std::snprintf(best, sizeof best, "e%d %s/%d", oracle ? oracle->entry : -1, oracle ? oracle->kernel.c_str() : "-",
                  oracle ? oracle->splits : 0);
    std::snprintf(recorded, sizeof recorded, "e%d %s/%d%s", p.recorded_entry, p.recorded_kernel.c_str(),
                  p.recorded_splits, same ? "" : " (differs)");
    std::printf("%4d %-6s %-3s %2s %5d %5d %5d  %-18s %9.4f %9.4f %6.1f%%  %-18s %9.4f %6.1f%%  %s\n", number,
                p.set.c_str(), p.layout.c_str(), p.ops.c_str(), p.M, p.N, p.K, now, s.predicted_ps * 1e-9,
                chosen ? chosen->ms : NAN, chosen ? 100.0 * p.cublas_ms / chosen->ms : NAN, best,
                oracle ? oracle->ms : NAN, oracle ? 100.0 * p.cublas_ms / oracle->ms : NAN, recorded);
  }
  std::printf("%zu problems, %zu entries, %d SMs; the choice made now was swept for %zu (%d not swept); it agrees with "
              "the header's on the GPU for %d\n",
              problems.size(), entries.size(), sms, problems.size() - unswept, unswept, agree);
  if (timing == "graphs")
    std::printf("timed as CUDA graphs (bench_shapes --sweep --graphs): the GPU's time, without the host's per call\n");
  if (cluster_split) {
    std::printf("splits as clusters held to %s clusters at once (2 .. %d blocks:", slots_from, k::kMaxClusterSplit);
    for (int size = 2; size <= k::kMaxClusterSplit; ++size) std::printf(" %d", slots.at_once[size]);
    std::printf(")\n");
  }
  bool below = false;
  for (const auto &[set, ratios] : oracle_ratio) {
    const std::vector<double> &mine = chosen_ratio[set];
    double worst = INFINITY;
    for (double r : mine) worst = std::fmin(worst, r);
    const double percent = 100.0 * geometric_mean(mine);
    std::printf("%-6s chosen now %.1f%% of cuBLAS (worst %.1f%%) over %zu; oracle %.1f%% over %zu\n", set.c_str(),
                percent, 100.0 * worst, mine.size(), 100.0 * geometric_mean(ratios), ratios.size());
    const auto want = minimum.find(set);
    if (want != minimum.end() && !(percent >= want->second)) {
      std::printf("%s: %.1f%% is below the minimum of %.1f%%\n", set.c_str(), percent, want->second);
      below = true;
    }
  }
  // Where a set holds both classes of rows, each apart.
  for (const auto &[set, ratios] : oracle_ratio) {
    const std::string classes[] = {set + ", rows aligned", set + ", rows not aligned"};
    if (!oracle_by_rows.count(classes[0]) || !oracle_by_rows.count(classes[1])) continue;
    for (const std::string &c : classes) {
      const std::vector<double> &mine = chosen_by_rows[c];
      std::printf("  %s: chosen now %.1f%% over %zu; oracle %.1f%% over %zu\n", c.c_str(),
                  100.0 * geometric_mean(mine), mine.size(), 100.0 * geometric_mean(oracle_by_rows[c]),
                  oracle_by_rows[c].size());
    }
  }
  for (const auto &[set, percent] : minimum)
    if (!oracle_ratio.count(set)) {
      std::printf("%s: no problem of this set in the sweep\n", set.c_str());
      below = true;
    }
  if (!measured_over_predicted.empty())
    std::printf("measured / predicted time of the predicted choices: geometric mean %.2f over %zu\n",
                geometric_mean(measured_over_predicted), measured_over_predicted.size());
  if (!minimum.empty() && unswept > 0) std::printf("%d choices made now were never swept\n", unswept);
  return below || (!minimum.empty() && unswept > 0) ? 1 : 0;
}
