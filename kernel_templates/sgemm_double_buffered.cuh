// The double-buffered SGEMM kernel, as a template over its tile configuration.
//
// C = alpha * A * B + beta * C for row-major A (M x K), B (K x N) and C (M x N), whose rows
// are lda, ldb and ldc floats apart.
// One block computes a BM x BN tile of C, each warp a WM x WN part of it, each thread
// WMITER x WNITER sub-tiles of TM x TN. The K loop is software-pipelined over STAGES
// shared-memory buffers: B is copied global -> shared with cp.async, A goes through
// registers because it is stored transposed. With PREFETCH the fragments of the next K
// step are read from shared memory while the current step multiplies. Launch as
// tile_launch_plan (sgemm_tile_rules.h) says: one pass over grid (N / BN, M / BM) for
// STREAMK = 0, a prepare pass and a persistent compute pass for STREAMK = 1; always with
//   block = tile_threads(tile), dynamic shared memory = tile_smem_bytes(tile)
// after raising cudaFuncAttributeMaxDynamicSharedMemorySize when that exceeds 48 KB.
// STREAMK = 1 adds the partial sums of split tiles with atomics, so their rounding, unlike
// the data-parallel kernel's, can differ from launch to launch in the last bits.
// The problem must divide into whole tiles (shape_fits_tile), and A, B and C must be 16-byte
// aligned with lda, ldb and ldc multiples of 4.
//
// sgemm_double_buffered_edges is the fast kernel for any shape: the same code (one body,
// detail::sgemm_tiles, whose edge code is compiled out of sgemm_double_buffered, so that
// kernel compiles to what it did before the edge code existed) with M, N and K remainders
// read as zeros (copies with a source size, guarded loads) and C written only inside M x N,
// for operands as the fast kernel reads them. Its wide bodies copy every stage as the fast
// kernel does (rows and columns past M and N clamped or zero-filled once per tile) but the
// one holding K's remainder, which they copy first, guarded, and store interior tiles as the
// fast kernel does, guarded only where a tile reaches past M or N (and for a transposed or
// unaligned C); leading dimensions past the fast kernel's int offsets take the narrow
// bodies. sgemm_double_buffered_any is the same for a transposed B, which goes through
// registers and is stored across. Their last argument, `operands` (kOperand* in
// sgemm_tile_rules.h), says how A, B and C lie: transposed or not (a transposed A is
// copied as it lies, with no transposing store; C may be written transposed), and whether
// the rows of A and B, and those of C, are 16-byte aligned (else their accesses are 4 bytes
// wide). Each of the two is four kernels, one for each transposition of A and width of
// access to A and B (kOperandNarrowAB), and the host launches the one edge_kernel_body
// names: sgemm_double_buffered_edges (or _any) for a plain A read 16 bytes wide, and the
// same name with _transposed_a, _narrow or _transposed_a_narrow. The kernel reads only C's
// bits (transposed, unaligned) and the scale pass's at run time, and checks the rest: the
// edge kernel's B must be plain and the kernel of any operands' transposed
// (sgemm_tuned_runtime.cuh packs a transposed B into a workspace, or runs the kernel of any
// operands). Neither runs the fast kernel's stream-K, whatever the tile's STREAMK. Both may
// split K over the grid's z dimension, after a scale pass (kOperandScalePass) that sets
// C = beta C, or as clusters of a tile's splits with none (kOperandClusterSplit), launched
// as tile_edges_launch_plan and launch_tile_edges say:
//   grid = (ceil(N / BN), ceil(M / BM), splits), the tile's block and dynamic shared memory;
// and the edge kernel may run the tail split instead (kOperandTailSplit,
// tile_edges_tail_split): the tiles of whole waves of resident blocks whole, the last
// wave's tiles split along K so that it fills the GPU, over a 1-D grid. The shape must pass
// shape_fits_tile_edges.
//
// The same source is compiled by NVRTC in the tuner and by nvcc in user builds, so it
// includes nothing but the rules header and uses no standard library.
#pragma once

#include "sgemm_tile_rules.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "sgemm-tune's kernels need compute capability 8.0 or newer (cp.async): build for sm_80 or later"
#endif

namespace sgemm_tune_kernels {
namespace detail {

__device__ __forceinline__ void cp_async16(float *smem_dst, const float *gmem_src) {
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(addr), "l"(gmem_src));
}

// The same with the first src_bytes (0 to 16) bytes read and the rest of the 16 zero-filled:
// a row's remainder past M, N or K. With src_bytes = 0 nothing is read, but the address must
// still be a valid one.
__device__ __forceinline__ void cp_async16_zfill(float *smem_dst, const float *gmem_src, int src_bytes) {
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(addr), "l"(gmem_src), "r"(src_bytes));
}

// One float, read when `inside`, else zero: the 4-byte copy of rows that are not 16-byte
// aligned (cp.async copies 4 bytes only through L1, .ca).
__device__ __forceinline__ void cp_async4_zfill(float *smem_dst, const float *gmem_src, bool inside) {
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem_dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(addr), "l"(gmem_src), "r"(inside ? 4 : 0));
}

// The bytes of a four-float copy that lie inside a row with `left` floats from the copy's
// first to the row's end (any number; none at or below 0).
__device__ __forceinline__ int copy_bytes_inside(int left) { return left >= 4 ? 16 : left > 0 ? left * 4 : 0; }

// The four floats at (row, col .. col + 3) of a row-major matrix X whose rows (ld floats
// apart) are 16-byte aligned into shared memory at dst, one 16-byte copy, zeros at or past
// `rows` and `cols`. X stands in as the valid address of a copy that reads nothing. Rows
// that are not aligned take cp_async4_spread_guarded.
__device__ __forceinline__ void cp_async4x_guarded(float *smem_dst, const float *__restrict__ X, int ld, int row,
                                                   int col, int rows, int cols) {
  const bool rowInside = row < rows;
  const float *p = X + static_cast<long long>(row) * ld + col;
  const int bytes = rowInside ? copy_bytes_inside(cols - col) : 0;
  cp_async16_zfill(smem_dst, bytes > 0 ? p : X, bytes);
}

// The narrow bodies' copy of four floats of row `row` of a row-major matrix X (rows ld
// floats apart): columns col + j * spread (j = 0 .. 3) into smem_dst + j * spread, 4 bytes
// each, zeros at or past `rows` and `cols`. A thread's four floats lie `spread` apart rather
// than side by side, so that the lanes of a warp that share a row write consecutive banks
// and read consecutive floats: side by side, lanes 16 bytes apart wrote each bank four
// times over and read a quarter of each sector they touched. Where a warp's copy spans
// several rows of a stage (rows under 128 floats), those rows still share banks: no
// conflict at rows of 128 floats or more, 2-way at 64, 4-way at 32 as before
// (bench/results/2026-12-06-spread-and-ab-twins: 1.019x over the narrow bodies' problems).
__device__ __forceinline__ void cp_async4_spread_guarded(float *smem_dst, const float *__restrict__ X, int ld,
                                                         int row, int col, int spread, int rows, int cols) {
  const bool rowInside = row < rows;
  const float *p = X + static_cast<long long>(row) * ld + col;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const bool inside = rowInside && col + j * spread < cols;
    cp_async4_zfill(smem_dst + j * spread, inside ? p + j * spread : X, inside);
  }
}

// The four floats at (row, col) of a row-major matrix (rows ld floats apart), zeros at or
// past `rows` and `cols`: one vector load when all four are inside and `vec` says the rows
// are 16-byte aligned, else one scalar load per element inside.
__device__ __forceinline__ float4 load4_guarded(const float *__restrict__ X, int ld, int row, int col, int rows,
                                                int cols, bool vec = true) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (row >= rows || col >= cols) return v;
  const float *p = X + static_cast<long long>(row) * ld + col;
  if (vec && cols - col >= 4) return reinterpret_cast<const float4 *>(p)[0];
  v.x = p[0];
  if (cols - col > 1) v.y = p[1];
  if (cols - col > 2) v.z = p[2];
  if (cols - col > 3) v.w = p[3];
  return v;
}

// C += v, four floats at once where the GPU has a vector atomic (sm_90), else one by one.
__device__ __forceinline__ void atomic_add4(float4 *dst, float4 v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  atomicAdd(dst, v);
#else
  float *d = reinterpret_cast<float *>(dst);
  atomicAdd(d + 0, v.x);
  atomicAdd(d + 1, v.y);
  atomicAdd(d + 2, v.z);
  atomicAdd(d + 3, v.w);
#endif
}

