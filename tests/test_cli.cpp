// The command line as a user meets it: the real binary, its exit codes and messages.
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_paths.h"
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <csignal>
#include <unistd.h>

#include "tuner/gpu/device_info.h"
#include "tuner/record/result_store.h"

namespace sgemm_tune {
namespace {

struct Result {
  int code = -1;
  std::string out, err;
};

Result run_cli(const std::string &args) {
  // One file per process: ctest may run several of these tests at once.
  const auto err_file =
      std::filesystem::temp_directory_path() / ("sgemm_tune_cli_stderr_" + std::to_string(getpid()) + ".txt");
  const std::string cmd = testing::tuner_binary() + " " + args + " 2>" + err_file.string();
  Result r;
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_file);
  r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return r;
}

const std::string kSmall = testing::source_dir() + "/tests/data/small.json";

std::string temp_file(const std::string &name, const std::string &content) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << content;
  return path.string();
}

TEST(Cli, DryRunJsonIsTheOnlyThingOnStdout) {
  const Result r = run_cli("--space " + kSmall + " --dry-run --arch sm_90 --json -j 2");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);  // throws if anything else is mixed in
  EXPECT_EQ(j.at("counts").at("candidates"), 6);
  EXPECT_FALSE(j.at("survivors").empty());
  EXPECT_NE(r.err.find("[6/6]"), std::string::npos) << r.err;  // progress went to stderr
}

