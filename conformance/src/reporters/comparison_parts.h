// comparison_parts.h: what the renderings of `accord compare` (text, markdown, json, html) share.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "accord/conformance/comparison.h"
#include "reporters/common.h"

namespace accord::conformance::detail {

/// The short name of column k in the text and markdown tables: A, B, ... Z, then #27, #28, ...
std::string column_letter(std::size_t k);
/// Whether the row is listed: differing or not compared, or every row when the table lists all.
bool listed(const ComparisonTable& t, const ComparisonRow& r);
/// The mark after a class: whether the side met the fixture's expectation (`ok`, `FAIL`, `xfail`, `xpass`, or "").
const char* verdict_mark(Verdict v);
/// `class (mark)` of side k.
std::string side_text(const ComparisonRow& r, std::size_t k);
/// `48 of 1172 cases differ, 22 not compared` (and `; partial: ...` when stopped).
std::string summary_line(const ComparisonTable& t);
/// The entries of a count table, most first (ties in key order).
std::vector<std::pair<std::string, std::size_t>> by_count(const std::map<std::string, std::size_t>& m);
/// A field value for display (big integers as written), cut to `max` characters; `(absent)` when the side lacks it.
std::string field_value(const FieldDifference& d, std::size_t k, std::size_t max = 120);

std::string render_comparison_json(const ComparisonTable& t);
std::string render_comparison_html(const ComparisonTable& t);

}  // namespace accord::conformance::detail
