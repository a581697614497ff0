// Tunings from elsewhere are data, never code. Exports and database files crafted to put
// text or machine code into a user's build, or escape sequences onto a terminal, are
// refused, or, for machine code, dropped and compiled again by the tuner itself.
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "header_images.h"
#include "test_paths.h"
#include "tuned_db_fixture.h"
#include "tuner/common/errors.h"
#include "tuner/common/text.h"
#include "tuner/emit/cpp_text.h"
#include "tuner/emit/header.h"
#include "tuner/record/exchange.h"

namespace sgemm_tune {
namespace {

using nlohmann::json;
using testing::kBigTile;
using testing::kSeedTile;

// Text that must never reach a header, a database or a terminal as it is.
std::vector<std::pair<std::string, std::string>> hostile_texts() {
  return {
      {"line break", "NVIDIA H200\n#error injected"},
      {"carriage return", "NVIDIA H200\r#include </etc/passwd>"},
      {"NUL", std::string("NVIDIA\0H200", 11)},
      {"terminal title", "\x1b]0;owned\x07"},
      {"terminal colour", "\x1b[31mred"},
      {"C1 control", "NVIDIA \xc2\x9b" "31m"},
      {"DEL", "NVIDIA\x7f"},
      {"invalid UTF-8", "NVIDIA \xff\xfe"},
      {"1 MB", std::string(1 << 20, 'x')},
  };
}

// The text fields of a run, a result and a kernel row of an export.
const std::vector<std::string> kRunTextFields = {"command",        "tuner_version", "space_name",
                                                 "space_source",   "gpu_name",      "driver_version",
                                                 "runtime_version", "nvrtc_version", "compile_options",
                                                 "template_origin", "uid",          "template_hash",
                                                 "fingerprint",    "started_at",    "space_hash",
                                                 "compute_capability"};
const std::vector<std::string> kResultTextFields = {"reason", "detail", "measured_at", "status", "pci_bus_id"};
const std::vector<std::string> kKernelTextFields = {"lowered_name", "fingerprint", "cubin"};

json as_version_one(json doc) {
  doc["version"] = 1;
  for (json &run : doc["runs"]) {
    json objects = json::array();
    for (const json &values : run["results"]["rows"]) {
      json object = json::object();
      for (std::size_t c = 0; c < values.size(); ++c) object[run["results"]["columns"][c].get<std::string>()] = values[c];
      objects.push_back(object);
    }
    run["results"] = objects;
  }
  return doc;
}

class HostileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sgemm_tune_hostile_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    store_ = std::make_unique<ResultStore>((dir_ / "tune.db").string());
    testing::fill_tuned_database(*store_, testing::h200_environment());
    // Written as version 1 (results as objects): the hostile values below go into named
    // fields; version 2's tables are turned into the same objects before the same checks.
    export_ = as_version_one(export_database(store_->database()));
    target_ = std::make_unique<ResultStore>((dir_ / "target.db").string());
  }
  void TearDown() override {
    store_.reset();
    target_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Imports `doc` into the empty target database; the UserError's message, or "" when it
  // was accepted.
  std::string import_error(const json &doc, ImportSummary *summary = nullptr) {
    try {
      const ImportSummary s = import_database(target_->database(), doc, "hostile.json", &rebuilder_);
      if (summary) *summary = s;
      return "";
    } catch (const UserError &e) {
      return e.what();
    }
  }

  long long count(const std::string &table) {
    Statement st = target_->database().prepare("SELECT COUNT(*) FROM " + table);
    st.step();
    return st.column_int(0);
  }

  // Emits from `db` and compiles the header with nvcc; the header's text.
  std::string emit_and_compile(Database &db, EmittedHeader *out = nullptr) {
    EmitOptions options;
    options.database_label = "tune.db";
    options.kernel = &kernel_;
    const EmittedHeader header = emit_header(db, testing::h200_environment(), options);
    if (out) *out = header;
    write_file_atomically((dir_ / "sgemm_tuned.h").string(), header.text);
    std::ofstream(dir_ / "use.cu") << "#include \"sgemm_tuned.h\"\n"
                                      "cudaError_t call(float *a, float *b, float *c) {\n"
                                      "  return sgemm_tuned(4096, 4096, 4096, 1.0f, a, b, 0.0f, c);\n}\n";
    const std::string cmd = "nvcc -arch=sm_90 -std=c++17 -c -I" + testing::source_dir() + "/kernel_templates -I" +
                            dir_.string() + " " + (dir_ / "use.cu").string() + " -o " + (dir_ / "use.o").string() +
                            " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return header.text;
  }

  std::filesystem::path dir_;
  std::unique_ptr<ResultStore> store_, target_;
  json export_;
  const KernelSource kernel_ = KernelSource::embedded();
  const CodeRebuilder rebuilder_{KernelSource::embedded(), {}};
};

// Every line of a generated header is one the generator writes: a comment, a
// preprocessor line it emits, or code of its tables and function. A line that starts
// otherwise came from the database.
void expect_only_generated_lines(const std::string &text) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    bool ours = line.empty();
    for (const char *prefix :
         {"//", "#pragma once", "#include <cuda_runtime.h>", "#include \"sgemm_tuned_runtime.cuh\"", "namespace ",
          "}  // namespace", "alignas(16) inline const unsigned char kCubin", "    \"", "inline ::sgemm_tune_runtime::TunedKernel kKernels",
          "inline ::sgemm_tune_runtime::LoadedCode kLoaded", "inline ::sgemm_tune_runtime::GpuTable kGpus[] = {", "    {", "};", "inline cudaError_t sgemm_tuned(",
          "inline constexpr int kGpuCount", "                               int N, int K",
          "                               float beta, float *C", "                               float *C",
          "  return ::sgemm_tune_runtime::sgemm(", "      sgemm_tuned_data::kGpus, sgemm_tuned_data::kGpuCount,",
          "      ::sgemm_tune_kernels::to_row_major(", "                                     ::sgemm_tune_kernels::",
          "}", "static_assert(::sgemm_tune_kernels::kMachineCodeInterface == ",
          "#if !defined(SGEMM_TUNE_TUNED_SHAPE_FIELDS) || SGEMM_TUNE_TUNED_SHAPE_FIELDS < ",
          "#if defined(_MSC_VER) && !defined(__clang__)",
          "#error \"this header's machine code is written as string literals longer than MSVC takes",
          "#error \"this header's tables were written for newer kernel_templates", "#endif",
          "              \"this header's machine code was compiled for kernel_templates of another version"})
      ours = ours || line.rfind(prefix, 0) == 0;
    EXPECT_TRUE(ours) << "line " << n << " was not written by the generator: " << line.substr(0, 200);
    for (char c : line) ASSERT_TRUE(c >= 0x20 && c < 0x7f) << "line " << n << " holds a control or non-ASCII byte";
  }
}