TEST(Cli, TuneSubcommandIsTheSameCommand) {
  const Result r = run_cli("tune --space " + kSmall + " --dry-run --arch sm_90 --quiet --shape 256x256x256");
  ASSERT_EQ(r.code, 0) << r.err;
  // The same report as without the subcommand word: six candidates judged.
  EXPECT_NE(r.out.find("8 enumerated, 2 excluded by constraints"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" survivors"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

void expect_failure(const std::string &args, int code, const std::string &fragment) {
  const Result r = run_cli(args);
  EXPECT_EQ(r.code, code) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << args << "\n" << r.err;
  EXPECT_EQ(r.out, "") << args;
}

TEST(Cli, BadInputGetsOneClearLine) {
  expect_failure("--space /nonexistent.json --dry-run --arch sm_90", 1, "/nonexistent.json: cannot open");
  expect_failure("--space " + temp_file("bad.json", "{\"parameters\": ") + " --dry-run --arch sm_90", 1,
                 "malformed JSON");
  expect_failure("--space " + kSmall + " --dry-run --arch sm_90 --shape 0x1x1", 1, "positive");
  expect_failure("--space " + kSmall + " --dry-run --arch sm_90 --shape 12xax4", 1, "not a whole number");
  expect_failure("--space " + kSmall + " --dry-run --arch sm_77", 1, "unknown architecture 'sm_77'");
  expect_failure("--space " + kSmall + " --dry-run --arch sm_90 --jobs 0", 2, "--jobs");
  expect_failure("--space " + kSmall + " --dry-run --arch sm_90 --jobs x", 2, "--jobs");
  expect_failure("--space " + kSmall + " --no-such-flag", 2, "--no-such-flag");
  expect_failure("", 1, "--space");
}

TEST(Cli, WithoutAGpuTuningSaysSo) {
  if (gpu_count() > 0) GTEST_SKIP() << "a GPU is present";
  const auto db = std::filesystem::temp_directory_path() / "sgemm_tune_cli_nogpu.db";
  std::filesystem::remove(db);
  expect_failure("--space " + kSmall + " --db " + db.string(), 3, "no usable GPU");
  EXPECT_FALSE(std::filesystem::exists(db)) << "nothing is written when nothing can run";
}

TEST(Cli, DevicesAreCheckedBeforeAnythingRuns) {
  const std::string dry = "--space " + kSmall + " --dry-run --arch sm_90 --quiet ";
  expect_failure(dry + "--devices 0 --device 1", 2, "excludes");
  expect_failure(dry + "--devices 0,0", 1, "--devices 0,0: device 0 is listed twice");
  expect_failure(dry + "--devices ''", 1, "--devices : no device given");
  expect_failure(dry + "--devices 0,,1", 1, "an empty item");
  expect_failure(dry + "--devices gpu0", 1, "\"gpu0\" is not a device number");
  // A dry run for an explicit architecture opens no GPU: the devices are not looked up.
  const Result r = run_cli(dry + "--devices all --shape 256x256x256");
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST(Cli, WithoutAGpuSeveralDevicesSaySoToo) {
  if (gpu_count() > 0) GTEST_SKIP() << "a GPU is present";
  const auto db = std::filesystem::temp_directory_path() / "sgemm_tune_cli_nogpu_devices.db";
  std::filesystem::remove(db);
  expect_failure("--space " + kSmall + " --devices all --db " + db.string(), 3, "no usable GPU");
  expect_failure("--space " + kSmall + " --devices 0,1 --db " + db.string(), 3, "no usable GPU");
  EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(Cli, InterruptStopsCleanlyWithItsOwnExitCode) {
  const std::string binary = testing::tuner_binary();
  const std::string space = testing::source_dir() + "/search_spaces/4096.json";
  const auto err = std::filesystem::temp_directory_path() / ("sgemm_tune_interrupt_" + std::to_string(getpid()));
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    freopen(err.c_str(), "w", stderr);
    freopen("/dev/null", "w", stdout);
    execl(binary.c_str(), binary.c_str(), "--space", space.c_str(), "--dry-run", "--arch", "sm_90", "--jobs", "1",
          "--quiet", static_cast<char *>(nullptr));
    _exit(127);
  }
  sleep(2);  // well inside compiling the first of hundreds of candidates
  ASSERT_EQ(kill(child, SIGINT), 0);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  std::ifstream in(err);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("interrupted"), std::string::npos) << text;
  // A dry run writes no database: it must not promise a resume.
  EXPECT_NE(text.find("a dry run records nothing"), std::string::npos) << text;
  EXPECT_EQ(text.find("run the same command again"), std::string::npos) << text;
  std::filesystem::remove(err);
}

TEST(Cli, HelpAndVersion) {
  const Result help = run_cli("--help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--dry-run"), std::string::npos);
  const Result version = run_cli("--version");
  EXPECT_EQ(version.code, 0);
  EXPECT_NE(version.out.find('.'), std::string::npos);
}

TEST(Cli, AHostileExportIsRefusedWithoutCommandingTheTerminal) {
  const auto db = std::filesystem::temp_directory_path() / ("sgemm_tune_cli_hostile_" + std::to_string(getpid()) + ".db");
  std::filesystem::remove(db);
  const std::string file = temp_file("sgemm_tune_hostile_export.json",
                                     R"({"format": "sgemm-tune export", "version": 1,
                                         "runs": [{"uid": "\u001b]0;owned\u0007\u001b[31m"}]})");
  const Result r = run_cli("import " + file + " --db " + db.string());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("runs[0].uid: expected letters"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\\x1b]0;owned"), std::string::npos) << r.err;  // shown, escaped
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
  EXPECT_EQ(r.err.find('\x07'), std::string::npos);
  std::filesystem::remove(db);
}

TEST(Cli, AnExportWithANumberTooLargeIsRefusedWithAMessage) {
  const auto db = std::filesystem::temp_directory_path() / ("sgemm_tune_cli_overflow_" + std::to_string(getpid()) + ".db");
  const std::string file = temp_file("sgemm_tune_overflow_export.json",
                                     R"({"format": "sgemm-tune export", "version": 2, "runs": [{"sm_count": 7e2495}]})");
  const Result r = run_cli("import " + file + " --db " + db.string());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unreadable JSON"), std::string::npos) << r.err;
  std::filesystem::remove(db);
}

// emit compiles every entry's machine code, for minutes, before it writes: a path it cannot
// write to is refused first. An empty database tells the order: its own refusal ("holds no
// verified results") comes only once the path has passed.
TEST(Cli, EmitRefusesAnUnwritablePathBeforeItsWork) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("sgemm_tune_cli_emit_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "taken");  // a folder where the header should go
  const std::string db = (dir / "empty.db").string();
  { ResultStore store(db); }
  const auto listing = [&] {
    std::vector<std::string> names;
    for (const auto &e : fs::recursive_directory_iterator(dir)) names.push_back(e.path().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  const auto before = listing();
  for (const std::string &out : {(dir / "missing" / "h.h").string(), (dir / "taken").string()}) {
    const Result r = run_cli("emit --db " + db + " --out " + out);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("cannot write " + out), std::string::npos) << r.err;
    EXPECT_EQ(listing(), before) << "a refused emit left a file behind";
  }
  // A file of the user's beside the path, of the name write_file_atomically writes through,
  // is left as it was by an emit that fails.
  std::ofstream(dir / "h.h.tmp") << "the user's own file";
  const auto with_users_file = listing();
  const Result r = run_cli("emit --db " + db + " --out " + (dir / "h.h").string());
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("holds no verified results"), std::string::npos) << r.err;
  EXPECT_EQ(listing(), with_users_file);
  std::ifstream users_file(dir / "h.h.tmp");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(users_file), std::istreambuf_iterator<char>()),
            "the user's own file");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sgemm_tune
