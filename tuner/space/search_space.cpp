#include "tuner/space/search_space.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tuner/common/errors.h"
#include "tuner/common/hash.h"
#include "tuner/common/text.h"

namespace sgemm_tune {
namespace {

using nlohmann::json;

// Reads one JSON file with a path to every field, so that each error can say where.
class FieldReader {
 public:
  explicit FieldReader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string &field, const std::string &what) const {
    throw UserError(source_ + ": field '" + field + "': " + what);
  }

  void require_object(const json &j, const std::string &field) const {
    if (!j.is_object()) fail(field, "expected an object, got " + describe(j));
  }

  void reject_unknown(const json &j, const std::string &field, const std::set<std::string> &known) const {
    for (const auto &item : j.items()) {
      if (known.count(item.key())) continue;
      std::string list;
      for (const auto &k : known) list += (list.empty() ? "" : ", ") + k;
      fail(join(field, item.key()), "unknown field (expected one of: " + list + ")");
    }
  }

  long long integer(const json &j, const std::string &field, long long lo, long long hi) const {
    if (!j.is_number_integer())
      fail(field, "expected an integer, got " + describe(j));
    const long long v = j.is_number_unsigned() && j.get<unsigned long long>() > static_cast<unsigned long long>(hi)
                            ? hi + 1
                            : j.get<long long>();
    if (v < lo || v > hi)
      fail(field, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + j.dump());
    return v;
  }

  double number(const json &j, const std::string &field, double lo, double hi) const {
    if (!j.is_number()) fail(field, "expected a number, got " + describe(j));
    const double v = j.get<double>();
    if (!(v >= lo && v <= hi))
      fail(field, "expected a number from " + fmt(lo) + " to " + fmt(hi) + ", got " + j.dump());
    return v;
  }

  bool boolean(const json &j, const std::string &field) const {
    if (!j.is_boolean()) fail(field, "expected true or false, got " + describe(j));
    return j.get<bool>();
  }

  // Names travel into the database, exports and reports: plain text of bounded length.
  std::string string(const json &j, const std::string &field) const {
    if (!j.is_string()) fail(field, "expected a string, got " + describe(j));
    if (!is_plain_text(j.get_ref<const std::string &>(), kMaxLongTextBytes))
      fail(field, "expected plain text (no control characters) of at most " + std::to_string(kMaxLongTextBytes) +
                      " bytes");
    return j.get<std::string>();
  }

  const json &array(const json &j, const std::string &field) const {
    if (!j.is_array()) fail(field, "expected a list, got " + describe(j));
    if (j.empty()) fail(field, "expected a non-empty list");
    return j;
  }

  static std::string join(const std::string &parent, const std::string &child) {
    return parent.empty() ? child : parent + "." + child;
  }
  static std::string index(const std::string &parent, std::size_t i) {
    return parent + "[" + std::to_string(i) + "]";
  }

 private:
  static std::string describe(const json &j) {
    std::string text = j.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return std::string(j.type_name()) + " " + text;
  }
  static std::string fmt(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
  }

  std::string source_;
};

constexpr int kMaxParameterValue = 1 << 16;

void read_parameters(const FieldReader &r, const json &j, SearchSpace &space) {
  r.require_object(j, "parameters");
  std::set<std::string> known(kTileParameters.begin(), kTileParameters.end());
  r.reject_unknown(j, "parameters", known);
  for (std::size_t p = 0; p < kTileParameters.size(); ++p) {
    const std::string name(kTileParameters[p]);
    const std::string field = "parameters." + name;
    if (!j.contains(name)) {
      if (p >= kFirstSwitchParameter) {
        space.values[p] = {0};  // a switch left out stays off
        continue;
      }
      r.fail(field, "missing (every parameter needs a list of values)");
    }
    const json &list = r.array(j.at(name), field);
    const int max_value = p >= kFirstSwitchParameter ? 1 : kMaxParameterValue;
    std::set<int> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const int v =
          static_cast<int>(r.integer(list[i], FieldReader::index(field, i), tile_parameter_min(p), max_value));
      if (!seen.insert(v).second) r.fail(FieldReader::index(field, i), "value " + std::to_string(v) + " is listed twice");
      space.values[p].push_back(v);
    }
  }
}

