// The problems of the benchmark: a seeded random set of shapes nobody tuned, in every layout
// and op pair, some with padded leading dimensions or operands off alignment, and the eight
// dense row-major shapes of search_spaces/suite.json. The same seed gives the same problems
// everywhere: the generator is splitmix64 and the arithmetic is integer or exactly rounded,
// not a standard library distribution whose output may change between library versions.
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "blas_mapping.h"

namespace bench_shapes {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1), 53 bits.
  double unit() { return double(next() >> 11) * 0x1.0p-53; }
  // Uniform in [lo, hi].
  int between(int lo, int hi) { return lo + int(next() % uint64_t(hi - lo + 1)); }

 private:
  uint64_t state_;
};

struct Problem {
  BlasCall call;
  int offset;  // floats between each operand and the aligned start of its allocation
  bool suite;  // one of the tuned suite's shapes, not the random set
  bool named;  // one of the named shapes off every tuned tile (1000^3, 3000^3, 4096x4096x4100)
  bool listed = false;  // read from a problem list (--problems), in place of every set above
};

inline const char *set_name(const Problem &p) {
  return p.listed ? "listed" : p.suite ? "suite" : p.named ? "named" : "random";
}

constexpr int kMinDim = 64, kMaxDim = 8192;

// Log-uniform in [kMinDim, kMaxDim]. exp2 of a double is exact to the last bit or nearly,
// which the rounding down to an integer absorbs.
inline int log_uniform_dim(SplitMix64 &rng) {
  const double octaves = std::log2(double(kMaxDim) / kMinDim);
  const int d = int(kMinDim * std::exp2(octaves * rng.unit()));
  return d < kMinDim ? kMinDim : d > kMaxDim ? kMaxDim : d;
}

// `count` random problems for `seed`, then the suite, then the named shapes. Layouts alternate and op pairs cycle
// with period 8, so every layout and op pair comes up once in any 8 consecutive problems.
// Within each 8 consecutive problems, one at random has its shape rounded to multiples of
// 256 (a shape some tuned tile may divide); within each 4, one at random has leading
// dimensions 1 to 64 floats beyond the least, and one at random (maybe the same) operands 1
// or 3 floats off an aligned allocation: a quarter each, in no fixed layout or op pair.
inline std::vector<Problem> make_problems(uint64_t seed, int count) {
  SplitMix64 rng(seed);
  std::vector<Problem> out;
  constexpr Op kOps[] = {Op::NoTrans, Op::Trans};
  int rounded_slot = 0, padded_slot = 0, offset_slot = 0;
  for (int i = 0; i < count; ++i) {
    if (i % 8 == 0) rounded_slot = rng.between(0, 7);
    if (i % 4 == 0) {
      padded_slot = rng.between(0, 3);
      offset_slot = rng.between(0, 3);
    }
    BlasCall c{};
    c.layout = i % 2 == 0 ? Layout::RowMajor : Layout::ColMajor;
    c.op_a = kOps[(i / 2) % 2];
    c.op_b = kOps[(i / 4) % 2];
    c.M = log_uniform_dim(rng);
    c.N = log_uniform_dim(rng);
    c.K = log_uniform_dim(rng);
    if (i % 8 == rounded_slot)
      for (int *d : {&c.M, &c.N, &c.K}) *d = *d < 256 ? 256 : *d / 256 * 256;
    c.lda = c.a().min_ld(c.layout);
    c.ldb = c.b().min_ld(c.layout);
    c.ldc = c.c().min_ld(c.layout);
    if (i % 4 == padded_slot)
      for (int *ld : {&c.lda, &c.ldb, &c.ldc}) *ld += rng.between(1, 64);
    const int offset = i % 4 == offset_slot ? (rng.next() % 2 == 0 ? 1 : 3) : 0;
    out.push_back(Problem{c, offset, false, false});
  }
  const int suite[][3] = {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192},
                          {4096, 4096, 1024}, {8192, 1024, 4096}, {1024, 8192, 8192}, {2048, 2048, 8192}};
  for (const auto &s : suite) {
    const int M = s[0], N = s[1], K = s[2];
    out.push_back(Problem{BlasCall{Layout::RowMajor, Op::NoTrans, Op::NoTrans, M, N, K, K, N, N}, 0, true, false});
  }
  // Dense row-major shapes just off the tuned tiles, which users meet: an odd size, a
  // multiple of 8 but not of 128, a K four past a tile.
  const int named[][3] = {{1000, 1000, 1000}, {3000, 3000, 3000}, {4096, 4096, 4100}};
  for (const auto &s : named) {
    const int M = s[0], N = s[1], K = s[2];
    out.push_back(Problem{BlasCall{Layout::RowMajor, Op::NoTrans, Op::NoTrans, M, N, K, K, N, N}, 0, false, true});
  }
  return out;
}