// The forged payloads (DE AD BE EF) are in none of the images a header ships, each of
// which is an ELF image, the tuner's compilation: two entries of two tiles, three kernels each.
void expect_no_payload_shipped(const std::string &text) {
  const auto images = testing::header_images(text);
  EXPECT_EQ(images.size(), 6u);
  for (const auto &[name, image] : images) {
    EXPECT_EQ(image.find("\xde\xad\xbe\xef"), std::string::npos) << name;
    EXPECT_EQ(image.rfind("\x7f" "ELF", 0), 0u) << name;
  }
}

TEST_F(HostileTest, TheUntouchedExportImportsWithItsCodeChecked) {
  ImportSummary s;
  EXPECT_EQ(import_error(export_, &s), "");
  EXPECT_EQ(s.runs_added, 1u);
  EXPECT_EQ(s.kernels_added, 1u);
  EXPECT_TRUE(s.kernels_dropped.empty());
}

TEST_F(HostileTest, HostileTextInEveryFieldIsRefusedAndNothingIsWritten) {
  int refused = 0;
  for (const auto &[what, text] : hostile_texts()) {
    for (const std::string place : {"runs[0]", "results[0]", "kernels[0]"}) {
      const auto &fields = place == "runs[0]" ? kRunTextFields : place == "results[0]" ? kResultTextFields : kKernelTextFields;
      for (const std::string &field : fields) {
        // A diagnostic may span lines (it is never emitted), and a megabyte of 'x' is
        // well-formed base64: dropped with the code check below, not refused here.
        if ((field == "detail" && what == "line break") || (field == "cubin" && what == "1 MB")) continue;
        json bad = export_;
        json &row = place == "runs[0]" ? bad["runs"][0] : place == "results[0]" ? bad["runs"][0]["results"][0]
                                                                               : bad["kernels"][0];
        row[field] = text;
        const std::string error = import_error(bad);
        EXPECT_NE(error, "") << what << " in " << place << "." << field << " was accepted";
        EXPECT_NE(error.find(field), std::string::npos) << "the error does not name " << field << ": " << error;
        EXPECT_NE(error.find("hostile.json"), std::string::npos) << error;
        EXPECT_TRUE(is_plain_text(error, 4096)) << "the message itself carries the hostile bytes: " << error;
        ++refused;
      }
    }
  }
  EXPECT_GT(refused, 200);
  EXPECT_EQ(count("runs"), 0);
  EXPECT_EQ(count("results"), 0);
  EXPECT_EQ(count("kernels"), 0);
}

