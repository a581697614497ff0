#include "tuner/time/worker_messages.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tuner/common/errors.h"
#include "tuner/space/tile_json.h"

namespace sgemm_tune {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string &what) { throw WireError(what); }

std::string got(const json &v) { return std::string(v.type_name()) + (v.is_primitive() ? " " + v.dump() : ""); }

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};

// An integer that T holds. Parsed JSON keeps non-negative integers unsigned and negative
// ones signed; both are compared without converting to a narrower or signed type.
template <class T>
bool fits_integer(const json &v) {
  constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<T>::max());
  if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= max;
  if (!v.is_number_integer()) return false;
  const auto x = v.get<std::int64_t>();
  if (x >= 0) return static_cast<std::uint64_t>(x) <= max;
  return std::is_signed_v<T> && x >= static_cast<std::int64_t>(std::numeric_limits<T>::min());
}

// One value, checked for its type and range; a struct through its own from_json.
template <class T>
void check(const json &v, T &out) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) fail("expected true or false, got " + got(v));
    out = v.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!fits_integer<T>(v)) fail(std::string(std::is_signed_v<T> ? "expected an integer" : "expected a non-negative integer") + ", got " + got(v));
    out = v.get<T>();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!v.is_number()) fail("expected a number, got " + got(v));
    out = v.get<T>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) fail("expected a string, got " + got(v));
    out = v.get<std::string>();
  } else if constexpr (is_vector<T>::value) {
    if (!v.is_array()) fail("expected an array, got " + got(v));
    out.assign(v.size(), {});
    for (std::size_t i = 0; i < v.size(); ++i) {
      try {
        check(v[i], out[i]);
      } catch (const WireError &e) {
        throw WireError("[" + std::to_string(i) + "]: " + e.what());
      }
    }
  } else {
    from_json(v, out);
  }
}

// Field `name` of an object, checked; a missing field is an error that names it.
template <class T>
void read(const json &j, const char *name, T &out) {
  if (!j.is_object()) fail("expected an object, got " + got(j));
  const auto it = j.find(name);
  if (it == j.end()) fail(std::string("missing field \"") + name + "\"");
  try {
    check(*it, out);
  } catch (const WireError &e) {
    throw WireError(std::string(name) + ": " + e.what());
  }
}

// A field that may be left out (or null): nullopt then.
template <class T>
void read_optional(const json &j, const char *name, std::optional<T> &out) {
  out.reset();
  if (!j.contains(name) || j.at(name).is_null()) return;
  T value{};
  read(j, name, value);
  out = std::move(value);
}

// JSON has no infinity: a non-finite error travels as null, and comes back as infinity.
double read_error(const json &j, const char *name) {
  std::optional<double> e;
  if (!j.contains(name)) fail(std::string("missing field \"") + name + "\"");
  read_optional(j, name, e);
  return e.value_or(INFINITY);
}

// A whole message: `what` names it in the error.
template <class T>
T read_message(const json &j, const char *what) {
  try {
    if (!j.is_object()) fail("expected an object, got " + got(j));
    T out{};
    from_json(j, out);
    return out;
  } catch (const WireError &e) {
    throw WireError(std::string("malformed ") + what + ": " + e.what());
  }
}

json parse_line(const std::string &line, const char *what) {
  try {
    return json::parse(line);
  } catch (const json::parse_error &e) {
    throw WireError(std::string("malformed ") + what + ": not JSON (" + e.what() + "): " + line.substr(0, 200));
  }
}

}  // namespace

void to_json(json &j, const Shape &s) { j = s.to_string(); }
void from_json(const json &j, Shape &s) {
  std::string text;
  check(j, text);
  try {
    s = parse_shape(text);
  } catch (const UserError &e) {
    fail(e.what());
  }
}

void to_json(json &j, const TimingSettings &t) {
  j = {{"method", timing_method_name(t.method)},
       {"warmup", t.warmup},
       {"repeats", t.repeats},
       {"min_working_set_mib", t.min_working_set_mib},
       {"early_stop_after", t.early_stop_after},
       {"early_stop_margin", t.early_stop_margin}};
}
void from_json(const json &j, TimingSettings &t) {
  std::string method = timing_method_name(t.method);
  read(j, "method", method);
  const std::optional<TimingMethod> m = timing_method(method);
  if (!m) fail("method: expected \"stream\" or \"graphs\", got \"" + method + "\"");
  t.method = *m;
  read(j, "warmup", t.warmup);
  read(j, "repeats", t.repeats);
  read(j, "min_working_set_mib", t.min_working_set_mib);
  read(j, "early_stop_after", t.early_stop_after);
  read(j, "early_stop_margin", t.early_stop_margin);
}

