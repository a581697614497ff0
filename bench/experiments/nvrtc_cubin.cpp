// One instantiation of the kernel template compiled by NVRTC as the tuner compiles it
// (sm_90, C++17, no -default-device, so that code NVRTC would refuse is refused here too),
// written as a cubin and its PTX for cuobjdump and sass_loops.py; prints ptxas's
// registers and spills. Needs no GPU.
//   g++ -O1 -o nvrtc_cubin bench/experiments/nvrtc_cubin.cpp -I/usr/local/cuda/include
//       -L/usr/local/cuda/lib64 -lnvrtc -Wl,-rpath,/usr/local/cuda/lib64   (one line)
//   ./nvrtc_cubin TEMPLATE_DIR "sgemm_tune_kernels::sgemm_double_buffered<64,128,32,32,128,4,8,4,2,0,1>" out.cubin
//   (writes out.cubin and out.cubin.ptx)
#include <nvrtc.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s TEMPLATE_DIR NAME_EXPRESSION OUT.cubin\n", argv[0]);
    return 2;
  }
  const std::string include = std::string("-I") + argv[1], name = argv[2], out = argv[3];
  const char *source = "#include \"sgemm_double_buffered.cuh\"\n";
  nvrtcProgram program;
  if (nvrtcCreateProgram(&program, source, "instance.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) return 1;
  nvrtcAddNameExpression(program, ("&" + name).c_str());
  // The tuner's options (tuner/compile/nvrtc_compiler.cpp), ptxas's register usage level
  // included.
  const std::vector<const char *> options = {"--gpu-architecture=sm_90", "--std=c++17", include.c_str(),
                                             "--ptxas-options=--verbose",
                                             "--ptxas-options=--register-usage-level=10"};
  const nvrtcResult result = nvrtcCompileProgram(program, static_cast<int>(options.size()), options.data());
  std::size_t size = 0;
  nvrtcGetProgramLogSize(program, &size);
  std::string log(size, '\0');
  nvrtcGetProgramLog(program, log.data());
  std::fprintf(stderr, "%s\n", log.c_str());
  if (result != NVRTC_SUCCESS) return 1;
  nvrtcGetCUBINSize(program, &size);
  std::string cubin(size, '\0');
  nvrtcGetCUBIN(program, cubin.data());
  std::ofstream(out, std::ios::binary).write(cubin.data(), static_cast<std::streamsize>(size));
  nvrtcGetPTXSize(program, &size);
  std::string ptx(size, '\0');
  nvrtcGetPTX(program, ptx.data());
  std::ofstream(out + ".ptx") << ptx.c_str();
  nvrtcDestroyProgram(&program);
  return 0;
}
