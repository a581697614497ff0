// One move-only owner per CUDA handle. Destructors never throw: a failed release during
// unwinding must not hide the error that caused it.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

namespace sgemm_tune {

template <typename Handle, typename Deleter>
class UniqueHandle {
 public:
  UniqueHandle() = default;
  explicit UniqueHandle(Handle h) : h_(h) {}
  ~UniqueHandle() { reset(); }
  UniqueHandle(UniqueHandle &&o) noexcept : h_(std::exchange(o.h_, Handle{})) {}
  UniqueHandle &operator=(UniqueHandle &&o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, Handle{});
    }
    return *this;
  }
  UniqueHandle(const UniqueHandle &) = delete;
  UniqueHandle &operator=(const UniqueHandle &) = delete;

  Handle get() const { return h_; }
  explicit operator bool() const { return h_ != Handle{}; }
  void reset() noexcept {
    if (h_ != Handle{}) Deleter{}(h_);
    h_ = Handle{};
  }

 private:
  Handle h_{};
};

struct StreamDeleter { void operator()(cudaStream_t s) const noexcept { cudaStreamDestroy(s); } };
struct EventDeleter { void operator()(cudaEvent_t e) const noexcept { cudaEventDestroy(e); } };
struct LibraryDeleter { void operator()(cudaLibrary_t l) const noexcept { cudaLibraryUnload(l); } };
struct CublasDeleter { void operator()(cublasHandle_t h) const noexcept { cublasDestroy(h); } };
struct GraphDeleter { void operator()(cudaGraph_t g) const noexcept { cudaGraphDestroy(g); } };
struct GraphExecDeleter { void operator()(cudaGraphExec_t g) const noexcept { cudaGraphExecDestroy(g); } };
struct DeviceMemoryDeleter { void operator()(void *p) const noexcept { cudaFree(p); } };

class CudaStream : public UniqueHandle<cudaStream_t, StreamDeleter> {
 public:
  static CudaStream create();
  using UniqueHandle::UniqueHandle;
};

class CudaEvent : public UniqueHandle<cudaEvent_t, EventDeleter> {
 public:
  static CudaEvent create();
  using UniqueHandle::UniqueHandle;
};

class CublasHandle : public UniqueHandle<cublasHandle_t, CublasDeleter> {
 public:
  static CublasHandle create(cudaStream_t stream);
  using UniqueHandle::UniqueHandle;
};

// Device memory for `count` floats.
class DeviceFloats : public UniqueHandle<void *, DeviceMemoryDeleter> {
 public:
  // Throws UserError when the GPU has too little memory, naming what was asked for.
  static DeviceFloats allocate(std::size_t count, const std::string &what);
  float *data() const { return static_cast<float *>(get()); }
  std::size_t count() const { return count_; }

 private:
  using UniqueHandle::UniqueHandle;
  std::size_t count_ = 0;
};

// A cubin loaded through the runtime's library API (no libcuda link needed), and one of
// its kernels.
class LoadedKernel {
 public:
  // Throws CudaError.
  static LoadedKernel load(const std::string &cubin, const std::string &symbol);
  cudaKernel_t kernel() const { return kernel_; }
  const void *function() const { return reinterpret_cast<const void *>(kernel_); }
  // Another kernel of the same cubin, by its mangled name (an edge kernel's other bodies).
  // Throws CudaError.
  cudaKernel_t other(const std::string &symbol) const;

 private:
  UniqueHandle<cudaLibrary_t, LibraryDeleter> library_;
  cudaKernel_t kernel_ = nullptr;
};

}  // namespace sgemm_tune
