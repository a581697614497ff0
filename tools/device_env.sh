# Sourced by a script that runs on a GPU machine with binaries built elsewhere
# (tools/pack_for_device.sh): `source tools/device_env.sh`. Finds CUDA's libraries (lib64 or
# lib, as the machine's CUDA lays them out) and exports what the tuner and the GPU tests
# read: SGEMM_TUNE_CUDA_LIBRARY_DIR (cuBLAS and the runtime for the measurement worker),
# SGEMM_TUNE_NVCC (the tests that build programs against an emitted header), PATH and
# LD_LIBRARY_PATH. CUDA_HOME overrides /usr/local/cuda.
cuda_home=${CUDA_HOME:-/usr/local/cuda}
cuda_lib=$cuda_home/lib64
[ -e "$cuda_home/lib/libcublas.so" ] && cuda_lib=$cuda_home/lib
export SGEMM_TUNE_CUDA_LIBRARY_DIR=$cuda_lib
export SGEMM_TUNE_NVCC=$cuda_home/bin/nvcc
export PATH=$cuda_home/bin:$PATH
export LD_LIBRARY_PATH=$cuda_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
unset cuda_home cuda_lib