// *dst = out (+ beta * *dst where readC): four floats of C, 16-byte aligned. The same
// lines stand written out in the fast kernel's epilogue: calling this there changed that
// kernel's machine code for most tiles (NVRTC, sm_90), which the edge variant must not do.
__device__ __forceinline__ void store4(float4 *dst, float4 out, float beta, bool readC) {
  if (readC) {
    const float4 old = dst[0];
    out.x += beta * old.x;
    out.y += beta * old.y;
    out.z += beta * old.z;
    out.w += beta * old.w;
  }
  dst[0] = out;
}

// C(row, col .. col + 3) = out (+ beta * C where readC), or += out where `accumulate` (a
// split of K adding its part atomically), only the elements inside rows x cols: a vector
// access when all four are and `vec` says C's rows are 16-byte aligned, else one scalar
// access per element inside. With transC, C is stored transposed (the product's element
// (row, col) at C[col * ldc + row]), and the four lie ldc apart: scalar accesses.
__device__ __forceinline__ void store4_guarded(float *__restrict__ C, int ldc, int row, int col, int rows, int cols,
                                               float4 out, float beta, bool readC, bool vec = true,
                                               bool accumulate = false, bool transC = false) {
  if (row >= rows || col >= cols) return;
  float *p = transC ? C + static_cast<long long>(col) * ldc + row : C + static_cast<long long>(row) * ldc + col;
  const long long step = transC ? ldc : 1;
  if (!transC && vec && cols - col >= 4) {
    if (accumulate)
      atomic_add4(reinterpret_cast<float4 *>(p), out);
    else
      store4(reinterpret_cast<float4 *>(p), out, beta, readC);
    return;
  }
  const float v[4] = {out.x, out.y, out.z, out.w};
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    if (j >= cols - col) break;
    float *e = p + j * step;
    if (accumulate)
      atomicAdd(e, v[j]);
    else
      *e = readC ? v[j] + beta * *e : v[j];
  }
}

// The floats from p to the next 16-byte boundary (0 to 3): where a line of C that does not
// start aligned takes its first 16-byte access (store_run_realigned, scale_block_realigned).
__device__ __forceinline__ int floats_to_16_byte_boundary(const float *p) {
  return static_cast<int>((4 - (reinterpret_cast<unsigned long long>(p) >> 2)) & 3);
}

// A thread's run of RUN consecutive floats (RUN a multiple of 4) of one line of C, `out`, at
// positions pos .. pos + RUN - 1 of line `line` (lines `ld` floats apart; only lines below
// `lines` and positions below `length` are written), stored, or added atomically where
// `accumulate`, with 16-byte accesses although the line is not 16-byte aligned: each thread
// writes the aligned 16 bytes that start `u` floats into each of its groups of four, u being
// what the line's alignment leaves before a 16-byte boundary, the last u floats of them taken
// from the next thread of the run, `nextLane` lanes on (a warp shuffle). The first thread of a
// line's runs (`first`) writes its first u floats alone, the last (`last`) its last 4 - u:
// every float of the runs once. With 4-byte accesses instead, a split of K's atomic adds
// took 20-50% longer for a C one float off alignment than for an aligned one
// (bench/results/2026-12-03-h200-narrow-factors, call1). "Line" and "first"/"last" are
// within one warp sub-tile's stretch of a line: its lanes' runs adjoin. Every lane of the
// warp calls it, with the same RUN and nextLane: the shuffles need the whole warp (a
// nextLane of 32, one lane a line, shuffles nothing in, and nothing shuffled is used). The
// thread loads no C (the atomic adds read C where they add, in L2).
template <int RUN>
__device__ __forceinline__ void store_run_realigned(float *__restrict__ C, long long ld, int line, int pos, int lines,
                                                    int length, const float (&out)[RUN], int nextLane, bool first,
                                                    bool last, bool accumulate) {
  static_assert(RUN % 4 == 0, "a run is whole groups of four");
  float next[3];
#pragma unroll
  for (int j = 0; j < 3; ++j) next[j] = __shfl_down_sync(0xffffffffu, out[j], nextLane);
  if (line >= lines) return;
  float *p = C + line * ld + pos;
  const int u = floats_to_16_byte_boundary(p);
  const auto put = [&](float *e, float v) {
    if (accumulate)
      atomicAdd(e, v);
    else
      *e = v;
  };
  if (first)
#pragma unroll
    for (int j = 0; j < 3; ++j)
      if (j < u && pos + j < length) put(p + j, out[j]);
  // span[k]: the float at pos + k, this thread's own for k < RUN, then the next lane's first
  // three; w[i]: the float at pos + u + i.
  float span[RUN + 3], w[RUN];
#pragma unroll
  for (int k = 0; k < RUN + 3; ++k) span[k] = k < RUN ? out[k % RUN] : next[k >= RUN ? k - RUN : 0];
#pragma unroll
  for (int i = 0; i < RUN; ++i) w[i] = u == 0 ? span[i] : u == 1 ? span[i + 1] : u == 2 ? span[i + 2] : span[i + 3];
#pragma unroll
  for (int c = 0; c < RUN; c += 4) {
    const int q = pos + u + c;
    float *e = p + u + c;
    // The last thread's last group holds only its own 4 - u floats (none from a next thread).
    const int own = last && c + 4 == RUN ? 4 - u : 4;
    if (own == 4 && q + 4 <= length) {
      const float4 v = make_float4(w[c], w[c + 1], w[c + 2], w[c + 3]);
      if (accumulate)
        atomic_add4(reinterpret_cast<float4 *>(e), v);
      else
        *reinterpret_cast<float4 *>(e) = v;
      continue;
    }
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (j < own && q + j < length) put(e + j, w[c + j]);
  }
}

// The rows of a thread's TM x TN cells in a warp sub-tile whose old C the edge kernel's
// epilogue loads at once: the most that divide TM and hold at most 16 floats (four float4
// loads in flight), at least one.
SGEMM_TUNE_HD constexpr int epilogue_load_rows(int TM, int TN) {
  int rows = 16 / TN < 1 ? 1 : 16 / TN;
  if (rows > TM) rows = TM;
  while (TM % rows != 0) --rows;
  return rows;
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

template <int PENDING>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}

// The barrier of a split of K run as clusters (kOperandClusterSplit, a cluster a tile, its
// blocks its splits): it orders the stores of split 0 before the other splits' additions.
// Split 0 fences its stores at the GPU's scope before it arrives, so that the additions,
// atomics performed in L2, follow them there. cluster_blocks: the blocks of this block's
// cluster. Compute capability 9.0 and newer; the launch sets the bit only for code compiled
// for it (a program's own kernels are asked: launch_edge_bodies in sgemm_tuned_runtime.cuh).
__device__ __forceinline__ unsigned cluster_blocks() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned blocks;
  asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(blocks));
  return blocks;
#else
  return 1;
#endif
}

__device__ __forceinline__ void cluster_barrier() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#else
  __trap();
#endif
}


// C = beta C (0 when beta == 0, without reading C) over a LINES x LENGTH block of C that
// starts at `c`, lines `ld` apart, of which `lines` x `length` lie inside the matrix. The
// NUM_THREADS threads take 4 consecutive elements of a line at a time, 16 bytes at once
// where `vec` (C's rows 16-byte aligned) and all 4 lie inside, and load kBatch such
// groups before storing any: a load that follows a store into the same array is not moved
// above it, so one group at a time waits out a load's latency per group (28 us for a 2442 x
// 118 C at beta 0.5 on the H200, against 5 us at beta 0, which reads nothing; bench/NOTES.md).
// Not inlined: inlined into the edge kernel, it raised that kernel's registers by up to 61
// (NVRTC, sm_90; 166 -> 219 at 64 x 64 x 32), which cost the main loop blocks per SM.
template <int LINES, int LENGTH, int NUM_THREADS>
__device__ __noinline__ void scale_block(float *__restrict__ c, long long ld, int lines, int length, float beta, bool vec) {
  static_assert(LENGTH % 4 == 0, "a line is whole groups of 4");
  // (A constant at namespace scope would put an internal symbol into the cubin, whose name
  // differs from process to process.)
  constexpr int kBatch = 4, kGroupsPerLine = LENGTH / 4, kGroups = LINES * kGroupsPerLine;
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int first = threadIdx.x; first < kGroups; first += kBatch * NUM_THREADS) {
    float4 v[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int g = first + b * NUM_THREADS, line = g / kGroupsPerLine, e = g % kGroupsPerLine * 4;
      v[b] = zero;
      if (beta == 0.0f || g >= kGroups || line >= lines || e >= length) continue;
      const float *p = c + line * ld + e;
      if (vec && e + 4 <= length) {
        v[b] = *reinterpret_cast<const float4 *>(p);
      } else {
        v[b].x = p[0];
        if (e + 1 < length) v[b].y = p[1];
        if (e + 2 < length) v[b].z = p[2];
        if (e + 3 < length) v[b].w = p[3];
      }
    }
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int g = first + b * NUM_THREADS, line = g / kGroupsPerLine, e = g % kGroupsPerLine * 4;
      if (g >= kGroups || line >= lines || e >= length) continue;
      float *p = c + line * ld + e;
      const float4 out =
          beta == 0.0f ? zero : make_float4(beta * v[b].x, beta * v[b].y, beta * v[b].z, beta * v[b].w);
      if (vec && e + 4 <= length) {
        *reinterpret_cast<float4 *>(p) = out;
      } else {
        p[0] = out.x;
        if (e + 1 < length) p[1] = out.y;
        if (e + 2 < length) p[2] = out.z;
        if (e + 3 < length) p[3] = out.w;
      }
    }
  }
}

