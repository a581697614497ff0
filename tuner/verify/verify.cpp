#include "tuner/verify/verify.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "tuner/gpu/cuda_check.h"
#include "tuner/gpu/device_kernels.h"

namespace sgemm_tune {

Verification verify_against_cublas(const std::function<void(const GemmArgs &)> &candidate, ShapeWorkspace &ws,
                                   cublasHandle_t cublas, cudaStream_t stream, std::uint64_t seed,
                                   const VerifySettings &settings) {
  const Shape &s = ws.shape();
  const std::size_t c_count = static_cast<std::size_t>(s.M) * static_cast<std::size_t>(s.N);
  GemmArgs args = ws.args(0, 1.0f, 0.0f);
  fill_uniform(const_cast<float *>(args.A), static_cast<std::size_t>(s.M) * s.K, seed, stream);
  fill_uniform(const_cast<float *>(args.B), static_cast<std::size_t>(s.K) * s.N, seed + 1, stream);

  Verification v;
  // beta == 0: reference, then the candidate over a NaN-filled C.
  GemmArgs ref = args;
  ref.C = ws.reference();
  launch_cublas(cublas, ref);
  fill_value(args.C, c_count, std::numeric_limits<float>::quiet_NaN(), stream);
  candidate(args);
  const ErrorNorms e0 = error_norms(args.C, ws.reference(), c_count, ws.scratch(), stream);
  v.error_beta0 = e0.relative();
  v.nonfinite = e0.nonfinite;

  // beta != 0: both start from the same random C.
  const float beta = static_cast<float>(settings.beta);
  fill_uniform(ws.c_before(), c_count, seed + 2, stream);
  SGEMM_CUDA_CHECK(cudaMemcpyAsync(ws.reference(), ws.c_before(), c_count * sizeof(float), cudaMemcpyDeviceToDevice, stream));
  SGEMM_CUDA_CHECK(cudaMemcpyAsync(args.C, ws.c_before(), c_count * sizeof(float), cudaMemcpyDeviceToDevice, stream));
  ref.beta = beta;
  args.beta = beta;
  launch_cublas(cublas, ref);
  candidate(args);
  const ErrorNorms e1 = error_norms(args.C, ws.reference(), c_count, ws.scratch(), stream);
  v.error_beta = e1.relative();
  v.nonfinite += e1.nonfinite;

  std::ostringstream why;
  if (e0.nonfinite) why << e0.nonfinite << " elements NaN or infinite with beta = 0 (unwritten, or C was read); ";
  if (e1.nonfinite) why << e1.nonfinite << " elements NaN or infinite with beta = " << settings.beta << "; ";
  if (!(v.error_beta0 <= settings.tolerance)) why << "relative error " << v.error_beta0 << " with beta = 0; ";
  if (!(v.error_beta <= settings.tolerance)) why << "relative error " << v.error_beta << " with beta = " << settings.beta << "; ";
  v.detail = why.str();
  if (!v.detail.empty()) {
    v.detail.resize(v.detail.size() - 2);
    v.detail += " (tolerance " + std::to_string(settings.tolerance) + ")";
  }
  v.passed = v.detail.empty();
  return v;
}

}  // namespace sgemm_tune