void to_json(json &j, const VerifySettings &v) { j = {{"tolerance", v.tolerance}, {"beta", v.beta}}; }
void from_json(const json &j, VerifySettings &v) {
  read(j, "tolerance", v.tolerance);
  read(j, "beta", v.beta);
}

void to_json(json &j, const Verification &v) {
  j = {{"passed", v.passed}, {"e0", v.error_beta0}, {"e1", v.error_beta}, {"nonfinite", v.nonfinite},
       {"detail", v.detail}};
}
void from_json(const json &j, Verification &v) {
  read(j, "passed", v.passed);
  v.error_beta0 = read_error(j, "e0");
  v.error_beta = read_error(j, "e1");
  read(j, "nonfinite", v.nonfinite);
  read(j, "detail", v.detail);
}

void to_json(json &j, const Timing &t) {
  j = {{"median", t.median_ms}, {"min", t.min_ms}, {"max", t.max_ms}, {"repeats", t.repeats},
       {"samples", t.samples}, {"stopped_early", t.stopped_early}};
}
void from_json(const json &j, Timing &t) {
  read(j, "median", t.median_ms);
  read(j, "min", t.min_ms);
  read(j, "max", t.max_ms);
  read(j, "repeats", t.repeats);
  read(j, "samples", t.samples);
  read(j, "stopped_early", t.stopped_early);
}

void to_json(json &j, const Measurement &m) {
  j = {{"status", std::string(to_string(m.status))}, {"reason", m.reason}, {"detail", m.detail}, {"tflops", m.tflops}};
  if (m.verification) j["verification"] = *m.verification;
  if (m.timing) j["timing"] = *m.timing;
}
void from_json(const json &j, Measurement &m) {
  std::string status;
  read(j, "status", status);
  const std::optional<CandidateStatus> s = status_from_string(status);
  if (!s) fail("status: unknown status \"" + status + "\"");
  if (*s != CandidateStatus::ok && *s != CandidateStatus::wrong_result && *s != CandidateStatus::launch_failed)
    fail("status: \"" + status + "\" is not the outcome of a measurement");
  m.status = *s;
  read(j, "reason", m.reason);
  read(j, "detail", m.detail);
  read(j, "tflops", m.tflops);
  read_optional(j, "verification", m.verification);
  read_optional(j, "timing", m.timing);
  // The tuner ranks an ok result by its time and errors, and reports a wrong one's errors.
  if (m.status != CandidateStatus::launch_failed && !m.verification)
    fail("status \"" + status + "\" without a verification");
  if (m.status == CandidateStatus::ok && !m.timing) fail("status \"ok\" without a timing");
}

void to_json(json &j, const BenchConfig &c) {
  j = {{"device", c.device}, {"shapes", c.shapes}, {"timing", c.timing}, {"verify", c.verify}, {"seed", c.seed}};
}
void from_json(const json &j, BenchConfig &c) {
  read(j, "device", c.device);
  read(j, "shapes", c.shapes);
  read(j, "timing", c.timing);
  read(j, "verify", c.verify);
  read(j, "seed", c.seed);
}

void to_json(json &j, const InitRequest &r) {
  j = r.config;
  j["op"] = InitRequest::kOp;
}
void from_json(const json &j, InitRequest &r) { from_json(j, r.config); }

void to_json(json &j, const CompanionCode &c) {
  j = {{"variant", c.variant == KernelVariant::any ? "any" : "edges"},
       {"symbol", c.symbol},
       {"cubin_size", c.cubin_size},
       {"bodies", c.bodies}};
}
void from_json(const json &j, CompanionCode &c) {
  std::string variant;
  read(j, "variant", variant);
  if (variant != "edges" && variant != "any") fail("variant: expected \"edges\" or \"any\", got \"" + variant + "\"");
  c.variant = variant == "any" ? KernelVariant::any : KernelVariant::edges;
  read(j, "symbol", c.symbol);
  read(j, "cubin_size", c.cubin_size);
  read(j, "bodies", c.bodies);
  if (!is_edge_body_set(c.bodies))
    fail("bodies: expected a non-empty set of the " + std::to_string(sgemm_tune_kernels::kEdgeBodies) +
         " bodies' bits, got " + std::to_string(c.bodies));
}