// scale_block for a C whose rows do not all start 16-byte aligned: a line is taken from its
// first 16-byte boundary, u floats in, 16 bytes at once where all 4 lie inside, and the
// thread of its first group also takes those u alone (4-byte accesses throughout cost a C
// one float off alignment more than the split it prepares gained:
// bench/results/2026-12-03-h200-narrow-factors). A function of its own, so that the aligned
// C's scale pass runs the code it ran before: with this one for every C, aligned products
// that split K ran 3-8% slower (same folder, call4), which this may or may not have caused.
template <int LINES, int LENGTH, int NUM_THREADS>
__device__ __noinline__ void scale_block_realigned(float *__restrict__ c, long long ld, int lines, int length,
                                                   float beta) {
  static_assert(LENGTH % 4 == 0, "a line is whole groups of 4");
  // (A constant at namespace scope would put an internal symbol into the cubin, whose name
  // differs from process to process.)
  constexpr int kBatch = 4, kGroupsPerLine = LENGTH / 4, kGroups = LINES * kGroupsPerLine;
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int first = threadIdx.x; first < kGroups; first += kBatch * NUM_THREADS) {
    float4 v[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int g = first + b * NUM_THREADS, line = g / kGroupsPerLine;
      v[b] = zero;
      if (beta == 0.0f || g >= kGroups || line >= lines) continue;
      const int u = floats_to_16_byte_boundary(c + line * ld), e = g % kGroupsPerLine * 4 + u;
      const float *p = c + line * ld + e;
      if (e >= length) continue;
      if (e + 4 <= length) {
        v[b] = *reinterpret_cast<const float4 *>(p);
      } else {
        v[b].x = p[0];
        if (e + 1 < length) v[b].y = p[1];
        if (e + 2 < length) v[b].z = p[2];
        if (e + 3 < length) v[b].w = p[3];
      }
    }
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int g = first + b * NUM_THREADS, line = g / kGroupsPerLine;
      if (g >= kGroups || line >= lines) continue;
      const int u = floats_to_16_byte_boundary(c + line * ld), e = g % kGroupsPerLine * 4 + u;
      float *p = c + line * ld + e;
      // A line's first group's thread takes the floats before the boundary too, one by one.
      if (g % kGroupsPerLine == 0)
#pragma unroll
        for (int j = 0; j < 3; ++j)
          if (j < u && j < length) p[j - u] = beta == 0.0f ? 0.0f : beta * p[j - u];
      if (e >= length) continue;
      const float4 out =
          beta == 0.0f ? zero : make_float4(beta * v[b].x, beta * v[b].y, beta * v[b].z, beta * v[b].w);
      if (e + 4 <= length) {
        *reinterpret_cast<float4 *>(p) = out;
      } else {
        p[0] = out.x;
        if (e + 1 < length) p[1] = out.y;
        if (e + 2 < length) p[2] = out.z;
        if (e + 3 < length) p[3] = out.w;
      }
    }
  }
}

// The prepare pass of a stream-K launch: blocks (b, 0, z) set the split tile that
// stream_k_prepared_tile names to beta * C (to 0 when beta == 0, without reading C), each
// of the kStreamKPreparePass z-slices a share of its rows: every element exactly once,
// which matters when beta != 0. (Through scale_block its loads would overlap too, but that
// moved the fast kernel's registers by -4 to +5, and this pass serves the fast kernel alone.)
template <int BM, int BN, int NUM_THREADS>
__device__ void stream_k_prepare(int ldc, float beta, float *__restrict__ C, long long tileCount, int tilesN,
                                 int kTilesPerTile) {
  static_assert(BM % kStreamKPreparePass == 0, "the prepare pass splits a tile's rows evenly");
  constexpr int ROWS = BM / kStreamKPreparePass;
  const long long t = stream_k_prepared_tile(blockIdx.x, tileCount, kTilesPerTile, gridDim.x);
  if (t < 0) return;
  float *cTile = C + ((t / tilesN) * BM + blockIdx.z * ROWS) * static_cast<long long>(ldc) + (t % tilesN) * BN;
  for (int i = threadIdx.x; i < ROWS * (BN / 4); i += NUM_THREADS) {
    float4 *p = reinterpret_cast<float4 *>(&cTile[static_cast<long long>(i / (BN / 4)) * ldc + (i % (BN / 4)) * 4]);
    if (beta == 0.0f) {
      *p = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    } else {
      float4 v = *p;
      v.x *= beta;
      v.y *= beta;
      v.z *= beta;
      v.w *= beta;
      *p = v;
    }
  }
}

// C = beta C (0 when beta == 0, without reading C) over the part of output tile (tileRow,
// tileCol) that lies inside M x N: the edge kernel's scale pass, any ldc. 16-byte accesses
// where `vec` (C's rows 16-byte aligned), else realigned ones (scale_block_realigned). Not
// REALIGN (the kernel of any operands): scale_block's accesses, 4 bytes wide where not
// `vec`, through the call it had before the realigned pass, whose registers it keeps (NVRTC,
// 64 x 64 x 16: 77; scale_block with a run-time width behind the realigned pass's branches
// took it to 84, a block per SM less). With transC the product's element (row, col) is C's
// (col, row), so the tile lies in C as BN lines of BM.
template <int BM, int BN, int NUM_THREADS, bool REALIGN>
__device__ void scale_tile(int tileRow, int tileCol, int M, int N, float beta, float *__restrict__ C, int ldc,
                           bool transC, bool vec) {
  const int row0 = tileRow * BM, col0 = tileCol * BN;
  const int rows = M - row0 < BM ? M - row0 : BM, cols = N - col0 < BN ? N - col0 : BN;
  if constexpr (!REALIGN) {
    if (transC)
      scale_block<BN, BM, NUM_THREADS>(C + static_cast<long long>(col0) * ldc + row0, ldc, cols, rows, beta, vec);
    else
      scale_block<BM, BN, NUM_THREADS>(C + static_cast<long long>(row0) * ldc + col0, ldc, rows, cols, beta, vec);
    return;
  }
  float *const c =
      transC ? C + static_cast<long long>(col0) * ldc + row0 : C + static_cast<long long>(row0) * ldc + col0;
  const int lines = transC ? cols : rows, length = transC ? rows : cols;
  if (transC) {
    if (vec)
      scale_block<BN, BM, NUM_THREADS>(c, ldc, lines, length, beta, true);
    else
      scale_block_realigned<BN, BM, NUM_THREADS>(c, ldc, lines, length, beta);
  } else {
    if (vec)
      scale_block<BM, BN, NUM_THREADS>(c, ldc, lines, length, beta, true);
    else
      scale_block_realigned<BM, BN, NUM_THREADS>(c, ldc, lines, length, beta);
  }
}

// Whether span `index` of SIZE elements (rows of a tile, columns, K slices) lies wholly
// inside `extent`: the edge kernel's test for unguarded copies and stores.
template <int SIZE>
__device__ __forceinline__ bool span_inside(int index, int extent) {
  return (index + 1) * SIZE <= extent;
}

// threadResults += a * b^T for a thread's ROWS A values and COLS B values, row by row.
// Each A value meets all the B values in a row, and odd rows walk them backwards, so that
// consecutive FFMAs always share an operand, which the operand reuse cache then supplies
// (fewer register-bank conflicts). Measured against sub-tile by sub-tile order: about 1%,
// and the serpentine 0.6% more (bench/NOTES.md).
template <int ROWS, int COLS>
__device__ __forceinline__ void multiply_fragments(float (&acc)[ROWS * COLS], const float (&a)[ROWS],
                                                   const float (&b)[COLS]) {
#pragma unroll
  for (int r = 0; r < ROWS; ++r)
#pragma unroll
    for (int j = 0; j < COLS; ++j) {
      const int c = r % 2 == 0 ? j : COLS - 1 - j;
      acc[r * COLS + c] += a[r] * b[c];
    }
}

