// Validity rules of the double-buffered SGEMM kernel template.
//
// This header is the one definition of which tile configurations the kernel in
// sgemm_double_buffered.cuh can run. The kernel checks it with static_assert, and the
// tuner includes the same file to discard invalid candidates before compiling them, so
// the two can never disagree. It is plain C++17 so that g++, nvcc and NVRTC all accept
// it; it includes nothing, because NVRTC has no standard library headers.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define SGEMM_TUNE_HD __host__ __device__
#else
#define SGEMM_TUNE_HD
#endif

namespace sgemm_tune_kernels {

// Enumerators, not constexpr variables: a namespace-scope constant has internal linkage and
// NVRTC emits it into the cubin under a name that differs between processes, which would
// make the machine code of one configuration differ from compile to compile.
// kIntMax is INT_MAX, spelt out because NVRTC has no <climits>; kMaxGridY is the largest
// y dimension of a grid on every architecture.
enum : int { kWarpSize = 32, kMaxThreadsPerBlock = 1024, kIntMax = 2147483647, kMaxGridY = 65535 };

// The z slices of a stream-K launch's prepare pass (tile_launch_plan, below), which share out
// each tile's rows.
enum : int { kStreamKPreparePass = 2 };

// One point of the search space: block tile BM x BN, K slice BK, warp tile WM x WN split
// into WNITER column sub-tiles, thread tile TM x TN, the depth of the shared-memory
// pipeline, and two switches (0 or 1; left out of an initialiser they are 0, the seed's
// kernel):
//   PREFETCH  register double-buffering: the fragments of step k+1 are read from shared
//             memory while the FFMAs of step k run;
//   STREAMK   the work decomposition: 0 launches one block per output tile; 1 launches a
//             persistent grid of (SMs x resident blocks) that takes whole tiles wave by wave
//             and splits the tiles of the last, partial wave along K across every block
//             (stream-K), so that no SM idles through a tail wave.
struct SgemmTile {
  int BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES;
  int PREFETCH, STREAMK;
};

// Why a configuration cannot be instantiated. The order is the order of the checks.
// Validity is what the template needs to compile and to compute C for every shape that
// shape_fits_tile accepts, on any architecture it supports. What depends on the GPU (shared
// memory and registers per block, residency) is the pruner's business: the rules cannot
// know the target, and the same tile is valid on sm_80 and sm_90 alike.
enum class TileRule : int {
  ok = 0,
  non_positive,          // every size must be >= 1
  switch_value,          // PREFETCH and STREAMK must be 0 or 1
  too_few_stages,        // the pipeline needs at least two shared-memory stages
  too_large,             // BM*BN and the shared memory in bytes must fit in an int
  warp_tile_split,       // BM % WM and BN % WN must be 0
  thread_count,          // (BM/WM)*(BN/WN) warps must make 1..1024 threads
  warp_iterations,       // WM*WN must be a multiple of 32*TM*TN*WNITER (WMITER >= 1)
  warp_subtile,          // WM % WMITER, WN % WNITER, and the sub-tiles % TM, TN must be 0
  vector_width,          // BK and TN must be multiples of 4: A is read and C written as float4
  a_load_mapping,        // the threads must cover the A tile in whole float4 passes
  b_load_mapping,        // the threads must cover the B tile in whole float4 passes
  prepare_split,         // BM % kStreamKPreparePass must be 0: the prepare pass splits the rows
  a_stage_rows,          // BM % 4 must be 0: a transposed A is copied 16 bytes at a time into
                         // the stage's rows of BM floats
};

// The threads of a block: a warp per WM x WN part of the block tile. 0 for sizes below 1 or
// a count beyond an int, so that it is safe on any input.
SGEMM_TUNE_HD constexpr int tile_threads(const SgemmTile &t) {
  if (t.BM < 1 || t.BN < 1 || t.WM < 1 || t.WN < 1) return 0;
  const int warps_m = t.BM / t.WM, warps_n = t.BN / t.WN;
  if (warps_n > 0 && warps_m > kIntMax / kWarpSize / warps_n) return 0;
  return warps_m * warps_n * kWarpSize;
}

// The helpers below, unlike tile_threads and check_tile, assume a tile check_tile accepts.
SGEMM_TUNE_HD constexpr int tile_warp_m_iterations(const SgemmTile &t) {
  return (t.WM * t.WN) / (kWarpSize * t.TM * t.TN * t.WNITER);
}

// The transposed A tile in shared memory: one row of BM floats per K index, the rows in
// groups of four, each group shifted by tile_a_group_skew floats from where the one before
// it ends. The seed instead padded every row (stride BM + (32 / BK) % 8), which spreads the
// transposing stores over the banks as well but leaves most rows off 16-byte alignment, so
// a thread's TM A values took two or three shared loads instead of TM / 4 (ncu, SASS:
// bench/NOTES.md). With the skew every row starts 16-byte aligned, and a warp's stores
// (one K index of each group per instruction, lanes spread over the groups and 128 / BK
// rows) still land in 32 different banks for BK <= 32. The stage is no larger than the
// seed's for BK = 4 .. 32. Measured: the best 4096^3 configuration 3.4% faster (2.579
// against 2.669 ms), the leading structures 0.45% slower on average; the tuner picks.
SGEMM_TUNE_HD constexpr int tile_a_group_skew(const SgemmTile &t) {
  const int rowsPerWarp = 128 / t.BK;  // of one store instruction, when BK <= 128
  const int skew = (rowsPerWarp + 3) / 4 * 4;
  return skew < 4 ? 4 : skew;
}

// Where A(row, k) of the tile lies in an A stage, in floats.
SGEMM_TUNE_HD constexpr int tile_a_offset(const SgemmTile &t, int k, int row) {
  return k * t.BM + (k / 4) * tile_a_group_skew(t) + row;
}

// Up to the end of the last group; a multiple of 4 floats, as cp.async needs of the stages
// that follow. The stage sizes are 64-bit so that check_tile can judge any positive sizes
// with them (A and B together stay below 2^63 for sizes up to INT_MAX).
SGEMM_TUNE_HD constexpr long long tile_a_stage_floats(const SgemmTile &t) {
  return static_cast<long long>(t.BK) * t.BM + static_cast<long long>(t.BK / 4 - 1) * tile_a_group_skew(t);
}
SGEMM_TUNE_HD constexpr long long tile_b_stage_floats(const SgemmTile &t) {
  return static_cast<long long>(t.BK) * t.BN;
}

// Dynamic shared memory of one block: STAGES copies of the A and B tiles.
SGEMM_TUNE_HD constexpr int tile_smem_bytes(const SgemmTile &t) {
  return static_cast<int>(t.STAGES * (tile_a_stage_floats(t) + tile_b_stage_floats(t)) * 4);
}

// Floats each thread keeps live through the K loop: accumulators, the fragment arrays
// (two sets with PREFETCH) and the A prefetch registers. A lower bound on its registers.
SGEMM_TUNE_HD constexpr int tile_live_floats(const SgemmTile &t) {
  const int threads = tile_threads(t);
  const int wmiter = tile_warp_m_iterations(t);
  const int a_prefetch = (t.BM * t.BK) / threads;
  const int fragments = (wmiter * t.TM + t.WNITER * t.TN) * (t.PREFETCH ? 2 : 1);
  return (t.WM * t.WN) / kWarpSize + fragments + a_prefetch;
}

// Whether the ints the kernel and these rules compute from a tile stay in range: the block
// tile's elements (BM*BN, which bounds the warp tile and a thread's accumulators and the
// prepare pass's loop) and the shared memory of all stages in bytes (which bounds every
// shared-memory offset). Safe for any positive sizes.
SGEMM_TUNE_HD constexpr bool tile_sizes_fit_int(const SgemmTile &t) {
  if (t.BM > kIntMax / t.BN) return false;
  return tile_a_stage_floats(t) + tile_b_stage_floats(t) <= kIntMax / 4 / t.STAGES;
}

// Safe on any int input: nothing below overflows, whatever the fields hold, because sizes
// are bounded (too_large) before they are multiplied.
SGEMM_TUNE_HD constexpr TileRule check_tile(const SgemmTile &t) {
  if (t.BM < 1 || t.BN < 1 || t.BK < 1 || t.WM < 1 || t.WN < 1 || t.WNITER < 1 || t.TM < 1 ||
      t.TN < 1 || t.STAGES < 1)
    return TileRule::non_positive;
  if (t.PREFETCH < 0 || t.PREFETCH > 1 || t.STREAMK < 0 || t.STREAMK > 1) return TileRule::switch_value;
  if (t.STAGES < 2) return TileRule::too_few_stages;
  if (!tile_sizes_fit_int(t)) return TileRule::too_large;
  if (t.BM % t.WM != 0 || t.BN % t.WN != 0) return TileRule::warp_tile_split;
  const int threads = tile_threads(t);
  if (threads < kWarpSize || threads > kMaxThreadsPerBlock) return TileRule::thread_count;
  // WM*WN <= BM*BN fits; each factor of 32*TM*TN*WNITER is bounded by it before it is taken.
  const int warp_area = t.WM * t.WN;
  if (t.TM > warp_area / t.TN) return TileRule::warp_iterations;
  const int thread_area = t.TM * t.TN;
  if (t.WNITER > warp_area / thread_area / kWarpSize) return TileRule::warp_iterations;
  const int per_iteration = kWarpSize * thread_area * t.WNITER;
  if (warp_area % per_iteration != 0) return TileRule::warp_iterations;
  const int wmiter = tile_warp_m_iterations(t);
  if (t.WM % wmiter != 0 || t.WN % t.WNITER != 0) return TileRule::warp_subtile;
  const int wsubm = t.WM / wmiter;
  const int wsubn = t.WN / t.WNITER;
  if (wsubm % t.TM != 0 || wsubn % t.TN != 0 || (wsubm / t.TM) * (wsubn / t.TN) != kWarpSize)
    return TileRule::warp_subtile;
  if (t.BK % 4 != 0 || t.TN % 4 != 0) return TileRule::vector_width;
  // A: each thread reads one float4 along K per pass; a pass covers threads*4/BK rows.
  const int a_vectors_per_row = t.BK / 4;
  if (threads % a_vectors_per_row != 0) return TileRule::a_load_mapping;
  const int a_rows_per_pass = threads / a_vectors_per_row;
  if (a_rows_per_pass > t.BM || t.BM % a_rows_per_pass != 0) return TileRule::a_load_mapping;
  // B: each thread copies one float4 along N per pass; a pass covers threads*4/BN rows.
  const int b_vectors_per_row = t.BN / 4;
  if (threads % b_vectors_per_row != 0) return TileRule::b_load_mapping;
  const int b_rows_per_pass = threads / b_vectors_per_row;
  if (b_rows_per_pass > t.BK || t.BK % b_rows_per_pass != 0) return TileRule::b_load_mapping;
  // The prepare pass is instantiated with every kernel, STREAMK = 0 too: the kernel tells the
  // passes apart at run time, so its static_assert holds every tile to it.
  if (t.BM % kStreamKPreparePass != 0) return TileRule::prepare_split;
  if (t.BM % 4 != 0) return TileRule::a_stage_rows;
  return TileRule::ok;
}

SGEMM_TUNE_HD constexpr const char *tile_rule_text(TileRule r) {
  switch (r) {
    case TileRule::ok: return "ok";
    case TileRule::non_positive: return "every size parameter must be at least 1";
    case TileRule::switch_value: return "PREFETCH and STREAMK must be 0 or 1";
    case TileRule::too_few_stages: return "STAGES must be at least 2";
    case TileRule::too_large: return "BM*BN and the shared memory in bytes must fit in an int";
    case TileRule::warp_tile_split: return "BM must be a multiple of WM and BN a multiple of WN";
    case TileRule::thread_count: return "(BM/WM)*(BN/WN)*32 threads must be between 32 and 1024";
    case TileRule::warp_iterations: return "WM*WN must be a multiple of 32*TM*TN*WNITER";
    case TileRule::warp_subtile: return "warp sub-tiles must split into 32 threads of TM x TN";
    case TileRule::vector_width: return "BK and TN must be multiples of 4 (float4 access)";
    case TileRule::a_load_mapping: return "threads cannot cover the BM x BK tile of A in whole float4 passes";
    case TileRule::b_load_mapping: return "threads cannot cover the BK x BN tile of B in whole float4 passes";
    case TileRule::prepare_split: return "BM must be even: the stream-K prepare pass splits a tile's rows in two";
    case TileRule::a_stage_rows:
      return "BM must be a multiple of 4: a transposed A is copied into the stage's rows 16 bytes at a time";
  }
  return "unknown rule";
}

// The fast-path kernel has no bounds checks: the problem must divide into whole tiles. It
// takes M, N and K as ints and addresses A, B and C within a tile's rows with int offsets
// (below BM*K, BK*N and WM*N), and a data-parallel launch puts M/BM blocks in the grid's y
// dimension; shapes beyond those take the edge kernel.
SGEMM_TUNE_HD constexpr bool shape_fits_tile(const SgemmTile &t, long long M, long long N, long long K) {
  if (t.BM < 1 || t.BN < 1 || t.BK < 1 || t.WM < 1) return false;
  if (M < 1 || N < 1 || K < 1 || M % t.BM != 0 || N % t.BN != 0 || K % t.BK != 0) return false;
  if (M > kIntMax || K > kIntMax / t.BM || N > kIntMax / t.BK || N > kIntMax / t.WM) return false;
  return t.STREAMK || M / t.BM <= kMaxGridY;
}

// The fast kernel also keeps offsets within a tile's rows in ints: a row index times a
// leading dimension, below BM * lda, BK * ldb and WM * ldc. The edge kernel's wide bodies
// share that code, so where this does not hold it runs its narrow bodies (64-bit offsets).
SGEMM_TUNE_HD constexpr bool leading_dimensions_fit_tile(const SgemmTile &t, long long lda, long long ldb,
                                                         long long ldc) {
  if (t.BM < 1 || t.BK < 1 || t.WM < 1) return false;
  return lda <= kIntMax / t.BM && ldb <= kIntMax / t.BK && ldc <= kIntMax / t.WM;
}

// The edge kernel (sgemm_double_buffered_edges) takes any shape whose whole tiles, rounded
// up, would fit the fast kernel's int arithmetic, and always runs data-parallel, so its
// rounded-up rows of tiles must fit the grid's y dimension too.
SGEMM_TUNE_HD constexpr long long round_up_to(long long v, int multiple) {
  return (v + multiple - 1) / multiple * multiple;
}

SGEMM_TUNE_HD constexpr bool shape_fits_tile_edges(const SgemmTile &t, long long M, long long N, long long K) {
  if (t.BM < 1 || t.BN < 1 || t.BK < 1 || t.WM < 1) return false;
  if (M < 1 || N < 1 || K < 1 || M > kIntMax || N > kIntMax || K > kIntMax) return false;
  const long long Mp = round_up_to(M, t.BM), Np = round_up_to(N, t.BN), Kp = round_up_to(K, t.BK);
  if (Mp > kIntMax || Kp > kIntMax / t.BM || Np > kIntMax / t.BK || Np > kIntMax / t.WM) return false;
  return Mp / t.BM <= kMaxGridY;
}

// How the fast kernel is launched for one problem. A data-parallel tile (STREAMK = 0) is
// one pass over a grid of N/BN x M/BM blocks. A stream-K tile is two passes of the same
// kernel: a prepare pass, grid (persistent_blocks, 1, kStreamKPreparePass), that scales by
// beta the output tiles the compute pass will split (they are then accumulated into
// atomically; the kernel tells the passes apart by gridDim.z, and the prepare pass's z
// slices share each tile's rows), and the compute pass, grid (persistent_blocks, 1, 1).
// persistent_blocks is the number of blocks the GPU holds at once: SMs x blocks per SM.

struct SgemmLaunchPlan {
  bool prepare;          // launch the prepare pass first
  unsigned grid_x, grid_y, grid_z;  // the compute pass
  unsigned prepare_grid_x;          // the prepare pass: (prepare_grid_x, 1, kStreamKPreparePass)
};

SGEMM_TUNE_HD constexpr SgemmLaunchPlan tile_launch_plan(const SgemmTile &t, int M, int N, int persistent_blocks) {
  if (!t.STREAMK)
    return SgemmLaunchPlan{false, static_cast<unsigned>(N / t.BN), static_cast<unsigned>(M / t.BM), 1u, 0u};
  // A stream-K kernel reads its share of the work from a 1-D grid, whatever its size: fewer
  // than one block (a kernel no SM can hold, which the launchers refuse) plans one block.
  const long long G = persistent_blocks < 1 ? 1 : persistent_blocks;
  const long long tiles = static_cast<long long>(M / t.BM) * (N / t.BN);
  // Tiles of whole waves need no splitting, and then there is nothing to prepare.
  const bool split = tiles % G != 0;
  const unsigned blocks = static_cast<unsigned>(G);
  return SgemmLaunchPlan{split, blocks, 1u, 1u, split ? blocks : 0u};
}

// How the edge kernel reads its operands and what one launch of it does: the bits of its
// last argument, `operands`. Without them it reads as the fast kernel does (row-major A and
// B, 16-byte aligned rows) and computes C.
enum : int {
  kOperandTransA = 1,     // op(A) = A^T: A is stored K x M, rows lda apart
  kOperandTransB = 2,     // op(B) = B^T: B is stored N x K, rows ldb apart
  kOperandScalar = 4,     // some row of C does not start 16-byte aligned (ldc not a multiple
                          // of 4, or C at an offset): C's loads are 4 bytes wide; where C is
                          // not read (beta 0, split additions, the scale pass) the edge
                          // kernel writes it 16 bytes wide, realigned, the kernel of any
                          // operands 4 bytes
  kOperandScalePass = 8,  // this launch only sets C = beta C (0 when beta is 0, C not read)
                          // over the tiles of its grid (with kOperandTailSplit, over the
                          // tail split's split tiles): the first pass of a split launch, and
                          // the whole of a K = 0 product
  kOperandTransC = 16,    // C is stored transposed: the product's element (i, j) is at
                          // C[j * ldc + i] (a product of two transposed operands is run as
                          // the plain product of their transposes, C^T = B A)
  kOperandNarrowAB = 32,  // some row of A or B does not start 16-byte aligned: both are read
                          // 4 bytes at a time (edge_kernel_body picks a narrow body)
  kOperandTailSplit = 64,  // the tail split (tile_edges_tail_split): a 1-D grid whose first
                           // blocks take whole tiles and whose last ones split the last
                           // wave's tiles' K `parts` ways, parts in the bits from
                           // kOperandPartsShift up; with kOperandScalePass, the scale pass
                           // over those split tiles, a block each
  kOperandClusterSplit = 128,  // a split of K (grid z, 2 to kMaxClusterSplit ways) launched as
                               // clusters of a tile's z blocks, with no scale pass: the
                               // cluster's first block stores its part as an unsplit tile
                               // does (beta C read where beta is not 0), the others add theirs
                               // once that is stored (cluster_split_fits; compute capability
                               // 9.0 and newer)
};
enum : int { kOperandPartsShift = 8 };

// What the kernels' machine code takes at launch: their arguments and what the bits of
// `operands` mean. A header from `sgemm-tune emit` ships machine code compiled from this
// template and records this number with it; the run-time (sgemm_tuned_runtime.cuh) launches
// that code only as its number allows, and a header whose number differs from the run-time
// it is built with refuses to compile. 4: the edge kernels take kOperandClusterSplit; 3:
// the edge kernel and the kernel of any operands are four kernels each, one per body
// (kEdgeBody*), and the latter takes only a transposed B; 2: one kernel each, and the edge kernel's tail split (kOperandTailSplit); 1, or none
// recorded (headers emitted before the number was), one kernel each without it.
enum : int { kMachineCodeInterface = 4 };

// The bodies of the edge kernel and of the kernel of any operands, each a kernel of its own
// (sgemm_double_buffered_edges or sgemm_double_buffered_any, and the three named by
// appending edge_body_kernel_suffix): A as it lies or transposed, read 16 bytes wide or 4.
// One kernel holding all four, chosen per block, stalled on instruction fetch 3-4 times as
// often as the plain body alone, and the edge kernel ran 1.07x slower unsplit and 1.09x
// tail-split than its plain body's kernel (bench/results/2026-12-04-h200-edge-per-body).
enum : int {
  kEdgeBodyPlain = 0,
  kEdgeBodyTransposedA = 1,
  kEdgeBodyNarrow = 2,              // kEdgeBodyPlain with every access to A and B 4 bytes wide
  kEdgeBodyTransposedANarrow = 3,   // kEdgeBodyTransposedA likewise
  kEdgeBodies = 4,
};

// The body that runs an edge launch with `operands` (kOperand*) and these leading
// dimensions: the narrow ones where a row of A or B is not 16-byte aligned, or where a
// leading dimension is past the wide edge bodies' int offsets (the kernel of any operands
// addresses in 64 bits throughout, so that sends it to its narrow bodies needlessly, for
// leading dimensions past kIntMax over the tile's BM, BK or WM alone). Of the edge kernel for a plain B, of the
// kernel of any operands for a transposed one.
SGEMM_TUNE_HD constexpr int edge_kernel_body(const SgemmTile &t, int operands, long long lda, long long ldb,
                                             long long ldc) {
  const bool narrow = (operands & kOperandNarrowAB) || !leading_dimensions_fit_tile(t, lda, ldb, ldc);
  return ((operands & kOperandTransA) ? kEdgeBodyTransposedA : kEdgeBodyPlain) + (narrow ? kEdgeBodyNarrow : 0);
}

// What the kernel of edge body `body` appends to the name sgemm_double_buffered_edges (or
// sgemm_double_buffered_any).
SGEMM_TUNE_HD constexpr const char *edge_body_kernel_suffix(int body) {
  return body == kEdgeBodyTransposedA         ? "_transposed_a"
         : body == kEdgeBodyNarrow            ? "_narrow"
         : body == kEdgeBodyTransposedANarrow ? "_transposed_a_narrow"
                                              : "";
}

// The splits of K that the launch resolves from the GPU it runs on, where the selection, a
// route and launch_tile_edges carry a split count: kEdgeTailSplit asks the edge kernel for
// the tail split (tile_edges_tail_split); kEdgeFillSplit splits every tile's K as many ways
// as fill the GPU when the product has fewer tiles than it holds, else not at all
// (tile_edges_fill_splits), which any edge kernel takes, the kernel of any operands too.
enum : int { kEdgeTailSplit = 0, kEdgeFillSplit = -1 };

// The largest split of K the edge kernel is launched with (grid z).
enum : int { kMaxSplitK = 64 };

// The largest split of K launched as clusters (kOperandClusterSplit): the cluster size that
// every GPU with clusters launches (a larger one must be allowed kernel by kernel).
enum : int { kMaxClusterSplit = 8 };

// What a GPU offers a split of K as clusters (kOperandClusterSplit): its SMs, and for each
// cluster size s of 2 .. kMaxClusterSplit how many clusters of s blocks it holds at once
// (at_once[s]; cudaOccupancyMaxActiveClusters). A cluster's blocks all run on one GPC, so
// where a block fills its SM a GPC of g SMs holds g / s clusters, rounded down: an H100 of
// 132 SMs in GPCs of 14 to 18 would hold 19 or 20 clusters of 6 such blocks at once, not 22
// (the GPCs' sizes are the GPU's to say; session 37's sweeps fit 19). Of one kernel, for its
// launch (kernel_cluster_slots in sgemm_launch.h); at one block per SM, for the selection,
// which multiplies at_once by an entry's blocks per SM (a lower bound: a GPC holding n
// clusters at one block per SM holds at least r n at r). `measured`: asked of the GPU, not
// assumed (uniform_cluster_slots).
struct ClusterSlots {
  int sms;
  int at_once[kMaxClusterSplit + 1];  // by cluster size; [0] and [1] unused
  bool measured;
};

// The slots of a GPU whose GPCs are not known (a replay, or `sgemm-tune best` away from the
// GPU): as if any SMs could hold a cluster, sms x blocks_per_sm / s clusters of s blocks.
SGEMM_TUNE_HD constexpr ClusterSlots uniform_cluster_slots(int sms, int blocks_per_sm = 1) {
  ClusterSlots c{sms, {}, false};
  for (int s = 2; s <= kMaxClusterSplit; ++s) c.at_once[s] = sms > 0 && blocks_per_sm > 0 ? sms * blocks_per_sm / s : 0;
  return c;
}

// Whether a split of K `splits` ways (kEdgeTailSplit and kEdgeFillSplit resolved) over
// `tiles` output tiles runs as clusters on a GPU of slots `c` (blocks_per_sm multiplying
// c.at_once: 1 where c is one kernel's own): at most kMaxClusterSplit ways, no more blocks
// than SMs, and every cluster resident at once. A split of K otherwise needs the scale pass,
// a second launch, whose host time (5 us on the H200's machine) a small product pays beside
// its own. Split the same ways over more blocks, clusters ran up to 1.5x slower than the
// scale pass's launches (1000^3 split 3 ways, 384 blocks on 132 SMs:
// bench/results/2026-12-04-h200-cluster-split). Clusters the GPU cannot hold at once run in a
// second wave: in session 37's H100 sweeps, splits of 4 and 6 ways of a tile of one block
// per SM over 120-128 blocks took 2.2-3.0x their predicted time, every other split as
// clusters at most 1.9x (geometric mean 1.08-1.18x; bench/results/2026-12-05-h100-small-
// splits, RUN.md).
SGEMM_TUNE_HD constexpr bool cluster_split_fits(int splits, long long tiles, const ClusterSlots &c,
                                                int blocks_per_sm = 1) {
  return splits >= 2 && splits <= kMaxClusterSplit && tiles >= 1 && tiles * splits <= c.sms &&
         tiles <= static_cast<long long>(c.at_once[splits]) * (blocks_per_sm < 1 ? 1 : blocks_per_sm);
}

// Whether the edge launch of `operands` (kOperand*) splitting K (> 0) `splits` ways
// (kEdgeFillSplit resolved) over `tiles` output tiles runs as clusters: the caller set
// kOperandClusterSplit, it is not the tail split, and the split fits the kernel's own
// `clusters` (null: none known). launch_tile_edges's rule, apart so that it is tested.
SGEMM_TUNE_HD constexpr bool edge_launch_as_clusters(int operands, int K, int splits, long long tiles,
                                                     const ClusterSlots *clusters) {
  return (operands & kOperandClusterSplit) && K > 0 && splits != kEdgeTailSplit && clusters != nullptr &&
         cluster_split_fits(splits, tiles, *clusters);
}

// The K slices of BK that split `z` of `splits` takes: [begin, end), an even share of
// ceil(K / BK), empty for splits past the end.
struct KSliceRange {
  int begin, end;
};
SGEMM_TUNE_HD constexpr KSliceRange split_k_range(const SgemmTile &t, int K, int splits, int z) {
  const int slices = K / t.BK + (K % t.BK != 0);
  const int per = splits < 2 ? slices : (slices + splits - 1) / splits;
  const int begin = z * per < slices ? z * per : slices;
  return KSliceRange{begin, begin + per < slices ? begin + per : slices};
}

// The edge kernel's data-parallel pass over every tile that C touches, partial ones
// included, whatever the tile's STREAMK; with splits > 1 the grid's z dimension splits K
// (split_k_range) and each split adds its part into C atomically, after a scale pass
// (kOperandScalePass, grid (grid_x, grid_y, 1): `prepare`) has set C to beta C, or, launched
// as clusters of the splits (kOperandClusterSplit, cluster_split_fits), after split 0 has
// stored its part with beta C, and then `prepare` is not acted on. Split products, like
// stream-K's, may differ from launch to launch in the last bits.
SGEMM_TUNE_HD constexpr SgemmLaunchPlan tile_edges_launch_plan(const SgemmTile &t, int M, int N, int splits = 1) {
  const unsigned x = static_cast<unsigned>(N / t.BN + (N % t.BN != 0));
  const unsigned y = static_cast<unsigned>(M / t.BM + (M % t.BM != 0));
  const unsigned z = splits < 2 ? 1u : splits > kMaxSplitK ? static_cast<unsigned>(kMaxSplitK) : static_cast<unsigned>(splits);
  return SgemmLaunchPlan{z > 1, x, y, z, 0u};
}

// The edge kernel's tail split over `slots` resident blocks (SMs x blocks per SM): the
// tiles C touches that fill whole waves of slots run whole, a block each, as data-parallel
// tiles do; the `rest` tiles of the last, partial wave split K `parts` ways (as many as the
// slots hold, at most a part per K slice and kMaxSplitK), a block a part, so that the last
// wave fills the GPU instead of leaving SMs idle. Only the split tiles are scaled first
// (beta C) and have their parts added atomically. One launch of grid (grid_x, 1, 1), after
// the scale pass (grid (rest, 1, 1)) when parts > 1; the kernel reads parts from its
// operand bits and finds rest from its grid. grid_x 0: too many tiles for a 1-D grid.
struct TailSplit {
  long long whole, rest;  // tiles run whole; tiles split
  int parts;              // 1: nothing split
  unsigned grid_x;
};
SGEMM_TUNE_HD constexpr TailSplit tile_edges_tail_split(const SgemmTile &t, long long M, long long N, long long K,
                                                        long long slots) {
  if (slots < 1) slots = 1;
  const long long tiles = (M / t.BM + (M % t.BM != 0)) * (N / t.BN + (N % t.BN != 0));
  const long long slices = K / t.BK + (K % t.BK != 0);
  const long long rest = tiles % slots;
  long long parts = rest > 0 ? slots / rest : 1;
  if (parts > slices) parts = slices;
  if (parts > kMaxSplitK) parts = kMaxSplitK;
  if (parts < 2) return TailSplit{tiles, 0, 1, tiles <= kIntMax ? static_cast<unsigned>(tiles) : 0u};
  const long long blocks = tiles - rest + rest * parts;
  return TailSplit{tiles - rest, rest, static_cast<int>(parts),
                   blocks <= kIntMax ? static_cast<unsigned>(blocks) : 0u};
}

// kEdgeFillSplit over `slots` resident blocks: with fewer tiles than slots every tile is in
// the tail split's last wave, and K splits as many ways as that split's parts (as many as
// fill the GPU, within K's slices and kMaxSplitK); with more, K is not split (1).
SGEMM_TUNE_HD constexpr int tile_edges_fill_splits(const SgemmTile &t, long long M, long long N, long long K,
                                                   long long slots) {
  const TailSplit tail = tile_edges_tail_split(t, M, N, K, slots);
  return tail.whole == 0 ? tail.parts : 1;
}

// What block `block` of a tail split's compute pass (grid `blocks`, tile_edges_tail_split's
// grid_x, over `tiles` tiles, the last wave's split `parts` ways) takes: a tile whole (part
// -1), or part `part` of a split tile's K (split_k_range of `parts`). The split tiles are the
// last rest = (blocks - tiles) / (parts - 1), the ones the scale pass's blocks b < rest take
// as tile tiles - rest + b; each part of one tile is rest blocks from the next.
// In int: the launch refuses a grid past kIntMax blocks, so tiles and blocks fit, and the
// kernel's 64-bit divisions cost registers (nvcc sm_90: 78 -> 86 at 64 x 64 x 16).
struct TailPiece {
  int tile, part;
};
SGEMM_TUNE_HD constexpr TailPiece tail_split_piece(int tiles, int blocks, int parts, int block) {
  const int rest = parts > 1 ? (blocks - tiles) / (parts - 1) : 0;
  const int whole = tiles - rest;
  if (block < whole) return TailPiece{block, -1};
  const int q = block - whole;
  return TailPiece{whole + q % rest, q / rest};
}

// The stream-K schedule, shared by the kernel and the tests that check it covers every
// (tile, K slice) exactly once. With T output tiles of S K slices each and G persistent
// blocks, the first T - T % G tiles go whole, block b taking b, b + G, ...; the K slices of
// the other T % G tiles are numbered tile by tile and block b takes the even share
// [start(b), start(b + 1)), start(b) = b * slices / G.
SGEMM_TUNE_HD constexpr long long stream_k_share_start(long long block, long long slices, int G) {
  return block * slices / G;
}

struct StreamKCursor {
  long long tiles_whole;  // tiles taken whole, in waves
  long long next_tile;    // this block's next whole tile
  long long slice, slice_end;
  int slices_per_tile, G;

