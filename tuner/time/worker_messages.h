// The messages between the tuner and its measurement worker: one JSON object per line,
// through nlohmann's to_json / from_json. A measure request is followed on the pipe by the
// cubin's bytes, then its companions' (edge kernels), in the order it lists them. Reading checks every field: a message that is not JSON, lacks a field, has
// one of the wrong type, names an unknown status or carries a tile that breaks the kernel's
// rules is a WireError that names the message and the field, never a guess.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "tuner/time/candidate_bench.h"

namespace sgemm_tune {

class WireError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Requests, told apart by their "op".
struct InitRequest {  // op "init": open the GPU, set up the shapes, time cuBLAS
  static constexpr const char *kOp = "init";
  BenchConfig config;
};
struct CompanionCode {  // an edge kernel's cubin that follows a measure request
  KernelVariant variant = KernelVariant::edges;  // "edges" or "any"
  std::string symbol;
  std::size_t cubin_size = 0;
  EdgeBodies bodies = kEveryEdgeBody;  // the bodies the cubin holds
};
struct MeasureRequest {  // op "measure": verify and time one candidate
  static constexpr const char *kOp = "measure";
  SgemmTile tile{};
  std::string symbol;                // the kernel's lowered name in the cubin
  std::vector<std::size_t> shapes;   // indices into the configured shapes
  std::vector<double> best_ms;       // per shape asked for: the best so far (0: none)
  std::size_t cubin_size = 0;        // bytes that follow the line
  std::vector<CompanionCode> companions;  // their cubins follow the kernel's
};
struct CublasRequest {  // op "cublas": time cuBLAS again at one shape
  static constexpr const char *kOp = "cublas";
  std::size_t shape = 0;
};
// The request for a compiled candidate (its cubins are sent after the line).
MeasureRequest measure_request(const CompiledKernel &kernel, std::vector<std::size_t> shapes,
                               std::vector<double> best_ms);

using WorkerRequest = std::variant<InitRequest, MeasureRequest, CublasRequest>;

// Replies, one per request, in the request's order.
struct InitReply {
  static constexpr const char *kName = "init reply";
  std::vector<Timing> baselines;  // cuBLAS at each configured shape
};
struct MeasureReply {
  static constexpr const char *kName = "measure reply";
  CandidateMeasurement measurement;
  bool fatal = false;  // the candidate broke the worker's CUDA context: it exits after this
};
struct CublasReply {
  static constexpr const char *kName = "cublas reply";
  Timing timing;
};
// What the worker answers instead when it cannot do what was asked.
struct WorkerFailure {
  std::string error;
  bool user_error = false;  // the user's to fix (no GPU, too little memory): a UserError
};

void to_json(nlohmann::json &j, const Shape &s);  // "MxNxK"
void from_json(const nlohmann::json &j, Shape &s);
void to_json(nlohmann::json &j, const TimingSettings &t);
void from_json(const nlohmann::json &j, TimingSettings &t);
void to_json(nlohmann::json &j, const VerifySettings &v);
void from_json(const nlohmann::json &j, VerifySettings &v);
void to_json(nlohmann::json &j, const Verification &v);
void from_json(const nlohmann::json &j, Verification &v);
void to_json(nlohmann::json &j, const Timing &t);
void from_json(const nlohmann::json &j, Timing &t);
void to_json(nlohmann::json &j, const Measurement &m);
void from_json(const nlohmann::json &j, Measurement &m);
void to_json(nlohmann::json &j, const BenchConfig &c);
void from_json(const nlohmann::json &j, BenchConfig &c);
void to_json(nlohmann::json &j, const InitRequest &r);
void from_json(const nlohmann::json &j, InitRequest &r);
void to_json(nlohmann::json &j, const MeasureRequest &r);
void from_json(const nlohmann::json &j, MeasureRequest &r);
void to_json(nlohmann::json &j, const CublasRequest &r);
void from_json(const nlohmann::json &j, CublasRequest &r);
void to_json(nlohmann::json &j, const InitReply &r);
void from_json(const nlohmann::json &j, InitReply &r);
void to_json(nlohmann::json &j, const MeasureReply &r);
void from_json(const nlohmann::json &j, MeasureReply &r);
void to_json(nlohmann::json &j, const CublasReply &r);
void from_json(const nlohmann::json &j, CublasReply &r);
void to_json(nlohmann::json &j, const WorkerFailure &f);
void from_json(const nlohmann::json &j, WorkerFailure &f);

// A message as one line of the wire, newline included.
std::string wire_line(const nlohmann::json &message);

// A request line, told apart by its "op". Throws WireError.
WorkerRequest read_request(const std::string &line);

// The reply to a request. A WorkerFailure in its place is thrown: as UserError when it is
// the user's to fix, else as std::runtime_error. Throws WireError for anything malformed.
template <class Reply>
Reply read_reply(const std::string &line);

}  // namespace sgemm_tune