// The dynamic shared memory of both kernels, addressed as int offsets into this array, never
// through float pointers kept in variables: NVRTC then knows the address space and uses
// 32-bit addresses (with pointers it fell back to 64-bit generic ones, costing registers and
// about 1.5% at the best tiles: bench/NOTES.md). 16-byte alignment is for cp.async.
extern __shared__ __align__(16) float sgemm_smem[];

// A thread's place in its block's tile, the same in both kernels: the row and column of its
// warp's WM x WN tile, and its own row and column of TM x TN cells in each warp sub-tile.
struct ThreadPlace {
  int warpRow, warpCol, rowInWarp, colInWarp;
};

template <int BN, int WN, int WSUBN, int TN>
__device__ __forceinline__ ThreadPlace thread_place() {
  const int warpIdx = threadIdx.x / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  return {warpIdx / (BN / WN), warpIdx % (BN / WN), lane / (WSUBN / TN), lane % (WSUBN / TN)};
}

// The fragments of K step k for a thread at `place`: its WMITER x TM A values from the
// transposed A stage at offset aStage (laid out as tile_a_offset says, with BM and A_SKEW
// from the tile), its WNITER x TN B values from the B stage at offset bStage (rows BN apart).
template <int BM, int A_SKEW, int BN, int WM, int WN, int WMITER, int WNITER, int TM, int TN>
__device__ __forceinline__ void load_fragments(float (&regM)[WMITER * TM], float (&regN)[WNITER * TN], int aStage,
                                               int bStage, int k, const ThreadPlace &place) {
  constexpr int WSUBM = WM / WMITER;
  constexpr int WSUBN = WN / WNITER;
  const int aRow = aStage + k * BM + (k / 4) * A_SKEW;
#pragma unroll
  for (int wSubRow = 0; wSubRow < WMITER; ++wSubRow)
#pragma unroll
    for (int i = 0; i < TM; ++i)
      regM[wSubRow * TM + i] = sgemm_smem[aRow + place.warpRow * WM + wSubRow * WSUBM + place.rowInWarp * TM + i];
#pragma unroll
  for (int wSubCol = 0; wSubCol < WNITER; ++wSubCol)
#pragma unroll
    for (int i = 0; i < TN; ++i)
      regN[wSubCol * TN + i] =
          sgemm_smem[bStage + k * BN + place.warpCol * WN + wSubCol * WSUBN + place.colInWarp * TN + i];
}

}  // namespace detail

// The kernels' template parameters, in SgemmTile's order (also used by the run-time header).
#define SGEMM_TUNE_TILE_PARAMS \
  int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int STAGES, int PREFETCH, int STREAMK
#define SGEMM_TUNE_TILE_ARGS BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES, PREFETCH, STREAMK