  // The next piece of work: tile, K slices [k_begin, k_end). False when there is none.
  SGEMM_TUNE_HD constexpr bool next(long long &tile, int &k_begin, int &k_end) {
    if (next_tile < tiles_whole) {
      tile = next_tile;
      next_tile += G;
      k_begin = 0;
      k_end = slices_per_tile;
      return true;
    }
    if (slice >= slice_end) return false;
    tile = tiles_whole + slice / slices_per_tile;
    k_begin = static_cast<int>(slice % slices_per_tile);
    const long long left = slice_end - slice;
    k_end = left < slices_per_tile - k_begin ? k_begin + static_cast<int>(left) : slices_per_tile;
    slice += k_end - k_begin;
    return true;
  }
};

SGEMM_TUNE_HD constexpr StreamKCursor stream_k_cursor(long long block, long long tiles, int slices_per_tile, int G) {
  const long long whole = tiles - tiles % G;
  const long long slices = (tiles - whole) * slices_per_tile;
  return StreamKCursor{whole, block, stream_k_share_start(block, slices, G), stream_k_share_start(block + 1, slices, G),
                       slices_per_tile, G};
}

// The tile that block b of the prepare pass sets to beta * C, or -1. A tile is split when
// some block's share starts strictly inside it; the first such block prepares it, so each
// split tile is prepared once and no whole tile is touched.
SGEMM_TUNE_HD constexpr long long stream_k_prepared_tile(long long block, long long tiles, int slices_per_tile, int G) {
  const long long whole = tiles - tiles % G;
  const long long slices = (tiles - whole) * slices_per_tile;
  if (block <= 0 || block >= G) return -1;
  const long long start = stream_k_share_start(block, slices, G);
  if (start >= slices || start % slices_per_tile == 0) return -1;
  const long long tile_start = start - start % slices_per_tile;
  if (stream_k_share_start(block - 1, slices, G) > tile_start) return -1;  // an earlier block starts inside it
  return whole + start / slices_per_tile;
}

}  // namespace sgemm_tune_kernels