TEST_F(HostileTest, AMegabyteOfWellFormedBase64IsNotStoredAsCode) {
  json doc = export_;
  doc["kernels"][0]["cubin"] = std::string(1 << 20, 'x');
  ImportSummary s;
  ASSERT_EQ(import_error(doc, &s), "");
  EXPECT_EQ(s.kernels_added, 0u);
  EXPECT_EQ(s.kernels_dropped.size(), 1u);
  EXPECT_EQ(count("kernels"), 0);
}

TEST_F(HostileTest, QuotesAndBackslashesInNamesAreRefusedWhereTheyCannotBelong) {
  // A token (reason, lowered name, uid) is letters, digits and _-. alone.
  for (const char *field : {"lowered_name"}) {
    json bad = export_;
    bad["kernels"][0][field] = "x\");system(\"rm -rf ~\");//";
    EXPECT_NE(import_error(bad).find(field), std::string::npos);
  }
  json bad = export_;
  bad["runs"][0]["results"][0]["reason"] = "a\\b";
  EXPECT_NE(import_error(bad).find("reason"), std::string::npos);
}

TEST_F(HostileTest, WrongTypesAndOutOfRangeNumbersAreRefused) {
  const double inf = std::numeric_limits<double>::infinity();
  // Where, which field, its value; the error names the field (or, for a tile parameter
  // that the type allows, the rule it breaks).
  const std::vector<std::tuple<std::string, std::string, json>> cases = {
      {"result", "m", "4096"},
      {"result", "m", 0},
      {"result", "m", -1},
      {"result", "m", 1LL << 40},
      {"result", "m", 18446744073709551615ULL},
      {"result", "bm", 128.5},
      {"result", "bm", json::array({128})},
      {"result", "registers", 300},
      {"result", "occupancy", 2.0},
      {"result", "time_ms", "fast"},
      {"result", "time_ms", -1.0},
      {"result", "time_ms", inf},
      {"result", "time_ms", std::nan("")},
      {"result", "cublas_ms", 1e300},
      {"result", "status", 3},
      {"result", "measured_at", "yesterday"},
      {"result", "device", -1},
      {"result", "device", 4096},
      {"result", "device", "0"},
      {"result", "pci_bus_id", "0000:3B:00.0"},
      {"result", "pci_bus_id", "0000:3b:00"},
      {"result", "pci_bus_id", "GPU-8c1b1b0e"},
      {"result", "pci_bus_id", 59},
      {"result", "operands", "NT:col:"},
      {"result", "operands", "NN:row"},
      {"result", "operands", "nt"},
      {"result", "operands", "*/ int x; /*"},
      {"result", "operands", 3},
      {"result", "operands", nullptr},
      {"run", "sm_count", 0},
      {"run", "sm_count", "132"},
      {"run", "clock_mhz", -5},
      {"run", "compute_capability", "9.0, 0}; int x"},
      {"run", "compute_capability", 9.0},
      {"run", "status", "hacked"},
      {"kernel", "stream_k", 2},
      {"kernel", "cubin", "not base64!"},
      {"kernel", "cubin", 12},
  };
  for (const auto &[table, field, value] : cases) {
    json bad = export_;
    json &row = table == "run" ? bad["runs"][0] : table == "result" ? bad["runs"][0]["results"][0] : bad["kernels"][0];
    row[field] = value;
    const std::string error = import_error(bad);
    const std::string named = field == "stream_k" ? "switch_value" : field;
    EXPECT_NE(error.find(named), std::string::npos) << table << "." << field << " = " << value.dump() << ": " << error;
  }
  EXPECT_EQ(count("runs"), 0);
}