namespace detail {

// What one instantiation of the kernels' body takes.
enum : int {
  kWholeTiles = 0,        // sgemm_double_buffered: shapes the tile divides, plain aligned operands
  kPlainEdges = 1,        // sgemm_double_buffered_edges: any shape, plain aligned operands
  kAnyOperands = 2,       // sgemm_double_buffered_any: any shape, B transposed, plain A, 16-byte
                          // accesses to A and B (its siblings below: the other three)
  kTransposedAEdges = 3,  // sgemm_double_buffered_edges_transposed_a: A transposed (stored
                          // K x M), copied as it lies, with no transposing store
  kPlainEdgesNarrow = 4,  // sgemm_double_buffered_edges_narrow and _transposed_a_narrow:
  kTransposedAEdgesNarrow = 5,  // kPlainEdges and kTransposedAEdges with every access to A
                                // and B 4 bytes wide (rows not 16-byte aligned)
  kAnyTransposedA = 6,          // sgemm_double_buffered_any_transposed_a, _any_narrow and
  kAnyNarrow = 7,               // _any_transposed_a_narrow: kAnyOperands for A transposed,
  kAnyTransposedANarrow = 8,    // narrow, or both, as the edge bodies above
};

// Whether `body` is one of the four of the kernel of any operands (B transposed).
SGEMM_TUNE_HD constexpr bool is_any_body(int body) {
  return body == kAnyOperands || body == kAnyTransposedA || body == kAnyNarrow || body == kAnyTransposedANarrow;
}
// Whether `body` reads A transposed (stored K x M).
SGEMM_TUNE_HD constexpr bool body_transposes_a(int body) {
  return body == kTransposedAEdges || body == kTransposedAEdgesNarrow || body == kAnyTransposedA ||
         body == kAnyTransposedANarrow;
}
// Whether `body` reads A and B 4 bytes at a time (rows not 16-byte aligned).
SGEMM_TUNE_HD constexpr bool body_is_narrow(int body) {
  return body == kPlainEdgesNarrow || body == kTransposedAEdgesNarrow || body == kAnyNarrow ||
         body == kAnyTransposedANarrow;
}

// The body of the kernels. With kEdges (every body but kWholeTiles): any shape,
// remainders zero-filled, C guarded, never the fast kernel's stream-K, K split over the
// grid's z or, in the edge kernel, the last wave's tiles split (the tail split). No body
// reads `operands` for A's and B's layout: read at run time, the layout's branches cost
// every layout registers (a whole tile's were tuned near 255) and speed (A's orientation
// read inside the main loop made the plain A's edge kernel 16-26% slower:
// bench/NOTES.md), so the edge kernel has four bodies, kPlainEdges, kTransposedAEdges
// and their Narrow twins, each compiled for one orientation of A and one width of access,
// each a kernel of its own, and the kernel of any operands the same four for a transposed
// B (is_any_body); they read only C's bits of `operands` besides (and the tail split's and
// the scale pass's). Every kEdges
// branch folds to a constant in the fast kernel (kEdges is compile-time), so the fast
// kernel has none of the edge code; in the edge kernel some are run-time choices (guarded
// or unguarded copies and stores, below).
template <int kBody, SGEMM_TUNE_TILE_PARAMS>
__device__ __forceinline__ void sgemm_tiles(int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
                                            const float *__restrict__ B, int ldb, float beta, float *__restrict__ C,
                                            int ldc, int operands) {
  constexpr SgemmTile kTile{SGEMM_TUNE_TILE_ARGS};
  static_assert(check_tile(kTile) == TileRule::ok,
                "invalid SGEMM tile configuration: see sgemm_tune_kernels::check_tile");
  constexpr bool kEdges = kBody != kWholeTiles;
  constexpr bool kAny = is_any_body(kBody);
  constexpr int NUM_THREADS = tile_threads(kTile);
  constexpr int A_SKEW = tile_a_group_skew(kTile);
  constexpr int A_STAGE = tile_a_stage_floats(kTile);
  constexpr int B_STAGE = tile_b_stage_floats(kTile);
  constexpr int WMITER = tile_warp_m_iterations(kTile);
  constexpr int WSUBM = WM / WMITER;
  constexpr int WSUBN = WN / WNITER;
  constexpr int FRAG_SETS = PREFETCH ? 2 : 1;
  // The edge kernels never run the fast kernel's stream-K, whatever the tile says: its loop
  // over pieces of work raised their registers by up to 45 and spilled (bench/NOTES.md,
  // session 18). The edge kernel's tail split (below) balances the last wave instead, one
  // piece a block.
  constexpr bool kStreamK = STREAMK && !kEdges;

  // Whole tiles and K slices; with kEdges the last ones may be partial.
  const int tilesN = kEdges ? N / BN + (N % BN != 0) : N / BN;
  const long long tileCount = static_cast<long long>(kEdges ? M / BM + (M % BM != 0) : M / BM) * tilesN;
  const int kTilesPerTile = kEdges ? K / BK + (K % BK != 0) : K / BK;

  if (kStreamK && gridDim.z == kStreamKPreparePass) {
    detail::stream_k_prepare<BM, BN, NUM_THREADS>(ldc, beta, C, tileCount, tilesN, kTilesPerTile);
    return;
  }

  // How the body reads its operands. A's and B's orientation and A's and B's access width
  // are the body's (compile-time). C's bits are read per launch (the epilogue's branches
  // cost no registers): kOperandScalar, set where C's rows are not 16-byte aligned, narrows
  // C's accesses alone (C's loads in both kernels; the edge kernel writes a C it does not
  // read 16 bytes wide, realigned, the kernel of any operands 4 bytes). Which copies and
  // stores are guarded is decided per tile and stage: uniform branches around them, none
  // inside the K steps' FFMAs.
  constexpr bool kBodyTransA = body_transposes_a(kBody);
  constexpr bool kBodyNarrow = body_is_narrow(kBody);
  constexpr bool transA = kBodyTransA;
  constexpr bool transB = kAny;
  const bool transC = kEdges && (operands & kOperandTransC);
  constexpr bool vec = !kBodyNarrow;
  const bool vecC = !kEdges || !(operands & kOperandScalar);
  // The wide edge bodies (kWideEdges) copy every stage but the one holding K's remainder as
  // the fast kernel does, addresses from the tile's base (see `unguarded` below), and store
  // a tile inside M x N as it does; only tiles crossing M or N take the guarded stores, and
  // every tile where C is transposed or not 16-byte aligned. The fast kernel's code keeps a
  // row index times a leading dimension in an int (leading_dimensions_fit_tile): the edge
  // kernel runs a product whose leading dimensions are larger on a narrow body, guarded
  // everywhere with 64-bit offsets (edge_kernel_body).
  constexpr bool kWideEdges = kEdges && !kAny && !kBodyNarrow;
  // The tail split (kOperandTailSplit, tile_edges_tail_split): the blocks past the tiles of
  // whole waves each take a part of a split tile's K (tail_split_piece); the scale pass's
  // grid is the split tiles, the last of C's tiles.
  // Not in the kernel of any operands, whose widest tiles spill already (64 x 128 x 32: 20
  // bytes, 132 with it; nvcc sm_90): a product that needs it is not tail-split.
  const bool tailSplit = kEdges && !kAny && (operands & kOperandTailSplit);
  const int tailParts = operands >> kOperandPartsShift;
  if (kEdges && (operands & kOperandScalePass)) {
    // Split-K scales every tile of its grid, the tail split the last `rest` tiles, one a block.
    // The kernel of any operands adds an unaligned C's parts 4 bytes at a time, and prepares
    // it with the 4-byte pass it had before the realigned one (scale_tile, !REALIGN: its
    // machine code is then c2047ba's): with the realigned pass its products that split such
    // a C ran 4-13% slower (bench/results/2026-12-03-h200-narrow-factors, call5).
    const int t = static_cast<int>(tileCount - gridDim.x + blockIdx.x);
    detail::scale_tile<BM, BN, NUM_THREADS, !kAny>(tailSplit ? t / tilesN : blockIdx.y,
                                                   tailSplit ? t % tilesN : blockIdx.x, M, N, beta, C, ldc, transC,
                                                   vecC);
    return;
  }

  // Shared memory (detail::sgemm_smem): STAGES A stages, then STAGES B stages. Every stage
  // is a multiple of 4 floats because BK is, so each keeps cp.async's 16-byte alignment.
  using detail::sgemm_smem;
  constexpr int B_BASE = STAGES * A_STAGE;
  const detail::ThreadPlace place = detail::thread_place<BN, WN, WSUBN, TN>();

  const int innerRowA = threadIdx.x / (BK / 4);
  const int innerColA = threadIdx.x % (BK / 4);
  constexpr int ROW_STRIDE_A = (NUM_THREADS * 4) / BK;
  constexpr int A_PASSES = BM / ROW_STRIDE_A;

  const int innerRowB = threadIdx.x / (BN / 4);
  const int innerColB = threadIdx.x % (BN / 4);
  constexpr int ROW_STRIDE_B = NUM_THREADS / (BN / 4);
  constexpr int B_PASSES = BK / ROW_STRIDE_B;
  // A transposed B's float4s in flight at once (storeB).
  constexpr int B_ROUND = B_PASSES < 2 ? B_PASSES : 2;

  float4 aFrag[A_PASSES];
  float threadResults[WMITER * TM * WNITER * TN];
  float regM[FRAG_SETS][WMITER * TM];
  float regN[FRAG_SETS][WNITER * TN];

  // The product of one output tile over K slices [kBegin, kEnd) into threadResults.
  auto mainloop = [&](int tileRow, int tileCol, int kBegin, int kEnd) {
    const float *aTile = A + static_cast<long long>(tileRow) * BM * lda + kBegin * BK;
    const float *bTile = B + static_cast<long long>(kBegin) * BK * ldb + tileCol * BN;
    const int numTiles = kEnd - kBegin;
    // The wide bodies take the fast kernel's copies for every stage but the one holding K's
    // remainder. A tile that crosses M or N copies its stages so too, the rows and columns
    // past the operands made harmless once per tile rather than checked per element: A's
    // rows past M are read as its last row (their products land in rows of C that are
    // never stored), and B's columns past N (a transposed A's past M) are copied with a
    // source size, zero-filled, from the tile's first column when none of a thread's four
    // lies inside. Guarded per element, those tiles' blocks ran every stage slower, and in
    // a product of one wave they finish last (tail-split, 1000 x 1024 x 1024 took 0.0626
    // ms against 1024^3's 0.0570 at 64 x 128 x 32, and 0.0577 so).
    // The stage holding K's remainder goes first, in the prologue, so that the main loop
    // holds no guarded copies: the loop's code is what the instruction cache must hold,
    // and the edge kernel stalled on instruction fetch far more often than the fast kernel
    // (ncu: bench/results/2026-12-04-h200-edge-bodies, calls 2 and 3). Slice `tile` of the
    // block's K range is then slice sliceOf(tile) of it.
    const bool remainderFirst = kWideEdges && K % BK != 0 && kEnd == kTilesPerTile;
    auto sliceOf = [&](int tile) { return !remainderFirst ? tile : tile == 0 ? numTiles - 1 : tile - 1; };
    auto unguarded = [&](int slice) { return kWideEdges && detail::span_inside<BK>(kBegin + slice, K); };
    // The last of the tile's rows of A inside M (BM - 1 inside it), and the floats of B's
    // (a transposed A's) four columns that a thread copies which lie inside N (M), as
    // bytes, with the column it copies them from.
    const int mLeft = M - tileRow * BM;  // from the tile's first row of C to M
    const int aLastRow = kEdges && mLeft < BM ? mLeft - 1 : BM - 1;
    const int bBytes = detail::copy_bytes_inside(N - tileCol * BN - innerColB * 4);
    const int bCol = bBytes > 0 ? innerColB * 4 : 0;
#pragma unroll
    for (int i = 0; i < WMITER * TM * WNITER * TN; ++i) threadResults[i] = 0.0f;

    // Where a thread's float4 `pass` of a stage of a transposed A (stored K x M) lies: float4
    // f of the stage's BK rows of BM / 4, consecutive threads along M. Where the threads
    // cover whole rows, the edge kernel's body for a transposed A walks them as rows one
    // stride apart (fewer registers than dividing each pass's f).
    auto transposedAPlace = [&](int pass, int &k, int &m) {
      constexpr bool kWholeRows = kBodyTransA && NUM_THREADS % (BM / 4) == 0;
      const int f = threadIdx.x + pass * NUM_THREADS;
      k = kWholeRows ? static_cast<int>(threadIdx.x / (BM / 4)) + pass * (NUM_THREADS / (BM / 4)) : f / (BM / 4);
      m = kWholeRows ? static_cast<int>(threadIdx.x % (BM / 4)) * 4 : (f % (BM / 4)) * 4;
    };
    // A goes global -> registers -> shared (transposed); the two halves are kept apart so
    // that the compute of one tile covers the global latency of the next. A transposed A
    // already lies as the stage wants it: a copy, like B's, into `stage`.
    // `mayGuard`: the call may copy K's remainder (a constant at each call: the main loop's
    // calls in the wide bodies never do, and hold no guarded code).
    auto loadA = [&](int tileInRange, int stage, bool mayGuard) {
      const int tile = sliceOf(tileInRange);
      if (kEdges && (mayGuard || !kWideEdges) && !unguarded(tile)) {
        if (transA) {
#pragma unroll
          for (int pass = 0; pass < A_PASSES; ++pass) {
            int k, m;
            transposedAPlace(pass, k, m);
            if constexpr (kBodyNarrow)  // float m / 4 of the row and every BM / 4 after it
              detail::cp_async4_spread_guarded(&sgemm_smem[stage * A_STAGE + tile_a_offset(kTile, k, m / 4)], A,
                                               lda, (kBegin + tile) * BK + k, tileRow * BM + m / 4, BM / 4, K, M);
            else
              detail::cp_async4x_guarded(&sgemm_smem[stage * A_STAGE + tile_a_offset(kTile, k, m)], A, lda,
                                         (kBegin + tile) * BK + k, tileRow * BM + m, K, M);
          }
        } else {
#pragma unroll
          for (int pass = 0; pass < A_PASSES; ++pass)
            aFrag[pass] = detail::load4_guarded(A, lda, tileRow * BM + innerRowA + pass * ROW_STRIDE_A,
                                                (kBegin + tile) * BK + innerColA * 4, M, K, vec);
        }
        return;
      }
      if constexpr (kBodyTransA) {
        // A stage inside a transposed A (kTransposedAEdges): the K x M tile's rows of BM / 4
        // float4s, from the stage's first row.
        const float *src = A + (static_cast<long long>(kBegin + tile) * BK) * lda + tileRow * BM;
#pragma unroll
        for (int pass = 0; pass < A_PASSES; ++pass) {
          int k, m;
          transposedAPlace(pass, k, m);
          const int bytes = detail::copy_bytes_inside(mLeft - m);
          detail::cp_async16_zfill(&sgemm_smem[stage * A_STAGE + tile_a_offset(kTile, k, m)],
                                   &src[static_cast<long long>(k) * lda + (bytes > 0 ? m : 0)], bytes);
        }
        return;
      }
      const float *src = aTile + tile * BK;
#pragma unroll
      for (int pass = 0; pass < A_PASSES; ++pass) {
        int row = innerRowA + pass * ROW_STRIDE_A;
        if (kEdges) row = row < aLastRow ? row : aLastRow;
        aFrag[pass] = reinterpret_cast<const float4 *>(&src[row * lda + innerColA * 4])[0];
      }
    };
    auto storeA = [&](int stage) {
      if (transA) return;
      const int dst = stage * A_STAGE;
#pragma unroll
      for (int pass = 0; pass < A_PASSES; ++pass) {
        const int row = innerRowA + pass * ROW_STRIDE_A;
        sgemm_smem[dst + tile_a_offset(kTile, innerColA * 4 + 0, row)] = aFrag[pass].x;
        sgemm_smem[dst + tile_a_offset(kTile, innerColA * 4 + 1, row)] = aFrag[pass].y;
        sgemm_smem[dst + tile_a_offset(kTile, innerColA * 4 + 2, row)] = aFrag[pass].z;
        sgemm_smem[dst + tile_a_offset(kTile, innerColA * 4 + 3, row)] = aFrag[pass].w;
      }
    };
    // B keeps its orientation, so it is a byte copy: cp.async, no registers. A transposed
    // B (stored N x K) goes through registers like A, read along K and stored across.
    auto copyB = [&](int tileInRange, int stage, bool mayGuard) {
      const int tile = sliceOf(tileInRange);
      const float *src = bTile + static_cast<long long>(tile) * BK * ldb;
      const int dst = B_BASE + stage * B_STAGE;
      if (transB) return;  // storeB reads it
      if (kEdges && (mayGuard || !kWideEdges) && !unguarded(tile)) {
        // Past K or N: zeros, read from nowhere.
#pragma unroll
        for (int pass = 0; pass < B_PASSES; ++pass) {
          const int row = innerRowB + pass * ROW_STRIDE_B;
          if constexpr (kBodyNarrow)  // float innerColB of the row and every BN / 4 after it
            detail::cp_async4_spread_guarded(&sgemm_smem[dst + row * BN + innerColB], B, ldb,
                                             (kBegin + tile) * BK + row, tileCol * BN + innerColB, BN / 4, K, N);
          else
            detail::cp_async4x_guarded(&sgemm_smem[dst + row * BN + innerColB * 4], B, ldb,
                                       (kBegin + tile) * BK + row, tileCol * BN + innerColB * 4, K, N);
        }
        return;
      }
#pragma unroll
      for (int pass = 0; pass < B_PASSES; ++pass) {
        const int row = innerRowB + pass * ROW_STRIDE_B;
        if (kEdges)
          detail::cp_async16_zfill(&sgemm_smem[dst + row * BN + innerColB * 4], &src[row * ldb + bCol], bBytes);
        else
          detail::cp_async16(&sgemm_smem[dst + row * BN + innerColB * 4], &src[row * ldb + innerColB * 4]);
      }
    };
    // A transposed B (stored N x K) is read along K and stored across, after the stage's
    // multiplies, B_ROUND float4s at a time, in a loop the compiler keeps rolled. Holding a
    // whole stage's float4s through the multiplies, as A's are, took up to 64 more registers
    // for every operand layout (the layout is known only at run time) and spilled the tiles
    // tuned near 255; rounds of the fragments' size, unrolled, still took 13 to 33 more
    // (nvcc, sm_90: bench/NOTES.md). The latency of these loads is exposed; only products
    // with B transposed and A not pay it.
    auto storeB = [&](int tile, int stage) {
      if (!transB) return;
      const int dst = B_BASE + stage * B_STAGE;
#pragma unroll 1
      for (int first = 0; first < B_PASSES; first += B_ROUND) {
        float4 v[B_ROUND];
#pragma unroll
        for (int j = 0; j < B_ROUND; ++j) {
          // Float4 f of the BN x BK / 4 tile of B's rows: consecutive threads along N, so
          // that the stores across K land in consecutive banks.
          const int f = threadIdx.x + (first + j) * NUM_THREADS;
          if (first + j < B_PASSES)
            v[j] = detail::load4_guarded(B, ldb, tileCol * BN + f % BN, (kBegin + tile) * BK + (f / BN) * 4, N, K,
                                         vec);
        }
#pragma unroll
        for (int j = 0; j < B_ROUND; ++j) {
          const int f = threadIdx.x + (first + j) * NUM_THREADS;
          const int n = f % BN, k = (f / BN) * 4;
          if (first + j >= B_PASSES) continue;
          sgemm_smem[dst + (k + 0) * BN + n] = v[j].x;
          sgemm_smem[dst + (k + 1) * BN + n] = v[j].y;
          sgemm_smem[dst + (k + 2) * BN + n] = v[j].z;
          sgemm_smem[dst + (k + 3) * BN + n] = v[j].w;
        }
      }
    };
    // The fragments of step k of the stage at (as, bs) into fragment set `set`.
    auto loadFragments = [&](int set, int as, int bs, int k) {
      detail::load_fragments<BM, A_SKEW, BN, WM, WN, WMITER, WNITER, TM, TN>(regM[set], regN[set], as, bs, k, place);
    };

    // Prologue: fill stages 0 .. STAGES-2. One cp.async group per tile, committed even when
    // empty, so that "tile t has landed" is always "all but the newest STAGES-2 groups".
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
      if (s < numTiles) {
        loadA(s, s, true);
        storeA(s);
        copyB(s, s, true);
        storeB(s, s);
      }
      detail::cp_async_commit();
    }
    detail::cp_async_wait<STAGES - 2>();
    __syncthreads();

    int readStage = 0;
    int writeStage = STAGES - 1;
    for (int tileIdx = 0; tileIdx < numTiles; ++tileIdx) {
      // The stage written in this iteration is the one read in the previous one; the
      // barrier that ended the previous iteration makes that safe.
      const bool hasLoad = tileIdx + STAGES - 1 < numTiles;
      if (hasLoad) {
        loadA(tileIdx + STAGES - 1, writeStage, false);
        copyB(tileIdx + STAGES - 1, writeStage, false);
      }
      detail::cp_async_commit();

      const int as = readStage * A_STAGE;
      const int bs = B_BASE + readStage * B_STAGE;
      if (PREFETCH) loadFragments(0, as, bs, 0);
      // The K steps of a stage unrolled 8 at a time, not all BK: a fully unrolled stage of
      // 128 FFMAs a step outgrew the instruction cache (ncu: no_instruction stalls), and
      // unrolling by 8 took the best 4096^3 configuration from 99.1% to 100.5% of cuBLAS
      // (bench/NOTES.md). 8 is even, so PREFETCH's fragment sets stay compile-time.
      // From k * BM + (k / 4) * skew with this loop's counter the compiler cannot always
      // prove an A row's alignment and then reads A a float at a time. Walking the steps in
      // the layout's groups of four (bench/experiments/a_groups_walk.patch) makes every A
      // read a vector, yet measured the best configurations 1.7% slower: not taken.
#pragma unroll 8
      for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
        // With PREFETCH the next step's fragments are in flight while this step's FFMAs
        // issue; without, each step loads and then multiplies.
        const int set = PREFETCH ? dotIdx % 2 : 0;
        if (PREFETCH) {
          if (dotIdx + 1 < BK) loadFragments((dotIdx + 1) % 2, as, bs, dotIdx + 1);
        } else {
          loadFragments(0, as, bs, dotIdx);
        }
        detail::multiply_fragments<WMITER * TM, WNITER * TN>(threadResults, regM[set], regN[set]);
      }

      if (hasLoad) {
        storeA(writeStage);
        storeB(tileIdx + STAGES - 1, writeStage);
      }
      if (tileIdx + 1 < numTiles) {
        detail::cp_async_wait<STAGES - 2>();
        __syncthreads();
      }
      // Counters rather than XOR: the ring has STAGES slots, not two.
      readStage = readStage + 1 == STAGES ? 0 : readStage + 1;
      writeStage = writeStage + 1 == STAGES ? 0 : writeStage + 1;
    }
  };

  // alpha * threadResults (+ beta * C) into the tile's part of C, or, for a tile split
  // along K, alpha * threadResults added atomically to C that the prepare pass scaled (or
  // that split 0 of the tile's cluster stored: kOperandClusterSplit).
  auto epilogue = [&](int tileRow, int tileCol, bool accumulate) {
    float *cWarp = C + static_cast<long long>(tileRow * BM + place.warpRow * WM) * ldc + tileCol * BN +
                   place.warpCol * WN;
    // BLAS semantics: with beta == 0, C is output only and is never read (it may hold NaN).
    const bool readC = beta != 0.0f;
    // A tile inside M x N, C plain and aligned, leading dimensions within the int offsets:
    // stored as the fast kernel stores it (a split of K adding its part with atomic_add4).
    const bool guardC = kEdges && !(kWideEdges && detail::span_inside<BM>(tileRow, M) &&
                                    detail::span_inside<BN>(tileCol, N) && !transC && vecC);
    // The unguarded stores address C from the warp's corner with int offsets, as the fast
    // kernel does; leading_dimensions_fit_tile bounds them. A guarded tile's leading
    // dimension may be past that bound, and its stores address C in 64 bits: its int
    // offsets, unused, are formed from 0 so that they cannot overflow.
    const int cLd = guardC ? 0 : ldc;
    // A load of C that follows a store to C is not moved above it, so loading each float4's
    // old C just before its store waits out a load's latency per float4 (edge products, ncu
    // on the H200: 7815 x 1430 x 73 took 137 us at beta 0 and 209 us at beta 0.5, 837 x 530
    // x 143 22.6 and 28.5 us). So the edge kernel, where beta != 0 and the tile is not a
    // split of K, loads kLoadRows rows of a warp sub-tile's old C before storing any of them.
    // Rows, not the whole TM x TN sub-tile: a whole 8 x 4 one took the 64 x 64 x 16 tile from
    // 79 to 94 registers and the 64 x 128 x 16 one from 127 to 130, a block per SM less each
    // (NVRTC, sm_90). Not with C transposed (in its path below, 16 floats or one column ahead
    // took 64 x 128 x 16 to 129 registers, 3 blocks per SM instead of 4), nor in the kernel of
    // any operands, whose 64 x 128 x 32 tile (249 registers) spilled 8 to 20 bytes in every
    // form tried, down to a row at a time. Nor in the narrow bodies (rows of A or B not
    // 16-byte aligned): with the loads there, three of their products lost 7 to 11% at beta
    // 0, where the loads never run (bench/results/2026-12-02-h200-skinny-tiles, call3). The
    // fast kernel keeps its code.
    const bool loadFirst = kEdges && !kAny && !kBodyNarrow && readC && !accumulate && !transC;
    constexpr int kLoadRows = kEdges && !kAny && !kBodyNarrow ? detail::epilogue_load_rows(TM, TN) : TM;
    // C not 16-byte aligned and not read (beta 0, or a split of K adding its part): each run
    // of a thread's floats along a line of C stored 16 bytes at a time, realigned across the
    // lanes of the run's line (store_run_realigned), instead of 4 bytes at a time. Not in the
    // kernel of any operands (its widest tiles are at the edge of spilling, above).
    if constexpr (kEdges && !kAny) {
      if (!vecC && (accumulate || !readC) && (!transC || TM % 4 == 0)) {
        constexpr int kLanesAlongN = WSUBN / TN, kLanesAlongM = kWarpSize / kLanesAlongN;
        constexpr int kRow = WNITER * TN;  // threadResults between consecutive rows
        if constexpr (TM % 4 == 0) {
          if (transC) {
            // A thread's TM rows of one column are a run of a line of the N x M matrix C holds.
#pragma unroll
            for (int wSubRow = 0; wSubRow < WMITER; ++wSubRow)
#pragma unroll
              for (int wSubCol = 0; wSubCol < WNITER; ++wSubCol)
#pragma unroll
                for (int n = 0; n < TN; ++n) {
                  const int row = tileRow * BM + place.warpRow * WM + wSubRow * WSUBM + place.rowInWarp * TM;
                  const int col = tileCol * BN + place.warpCol * WN + wSubCol * WSUBN + place.colInWarp * TN + n;
                  float run[TM];
#pragma unroll
                  for (int m = 0; m < TM; ++m)
                    run[m] = alpha * threadResults[(wSubRow * TM + m) * kRow + wSubCol * TN + n];
                  detail::store_run_realigned<TM>(C, ldc, col, row, N, M, run, kLanesAlongN, place.rowInWarp == 0,
                                                  place.rowInWarp == kLanesAlongM - 1, accumulate);
                }
            return;
          }
        }
#pragma unroll
        for (int wSubRow = 0; wSubRow < WMITER; ++wSubRow)
#pragma unroll
          for (int m = 0; m < TM; ++m)
#pragma unroll
            for (int wSubCol = 0; wSubCol < WNITER; ++wSubCol) {
              const int row = tileRow * BM + place.warpRow * WM + wSubRow * WSUBM + place.rowInWarp * TM + m;
              const int col = tileCol * BN + place.warpCol * WN + wSubCol * WSUBN + place.colInWarp * TN;
              float run[TN];
#pragma unroll
              for (int n = 0; n < TN; ++n) run[n] = alpha * threadResults[(wSubRow * TM + m) * kRow + wSubCol * TN + n];
              detail::store_run_realigned<TN>(C, ldc, row, col, M, N, run, 1, place.colInWarp == 0,
                                              place.colInWarp == kLanesAlongN - 1, accumulate);
            }
        return;
      }
    }
    if constexpr (kEdges && !kAny && TM % 4 == 0) {
      // C stored transposed: the product's element (row, col) at C[col * ldc + row], so a
      // thread's TM rows of one column lie next to each other. Stored four rows at a time,
      // as rows of the N x M matrix C holds, neighbouring threads' runs adjoin: whole
      // sectors, where one element per column at stride ldc took a sector each. Not in the
      // kernel of any operands, whose registers it would push into spills (64 x 128 tile:
      // 249 -> 255 and 20 bytes spilled, NVRTC sm_90); a product whose C is transposed
      // (A^T B^T as (B A)^T) reaches it plain or packed.
      if (transC) {
#pragma unroll
        for (int wSubRow = 0; wSubRow < WMITER; ++wSubRow)
#pragma unroll
          for (int wSubCol = 0; wSubCol < WNITER; ++wSubCol)
#pragma unroll
            for (int n = 0; n < TN; ++n)
#pragma unroll
              for (int m = 0; m < TM; m += 4) {
                const int row = tileRow * BM + place.warpRow * WM + wSubRow * WSUBM + place.rowInWarp * TM + m;
                const int col = tileCol * BN + place.warpCol * WN + wSubCol * WSUBN + place.colInWarp * TN + n;
                const int acc = (wSubRow * TM + m) * (WNITER * TN) + wSubCol * TN + n;
                constexpr int kRow = WNITER * TN;  // threadResults between consecutive rows
                const float4 out = make_float4(alpha * threadResults[acc], alpha * threadResults[acc + kRow],
                                               alpha * threadResults[acc + 2 * kRow],
                                               alpha * threadResults[acc + 3 * kRow]);
                detail::store4_guarded(C, ldc, col, row, N, M, out, beta, readC, vecC, accumulate);
              }
        return;
      }
    }
#pragma unroll
    for (int wSubRow = 0; wSubRow < WMITER; ++wSubRow) {
#pragma unroll
      for (int wSubCol = 0; wSubCol < WNITER; ++wSubCol) {
        float *cSub = cWarp + (wSubRow * WSUBM) * cLd + wSubCol * WSUBN;
        float4 cOld[kLoadRows * TN / 4];
#pragma unroll
        for (int m = 0; m < TM; ++m) {
          if (loadFirst && m % kLoadRows == 0) {
#pragma unroll
            for (int r = 0; r < kLoadRows; ++r)
#pragma unroll
              for (int n = 0; n < TN; n += 4) {
                const int row = tileRow * BM + place.warpRow * WM + wSubRow * WSUBM + place.rowInWarp * TM + m + r;
                const int col = tileCol * BN + place.warpCol * WN + wSubCol * WSUBN + place.colInWarp * TN + n;
                float4 &o = cOld[(r * TN + n) / 4];
                if (guardC)
                  o = detail::load4_guarded(C, ldc, row, col, M, N, vecC);
                else
                  o = *reinterpret_cast<const float4 *>(
                      &cSub[(place.rowInWarp * TM + m + r) * cLd + place.colInWarp * TN + n]);
              }
          }
#pragma unroll
          for (int n = 0; n < TN; n += 4) {
            float4 *cPtr = reinterpret_cast<float4 *>(
                &cSub[(place.rowInWarp * TM + m) * cLd + place.colInWarp * TN + n]);
            const int acc = (wSubRow * TM + m) * (WNITER * TN) + wSubCol * TN + n;
            float4 out = make_float4(alpha * threadResults[acc + 0], alpha * threadResults[acc + 1],
                                     alpha * threadResults[acc + 2], alpha * threadResults[acc + 3]);
            if (loadFirst) {
              const float4 o = cOld[(m % kLoadRows * TN + n) / 4];
              out.x += beta * o.x;
              out.y += beta * o.y;
              out.z += beta * o.z;
              out.w += beta * o.w;
            }
            if (guardC) {
              const int row = tileRow * BM + place.warpRow * WM + wSubRow * WSUBM + place.rowInWarp * TM + m;
              const int col = tileCol * BN + place.warpCol * WN + wSubCol * WSUBN + place.colInWarp * TN + n;
              detail::store4_guarded(C, ldc, row, col, M, N, out, beta, readC && !loadFirst, vecC, accumulate,
                                     transC);
              continue;
            }
            if ((kStreamK || kEdges) && accumulate) {
              detail::atomic_add4(cPtr, out);
              continue;
            }
            if (readC && !loadFirst) {
              const float4 old = cPtr[0];
              out.x += beta * old.x;
              out.y += beta * old.y;
              out.z += beta * old.z;
              out.w += beta * old.w;
            }
            cPtr[0] = out;
          }
        }
      }
    }
  };

  if constexpr (kEdges) {
    // A split of K (grid z > 1) adds its slices' part into C, which the scale pass set to
    // beta C (or split 0 stored, below); a split left without slices has nothing to add. One piece of work a block: a
    // loop over pieces, as the fast kernel's stream-K runs, kept the main loop's invariants
    // live across it (nvcc sm_90: 144 -> 168 registers and spills at 64 x 128 x 32).
    int tileRow = blockIdx.y, tileCol = blockIdx.x;
    KSliceRange r = split_k_range(kTile, K, gridDim.z, blockIdx.z);
    bool accumulate = gridDim.z > 1;
    if (tailSplit) {
      const TailPiece piece = tail_split_piece(static_cast<int>(tileCount), static_cast<int>(gridDim.x), tailParts,
                                               static_cast<int>(blockIdx.x));
      if (piece.part >= 0) {
        r = split_k_range(kTile, K, tailParts, piece.part);
        accumulate = true;
      }
      tileRow = piece.tile / tilesN;
      tileCol = piece.tile % tilesN;
    }
    // A split run as clusters: split 0 (which always has slices) stores its part with beta
    // C as an unsplit tile does, and the others add theirs after the cluster's barrier,
    // where split 0 arrives once its stores are fenced. Every block arrives once, one
    // without slices too. No scale pass, a second launch, has run before.
    const bool clusterSplit = !tailSplit && (operands & kOperandClusterSplit) && gridDim.z > 1;
    // Launched without clusters (each block its own cluster), the barrier would wait for
    // nobody and the splits would race: a trap instead.
    if (clusterSplit && detail::cluster_blocks() != gridDim.z) __trap();
    const bool firstOfCluster = clusterSplit && blockIdx.z == 0;
    if (r.begin == r.end) {
      if (clusterSplit) detail::cluster_barrier();
      return;
    }
    mainloop(tileRow, tileCol, r.begin, r.end);
    if (clusterSplit && !firstOfCluster) detail::cluster_barrier();
    epilogue(tileRow, tileCol, accumulate && !firstOfCluster);
    if (firstOfCluster) {
      __threadfence();
      detail::cluster_barrier();
    }
    return;
  }
  if (!kStreamK) {
    mainloop(blockIdx.y, blockIdx.x, 0, kTilesPerTile);
    epilogue(blockIdx.y, blockIdx.x, false);
    return;
  }

  // Stream-K: whole tiles wave by wave, then an even share of the last wave's K slices
  // (stream_k_cursor). One loop and one call of the main loop, so that it is inlined once.
  StreamKCursor work = stream_k_cursor(blockIdx.x, tileCount, kTilesPerTile, gridDim.x);
  long long t = 0;
  int kBegin = 0, kEnd = 0;
  while (work.next(t, kBegin, kEnd)) {
    const int tileRow = static_cast<int>(t / tilesN), tileCol = static_cast<int>(t % tilesN);
    mainloop(tileRow, tileCol, kBegin, kEnd);
    // A tile this block covers whole was not split, and the prepare pass left it alone.
    epilogue(tileRow, tileCol, !(kBegin == 0 && kEnd == kTilesPerTile));
    // The next tile's prologue overwrites stages that slower warps may still be reading.
    __syncthreads();
  }
}

}  // namespace detail

