// comparison.cc: the cross-implementation table of `accord compare` (comparison.h): rows, the fields that differ,
// agreement per pair, groupings, and the command that reproduces one case.
#include "accord/conformance/comparison.h"

#include <algorithm>
#include <set>

#include "accord/conformance/command_line.h"
#include "accord/conformance/compare.h"

namespace accord::conformance {
namespace {
using nlohmann::json;

bool all_equal(const std::vector<json>& v) { return std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) == v.end(); }

void collect(const std::vector<const json*>& sides, const std::string& pointer, std::vector<FieldDifference>* out) {
  // Key by key when every side has an object here; a part that some side lacks (nullptr) is one field, whole.
  if (std::all_of(sides.begin(), sides.end(), [](const json* j) { return j && j->is_object(); })) {
    std::set<std::string> keys;
    for (const json* j : sides)
      for (auto it = j->begin(); it != j->end(); ++it) keys.insert(it.key());
    for (const auto& k : keys) {
      std::vector<const json*> next;
      for (const json* j : sides) {
        auto it = j->find(k);
        next.push_back(it != j->end() ? &*it : nullptr);
      }
      collect(next, pointer + "/" + pointer_token(k), out);
    }
    return;
  }
  FieldDifference d{pointer.empty() ? "/" : pointer, {}, {}};
  for (const json* j : sides) d.values.push_back(j ? *j : json()), d.present.push_back(j != nullptr);
  if (!all_equal(d.values) || std::adjacent_find(d.present.begin(), d.present.end(), std::not_equal_to<>()) != d.present.end())
    out->push_back(std::move(d));
}

/// Why side k has no outcome: `skipped by NAME (reason)`, `errored on NAME: ...`, `not run on NAME (not selected for
/// its profile)`.
std::string why_apart(const std::vector<ComparedImplementation>& impls, std::size_t k, const CaseResult* r) {
  const std::string& name = impls[k].name;
  if (!r) return "not run on " + name + " (not selected for profile " + impls[k].profile + ")";
  std::string what = r->verdict == Verdict::kSkipped ? "skipped by " + name : std::string(verdict_name(r->verdict)) + " on " + name;
  return r->message.empty() ? what : what + " (" + r->message.substr(0, 160) + ")";
}

}  // namespace

std::vector<FieldDifference> differing_fields(const std::vector<json>& fingerprints) {
  std::vector<const json*> sides;
  for (const auto& f : fingerprints) sides.push_back(&f);
  std::vector<FieldDifference> out;
  collect(sides, "", &out);
  return out;
}

namespace {
/// differing_fields over the sides that answered (nullptr for the others, whose fields are then absent).
std::vector<FieldDifference> differing_fields(const std::vector<const json*>& sides) {
  std::vector<FieldDifference> out;
  collect(sides, "", &out);
  return out;
}
}  // namespace

std::size_t ComparisonTable::differing() const {
  return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const ComparisonRow& r) { return r.differ; }));
}

std::size_t ComparisonTable::apart() const {
  return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const ComparisonRow& r) { return !r.apart.empty(); }));
}

std::vector<PairAgreement> ComparisonTable::agreement() const {
  std::vector<PairAgreement> out;
  for (std::size_t a = 0; a < implementations.size(); ++a)
    for (std::size_t b = a + 1; b < implementations.size(); ++b) {
      PairAgreement p{a, b, 0, 0};
      for (const auto& r : rows) {
        if (!r.answered[a] || !r.answered[b]) continue;
        ++p.compared;
        bool same = std::none_of(r.fields.begin(), r.fields.end(), [&](const FieldDifference& d) {
          return d.present[a] != d.present[b] || d.values[a] != d.values[b];
        });
        if (same) ++p.same;
      }
      out.push_back(p);
    }
  return out;
}

std::map<std::string, std::size_t> ComparisonTable::by_field() const {
  std::map<std::string, std::size_t> out;
  for (const auto& r : rows)
    if (r.differ)
      for (const auto& d : r.fields) ++out[d.pointer];
  return out;
}

std::map<std::string, std::size_t> ComparisonTable::by_rule() const {
  std::map<std::string, std::size_t> out;
  for (const auto& r : rows) {
    if (!r.differ) continue;
    if (r.rules.empty()) ++out["(no rule)"];
    for (const auto& rule : r.rules) ++out[rule];
  }
  return out;
}

std::string ComparisonTable::reproduce(const ComparisonRow& r) const {
  std::string s = "accord compare " + shell_quote(corpus) + " --filter " + shell_quote("^" + regex_escape(r.id) + "$");
  bool implied = true;  // every --impl is `reference:PROFILE`, which carries its profile
  for (const auto& impl : implementations) {
    s += " --impl " + shell_quote(impl.command);
    implied = implied && impl.command == "reference:" + impl.profile;
  }
  if (implied) return s;
  bool one = std::all_of(implementations.begin(), implementations.end(), [&](const auto& i) { return i.profile == implementations[0].profile; });
  if (one) return s + " --profile " + shell_quote(implementations[0].profile);
  for (const auto& impl : implementations) s += " --impl-profile " + shell_quote(impl.profile);
  return s;
}

ComparisonTable build_comparison(std::vector<ComparedImplementation> implementations, const std::vector<Fixture>& fixtures,
                                 const std::vector<std::vector<CaseResult>>& runs) {
  ComparisonTable t;
  t.implementations = std::move(implementations);
  const std::size_t n = t.implementations.size();
  std::map<std::string, std::vector<const CaseResult*>> by_id;
  for (std::size_t k = 0; k < runs.size() && k < n; ++k)
    for (const auto& r : runs[k]) {
      auto& slot = by_id[r.id];
      slot.resize(n, nullptr);
      slot[k] = &r;
    }
  for (std::size_t i = 0; i < fixtures.size(); ++i) {
    const Fixture& f = fixtures[i];
    auto it = by_id.find(f.id);
    if (it == by_id.end()) continue;  // selected for no side (filter, profiles)
    ComparisonRow row;
    row.id = f.id, row.rules = f.covers, row.given = f.given, row.file = f.file, row.pointer = f.pointer, row.order = i;
    std::vector<json> prints(n);
    std::vector<const json*> sides(n, nullptr);
    for (std::size_t k = 0; k < n; ++k) {
      const CaseResult* r = it->second[k];
      bool has = r && r->outcome.is_object();
      row.answered.push_back(has);
      row.classes.push_back(has ? outcome_class(r->outcome) : r ? verdict_name(r->verdict) : "not run");
      row.verdicts.push_back(r ? r->verdict : Verdict::kSkipped);
      if (has) prints[k] = outcome_fingerprint(r->outcome), sides[k] = &prints[k];
      else if (row.apart.empty()) row.apart = why_apart(t.implementations, k, r);
    }
    row.fields = differing_fields(sides);  // for a case apart: the sides that answered, for their pairs' agreement
    row.differ = row.apart.empty() && !row.fields.empty();
    t.rows.push_back(std::move(row));
  }
  auto rank = [](const ComparisonRow& r) { return r.differ ? 0 : !r.apart.empty() ? 1 : 2; };
  std::stable_sort(t.rows.begin(), t.rows.end(), [&](const ComparisonRow& a, const ComparisonRow& b) { return rank(a) < rank(b); });
  return t;
}

}  // namespace accord::conformance