MeasureRequest measure_request(const CompiledKernel &kernel, std::vector<std::size_t> shapes,
                               std::vector<double> best_ms) {
  MeasureRequest r{kernel.tile, kernel.lowered_name, std::move(shapes), std::move(best_ms), kernel.cubin.size(), {}};
  for (const CompanionKernel &c : kernel.companions)
    r.companions.push_back({c.variant, c.lowered_name, c.cubin.size(), c.bodies});
  return r;
}

void to_json(json &j, const MeasureRequest &r) {
  j = {{"op", MeasureRequest::kOp}, {"tile", tile_to_json(r.tile)}, {"symbol", r.symbol},
       {"shapes", r.shapes},        {"best_ms", r.best_ms},           {"cubin_size", r.cubin_size},
       {"companions", r.companions}};
}
void from_json(const json &j, MeasureRequest &r) {
  if (!j.contains("tile")) fail("missing field \"tile\"");
  try {
    r.tile = tile_from_json(j.at("tile"));
  } catch (const std::invalid_argument &e) {
    fail(std::string("tile: ") + e.what());
  }
  read(j, "symbol", r.symbol);
  read(j, "shapes", r.shapes);
  read(j, "best_ms", r.best_ms);
  read(j, "cubin_size", r.cubin_size);
  read(j, "companions", r.companions);
  if (r.best_ms.size() != r.shapes.size())
    fail("best_ms: " + std::to_string(r.best_ms.size()) + " times for " + std::to_string(r.shapes.size()) + " shapes");
}

void to_json(json &j, const CublasRequest &r) { j = {{"op", CublasRequest::kOp}, {"shape", r.shape}}; }
void from_json(const json &j, CublasRequest &r) { read(j, "shape", r.shape); }

void to_json(json &j, const InitReply &r) { j = {{"baselines", r.baselines}}; }
void from_json(const json &j, InitReply &r) { read(j, "baselines", r.baselines); }

void to_json(json &j, const MeasureReply &r) {
  const CandidateMeasurement &m = r.measurement;
  j = {{"runtime_blocks", m.runtime_blocks ? json(*m.runtime_blocks) : json(nullptr)},
       {"notices", m.notices},
       {"per_shape", m.per_shape},
       {"fatal", r.fatal}};
}
void from_json(const json &j, MeasureReply &r) {
  if (!j.contains("runtime_blocks")) fail("missing field \"runtime_blocks\"");
  read_optional(j, "runtime_blocks", r.measurement.runtime_blocks);
  read(j, "notices", r.measurement.notices);
  read(j, "per_shape", r.measurement.per_shape);
  read(j, "fatal", r.fatal);
}

void to_json(json &j, const CublasReply &r) { j = {{"timing", r.timing}}; }
void from_json(const json &j, CublasReply &r) { read(j, "timing", r.timing); }

void to_json(json &j, const WorkerFailure &f) { j = {{"error", f.error}, {"user_error", f.user_error}}; }
void from_json(const json &j, WorkerFailure &f) {
  read(j, "error", f.error);
  read(j, "user_error", f.user_error);
}

std::string wire_line(const json &message) {
  // A CUDA or NVRTC message need not be valid UTF-8: replace what is not, never throw.
  return message.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

WorkerRequest read_request(const std::string &line) {
  const json j = parse_line(line, "request");
  std::string op;
  try {
    if (!j.is_object()) fail("expected an object, got " + got(j));
    read(j, "op", op);
  } catch (const WireError &e) {
    throw WireError(std::string("malformed request: ") + e.what());
  }
  if (op == InitRequest::kOp) return read_message<InitRequest>(j, "init request");
  if (op == MeasureRequest::kOp) return read_message<MeasureRequest>(j, "measure request");
  if (op == CublasRequest::kOp) return read_message<CublasRequest>(j, "cublas request");
  throw WireError("malformed request: unknown op \"" + op + "\"");
}

template <class Reply>
Reply read_reply(const std::string &line) {
  const json j = parse_line(line, Reply::kName);
  if (j.is_object() && j.contains("error")) {
    const auto failure = read_message<WorkerFailure>(j, "worker failure");
    if (failure.user_error) throw UserError(failure.error);
    throw std::runtime_error("measurement worker: " + failure.error);
  }
  return read_message<Reply>(j, Reply::kName);
}

template InitReply read_reply<InitReply>(const std::string &);
template MeasureReply read_reply<MeasureReply>(const std::string &);
template CublasReply read_reply<CublasReply>(const std::string &);

}  // namespace sgemm_tune
