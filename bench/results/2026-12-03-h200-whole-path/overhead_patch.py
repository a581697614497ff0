"""Rewrites sgemm_tuned_select.h (argv[1]) so that a block's fixed work is argv[2] K slices
plus argv[3] picoseconds: overhead_replay_grid.sh."""
import sys
f, slices, ps = sys.argv[1:]
s = open(f).read()
def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old, s.count(old))
    s = s.replace(old, new)
rep("constexpr double kBlockOverheadSlices = 3.0;", f"constexpr double kBlockOverheadSlices = {slices};\nconstexpr double kBlockOverheadPs = {ps};")
rep("inline double block_units(const TunedShape &e, long long blocks, long long slices, int sms) {",
    "inline double block_units(const TunedShape &e, long long blocks, long long slices, int sms, double overhead) {")
rep("const double per_block = static_cast<double>(slices) + kBlockOverheadSlices;", "const double per_block = static_cast<double>(slices) + overhead;")
rep("inline double stream_k_units(const TunedShape &e, long long M, long long N, long long K, int sms) {",
    "inline double stream_k_units(const TunedShape &e, long long M, long long N, long long K, int sms, double overhead) {")
rep("return (per_block > 1.0 ? per_block : 1.0) + kBlockOverheadSlices;", "return (per_block > 1.0 ? per_block : 1.0) + overhead;")
rep("inline double fast_units(const TunedShape &e, long long M, long long N, long long K, int sms) {\n  return e.tile.STREAMK ? stream_k_units(e, M, N, K, sms) : block_units(e, tiles_over(M, N, e.tile), k_slices(K, e.tile), sms);",
    "inline double fast_units(const TunedShape &e, long long M, long long N, long long K, int sms, double overhead) {\n  return e.tile.STREAMK ? stream_k_units(e, M, N, K, sms, overhead) : block_units(e, tiles_over(M, N, e.tile), k_slices(K, e.tile), sms, overhead);")
rep("  return compute / fast_units(e, M, N, K, sms);",
    "  double u = compute / fast_units(e, M, N, K, sms, kBlockOverheadSlices);\n  for (int i = 0; i < 8; ++i) u = compute / fast_units(e, M, N, K, sms, kBlockOverheadSlices + kBlockOverheadPs / u);\n  return u;")
rep("  const bool tail = edges && splits == kEdgeTailSplit;\n",
    "  const bool tail = edges && splits == kEdgeTailSplit;\n  const double ovh = kBlockOverheadSlices + kBlockOverheadPs / ps_per_unit;\n")
rep("double units = block_units(e, ts.whole, slices, sms);", "double units = block_units(e, ts.whole, slices, sms, ovh);")
rep("units += block_units(e, ts.rest * ts.parts, per_part, sms);", "units += block_units(e, ts.rest * ts.parts, per_part, sms, ovh);")
rep("block_units(e, tiles_over(M, N, e.tile) * splits, per_split, sms)", "block_units(e, tiles_over(M, N, e.tile) * splits, per_split, sms, ovh)")
rep("                             : fast_units(e, M, N, K, sms);", "                             : fast_units(e, M, N, K, sms, ovh);")
open(f, 'w').write(s)