TEST_F(HostileTest, MissingUnknownAndMisplacedFieldsAreRefused) {
  json bad = export_;
  bad["runs"][0].erase("gpu_name");
  EXPECT_NE(import_error(bad).find("gpu_name: missing"), std::string::npos);
  bad = export_;
  bad["kernels"][0]["extra"] = 1;
  EXPECT_NE(import_error(bad).find("unknown field \"extra\""), std::string::npos);
  bad = export_;
  bad["payload"] = "x";
  EXPECT_NE(import_error(bad).find("unknown field"), std::string::npos);
  bad = export_;
  bad["runs"][0]["results"] = "none";
  EXPECT_NE(import_error(bad).find("results"), std::string::npos);
  bad = export_;
  bad["version"] = 0;
  EXPECT_NE(import_error(bad).find("version"), std::string::npos);
  // Fields of the wrong type where the document's header is read (found by fuzzing: a
  // number as "format" escaped as a JSON type error instead of a message).
  for (const json &format : {json(128), json(nullptr), json::array()}) {
    bad = export_;
    bad["format"] = format;
    EXPECT_NE(import_error(bad).find("not an sgemm-tune export"), std::string::npos);
  }
  bad = export_;
  bad["version"] = "2";
  EXPECT_NE(import_error(bad).find("version"), std::string::npos);
  bad = export_;
  bad["runs"].push_back(bad["runs"][0]);
  EXPECT_NE(import_error(bad).find("appears twice"), std::string::npos);
}

TEST_F(HostileTest, VersionTwoTablesAreCheckedLikeObjects) {
  json v2 = export_database(store_->database());
  ASSERT_EQ(import_error(v2), "");
  for (const auto &[what, change] : std::vector<std::pair<std::string, std::function<void(json &)>>>{
           {"a row too short", [](json &t) { t["rows"][0].erase(0); }},
           {"a column that is no name", [](json &t) { t["columns"][0] = 7; }},
           {"a column twice", [](json &t) { t["columns"][1] = t["columns"][0]; }},
           {"no rows", [](json &t) { t.erase("rows"); }},
           {"an extra key", [](json &t) { t["x"] = 1; }},
       }) {
    ResultStore fresh((dir_ / ("v2_" + std::to_string(std::hash<std::string>{}(what)) + ".db")).string());
    json bad = v2;
    change(bad["runs"][0]["results"]);
    EXPECT_THROW(import_database(fresh.database(), bad, "hostile.json", &rebuilder_), UserError) << what;
  }
  // A hostile value in a table is refused by the same field check.
  json bad = v2;
  const json &columns = bad["runs"][0]["results"]["columns"];
  const auto detail = std::find(columns.begin(), columns.end(), "detail") - columns.begin();
  bad["runs"][0]["results"]["rows"][0][detail] = "\x1b[2J";
  EXPECT_NE(import_error(bad).find("detail"), std::string::npos);
}