template <SGEMM_TUNE_TILE_PARAMS>
__global__ void __launch_bounds__(tile_threads(SgemmTile{SGEMM_TUNE_TILE_ARGS}))
sgemm_double_buffered(int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
                      const float *__restrict__ B, int ldb, float beta, float *__restrict__ C, int ldc) {
  detail::sgemm_tiles<detail::kWholeTiles, SGEMM_TUNE_TILE_ARGS>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 0);
}

namespace detail {

// The body of kernel sgemm_double_buffered_edges* or _any* that the host picks for
// `operands` and these leading dimensions (edge_kernel_body; B transposed or not, as the
// kernel is one of any operands or not): a launch meant for another body traps rather than
// read its operands wrongly.
template <int kBody, int kEdgeBody, SGEMM_TUNE_TILE_PARAMS>
__device__ __forceinline__ void edge_body(int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
                                          const float *__restrict__ B, int ldb, float beta, float *__restrict__ C,
                                          int ldc, int operands) {
  // Each macro line below pairs a body with its kEdgeBody* number: checked here, since a
  // mismatch would pass the run-time check below and read the operands wrongly.
  static_assert(body_transposes_a(kBody) ==
                        (kEdgeBody == kEdgeBodyTransposedA || kEdgeBody == kEdgeBodyTransposedANarrow) &&
                    body_is_narrow(kBody) == (kEdgeBody == kEdgeBodyNarrow || kEdgeBody == kEdgeBodyTransposedANarrow),
                "an edge kernel's body and its kEdgeBody* number disagree");
  if (edge_kernel_body(SgemmTile{SGEMM_TUNE_TILE_ARGS}, operands, lda, ldb, ldc) != kEdgeBody ||
      is_any_body(kBody) != ((operands & kOperandTransB) != 0))
    __trap();
  sgemm_tiles<kBody, SGEMM_TUNE_TILE_ARGS>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, operands);
}

}  // namespace detail

