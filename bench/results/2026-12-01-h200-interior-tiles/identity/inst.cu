#include "sgemm_double_buffered.cuh"
using namespace sgemm_tune_kernels;
const void *kernels[] = {
    (const void *)&sgemm_double_buffered_edges<64, 128, 32, 32, 128, 4, 8, 4, 2, 0, 1>,
    (const void *)&sgemm_double_buffered_any<64, 128, 32, 32, 128, 4, 8, 4, 2, 0, 1>,
    (const void *)&sgemm_double_buffered_edges<128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0>,
    (const void *)&sgemm_double_buffered<64, 128, 32, 32, 128, 4, 8, 4, 2, 0, 1>,
};