TEST_F(HostileTest, AFingerprintThatIsNotTheHashOfItsPartsIsRefused) {
  json bad = export_;
  bad["runs"][0]["driver_version"] = "99.0";  // plain text, but the fingerprint no longer fits
  EXPECT_NE(import_error(bad).find("fingerprint"), std::string::npos);
}

TEST_F(HostileTest, InvalidTilesAndUnknownStatusesOrReasonsAreRefused) {
  json bad = export_;
  bad["runs"][0]["results"][0]["stages"] = 1;  // an ok result with a tile the kernel cannot run
  EXPECT_NE(import_error(bad).find("validity rules"), std::string::npos);
  bad = export_;
  for (const char *column : {"bm", "bn", "bk", "wm", "wn", "tm", "tn"}) bad["kernels"][0][column] = 65536;
  EXPECT_NE(import_error(bad).find("validity rules"), std::string::npos);
  bad = export_;
  bad["runs"][0]["results"][0]["status"] = "great";
  EXPECT_NE(import_error(bad).find("status"), std::string::npos);
  bad = export_;
  bad["runs"][0]["results"][0]["status"] = "pruned";
  bad["runs"][0]["results"][0]["reason"] = "because";
  EXPECT_NE(import_error(bad).find("reason"), std::string::npos);
  bad = export_;
  bad["runs"][0]["results"][0]["status"] = "invalid";
  bad["runs"][0]["results"][0]["reason"] = "warp_subtile";  // a real rule code: accepted
  EXPECT_EQ(import_error(bad), "");
}

TEST_F(HostileTest, ForgedMachineCodeForARealTileIsDroppedAndCompiledAgain) {
  const std::string marker = "\xde\xad\xbe\xef" "FORGED-PAYLOAD";
  // The real cubin with a payload appended: valid base64, the real tile, the real name.
  json doc = export_;
  {
    // Decode by importing the genuine export and reading the blob back.
    ResultStore scratch((dir_ / "scratch.db").string());
    import_database(scratch.database(), export_, "export.json", &rebuilder_);
    Statement st = scratch.database().prepare("SELECT cubin FROM kernels");
    ASSERT_TRUE(st.step());
    ResultStore forged_store((dir_ / "forged.db").string());
    import_database(forged_store.database(), export_, "export.json", &rebuilder_);
    Statement up = forged_store.database().prepare("UPDATE kernels SET cubin = ?1");
    up.bind_blob(1, st.column_blob(0) + marker);
    up.run();
    doc["kernels"] = export_database(forged_store.database())["kernels"];
  }
  ImportSummary s;
  ASSERT_EQ(import_error(doc, &s), "");
  EXPECT_EQ(s.runs_added, 1u);
  EXPECT_EQ(s.kernels_added, 0u);
  ASSERT_EQ(s.kernels_dropped.size(), 1u);
  EXPECT_NE(s.kernels_dropped[0].find("differs"), std::string::npos) << s.kernels_dropped[0];
  EXPECT_EQ(count("kernels"), 0);
  // The header carries the code the tuner compiles, not the payload.
  EmittedHeader header;
  const std::string text = emit_and_compile(target_->database(), &header);
  EXPECT_EQ(header.with_code, 2u);
  expect_no_payload_shipped(text);
  expect_only_generated_lines(text);
}

TEST_F(HostileTest, TheLoweredNameOfAnotherKernelIsDropped) {
  CompileOptions options;
  const CompiledKernel seed = compile_kernel(KernelSource::embedded(), options, kSeedTile);
  json doc = export_;
  doc["kernels"][0]["lowered_name"] = seed.lowered_name;  // kBigTile's code under the seed's name
  ImportSummary s;
  ASSERT_EQ(import_error(doc, &s), "");
  EXPECT_EQ(s.kernels_added, 0u);
  EXPECT_EQ(s.kernels_dropped.size(), 1u);
}