// The problems of a list, for an experiment on chosen products (the same shape in every op
// pair, aligned and not, say): a problem a line,
//   LAYOUT OPS M N K [LDA LDB LDC [OFFSET]]
// LAYOUT row or col, OPS two of N and T (op(A), then op(B)), leading dimensions by default
// the least CBLAS accepts, OFFSET the floats (0 to 3) between each operand and an aligned
// start; '#' begins a comment. False, with the line and what is wrong in *error, for
// anything else: sizes 1 to 16384, leading dimensions from the least to 65536, each number
// a whole decimal integer.
inline bool read_problem_list(const std::string &path, std::vector<Problem> *out, std::string *error) {
  std::ifstream in(path);
  if (!in) {
    *error = path + ": cannot be read";
    return false;
  }
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    const auto fail = [&](const std::string &why) {
      *error = path + ":" + std::to_string(number) + ": " + why;
      return false;
    };
    text = text.substr(0, text.find('#'));
    std::istringstream line(text);
    std::vector<std::string> fields;
    for (std::string f; line >> f;) fields.push_back(f);
    if (fields.empty()) continue;  // blank or a comment
    // A field that is a whole decimal integer in [lo, hi], else false: "12x", "+", an
    // overflow and an empty field are not.
    const auto integer = [](const std::string &f, long lo, long hi, int *v) {
      char *end = nullptr;
      errno = 0;
      const long x = std::strtol(f.c_str(), &end, 10);
      if (f.empty() || *end != '\0' || errno == ERANGE || x < lo || x > hi) return false;
      *v = static_cast<int>(x);
      return true;
    };
    if (fields.size() != 5 && fields.size() != 8 && fields.size() != 9)
      return fail(std::to_string(fields.size()) + " fields: LAYOUT OPS M N K [LDA LDB LDC [OFFSET]]");
    BlasCall c{};
    const std::string &layout = fields[0], &ops = fields[1];
    if (layout != "row" && layout != "col") return fail("layout '" + layout + "': row or col");
    c.layout = layout == "row" ? Layout::RowMajor : Layout::ColMajor;
    if (ops.size() != 2 || (ops[0] != 'N' && ops[0] != 'T') || (ops[1] != 'N' && ops[1] != 'T'))
      return fail("ops '" + ops + "': two of N and T, as NT");
    c.op_a = ops[0] == 'T' ? Op::Trans : Op::NoTrans;
    c.op_b = ops[1] == 'T' ? Op::Trans : Op::NoTrans;
    int *const sizes[] = {&c.M, &c.N, &c.K};
    for (int i = 0; i < 3; ++i)
      if (!integer(fields[2 + i], 1, 16384, sizes[i]))
        return fail(std::string(1, "MNK"[i]) + " '" + fields[2 + i] + "': an integer from 1 to 16384");
    c.lda = c.a().min_ld(c.layout);
    c.ldb = c.b().min_ld(c.layout);
    c.ldc = c.c().min_ld(c.layout);
    int offset = 0;
    if (fields.size() >= 8) {
      const int least[] = {c.lda, c.ldb, c.ldc};  // the defaults just set
      int *const given[] = {&c.lda, &c.ldb, &c.ldc};
      for (int i = 0; i < 3; ++i)
        if (!integer(fields[5 + i], least[i], 65536, given[i]))
          return fail(std::string("ld") + "abc"[i] + " '" + fields[5 + i] + "': an integer from " +
                      std::to_string(least[i]) + " to 65536");
    }
    if (fields.size() == 9 && !integer(fields[8], 0, 3, &offset))
      return fail("offset '" + fields[8] + "': an integer from 0 to 3");
    Problem p{c, offset, false, false};
    p.listed = true;
    out->push_back(p);
  }
  if (out->empty()) {
    *error = path + ": no problems";
    return false;
  }
  return true;
}

}  // namespace bench_shapes