void read_timing(const FieldReader &r, const json &j, TimingSettings &t) {
  r.require_object(j, "timing");
  r.reject_unknown(j, "timing", {"method", "warmup", "repeats", "min_working_set_mib", "early_stop_after",
                                  "early_stop_margin", "timeout_seconds"});
  if (j.contains("method")) {
    const std::string name = r.string(j["method"], "timing.method");
    const std::optional<TimingMethod> m = timing_method(name);
    if (!m) r.fail("timing.method", "expected \"stream\" or \"graphs\", got \"" + name + "\"");
    t.method = *m;
  }
  if (j.contains("warmup")) t.warmup = static_cast<int>(r.integer(j["warmup"], "timing.warmup", 0, 1000));
  if (j.contains("repeats")) t.repeats = static_cast<int>(r.integer(j["repeats"], "timing.repeats", 1, 10000));
  if (j.contains("min_working_set_mib"))
    t.min_working_set_mib = r.number(j["min_working_set_mib"], "timing.min_working_set_mib", 0, 1 << 20);
  if (j.contains("early_stop_after"))
    t.early_stop_after = static_cast<int>(r.integer(j["early_stop_after"], "timing.early_stop_after", 0, 10000));
  if (j.contains("timeout_seconds"))
    t.timeout_seconds = r.number(j["timeout_seconds"], "timing.timeout_seconds", 0, 86400);
  if (j.contains("early_stop_margin"))
    t.early_stop_margin = r.number(j["early_stop_margin"], "timing.early_stop_margin", 0, 100);
}

void read_verify(const FieldReader &r, const json &j, VerifySettings &v) {
  r.require_object(j, "verify");
  r.reject_unknown(j, "verify", {"tolerance", "beta"});
  if (j.contains("tolerance")) v.tolerance = r.number(j["tolerance"], "verify.tolerance", 1e-9, 1.0);
  if (j.contains("beta")) {
    v.beta = r.number(j["beta"], "verify.beta", -1e6, 1e6);
    if (v.beta == 0) r.fail("verify.beta", "must be non-zero: it is the beta of the beta != 0 check");
  }
}

void read_prune(const FieldReader &r, const json &j, PruneSettings &p) {
  r.require_object(j, "prune");
  r.reject_unknown(j, "prune", {"allow_spills", "min_blocks_per_sm", "min_warps_per_sm", "max_live_floats"});
  if (j.contains("allow_spills")) p.allow_spills = r.boolean(j["allow_spills"], "prune.allow_spills");
  if (j.contains("min_blocks_per_sm"))
    p.min_blocks_per_sm = static_cast<int>(r.integer(j["min_blocks_per_sm"], "prune.min_blocks_per_sm", 1, 64));
  if (j.contains("min_warps_per_sm"))
    p.min_warps_per_sm = static_cast<int>(r.integer(j["min_warps_per_sm"], "prune.min_warps_per_sm", 1, 64));
  if (j.contains("max_live_floats"))
    p.max_live_floats = static_cast<int>(r.integer(j["max_live_floats"], "prune.max_live_floats", 1, 100000));
}

void read_references(const FieldReader &r, const json &j, SearchSpace &space) {
  r.require_object(j, "references");
  for (const auto &item : j.items()) {
    const std::string field = "references." + item.key();
    if (!is_plain_text(item.key(), kMaxNameBytes)) r.fail("references", "a reference's name must be plain text");
    r.require_object(item.value(), field);
    r.reject_unknown(item.value(), field, std::set<std::string>(kTileParameters.begin(), kTileParameters.end()));
    SgemmTile tile{};
    for (std::size_t p = 0; p < kTileParameters.size(); ++p) {
      const std::string name(kTileParameters[p]);
      if (!item.value().contains(name)) {
        if (p >= kFirstSwitchParameter) continue;  // a switch left out is 0
        r.fail(field + "." + name, "missing");
      }
      set_tile_parameter(tile, p,
                         static_cast<int>(r.integer(item.value()[name], field + "." + name, tile_parameter_min(p),
                                                    kMaxParameterValue)));
    }
    space.references.emplace_back(item.key(), tile);
  }
}