TEST_F(HostileTest, CodeWhoseRunCannotBeRebuiltHereIsDropped) {
  json doc = export_;
  doc["kernels"][0]["fingerprint"] = "0123456789abcdef";  // no run has it
  ImportSummary s;
  ASSERT_EQ(import_error(doc, &s), "");
  ASSERT_EQ(s.kernels_dropped.size(), 1u);
  EXPECT_NE(s.kernels_dropped[0].find("no run"), std::string::npos);
  // Compiled with an option this tuner was not asked for: never compiled with it here.
  ResultStore other((dir_ / "other.db").string());
  const CodeRebuilder fast_math(KernelSource::embedded(), {"--use_fast_math"});
  const ImportSummary t = import_database(other.database(), export_, "export.json", &fast_math);
  ASSERT_EQ(t.kernels_dropped.size(), 1u);
  EXPECT_NE(t.kernels_dropped[0].find("other options"), std::string::npos) << t.kernels_dropped[0];
}

// The same content crafted straight into a database file: emit, best and stale read it.
TEST_F(HostileTest, AHandCraftedDatabaseCannotInjectIntoTheHeader) {
  Database &db = store_->database();
  for (const auto &[what, text] : hostile_texts()) {
    for (const char *column : {"gpu_name", "driver_version", "nvrtc_version", "compile_options", "tuner_version"}) {
      Statement save = db.prepare(std::string("SELECT ") + column + " FROM runs");
      ASSERT_TRUE(save.step());
      const std::string original = save.column_text(0);
      Statement up = db.prepare(std::string("UPDATE runs SET ") + column + " = ?1");
      up.bind(1, text).run();
      EmitOptions options;
      options.database_label = "tune.db";
      EXPECT_THROW(emit_header(db, testing::h200_environment(), options), UserError) << what << " in " << column;
      EXPECT_THROW(best_entries(db, testing::h200_environment()), UserError) << what << " in " << column;
      Statement back = db.prepare(std::string("UPDATE runs SET ") + column + " = ?1");
      back.bind(1, original).run();
    }
  }
  db.exec("UPDATE results SET measured_at = 'x' || char(10) || '#error injected'");
  EXPECT_THROW(best_entries(db, testing::h200_environment()), UserError);
  db.exec("UPDATE results SET measured_at = '2026-11-30T00:00:00Z'");
  db.exec("UPDATE runs SET compute_capability = '9.0, 0}; int evil'");
  EXPECT_THROW(best_entries(db, testing::h200_environment()), UserError);
  db.exec("UPDATE runs SET compute_capability = '9.0'");
  db.exec("UPDATE results SET stages = 1");
  EXPECT_THROW(best_entries(db, testing::h200_environment()), UserError);
  db.exec("UPDATE results SET stages = 2");
  db.exec("UPDATE results SET cublas_ms = -1");
  EXPECT_THROW(best_entries(db, testing::h200_environment()), UserError);
}

TEST_F(HostileTest, AHandCraftedDatabaseCannotShipItsOwnCode) {
  Database &db = store_->database();
  db.exec("UPDATE kernels SET cubin = CAST(X'DEADBEEF00112233' AS BLOB), lowered_name = 'evil'");
  EmittedHeader header;
  const std::string text = emit_and_compile(db, &header);
  EXPECT_EQ(header.code_mismatches.size(), 1u);
  EXPECT_EQ(header.with_code, 2u);
  expect_no_payload_shipped(text);
  EXPECT_EQ(text.find("\"evil\""), std::string::npos);
  expect_only_generated_lines(text);
}

TEST_F(HostileTest, PlainButAwkwardNamesAreEscapedAndTheHeaderCompiles) {
  Database &db = store_->database();
  // Plain text, so accepted: quotes, a backslash at the end (would splice a // comment
  // with the next line), trigraph-like '??/', a percent sign, non-ASCII.
  Statement up = db.prepare("UPDATE runs SET gpu_name = ?1, driver_version = ?2");
  up.bind(1, "NVIDIA \"H200\" ??/ 100% \xc3\xa9 */ \\").bind(2, "580 \\").run();
  EmittedHeader header;
  EmitOptions options;
  const std::string text = emit_and_compile(db, &header);
  expect_only_generated_lines(text);
  EXPECT_NE(text.find("\"NVIDIA \\\"H200\\\" \\?\\?/ 100% \\303\\251 */ \\\\\""), std::string::npos);
  EXPECT_NE(text.find("// NVIDIA \"H200\" %3F%3F/ 100%25 %C3%A9 */ %5C"), std::string::npos);
}