// The edge kernel and the kernel of any operands, one kernel per body (kEdgeBody* in
// sgemm_tile_rules.h, which says why).
#define SGEMM_TUNE_EDGE_KERNEL(name, body, edge_body_id)                                                           \
  template <SGEMM_TUNE_TILE_PARAMS>                                                                               \
  __global__ void __launch_bounds__(tile_threads(SgemmTile{SGEMM_TUNE_TILE_ARGS}))                               \
      name(int M, int N, int K, float alpha, const float *__restrict__ A, int lda, const float *__restrict__ B,     \
           int ldb, float beta, float *__restrict__ C, int ldc, int operands) {                                     \
    detail::edge_body<detail::body, edge_body_id, SGEMM_TUNE_TILE_ARGS>(M, N, K, alpha, A, lda, B, ldb, beta, C,   \
                                                                       ldc, operands);                             \
  }
SGEMM_TUNE_EDGE_KERNEL(sgemm_double_buffered_edges, kPlainEdges, kEdgeBodyPlain)
SGEMM_TUNE_EDGE_KERNEL(sgemm_double_buffered_edges_transposed_a, kTransposedAEdges, kEdgeBodyTransposedA)
SGEMM_TUNE_EDGE_KERNEL(sgemm_double_buffered_edges_narrow, kPlainEdgesNarrow, kEdgeBodyNarrow)
SGEMM_TUNE_EDGE_KERNEL(sgemm_double_buffered_edges_transposed_a_narrow, kTransposedAEdgesNarrow,
                       kEdgeBodyTransposedANarrow)
SGEMM_TUNE_EDGE_KERNEL(sgemm_double_buffered_any, kAnyOperands, kEdgeBodyPlain)
SGEMM_TUNE_EDGE_KERNEL(sgemm_double_buffered_any_transposed_a, kAnyTransposedA, kEdgeBodyTransposedA)
SGEMM_TUNE_EDGE_KERNEL(sgemm_double_buffered_any_narrow, kAnyNarrow, kEdgeBodyNarrow)
SGEMM_TUNE_EDGE_KERNEL(sgemm_double_buffered_any_transposed_a_narrow, kAnyTransposedANarrow,
                       kEdgeBodyTransposedANarrow)
#undef SGEMM_TUNE_EDGE_KERNEL

}  // namespace sgemm_tune_kernels