void read_strategy(const FieldReader &r, const json &j, SearchSpace &space) {
  StrategySettings &s = space.strategy;
  r.require_object(j, "strategy");
  r.reject_unknown(j, "strategy",
                   {"kind", "probe", "finalists", "finalists_per_shape", "blas_shapes_in_first_stage", "blas_probes",
                    "budget", "seed"});
  const std::string kind = j.contains("kind") ? r.string(j["kind"], "strategy.kind") : "exhaustive";
  const std::optional<StrategySettings::Kind> k = strategy_kind(kind);
  if (!k)
    r.fail("strategy.kind", "expected \"exhaustive\", \"staged\", \"random\", \"genetic\" or \"model\", got \"" +
                                kind + "\"");
  s.kind = *k;
  if (j.contains("budget")) s.budget = static_cast<std::size_t>(r.integer(j["budget"], "strategy.budget", 0, 1 << 30));
  if (j.contains("seed"))
    s.seed = static_cast<std::uint64_t>(r.integer(j["seed"], "strategy.seed", 0, 1LL << 53));
  if (j.contains("finalists")) s.finalists = static_cast<int>(r.integer(j["finalists"], "strategy.finalists", 1, 100000));
  if (j.contains("finalists_per_shape"))
    s.finalists_per_shape =
        static_cast<int>(r.integer(j["finalists_per_shape"], "strategy.finalists_per_shape", 0, 100000));
  if (j.contains("blas_shapes_in_first_stage"))
    s.blas_shapes_in_first_stage = r.boolean(j["blas_shapes_in_first_stage"], "strategy.blas_shapes_in_first_stage");
  if (j.contains("blas_probes")) {
    const std::string text = r.string(j["blas_probes"], "strategy.blas_probes");
    try {
      s.blas_probes = Constraint::parse(text);
    } catch (const UserError &e) {
      r.fail("strategy.blas_probes", e.what());
    }
    // Without a first stage, or without each shape's own finalists, the probes' edge
    // kernels would be compiled and timed for nothing.
    if (s.kind != StrategySettings::Kind::staged)
      r.fail("strategy.blas_probes", "only the staged strategy has a first stage to time BLAS shapes in");
    if (s.finalists_per_shape < 1)
      r.fail("strategy.blas_probes",
             "needs finalists_per_shape of 1 or more: the BLAS shapes choose their own finalists by it");
  }
  if (j.contains("probe")) {
    r.require_object(j["probe"], "strategy.probe");
    r.reject_unknown(j["probe"], "strategy.probe", std::set<std::string>(kTileParameters.begin(), kTileParameters.end()));
    for (std::size_t p = 0; p < kTileParameters.size(); ++p) {
      const std::string name(kTileParameters[p]);
      if (!j["probe"].contains(name)) continue;
      const std::string field = "strategy.probe." + name;
      // One value, or several: then each structure is probed at each of them and ranked,
      // shape by shape, by the best (staged_search.h).
      const json &given = j["probe"][name];
      const bool several = given.is_array();
      if (several && given.empty()) r.fail(field, "expected an integer or a non-empty list of integers");
      const auto &values = space.values[p];
      std::set<int> seen;
      for (std::size_t i = 0; i < (several ? given.size() : 1); ++i) {
        const std::string where = several ? FieldReader::index(field, i) : field;
        const int v = static_cast<int>(r.integer(several ? given[i] : given, where, tile_parameter_min(p), kMaxParameterValue));
        if (std::find(values.begin(), values.end(), v) == values.end())
          r.fail(where, std::to_string(v) + " is not among the values of parameters." + name);
        if (!seen.insert(v).second) r.fail(where, std::to_string(v) + " is listed twice");
        s.probe.emplace_back(p, v);
      }
    }
  }
  if (s.kind == StrategySettings::Kind::staged && s.probe.empty())
    r.fail("strategy.probe", "a staged search needs the parameters to probe first, e.g. {\"BK\": 16, \"STAGES\": 2}");
}

}  // namespace