// What a program that writes array `s` (declared by `declaration`, initialised by
// `literal`) prints, built by g++ in the oldest dialect a header may meet, trigraphs on;
// "build failed" if it does not build.
std::string bytes_through_the_compiler(const std::string &declaration, const std::string &literal) {
  const auto dir = std::filesystem::temp_directory_path() / ("sgemm_tune_cpp_text_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "t.cpp") << "#include <cstdio>\n" << declaration << " =\n" << literal
                               << ";\nint main() { std::fwrite(s, 1, sizeof s - 1, stdout); }\n";
  const std::string build = "g++ -std=c++14 -trigraphs -o " + (dir / "t").string() + " " + (dir / "t.cpp").string();
  std::string got = "build failed";
  if (std::system(build.c_str()) == 0) {
    got.clear();
    FILE *p = popen((dir / "t").string().c_str(), "r");
    char buf[512];
    std::size_t n;
    while (p && (n = fread(buf, 1, sizeof buf, p)) > 0) got.append(buf, n);
    if (p) pclose(p);
  }
  std::filesystem::remove_all(dir);
  return got;
}

TEST(CppText, StringLiteralsRoundTripEveryByteThroughTheCompiler) {
  std::string all;
  for (int c = 1; c < 256; ++c) all += static_cast<char>(c);
  all += "0123??=";  // digits after an octal escape; a trigraph
  EXPECT_EQ(bytes_through_the_compiler("static const char s[]", cpp_string_literal(all)), all);
}

// Machine code in a header: every byte value, zeros among them, comes back from an array
// of unsigned char initialised by the literals, which is one byte (the zero) longer.
TEST(CppText, ByteLiteralsRoundTripMachineCodeThroughTheCompiler) {
  std::string bytes;
  for (int round = 0; round < 3; ++round)
    for (int c = 0; c < 256; ++c) bytes += static_cast<char>((c * 37 + round) & 0xff);
  bytes += std::string("\0" "0123??=\"\\", 10);
  const std::string literal = cpp_bytes_literal(bytes, "  ");
  EXPECT_EQ(std::count(literal.begin(), literal.end(), '\n'), static_cast<long>((bytes.size() + 31) / 32));
  EXPECT_EQ(bytes_through_the_compiler("alignas(16) static const unsigned char s[]", literal), bytes);
}

TEST(CppText, CommentTextIsOneLineOfPrintableAscii) {
  const std::string c = cpp_comment_text(std::string("a\nb\r\\\0?\x1b\xff%", 10));
  EXPECT_EQ(c, "a%0Ab%0D%5C%00%3F%1B%FF%25");
}

TEST(TerminalText, ControlCharactersAreShownNotObeyed) {
  EXPECT_EQ(terminal_safe("GPU \x1b]0;title\x07"), "GPU \\x1b]0;title\\x07");
  EXPECT_EQ(terminal_safe("caf\xc3\xa9"), "caf\xc3\xa9");       // plain UTF-8 stays
  EXPECT_EQ(terminal_safe("\xc2\x9b" "31m"), "\\xc2\\x9b31m");  // C1 CSI
  EXPECT_EQ(terminal_safe("\xff"), "\\xff");
  EXPECT_TRUE(is_plain_text("NVIDIA H200", 256));
  EXPECT_FALSE(is_plain_text("a\nb", 256));
  EXPECT_TRUE(is_plain_text("a\nb", 256, true));
  EXPECT_FALSE(is_plain_text(std::string(257, 'a'), 256));
  EXPECT_FALSE(is_plain_text("\xed\xa0\x80", 256));  // a UTF-16 surrogate
  EXPECT_FALSE(is_plain_text("\xc0\xaf", 256));      // overlong
}

}  // namespace
}  // namespace sgemm_tune
