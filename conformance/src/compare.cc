// compare.cc: an outcome against an expectation, with a field-level diff (JSON Pointer, expected, actual).
#include "accord/conformance/compare.h"

#include <algorithm>
#include <set>

namespace accord::conformance {
namespace {
using nlohmann::json;

void add(std::vector<Diff>* out, std::string pointer, json expected, json actual, std::string note = "") {
  out->push_back({std::move(pointer), std::move(expected), std::move(actual), std::move(note)});
}

const json& member(const json& j, const char* key) {
  static const json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

/// Objects of the plan that are a set of answers, not a record: an expectation gives all of them, so one the
/// implementation adds is a difference (the environment variables determinism sets).
constexpr const char* kWholeObjects[] = {"/plan/determinism/env"};

/// Objects compare key by key (only the expected keys), but those of kWholeObjects; everything else compares exactly.
void compare_partial(const json& expected, const json& actual, const std::string& ptr, std::vector<Diff>* out) {
  bool whole = std::find(std::begin(kWholeObjects), std::end(kWholeObjects), ptr) != std::end(kWholeObjects);
  if (!expected.is_object() || whole) {
    if (expected != actual) add(out, ptr, expected, actual);
    return;
  }
  if (!actual.is_object()) {
    add(out, ptr, expected, actual, "expected an object");
    return;
  }
  for (auto it = expected.begin(); it != expected.end(); ++it) {
    auto a = actual.find(it.key());
    std::string p = ptr + "/" + pointer_token(it.key());
    if (a == actual.end()) add(out, p, it.value(), nullptr, "missing");
    else compare_partial(it.value(), *a, p, out);
  }
}

void compare_error(const ErrorExpectation& e, const json& error, std::vector<Diff>* out) {
  const json& code = member(error, "code");
  if (code != e.code) add(out, "/error/code", e.code, code);
  const json& fields = member(error, "fields");
  for (const auto& key : e.fields)
    if (!fields.is_object() || !fields.contains(key))
      add(out, "/error/fields/" + pointer_token(key), "present", nullptr, "missing");
  for (const auto& [key, value] : e.field_values) {
    const json& actual = member(fields, key.c_str());
    if (actual != value) add(out, "/error/fields/" + pointer_token(key), value, actual, actual.is_null() ? "missing" : "");
  }
  if (e.message_re) {
    const json& msg = member(error, "message");
    if (!msg.is_string() || !std::regex_search(msg.get<std::string>(), *e.message_re))
      add(out, "/error/message", "/" + e.message_regex + "/", msg, "does not match message_regex");
  }
}

/// The status, plan or error part of an expectation.
void compare_result(const json& outcome, const Expectation& e, bool check_trace, std::vector<Diff>* out);

void compare_any_of(const json& outcome, const Expectation& e, bool check_trace, std::vector<Diff>* out) {
  std::vector<Diff> all;
  for (std::size_t i = 0; i < e.any_of.size(); ++i) {
    Comparison c = compare(outcome, e.any_of[i], check_trace);
    if (c.pass) return;
    for (auto& d : c.diffs) {
      d.note = "any_of[" + std::to_string(i) + "]" + (d.note.empty() ? "" : ": " + d.note);
      all.push_back(std::move(d));
    }
  }
  out->insert(out->end(), all.begin(), all.end());
}

void compare_result(const json& outcome, const Expectation& e, bool check_trace, std::vector<Diff>* out) {
  const json& status = member(outcome, "status");
  switch (e.kind) {
    case ExpectationKind::kPlan:
      if (status != "ok") {
        add(out, "/status", "ok", status, "error " + member(member(outcome, "error"), "code").dump());
        return;
      }
      compare_partial(e.plan, member(outcome, "plan"), "/plan", out);
      return;
    case ExpectationKind::kError:
      if (status != "error") {
        add(out, "/status", "error", status, "expected " + e.error.code + ", got plan " + outcome_class(outcome));
        return;
      }
      compare_error(e.error, member(outcome, "error"), out);
      return;
    case ExpectationKind::kAnyOf:
      compare_any_of(outcome, e, check_trace, out);
      return;
  }
}

std::vector<std::string> codes_of(const json& diagnostics) {
  std::vector<std::string> codes;
  if (!diagnostics.is_array()) return codes;
  for (const auto& d : diagnostics) {
    const json& c = member(d, "code");
    codes.push_back(c.is_string() ? c.get<std::string>() : c.dump());
  }
  return codes;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

void compare_notes(const json& outcome, const Expectation& e, bool check_trace, std::vector<Diff>* out) {
  std::vector<std::string> codes = codes_of(member(outcome, "diagnostics"));
  for (const auto& c : e.diagnostics)
    if (!contains(codes, c)) add(out, "/diagnostics", c, codes, "code not among the diagnostics");
  for (std::size_t i = 0; i < codes.size(); ++i) {
    if (contains(e.diagnostics_absent, codes[i]))
      add(out, "/diagnostics/" + std::to_string(i) + "/code", "absent", codes[i], "must not appear");
    else if (e.diagnostics_exact && !contains(e.diagnostics, codes[i]))
      add(out, "/diagnostics/" + std::to_string(i) + "/code", e.diagnostics, codes[i], "not expected (diagnostics_exact)");
  }
  if (!check_trace || e.trace_includes.empty()) return;
  std::vector<std::string> trace;
  for (const auto& t : member(outcome, "trace"))
    if (t.is_string()) trace.push_back(t.get<std::string>());
  for (const auto& r : e.trace_includes)
    if (!contains(trace, r)) add(out, "/trace", r, nullptr, "rule did not fire");
}

std::string shown(const json& j) {
  std::string s = j.dump();
  return s.size() > 160 ? s.substr(0, 157) + "..." : s;
}

}  // namespace

Comparison compare(const json& outcome, const Expectation& e, bool check_trace) {
  Comparison c;
  const json& status = member(outcome, "status");
  if (!outcome.is_object() || !(status == "ok" || status == "error")) {
    add(&c.diffs, "/status", "ok or error", status, "malformed outcome");
  } else {
    compare_result(outcome, e, check_trace, &c.diffs);
    compare_notes(outcome, e, check_trace, &c.diffs);
  }
  c.pass = c.diffs.empty();
  return c;
}

bool checks_nothing(const Expectation& e) {
  bool notes = !e.diagnostics.empty() || !e.diagnostics_absent.empty() || e.diagnostics_exact || !e.trace_includes.empty();
  if (notes) return false;
  switch (e.kind) {
    case ExpectationKind::kPlan: return e.plan.empty();
    case ExpectationKind::kError: return false;
    case ExpectationKind::kAnyOf:
      return e.any_of.empty() || std::any_of(e.any_of.begin(), e.any_of.end(), [](const Expectation& a) { return checks_nothing(a); });
  }
  return false;  // LCOV_EXCL_LINE unreachable: every kind returns above
}

std::string outcome_class(const json& outcome) {
  const json& status = member(outcome, "status");
  if (status == "error") {
    const json& code = member(member(outcome, "error"), "code");
    return code.is_string() ? code.get<std::string>() : "error";
  }
  if (status != "ok") return "invalid outcome";
  const json& plan = member(outcome, "plan");
  auto text = [](const json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); };
  std::string s = text(member(member(plan, "strategy"), "name")) + "/" + text(member(plan, "accelerator")) + "/" +
                  text(member(plan, "num_processes"));
  const json& nodes = member(plan, "num_nodes");
  if (nodes.is_number_integer() && nodes.get<long long>() != 1) s += "x" + nodes.dump();
  return s;
}

json outcome_fingerprint(const json& outcome) {
  json f = {{"status", member(outcome, "status")}};
  if (f["status"] == "ok") f["plan"] = member(outcome, "plan");
  const json& err = member(outcome, "error");
  if (f["status"] == "error") f["error"] = {{"code", member(err, "code")}, {"fields", member(err, "fields")}};
  auto codes = codes_of(member(outcome, "diagnostics"));
  std::sort(codes.begin(), codes.end());
  f["diagnostics"] = codes;
  return f;
}

std::string format_diffs(const std::vector<Diff>& diffs, const std::string& indent) {
  std::string s;
  for (const auto& d : diffs) {
    s += indent + (d.pointer.empty() ? "/" : d.pointer) + ": expected " + shown(d.expected) + ", got " +
         (d.actual.is_null() && d.note == "missing" ? std::string("nothing") : shown(d.actual));
    if (!d.note.empty() && d.note != "missing") s += " (" + d.note + ")";
    s += "\n";
  }
  return s;
}

}  // namespace accord::conformance