std::optional<StrategySettings::Kind> strategy_kind(const std::string &name) {
  using Kind = StrategySettings::Kind;
  for (const Kind k : {Kind::exhaustive, Kind::staged, Kind::random, Kind::genetic, Kind::model})
    if (strategy_name(k) == name) return k;
  return std::nullopt;
}

std::string strategy_name(StrategySettings::Kind kind) {
  switch (kind) {
    case StrategySettings::Kind::exhaustive: return "exhaustive";
    case StrategySettings::Kind::staged: return "staged";
    case StrategySettings::Kind::random: return "random";
    case StrategySettings::Kind::genetic: return "genetic";
    case StrategySettings::Kind::model: return "model";
  }
  return "exhaustive";
}

std::optional<TimingMethod> timing_method(const std::string &name) {
  for (const TimingMethod m : {TimingMethod::stream, TimingMethod::graphs})
    if (timing_method_name(m) == name) return m;
  return std::nullopt;
}

const char *timing_method_name(TimingMethod method) {
  return method == TimingMethod::graphs ? "graphs" : "stream";
}

std::size_t SearchSpace::size() const {
  std::size_t n = 1;
  for (const auto &v : values) n *= v.size();
  return n;
}

SearchSpace parse_search_space(const std::string &json_text, const std::string &source) {
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::parse_error &e) {
    throw UserError(source + ": malformed JSON at byte " + std::to_string(e.byte) + ": " +
                    std::string(e.what()).substr(std::string(e.what()).find(':') + 2));
  } catch (const json::exception &e) {
    // e.g. a number too large for any C++ type ("4E466")
    throw UserError(source + ": malformed JSON: " + std::string(e.what()).substr(std::string(e.what()).find(']') + 2));
  }
  FieldReader r(source);
  if (!doc.is_object()) throw UserError(source + ": expected a JSON object at the top level");
  r.reject_unknown(doc, "", {"format_version", "name", "description", "parameters", "constraints", "shapes",
                             "references", "timing", "verify", "prune", "strategy"});

  SearchSpace space;
  space.source = source;
  space.content_hash = to_hex(fnv1a64(json_text));
  if (doc.contains("format_version")) {
    const long long v = r.integer(doc["format_version"], "format_version", 1, 1 << 20);
    if (v > kSpaceFormatVersion)
      r.fail("format_version", "version " + std::to_string(v) + " is newer than this sgemm-tune reads (" +
                                   std::to_string(kSpaceFormatVersion) + ")");
  }
  space.name = doc.contains("name") ? r.string(doc["name"], "name") : source;
  if (doc.contains("description")) space.description = r.string(doc["description"], "description");
  if (!doc.contains("parameters")) r.fail("parameters", "missing");
  read_parameters(r, doc["parameters"], space);

  if (doc.contains("constraints")) {
    const json &list = doc["constraints"];
    if (!list.is_array()) r.fail("constraints", "expected a list of expression strings");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string field = FieldReader::index("constraints", i);
      const std::string text = r.string(list[i], field);
      try {
        space.constraints.push_back(Constraint::parse(text));
      } catch (const UserError &e) {
        r.fail(field, e.what());
      }
    }
  }

  if (doc.contains("shapes")) {
    const json &list = r.array(doc["shapes"], "shapes");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string field = FieldReader::index("shapes", i);
      Shape shape;
      try {
        shape = parse_shape(r.string(list[i], field));
      } catch (const UserError &e) {
        r.fail(field, e.what());
      }
      if (std::find(space.shapes.begin(), space.shapes.end(), shape) != space.shapes.end())
        r.fail(field, shape.to_string() + " is listed twice");
      space.shapes.push_back(shape);
    }
  }
  if (doc.contains("references")) read_references(r, doc["references"], space);
  if (doc.contains("timing")) read_timing(r, doc["timing"], space.timing);
  if (doc.contains("verify")) read_verify(r, doc["verify"], space.verify);
  if (doc.contains("prune")) read_prune(r, doc["prune"], space.prune);
  if (doc.contains("strategy")) read_strategy(r, doc["strategy"], space);
  return space;
}

SearchSpace load_search_space(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(path + ": cannot open search space file: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw UserError(path + ": cannot read search space file");
  return parse_search_space(text.str(), path);
}

}  // namespace sgemm_tune
