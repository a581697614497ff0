// The report as one self-contained HTML page: the data as JSON inside
// <script type="application/json">, the page's own script and style, and the plotting
// libraries (Vega, Vega-Lite, Vega-Embed, vendored in third_party/vega) inside the file, so
// that it opens offline from file://. Nothing from the database is ever written as markup:
// it travels inside the JSON, and the page shows it through textContent and Vega's text.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace sgemm_tune {

// JSON text that cannot end or alter the <script> element it stands in: every '<', '>'
// and '&' (found only inside JSON strings) is written as \u003c, \u003e, \u0026, which
// JSON.parse reads back as the same characters. Invalid UTF-8 becomes U+FFFD.
std::string json_for_script(const nlohmann::json &data);

// The page for `data` (collect_report_data's object). Deterministic: the same data gives
// the same bytes.
std::string report_page(const nlohmann::json &data);

}  // namespace sgemm_tune
