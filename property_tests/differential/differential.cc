// differential.cc: generating cases, comparing two implementations, shrinking each kind of difference.
#include "differential/differential.h"


#include <algorithm>
#include <set>

#include "accord/conformance/case_needs.h"
#include "accord/reference/json_io.h"

namespace accord::differential {
using nlohmann::json;
namespace cf = accord::conformance;
namespace ref = accord::reference;

namespace {

/// The JSON Pointer of the first leaf where a and b differ ("" when equal).
std::string first_difference(const json& a, const json& b, const std::string& path) {
  if (a.is_number() && b.is_number()) return a == b ? "" : (path.empty() ? "/" : path);  // 0 parses unsigned
  if (a.type() != b.type()) return path.empty() ? "/" : path;
  if (a.is_object()) {
    std::set<std::string> keys;
    for (auto it = a.begin(); it != a.end(); ++it) keys.insert(it.key());
    for (auto it = b.begin(); it != b.end(); ++it) keys.insert(it.key());
    for (const auto& k : keys) {
      if (!a.contains(k) || !b.contains(k)) return path + "/" + k;
      std::string d = first_difference(a[k], b[k], path + "/" + k);
      if (!d.empty()) return d;
    }
    return "";
  }
  if (a.is_array() && a.size() == b.size()) {
    for (std::size_t k = 0; k < a.size(); ++k)
      if (!first_difference(a[k], b[k], path).empty()) return path;  // lists compare whole
    return "";
  }
  return a == b ? "" : (path.empty() ? "/" : path);
}

std::set<std::string> codes(const json& outcome) {
  std::set<std::string> out;
  if (outcome.contains("diagnostics") && outcome["diagnostics"].is_array())
    for (const auto& d : outcome["diagnostics"])
      if (d.is_object() && d.contains("code") && d["code"].is_string()) out.insert(d["code"].get<std::string>());
  return out;
}

std::string str_at(const json& j, const char* a, const char* b) {
  if (!j.is_object() || !j.contains(a)) return "?";
  const json& x = j[a];
  if (!b) return x.is_string() ? x.get<std::string>() : "?";
  return x.is_object() && x.contains(b) && x[b].is_string() ? x[b].get<std::string>() : "?";
}

/// The capability tags `c` uses that side a or b does not declare.
std::set<std::string> lacked(const Side& a, const Side& b, const ref::Case& c) {
  std::set<std::string> out;
  for (const auto& tag : cf::case_needs(c))
    for (const Side* s : {&a, &b})
      if (!s->adapter->info().capabilities.count(tag)) out.insert(tag);
  return out;
}

cf::AdapterResult resolve(Side& s, const ref::Case& c, long id) {
  return s.adapter->resolve("d" + std::to_string(id), s.profile, ref::case_to_json(c));
}

}  // namespace

std::string difference_kind(const cf::AdapterResult& a, const cf::AdapterResult& b) {
  if (a.status != cf::ResultStatus::kOk || b.status != cf::ResultStatus::kOk) {
    if (a.status == b.status) return "";
    return std::string("fault:") + cf::status_name(a.status) + "/" + cf::status_name(b.status);
  }
  std::string sa = str_at(a.outcome, "status", nullptr), sb = str_at(b.outcome, "status", nullptr);
  if (sa != sb) return "status:" + sa + "/" + sb;
  if (sa == "error") {
    std::string ca = str_at(a.outcome, "error", "code"), cb = str_at(b.outcome, "error", "code");
    if (ca != cb) return "error:" + ca + "/" + cb;
  } else {
    std::string path = first_difference(a.outcome.value("plan", json()), b.outcome.value("plan", json()), "");
    if (!path.empty()) return "plan:" + path;
  }
  auto ka = codes(a.outcome), kb = codes(b.outcome);
  if (ka == kb) return "";
  std::string plus, minus;
  for (const auto& k : kb)
    if (!ka.count(k)) plus += (plus.empty() ? "" : ",") + k;
  for (const auto& k : ka)
    if (!kb.count(k)) minus += (minus.empty() ? "" : ",") + k;
  return "diagnostics:+" + plus + "-" + minus;
}

namespace {

/// Walks the shrink tree: takes the first smaller case that shows the same kind, until none does.
void shrink(Side& a, Side& b, rc::Shrinkable<ref::Case> s, Finding& f, const Options& opt, long& ids) {
  int budget = opt.max_shrink_steps;
  bool progress = true;
  while (progress && budget > 0) {
    progress = false;
    auto seq = s.shrinks();
    while (auto next = seq.next()) {
      if (--budget <= 0) break;
      ref::Case c = next->value();
      auto ra = resolve(a, c, ++ids), rb = resolve(b, c, ++ids);
      if (difference_kind(ra, rb) != f.kind) continue;
      s = *next;
      f.baseline = ra;
      f.other = rb;
      ++f.shrink_steps;
      progress = true;
      break;
    }
  }
  f.given = minimal_case_json(ref::case_to_json(s.value()));
}

}  // namespace

Report run(Side& a, Side& b, const Options& opt) {
  Report r;
  CaseStream stream(opt.seed, opt.without_packages);
  long ids = 0;
  auto stopped = [&] { return r.stopped = r.stopped || (opt.stop && opt.stop()); };
  for (int k = 0; k < opt.cases && !stopped(); ++k) {
    rc::Shrinkable<ref::Case> s = stream.next();
    ref::Case c = s.value();
    // Progress counts generated cases, asked or skipped, so that a run of skips still moves the bar.
    if (opt.progress && (k % 50 == 0 || k + 1 == opt.cases)) opt.progress(static_cast<std::uint64_t>(k + 1), static_cast<std::uint64_t>(opt.cases));
    if (auto lacking = lacked(a, b, c); !lacking.empty()) {  // a side said it cannot run such a case: not asked
      ++r.skipped;
      for (const auto& tag : lacking) ++r.skipped_by[tag];
      continue;
    }
    auto ra = resolve(a, c, ++ids), rb = resolve(b, c, ++ids);
    if (stopped()) break;
    ++r.cases;
    if (ra.elapsed_ns && rb.elapsed_ns) {
      r.elapsed_baseline.push_back(*ra.elapsed_ns);
      r.elapsed_other.push_back(*rb.elapsed_ns);
    }
    std::string kind = difference_kind(ra, rb);
    if (kind.empty()) continue;
    ++r.differing;
    auto it = std::find_if(r.findings.begin(), r.findings.end(), [&](const Finding& f) { return f.kind == kind; });
    if (it != r.findings.end()) {
      ++it->occurrences;
      continue;
    }
    Finding f;
    f.kind = kind;
    f.occurrences = 1;
    f.first_case = k;
    f.baseline = ra;
    f.other = rb;
    shrink(a, b, s, f, opt, ids);
    r.findings.push_back(std::move(f));
  }
  return r;
}

}  // namespace accord::differential
