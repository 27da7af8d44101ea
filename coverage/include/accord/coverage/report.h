// report.h: the decision-coverage report as JSON, markdown and one self-contained HTML page.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "accord/coverage/analysis.h"

namespace accord::coverage {

/// Every count, every cell (status, cases, probes, witness or errors) and the gate verdict.
nlohmann::json to_json(const Report& r);
/// Tables: gate summary, unexercised rules and codes, then each matrix with one symbol per cell.
std::string to_markdown(const Report& r);
/// One HTML page with inline CSS only (no script, no network): summary, heatmaps (one element per matrix,
/// id = Matrix::element_id) and the rule and code tallies.
std::string to_html(const Report& r);

}  // namespace accord::coverage
