// Turns a database into a hostile one for the browser test: every run's GPU name and space
// name hold markup meant to run script (its fingerprint recomputed, as a real run on such a
// GPU would record it), so that the test can check the report shows them as text.
//
//   sgemm_tune_hostile_db DATABASE
#include <iostream>
#include <vector>

#include "tuner/record/migrations.h"
#include "tuner/record/result_store.h"

namespace {

constexpr const char *kHostileGpu =
    "NVIDIA H200 <script>window.__pwned=1</script> \"><img src=x onerror=\"window.__pwned=1\">";
constexpr const char *kHostileSpace = "4096 \"><img src=x onerror=\"window.__pwned=1\"><script>window.__pwned=1</script>";

}  // namespace

int main(int argc, char **argv) {
  using namespace sgemm_tune;
  if (argc != 2) {
    std::cerr << "usage: sgemm_tune_hostile_db DATABASE\n";
    return 2;
  }
  try {
    Database db = Database::open(argv[1], false);
    migrate(db);
    struct Run {
      std::int64_t id;
      Fingerprint fingerprint;
    };
    std::vector<Run> runs;
    Statement st = db.prepare(R"(SELECT id, template_hash, compile_options, nvrtc_version, driver_version,
                                        compute_capability, tuner_version FROM runs)");
    while (st.step()) {
      Run r{st.column_int("id"), {}};
      r.fingerprint.template_hash = st.column_text("template_hash");
      r.fingerprint.compile_options = st.column_text("compile_options");
      r.fingerprint.nvrtc_version = st.column_text("nvrtc_version");
      r.fingerprint.driver_version = st.column_text("driver_version");
      r.fingerprint.compute_capability = st.column_text("compute_capability");
      r.fingerprint.tuner_version = st.column_text("tuner_version");
      r.fingerprint.gpu_name = kHostileGpu;
      runs.push_back(r);
    }
    Transaction tx(db);
    Statement update =
        db.prepare("UPDATE runs SET gpu_name = :gpu, space_name = :space, fingerprint = :fingerprint WHERE id = :id");
    for (const Run &r : runs) {
      update.bind(":gpu", kHostileGpu).bind(":space", kHostileSpace);
      update.bind(":fingerprint", r.fingerprint.hash()).bind(":id", r.id);
      update.run();
    }
    db.exec("DELETE FROM kernels");
    tx.commit();
    std::cout << "made " << runs.size() << " runs of " << argv[1] << " hostile\n";
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "sgemm_tune_hostile_db: " << e.what() << "\n";
    return 1;
  }
}
