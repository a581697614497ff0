// The measurement worker: `sgemm-tune __measure-worker`, started by the tuner itself
// (isolated_bench.cpp) so that a candidate that faults or hangs ends this process, not
// the tuning.
#pragma once

namespace sgemm_tune {

// Reads requests on stdin and answers on stdout (worker_messages.h) until stdin closes.
// Returns the process's exit status: 0 at the end of input; otherwise after answering
// with why it cannot go on (a malformed request, a failed start, a broken CUDA context).
int run_measure_worker();

}  // namespace sgemm_tune
