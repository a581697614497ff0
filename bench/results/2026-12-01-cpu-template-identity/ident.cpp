// Fast kernel and edge kernel cubins of the same tiles under two template folders.
#include <cstdio>
#include "tuner/compile/nvrtc_compiler.h"
#include "tuner/compile/kernel_source.h"
using namespace sgemm_tune;
int main(int argc, char **argv) {
  const KernelSource a = KernelSource::from_directory(argv[1]), b = KernelSource::from_directory(argv[2]);
  const SgemmTile tiles[] = {{64,128,32,32,128,4,8,4,2,0,1},{64,128,32,32,64,2,8,4,2,0,1},{64,128,16,32,64,2,8,4,2,0,1},
    {64,64,16,32,64,2,8,4,3,1,1},{64,64,32,32,64,2,8,4,2,1,0},{64,256,32,32,128,2,8,4,2,1,1},{64,64,16,32,32,1,4,4,2,0,1},
    {128,128,32,32,64,2,8,4,2,1,1},{128,64,16,64,32,2,4,4,2,0,0},{128,256,32,128,32,1,8,8,2,0,0}};
  CompileOptions o; o.arch = "sm_90";
  int differ = 0;
  for (const SgemmTile &t : tiles) {
    for (auto v : {KernelVariant::exact, KernelVariant::edges, KernelVariant::any}) {
      const CompiledKernel x = compile_kernel(a, o, t, v), y = compile_kernel(b, o, t, v);
      const char *name = v == KernelVariant::exact ? "fast" : v == KernelVariant::edges ? "edge" : "any";
      const bool same = x.cubin == y.cubin;
      if (!same && v == KernelVariant::exact) ++differ;
      std::printf("%-80s %-4s cubin %s, registers %d -> %d, spills %d -> %d\n", describe_tile(t).c_str(), name,
                  same ? "identical" : "differs", x.usage.registers, y.usage.registers, x.usage.spill_store_bytes,
                  y.usage.spill_store_bytes);
    }
  }
  std::printf("fast kernels that differ: %d\n", differ);
  return differ != 0;
}
