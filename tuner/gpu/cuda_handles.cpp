#include "tuner/gpu/cuda_handles.h"

#include "tuner/common/errors.h"
#include "tuner/gpu/cuda_check.h"

namespace sgemm_tune {

CudaStream CudaStream::create() {
  cudaStream_t s = nullptr;
  SGEMM_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return CudaStream(s);
}

CudaEvent CudaEvent::create() {
  cudaEvent_t e = nullptr;
  SGEMM_CUDA_CHECK(cudaEventCreate(&e));
  return CudaEvent(e);
}

CublasHandle CublasHandle::create(cudaStream_t stream) {
  cublasHandle_t h = nullptr;
  SGEMM_CUBLAS_CHECK(cublasCreate(&h));
  CublasHandle handle(h);
  SGEMM_CUBLAS_CHECK(cublasSetStream(h, stream));
  // The reference is cuBLAS's plain FP32 path, as users call it: no TF32 tensor cores.
  SGEMM_CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  return handle;
}

DeviceFloats DeviceFloats::allocate(std::size_t count, const std::string &what) {
  void *p = nullptr;
  const cudaError_t err = cudaMalloc(&p, count * sizeof(float));
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky: clear it
    size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    throw UserError("not enough GPU memory for " + what + ": " + std::to_string(count * sizeof(float) >> 20) +
                    " MiB asked, " + std::to_string(free_bytes >> 20) + " MiB free");
  }
  if (err != cudaSuccess) throw_cuda_error(err, "cudaMalloc", __FILE__, __LINE__);
  DeviceFloats buffer(p);
  buffer.count_ = count;
  return buffer;
}

LoadedKernel LoadedKernel::load(const std::string &cubin, const std::string &symbol) {
  LoadedKernel out;
  cudaLibrary_t lib = nullptr;
  SGEMM_CUDA_CHECK(cudaLibraryLoadData(&lib, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  out.library_ = UniqueHandle<cudaLibrary_t, LibraryDeleter>(lib);
  SGEMM_CUDA_CHECK(cudaLibraryGetKernel(&out.kernel_, lib, symbol.c_str()));
  return out;
}

cudaKernel_t LoadedKernel::other(const std::string &symbol) const {
  cudaKernel_t kernel = nullptr;
  SGEMM_CUDA_CHECK(cudaLibraryGetKernel(&kernel, library_.get(), symbol.c_str()));
  return kernel;
}

}  // namespace sgemm_tune
