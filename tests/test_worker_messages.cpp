// The messages between the tuner and its measurement worker: what is written is read back
// the same, and a malformed message is refused with an error that names the problem.
#include <cmath>

#include <gtest/gtest.h>

#include "tuner/common/errors.h"
#include "tuner/time/worker_messages.h"

namespace sgemm_tune {
namespace {

using nlohmann::json;

const SgemmTile kSeed{128, 64, 16, 64, 32, 2, 4, 4, 2, 0, 0};  // the seed configuration

Measurement ok_measurement() {
  Measurement m;
  m.status = CandidateStatus::ok;
  m.tflops = 41.5;
  m.verification = Verification{true, 0.0, 4.9e-7, 0, ""};
  m.timing = Timing{2.58, 2.5, 2.7, 15, false};
  return m;
}

MeasureReply sample_reply() {
  MeasureReply r;
  r.measurement.runtime_blocks = 2;
  r.measurement.notices = {"a notice"};
  r.measurement.per_shape.push_back(ok_measurement());
  Measurement wrong;
  wrong.status = CandidateStatus::wrong_result;
  wrong.reason = "mismatch";
  wrong.verification = Verification{false, INFINITY, 0.5, 12, "12 non-finite elements"};
  r.measurement.per_shape.push_back(wrong);
  r.measurement.per_shape.push_back(failed_measurement("cudaErrorLaunchOutOfResources", "too many resources"));
  return r;
}

// Throws unless reading `line` as a Reply fails with a WireError whose text holds `expected`.
template <class Reply>
void expect_refused(const std::string &line, const std::string &expected) {
  try {
    read_reply<Reply>(line);
    ADD_FAILURE() << "accepted: " << line;
  } catch (const WireError &e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

void expect_request_refused(const std::string &line, const std::string &expected) {
  try {
    read_request(line);
    ADD_FAILURE() << "accepted: " << line;
  } catch (const WireError &e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

json measure_request_json() {
  return MeasureRequest{kSeed, "_Z4sgemm", {0, 1}, {0.0, 2.5}, 1234};
}

TEST(WorkerMessages, InitRequestRoundTrips) {
  InitRequest sent;
  sent.config.device = 1;
  sent.config.shapes = {Shape{4096, 4096, 4096}, Shape{4097, 513, 77}};
  sent.config.timing.repeats = 7;
  sent.config.timing.early_stop_margin = 0.25;
  sent.config.timing.method = TimingMethod::graphs;
  sent.config.verify.beta = 0.75;
  sent.config.seed = 0xfedcba9876543210ULL;
  const WorkerRequest got = read_request(wire_line(sent));
  const auto *init = std::get_if<InitRequest>(&got);
  ASSERT_NE(init, nullptr);
  EXPECT_EQ(init->config.device, 1);
  EXPECT_EQ(init->config.shapes, sent.config.shapes);
  EXPECT_EQ(init->config.timing.repeats, 7);
  EXPECT_EQ(init->config.timing.early_stop_margin, 0.25);
  EXPECT_EQ(init->config.timing.method, TimingMethod::graphs);
  EXPECT_EQ(init->config.verify.beta, 0.75);
  EXPECT_EQ(init->config.seed, sent.config.seed);
}

TEST(WorkerMessages, MeasureAndCublasRequestsRoundTrip) {
  SgemmTile tile = kSeed;
  tile.STREAMK = 1;
  const MeasureRequest sent{tile, "_Z4sgemm", {0, 1}, {0.0, 2.5}, 1234};
  const WorkerRequest got = read_request(wire_line(sent));
  const auto *m = std::get_if<MeasureRequest>(&got);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->tile, tile);
  EXPECT_EQ(m->symbol, "_Z4sgemm");
  EXPECT_EQ(m->shapes, sent.shapes);
  EXPECT_EQ(m->best_ms, sent.best_ms);
  EXPECT_EQ(m->cubin_size, 1234u);
  // The tile travels by parameter name.
  EXPECT_EQ(json::parse(wire_line(sent)).at("tile").at("STREAMK"), 1);

  EXPECT_TRUE(m->companions.empty());

  // A BLAS shape's edge kernels travel as companions, their cubins after the kernel's.
  CompiledKernel kernel;
  kernel.tile = tile;
  kernel.lowered_name = "_Z4fast";
  kernel.cubin = std::string(10, 'x');
  // The edge kernel with its narrow body alone, the kernel of any operands with every body.
  const EdgeBodies narrow = edge_body_bit(sgemm_tune_kernels::kEdgeBodyNarrow);
  kernel.companions = {{KernelVariant::edges, "_Z5edges", std::string(20, 'y'), narrow, {}},
                       {KernelVariant::any, "_Z3any", std::string(30, 'z'), kEveryEdgeBody, {}}};
  const WorkerRequest with = read_request(wire_line(measure_request(kernel, {2}, {0.0})));
  const auto *w = std::get_if<MeasureRequest>(&with);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->symbol, "_Z4fast");
  EXPECT_EQ(w->cubin_size, 10u);
  ASSERT_EQ(w->companions.size(), 2u);
  EXPECT_EQ(w->companions[0].variant, KernelVariant::edges);
  EXPECT_EQ(w->companions[0].symbol, "_Z5edges");
  EXPECT_EQ(w->companions[0].cubin_size, 20u);
  EXPECT_EQ(w->companions[0].bodies, narrow);
  EXPECT_EQ(w->companions[1].variant, KernelVariant::any);
  EXPECT_EQ(w->companions[1].cubin_size, 30u);
  EXPECT_EQ(w->companions[1].bodies, kEveryEdgeBody);
  json bad = json::parse(wire_line(measure_request(kernel, {2}, {0.0})));
  bad["companions"][0]["variant"] = "exact";
  EXPECT_THROW(read_request(bad.dump()), WireError);
  // Which bodies a cubin holds: a non-empty set of the four bodies' bits, and nothing else.
  for (const json &bodies : {json(0), json(16), json(-1), json("narrow")}) {
    json wrong = json::parse(wire_line(measure_request(kernel, {2}, {0.0})));
    wrong["companions"][0]["bodies"] = bodies;
    EXPECT_THROW(read_request(wrong.dump()), WireError) << bodies.dump();
  }
  json missing = json::parse(wire_line(measure_request(kernel, {2}, {0.0})));
  missing["companions"][0].erase("bodies");
  EXPECT_THROW(read_request(missing.dump()), WireError);

  // BLAS shapes travel as they are written.
  InitRequest init;
  init.config.shapes = {parse_shape("1000x999x998:NT"), parse_shape("64x64x64:TN:col")};
  const WorkerRequest init_got = read_request(wire_line(init));
  EXPECT_EQ(std::get<InitRequest>(init_got).config.shapes, init.config.shapes);

  const WorkerRequest cublas = read_request(wire_line(CublasRequest{3}));
  ASSERT_TRUE(std::holds_alternative<CublasRequest>(cublas));
  EXPECT_EQ(std::get<CublasRequest>(cublas).shape, 3u);
}

TEST(WorkerMessages, MeasureReplyRoundTrips) {
  const MeasureReply sent = sample_reply();
  const MeasureReply got = read_reply<MeasureReply>(wire_line(sent));
  EXPECT_EQ(got.measurement.runtime_blocks, 2);
  EXPECT_EQ(got.measurement.notices, sent.measurement.notices);
  EXPECT_FALSE(got.fatal);
  ASSERT_EQ(got.measurement.per_shape.size(), 3u);
  const Measurement &ok = got.measurement.per_shape[0];
  EXPECT_EQ(ok.status, CandidateStatus::ok);
  EXPECT_EQ(ok.tflops, 41.5);
  ASSERT_TRUE(ok.timing && ok.verification);
  EXPECT_EQ(ok.timing->median_ms, 2.58);
  EXPECT_EQ(ok.timing->repeats, 15);
  EXPECT_EQ(ok.verification->error_beta, 4.9e-7);
  const Measurement &wrong = got.measurement.per_shape[1];
  EXPECT_EQ(wrong.status, CandidateStatus::wrong_result);
  // JSON has no infinity: it travels as null and comes back as infinity.
  EXPECT_TRUE(std::isinf(wrong.verification->error_beta0));
  EXPECT_EQ(wrong.verification->nonfinite, 12u);
  EXPECT_FALSE(wrong.timing);
  const Measurement &failed = got.measurement.per_shape[2];
  EXPECT_EQ(failed.status, CandidateStatus::launch_failed);
  EXPECT_EQ(failed.reason, "cudaErrorLaunchOutOfResources");
  EXPECT_EQ(failed.detail, "too many resources");

  MeasureReply none;
  none.fatal = true;
  const MeasureReply back = read_reply<MeasureReply>(wire_line(none));
  EXPECT_FALSE(back.measurement.runtime_blocks);
  EXPECT_TRUE(back.fatal);
}

TEST(WorkerMessages, InitAndCublasRepliesRoundTrip) {
  const InitReply init = read_reply<InitReply>(wire_line(InitReply{{Timing{1, 0.5, 2, 45, false}}}));
  ASSERT_EQ(init.baselines.size(), 1u);
  EXPECT_EQ(init.baselines[0].median_ms, 1);
  EXPECT_EQ(init.baselines[0].repeats, 45);
  const Timing cublas = read_reply<CublasReply>(wire_line(CublasReply{Timing{3, 2, 4, 9, true, 3}})).timing;
  EXPECT_EQ(cublas.stopped_early, true);
  EXPECT_EQ(cublas.samples, 3);
}

TEST(WorkerMessages, AnUnknownTimingMethodIsRefused) {
  InitRequest sent;
  sent.config.shapes = {Shape{256, 256, 256}};
  json j = json::parse(wire_line(sent));
  j["timing"]["method"] = "guess";
  EXPECT_THROW(read_request(j.dump()), std::runtime_error);
}

TEST(WorkerMessages, WorkerFailureIsThrownAsWhatItIs) {
  EXPECT_THROW(read_reply<InitReply>(wire_line(WorkerFailure{"no GPU", true})), UserError);
  try {
    read_reply<MeasureReply>(wire_line(WorkerFailure{"malformed measure request: shape 5 of 2", false}));
    FAIL();
  } catch (const UserError &) {
    FAIL() << "not the user's to fix";
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find("shape 5 of 2"), std::string::npos) << e.what();
  }
}

TEST(WorkerMessages, UnknownStatusIsRefusedNotTakenForLaunchFailed) {
  json j = sample_reply();
  j["per_shape"][2]["status"] = "exploded";
  expect_refused<MeasureReply>(j.dump(), "per_shape: [2]: status: unknown status \"exploded\"");
  j["per_shape"][2]["status"] = "pruned";
  expect_refused<MeasureReply>(j.dump(), "\"pruned\" is not the outcome of a measurement");
}

TEST(WorkerMessages, MissingFieldsAreRefusedByName) {
  json j = sample_reply();
  j["per_shape"][0].erase("reason");
  expect_refused<MeasureReply>(j.dump(), "malformed measure reply: per_shape: [0]: missing field \"reason\"");
  j = sample_reply();
  j.erase("fatal");
  expect_refused<MeasureReply>(j.dump(), "missing field \"fatal\"");
  j = sample_reply();
  j["per_shape"][0].erase("timing");
  expect_refused<MeasureReply>(j.dump(), "status \"ok\" without a timing");
  j = sample_reply();
  j["per_shape"][0]["timing"].erase("median");
  expect_refused<MeasureReply>(j.dump(), "timing: missing field \"median\"");
  expect_refused<InitReply>("{}", "missing field \"baselines\"");
  json r = measure_request_json();
  r.erase("symbol");
  expect_request_refused(r.dump(), "malformed measure request: missing field \"symbol\"");
  expect_request_refused(R"({"shape": 1})", "missing field \"op\"");
}

TEST(WorkerMessages, WrongTypesAreRefusedByName) {
  json j = sample_reply();
  j["per_shape"][0]["tflops"] = "fast";
  expect_refused<MeasureReply>(j.dump(), "tflops: expected a number, got string \"fast\"");
  j = sample_reply();
  j["per_shape"][0]["timing"]["repeats"] = 1.5;
  expect_refused<MeasureReply>(j.dump(), "repeats: expected an integer, got number 1.5");
  j = sample_reply();
  j["per_shape"] = json::object();
  expect_refused<MeasureReply>(j.dump(), "per_shape: expected an array, got object");
  j = sample_reply();
  j["fatal"] = 1;
  expect_refused<MeasureReply>(j.dump(), "fatal: expected true or false, got number 1");
  json r = measure_request_json();
  r["shapes"] = {0, -1};
  expect_request_refused(r.dump(), "shapes: [1]: expected a non-negative integer, got number -1");
  r = measure_request_json();
  r["best_ms"] = {0.0};
  expect_request_refused(r.dump(), "best_ms: 1 times for 2 shapes");
  json cublas = CublasRequest{0};
  cublas["shape"] = 1e30;
  expect_request_refused(cublas.dump(), "shape: expected a non-negative integer, got number 1e+30");
  json blocks = sample_reply();
  blocks["runtime_blocks"] = 4294967296LL;  // past int
  expect_refused<MeasureReply>(blocks.dump(), "runtime_blocks: expected an integer");
  json init = InitRequest{};
  init["shapes"] = {"4096x4096"};
  expect_request_refused(init.dump(), "shapes: [0]:");
  expect_refused<CublasReply>("[1, 2]", "malformed cublas reply: expected an object, got array");
  expect_refused<CublasReply>("timing: 3 ms", "malformed cublas reply: not JSON");
}

TEST(WorkerMessages, IntegersBuiltInMemoryAreReadLikeParsedOnes) {
  // Parsed JSON keeps 1 unsigned; built in memory from an int64_t it is signed.
  json r = measure_request_json();
  r["shapes"] = json::array({json(std::int64_t{1}), json(std::int64_t{0})});
  MeasureRequest m;
  from_json(r, m);
  EXPECT_EQ(m.shapes, (std::vector<std::size_t>{1, 0}));
  r["shapes"] = json::array({json(std::int64_t{-1}), json(std::int64_t{0})});
  EXPECT_THROW(from_json(r, m), WireError);
}

TEST(WorkerMessages, InvalidTilesAreRefused) {
  json r = measure_request_json();
  r["tile"]["WM"] = 48;  // does not divide BM = 128
  expect_request_refused(r.dump(), "tile: tile BM=128 BN=64 BK=16 WM=48");
  r = measure_request_json();
  r["tile"].erase("STAGES");
  expect_request_refused(r.dump(), "tile: tile parameter STAGES is missing");
  r = measure_request_json();
  r["tile"]["BX"] = 1;
  expect_request_refused(r.dump(), "unknown tile parameter \"BX\"");
  r = measure_request_json();
  r["tile"]["BM"] = "128";
  expect_request_refused(r.dump(), "tile parameter BM must be an integer, got \"128\"");
  r = measure_request_json();
  r["tile"] = "128,64,16,64,32,2,4,4,2,0,0";
  expect_request_refused(r.dump(), "a tile must be an object, got string");
}

TEST(WorkerMessages, UnknownOpIsRefused) {
  expect_request_refused(R"({"op": "explode"})", "unknown op \"explode\"");
  expect_request_refused("not json", "malformed request: not JSON");
}

}  // namespace
}  // namespace sgemm_tune
