// context.cc: small helpers of the input, the journal and the accelerator flag.
#include "context.h"

#include <algorithm>

namespace accord::reference {

namespace detail {

const std::string& accelerator_names_with_auto(const Policy& p) {
  return once_per_thread(&p, [&p] {
    std::string s = "['auto'";
    for (const auto& r : accelerators())
      if (in_profile(r, p)) s.append(", '").append(r.name).append("'");
    return s + "]";
  });
}

std::string AcceleratorFlag::repr() const {
  switch (kind) {
    case Kind::kUnset: return "None";
    case Kind::kAuto: return "'auto'";
    case Kind::kName: return "'" + std::string(row(id).name) + "'";
    case Kind::kInstance: return std::string(row(id).cls) + "()";
    case Kind::kText: return reference::repr(PyValue::string(text));
  }
  return "None";  // LCOV_EXCL_LINE unreachable: every kind returns above
}

std::string AcceleratorFlag::str() const {
  switch (kind) {
    case Kind::kAuto: return "auto";
    case Kind::kName: return std::string(row(id).name);
    case Kind::kText: return text;
    default: return repr();  // None, an instance's Cls()
  }
}

namespace {
// PL 1.6.5 utilities/rank_zero.py _get_rank: the first of RANK, LOCAL_RANK, SLURM_PROCID, JSM_NAMESPACE_RANK
// that is set, else 0. A value int() cannot read is taken as 0 (Lightning would fail to import).
bool process_is_rank_zero(const Input& c) {
  for (const char* k : {"RANK", "LOCAL_RANK", "SLURM_PROCID", "JSM_NAMESPACE_RANK"})
    if (const std::string* v = c.env_var(k)) return py_int_from_str(*v).value_or(0) == 0;
  return true;
}
}  // namespace

Diagnostic* Resolution::next_note(DiagCode code) {
  // Every connector note is a rank_zero_warn/deprecation/info except the auto-select log line (_set_devices_flag_if_auto_select_gpus_passed: a plain logger).
  if (pol.rank_zero_gating && code != DiagCode::kAutoSelectGpus && !process_is_rank_zero(*this)) {
    if (std::find(trace.begin(), trace.end(), RuleId::kRankZeroOnly) == trace.end()) fire(RuleId::kRankZeroOnly);
    return nullptr;
  }
  if (noted == notes.size()) notes.emplace_back();
  Diagnostic& d = notes[noted++];
  d.code = code;
  d.fields.clear();
  d.connector = Diagnostic{}.connector;
  return &d;
}

void Resolution::note(DiagCode c, Field* f, std::size_t n) {
  if (Diagnostic* d = next_note(c)) {
    d->fields.reserve(n);
    for (std::size_t k = 0; k < n; ++k) d->fields.push_back(std::move(f[k]));
  }
}

std::optional<ClassInfo> Input::class_of(const Instance& inst) const {
  if (!inst.known) return std::nullopt;  // no table has the name
  return class_at(inst.row, pol);         // the row of this profile's Lightning (the tables' Gate columns)
}

bool AcceleratorFlag::is(AcceleratorId a, const Policy& pol) const {
  if (kind == Kind::kName) return id == a;
  if (kind == Kind::kInstance) return pol.instances_match_by_kind && id == a;
  return false;
}

}  // namespace detail
}  // namespace accord::reference
