// --self-test: the benchmark's own arithmetic, on the host, without a GPU. The column-major
// call that stands for each CBLAS call (blas_mapping.h) must compute, by cuBLAS's documented
// definition, exactly what the CBLAS definition computes, reading nothing outside each
// operand's extent and passing cuBLAS's leading-dimension checks; and the problem set must
// be what the README promises.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "blas_mapping.h"
#include "problems.h"

namespace bench_shapes {

// One layout, op pair, shape, padding and offset: whether both definitions agree bit for bit.
inline bool mapping_agrees(const BlasCall &call, int offset, SplitMix64 &rng, std::string *why) {
  const Layout l = call.layout;
  // Exactly offset + extent floats each: an index past the extent throws.
  std::vector<double> a(offset + call.a().extent(l, call.lda)), b(offset + call.b().extent(l, call.ldb));
  for (auto *v : {&a, &b})
    for (double &x : *v) x = double(rng.between(-1000, 1000)) / 1024;
  const size_t nc = offset + call.c().extent(l, call.ldc);
  std::vector<double> want(nc, NAN), got(nc, NAN);
  const auto reader = [offset](const std::vector<double> &v) {
    return [&v, offset](size_t i) { return v.at(offset + i); };
  };
  const auto writer = [offset](std::vector<double> &v) {
    return [&v, offset](size_t i, double x) { v.at(offset + i) = x; };
  };
  const ColumnMajorCall cm = column_major_call(call);
  // cuBLAS's own argument checks: each operand's leading dimension at least its rows.
  const int rows_first = cm.op_first == Op::NoTrans ? cm.m : cm.k;
  const int rows_second = cm.op_second == Op::NoTrans ? cm.k : cm.n;
  if (cm.ld_first < std::max(1, rows_first) || cm.ld_second < std::max(1, rows_second) ||
      cm.ldc < std::max(1, cm.m)) {
    *why = "a leading dimension cuBLAS refuses";
    return false;
  }
  try {
    blas_reference(call, reader(a), reader(b), writer(want));
    column_major_reference(cm, reader(cm.swapped ? b : a), reader(cm.swapped ? a : b), writer(got));
  } catch (const std::out_of_range &) {
    *why = "an index outside an operand";
    return false;
  }
  for (size_t i = 0; i < nc; ++i)
    if (!(want[i] == got[i] || (std::isnan(want[i]) && std::isnan(got[i])))) {
      *why = "element " + std::to_string(i) + " differs";
      return false;
    }
  return true;
}

// Prints a line per disagreement and a summary; returns the number of failures.
inline int run_self_test() {
  int passed = 0, failed = 0;
  SplitMix64 rng(7);
  const int shapes[][3] = {{3, 5, 7}, {1, 4, 2}, {6, 1, 3}, {5, 5, 1}, {1, 1, 1}, {4, 7, 5}};
  for (Layout l : {Layout::RowMajor, Layout::ColMajor})
    for (Op oa : {Op::NoTrans, Op::Trans})
      for (Op ob : {Op::NoTrans, Op::Trans})
        for (const auto &s : shapes)
          for (int pad : {0, 1, 3})
            for (int offset : {0, 1, 3}) {
              BlasCall c{l, oa, ob, s[0], s[1], s[2], 0, 0, 0};
              c.lda = c.a().min_ld(l) + pad;
              c.ldb = c.b().min_ld(l) + 2 * pad;
              c.ldc = c.c().min_ld(l) + pad;
              std::string why;
              if (mapping_agrees(c, offset, rng, &why)) {
                ++passed;
                continue;
              }
              ++failed;
              std::printf("self-test FAIL %s %c%c %dx%dx%d lda=%d ldb=%d ldc=%d off=%d: %s\n", layout_name(l),
                          op_name(oa), op_name(ob), c.M, c.N, c.K, c.lda, c.ldb, c.ldc, offset, why.c_str());
            }
  // CBLAS's least leading dimensions, written out again from its table, for one shape.
  const int M = 3, N = 5, K = 7;
  const struct {
    Layout l;
    Op oa, ob;
    int lda, ldb, ldc;
  } table[] = {{Layout::RowMajor, Op::NoTrans, Op::NoTrans, K, N, N}, {Layout::RowMajor, Op::Trans, Op::Trans, M, K, N},
               {Layout::ColMajor, Op::NoTrans, Op::NoTrans, M, K, M}, {Layout::ColMajor, Op::Trans, Op::Trans, K, N, M}};
  for (const auto &t : table) {
    const BlasCall c{t.l, t.oa, t.ob, M, N, K, 0, 0, 0};
    const bool ok = c.a().min_ld(t.l) == t.lda && c.b().min_ld(t.l) == t.ldb && c.c().min_ld(t.l) == t.ldc;
    (ok ? passed : failed) += 1;
    if (!ok) std::printf("self-test FAIL least leading dimensions of %s %c%c\n", layout_name(t.l), op_name(t.oa), op_name(t.ob));
  }
  std::printf("self-test of the cuBLAS mapping: %d passed, %d failed\n", passed, failed);
  return failed;
}

// One line describing a problem set, to check it is what it should be.
inline void describe_problems(const std::vector<Problem> &problems) {
  int random = 0, padded = 0, offset = 0, aligned32 = 0, pairs_seen = 0;
  bool pair[2][2][2] = {};
  for (const Problem &p : problems) {
    if (p.suite || p.named) continue;
    const BlasCall &c = p.call;
    ++random;
    padded += c.lda != c.a().min_ld(c.layout) || c.ldb != c.b().min_ld(c.layout) || c.ldc != c.c().min_ld(c.layout);
    offset += p.offset != 0;
    aligned32 += c.M % 32 == 0 && c.N % 32 == 0 && c.K % 32 == 0;
    pair[int(c.layout)][int(c.op_a)][int(c.op_b)] = true;
  }
  for (auto &x : pair)
    for (auto &y : x)
      for (bool z : y) pairs_seen += z;
  const char *kind = !problems.empty() && problems.front().listed ? "listed" : "random";
  std::printf("problems: %d %s (%d of the 8 layout/op pairs, %d with padded leading dimensions, %d at an "
              "offset, %d with M, N and K all multiples of 32), %zu suite and named\n",
              random, kind, pairs_seen, padded, offset, aligned32, problems.size() - random);
}

}  // namespace bench_shapes
