// Compiles the kernels named on the command line from TEMPLATE_DIR with NVRTC (sm_90) and
// writes the cubin to OUT: nv TEMPLATE_DIR OUT NAME...
#include <nvrtc.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
static std::string slurp(const std::string &p) { std::ifstream f(p); std::stringstream s; s << f.rdbuf(); return s.str(); }
int main(int argc, char **argv) {
  std::string dir = argv[1];
  std::string a = slurp(dir + "/sgemm_double_buffered.cuh"), b = slurp(dir + "/sgemm_tile_rules.h");
  const char *hs[] = {a.c_str(), b.c_str()}, *hn[] = {"sgemm_double_buffered.cuh", "sgemm_tile_rules.h"};
  nvrtcProgram p;
  nvrtcCreateProgram(&p, "#include \"sgemm_double_buffered.cuh\"\n", "k.cu", 2, hs, hn);
  for (int i = 3; i < argc; ++i) nvrtcAddNameExpression(p, argv[i]);
  const char *opts[] = {"-arch=sm_90", "-std=c++17"};
  nvrtcResult r = nvrtcCompileProgram(p, 2, opts);
  if (r != NVRTC_SUCCESS) { size_t n; nvrtcGetProgramLogSize(p, &n); std::string log(n, 0); nvrtcGetProgramLog(p, &log[0]); std::fprintf(stderr, "%s\n", log.c_str()); return 1; }
  size_t n; nvrtcGetCUBINSize(p, &n); std::vector<char> c(n); nvrtcGetCUBIN(p, c.data());
  std::ofstream(argv[2], std::ios::binary).write(c.data(), n);
  return 0;
}
