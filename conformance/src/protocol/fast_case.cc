// fast_case.cc: FastCaseReader. Mirrors reference/src/json_io.cc's case_from_json for valid input only: any
// doubt is a decline, and the caller's nlohmann path decides. Agreement is checked by conformance/tests
// (FastCase.*), the property FastCase.AgreesWithTheTreeReader and the fuzz target fuzz_case_json.
#include "accord/conformance/fast_case.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "accord/conformance/json_input.h"
#include "accord/reference/flags.h"
#include "accord/reference/json_io.h"
#include "accord/reference/registry.h"

namespace accord::conformance {
namespace ref = accord::reference;
using simdjson::dom::element;
using simdjson::dom::element_type;

namespace {

/// What a reader keeps from one read to the next, so that a case reused line after line is not built anew: which flags
/// the last read wrote into which case, and the room of the environment and the hardware's sets. Those are sorted
/// vectors (flat_map, flat_set); clear_case takes each one's vector out of the case, whole, and the next line's values
/// are written over its entries (a string keeps its storage) before it goes back.
struct Kept {
  const ref::Case* last = nullptr;  ///< the case the last read wrote into
  std::uint32_t flags_written = 0;  ///< bit k: that read wrote row k of tables/flags.def (a value, or part of one)
  ref::EnvVars::sequence_type env;
  ref::SortedSet<std::string>::sequence_type packages;
  ref::SortedSet<int>::sequence_type gpu_busy;
};
// A bit a flag, here and in read_case_object's check for a repeated flag (UserFlags is one PyValue a flag).
static_assert(sizeof(ref::UserFlags) / sizeof(ref::PyValue) <= 32, "more flags than bits in a mask");

/// Makes `c` the empty case, touching only what a read set: the flags the last read wrote when `c` is the case it
/// wrote into (any flag that is set, for another case); the environment's and the hardware's sets' vectors go to `kept`.
void clear_case(Kept& kept, ref::Case& c) {
  const auto& rows = ref::flags();
  if (&c == kept.last) {
    for (std::uint32_t bits = kept.flags_written; bits; bits &= bits - 1)
      (c.flags.*(rows[static_cast<std::size_t>(__builtin_ctz(bits))].member)).reset();
  } else {
    for (const auto& row : rows)
      if (ref::PyValue& v = c.flags.*(row.member); !v.is_absent()) v.reset();
  }
  kept.last = &c;
  kept.flags_written = 0;
  // A case without the container keeps the room taken from the case before.
  if (!c.env.empty()) kept.env = c.env.extract_sequence();
  if (!c.hardware.packages.empty()) kept.packages = c.hardware.packages.extract_sequence();
  if (!c.hardware.gpu_busy.empty()) kept.gpu_busy = c.hardware.gpu_busy.extract_sequence();
  c.hardware = ref::HardwareFacts{};
  c.interactive = false;
}

/// `to` = `text`, keeping its room: clear() then append() costs a capacity check and a copy, where assign() takes
/// the general replace path (overlap checks) on every call.
void set_text(std::string& to, std::string_view text) {
  to.clear();
  to.append(text.data(), text.size());
}

void put(std::pair<std::string, std::string>& to, std::string_view key, std::string_view value) {
  set_text(to.first, key), set_text(to.second, value);
}
void put(std::string& to, std::string_view value) { set_text(to, value); }
void put(int& to, int value) { to = value; }
const std::string& key_of(const std::pair<std::string, std::string>& kv) { return kv.first; }
template <typename T>
const T& key_of(const T& v) { return v; }

/// The values of one sorted container as they are read: each written over the next entry of the room kept from the
/// lines before, or appended to it.
template <typename Sorted>
class SortedFill {
 public:
  explicit SortedFill(typename Sorted::sequence_type& room) : room_(room) {}
  template <typename... Value>
  void add(Value... v) {
    if (n_ < room_.size()) put(room_[n_], v...);
    else room_.emplace_back(v...);
    ++n_;
  }
  /// Puts the values into `to`, which is empty. The writers of cases (nlohmann's dump, accord generate) write an
  /// object's keys and a set's list in sorted order: then the vector is taken as it is, else `to` sorts it. A set
  /// keeps a repeated value once; a repeated variable name is false (nlohmann keeps the last: the tree reader decides).
  bool into(Sorted& to) {
    room_.erase(room_.begin() + static_cast<std::ptrdiff_t>(n_), room_.end());
    auto not_before = [](const auto& a, const auto& b) { return !(key_of(a) < key_of(b)); };
    const auto it = std::adjacent_find(room_.begin(), room_.end(), not_before);
    if (it == room_.end()) return to.adopt_sequence(boost::container::ordered_unique_range, std::move(room_)), true;
    if constexpr (!std::is_same_v<typename Sorted::key_type, typename Sorted::value_type>) {  // a map
      auto same = [](const auto& a, const auto& b) { return key_of(a) == key_of(b); };
      std::sort(room_.begin(), room_.end(), [](const auto& a, const auto& b) { return key_of(a) < key_of(b); });
      if (std::adjacent_find(room_.begin(), room_.end(), same) != room_.end()) return false;
    }
    to.adopt_sequence(std::move(room_));
    return true;
  }

 private:
  typename Sorted::sequence_type& room_;
  std::size_t n_ = 0;
};

// Typed views of an element whose type() was checked (bound to locals: simdjson_result temporaries must not
// outlive their expression).
template <typename T>
T as(element e) {
  T v{};
  [[maybe_unused]] simdjson::error_code unreachable = e.get(v);  // the type was checked
  return v;
}
simdjson::dom::object object_of(element e) { return as<simdjson::dom::object>(e); }
simdjson::dom::array array_of(element e) { return as<simdjson::dom::array>(e); }
std::string_view string_of(element e) { return as<std::string_view>(e); }

bool read_value(element e, bool instances, ref::PyValue* out);

/// `{"class": "Name", "args": {...}}`; a repeated key or argument is declined (nlohmann keeps the last one).
bool read_instance(simdjson::dom::object o, ref::PyValue* out) {
  std::string_view cls;
  bool has_class = false, has_args = false;
  std::map<std::string, ref::PyValue> args;
  for (auto field : o) {
    if (field.key == "class") {
      if (has_class || field.value.type() != element_type::STRING) return false;
      has_class = true;
      cls = string_of(field.value);
    } else if (field.key == "args") {
      if (has_args || field.value.type() != element_type::OBJECT) return false;
      has_args = true;
      for (auto arg : object_of(field.value)) {
        ref::PyValue v;
        if (!read_value(arg.value, true, &v) || !args.emplace(std::string(arg.key), std::move(v)).second) return false;
      }
    } else {
      return false;
    }
  }
  if (!has_class) return false;
  *out = ref::PyValue::instance(std::string(cls), std::move(args));
  return true;
}

/// reference::value_from_json for what it accepts, into `out`, which is absent (reset or new): a scalar is written in
/// place, as PyValue's factories would make it, with no temporary value. The kind is set first, so a value left half
/// read (a declined list) is one clear_case resets.
bool read_value(element e, bool instances, ref::PyValue* out) {
  using Kind = ref::PyValue::Kind;
  switch (e.type()) {
    case element_type::NULL_VALUE: out->kind = Kind::kNone; return true;
    case element_type::BOOL: out->kind = Kind::kBool, out->b = as<bool>(e); return true;
    case element_type::INT64: out->kind = Kind::kInt, out->i = as<std::int64_t>(e); return true;
    case element_type::DOUBLE: out->kind = Kind::kFloat, out->f = as<double>(e); return true;  // finite: simdjson refuses 1e400
    case element_type::STRING: {
      std::string_view s = string_of(e);
      if (instances && ref::class_by_name(s)) {
        *out = ref::PyValue::instance(std::string(s));
      } else {  // the common case
        out->kind = Kind::kStr;
        set_text(out->str, s);
      }
      return true;
    }
    case element_type::ARRAY: {  // the items straight into the value's list (its room kept from the last case)
      out->kind = Kind::kList;
      for (element x : array_of(e)) {
        out->list.emplace_back();
        if (!read_value(x, instances, &out->list.back())) return false;
      }
      return true;
    }
    case element_type::OBJECT: return read_instance(object_of(e), out);
    case element_type::UINT64:  // past int64 (smaller ones are INT64): kept as decimal text, like the tree reader
      out->kind = Kind::kBigInt, out->str = std::to_string(as<std::uint64_t>(e));
      return true;
  }
  return false;  // LCOV_EXCL_LINE unreachable: every element type returns above
}

/// An integer that fits `int`, as a hardware count or GPU id; anything else declines.
bool small_int(element e, std::int64_t lo, std::int64_t hi, std::int64_t* out) {
  if (e.type() != element_type::INT64) return false;
  *out = as<std::int64_t>(e);
  return *out >= lo && *out <= hi;
}

bool read_hardware(Kept& kept, simdjson::dom::object o, ref::HardwareFacts* hw) {
  std::uint32_t seen_switches = 0;
  bool seen_cuda = false, seen_packages = false, seen_busy = false, seen_tpu_cores = false;
  std::int64_t tpu_cores = 0;
  for (auto field : o) {
    const std::string_view k = field.key;
    element v = field.value;
    if (k == "cuda_devices") {
      std::int64_t n;
      if (seen_cuda || !small_int(v, 0, 4096, &n)) return false;
      seen_cuda = true;
      hw->cuda_devices = static_cast<int>(n);
    } else if (k == "tpu_cores") {
      if (seen_tpu_cores || !small_int(v, 0, std::numeric_limits<std::int64_t>::max(), &tpu_cores)) return false;
      seen_tpu_cores = true;
    } else if (int row; bool* sw = ref::hardware_switch(*hw, k, &row)) {
      if ((seen_switches & (1u << row)) || v.type() != element_type::BOOL) return false;
      seen_switches |= 1u << row;
      *sw = as<bool>(v);
    } else if (k == "packages") {
      if (seen_packages || v.type() != element_type::ARRAY) return false;
      seen_packages = true;
      SortedFill<ref::SortedSet<std::string>> packages(kept.packages);
      for (element p : array_of(v)) {
        if (p.type() != element_type::STRING) return false;
        packages.add(string_of(p));
      }
      packages.into(hw->packages);
    } else if (k == "gpu_busy") {
      if (seen_busy || v.type() != element_type::ARRAY) return false;
      seen_busy = true;
      SortedFill<ref::SortedSet<int>> gpu_busy(kept.gpu_busy);
      for (element g : array_of(v)) {
        std::int64_t id;
        if (!small_int(g, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), &id)) return false;
        gpu_busy.add(static_cast<int>(id));
      }
      gpu_busy.into(hw->gpu_busy);
    } else if (k != "cuda_names" && k != "nccl_version" && k != "probe") {
      return false;
    }
  }
  // case_from_json visits keys in sorted order, so `tpu_cores` decides over `tpu` wherever it is written.
  if (seen_tpu_cores) {
    hw->tpu = tpu_cores > 0;
    hw->tpu_cores = static_cast<int>(std::min<std::int64_t>(tpu_cores, 4096));
  }
  return true;
}

/// Reads into `c` (cleared first; when declined, `c` holds part of the text).
bool read_case_object(Kept& kept, element e, ref::Case& c) {
  if (e.type() != element_type::OBJECT) return false;
  clear_case(kept, c);
  bool seen[4] = {false, false, false, false};  // flags, env, hardware, interactive
  auto first = [&seen](int k) { return !seen[k] && (seen[k] = true); };
  for (auto field : object_of(e)) {
    element v = field.value;
    if (field.key == "flags") {
      if (!first(0) || v.type() != element_type::OBJECT) return false;
      std::uint32_t seen_flags = 0;
      for (auto f : object_of(v)) {
        int index;
        bool instances;
        ref::PyValue* slot = ref::flag_slot(c.flags, f.key, &index, &instances);
        if (!slot || (seen_flags & (1u << index))) return false;
        seen_flags |= 1u << index;
        kept.flags_written |= 1u << index;  // before the value: a value left half read is reset too
        if (!read_value(f.value, instances, slot)) return false;
      }
    } else if (field.key == "env") {
      if (!first(1) || v.type() != element_type::OBJECT) return false;
      SortedFill<ref::EnvVars> env(kept.env);
      for (auto kv : object_of(v)) {
        if (kv.value.type() != element_type::STRING) return false;
        env.add(kv.key, string_of(kv.value));
      }
      if (!env.into(c.env)) return false;
    } else if (field.key == "hardware") {
      if (!first(2) || v.type() != element_type::OBJECT || !read_hardware(kept, object_of(v), &c.hardware))
        return false;
    } else if (field.key == "interactive") {
      if (!first(3) || v.type() != element_type::BOOL) return false;
      c.interactive = as<bool>(v);
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

struct FastCaseReader::Impl {
  /// simdjson refuses nesting past kMaxJsonDepth, so a text the fast path reads is one check_json_depth passes; it
  /// counts a value inside the innermost list or object as one level more, so it also refuses such a text of exactly
  /// kMaxJsonDepth levels. What it refuses goes to the callers' tree reader, which checks the depth first.
  Impl() { [[maybe_unused]] simdjson::error_code ignored = parser.allocate(simdjson::dom::MINIMAL_DOCUMENT_CAPACITY, kMaxJsonDepth); }
  simdjson::dom::parser parser;
  Kept kept;
};

FastCaseReader::FastCaseReader() : impl_(std::make_unique<Impl>()) {}
FastCaseReader::~FastCaseReader() = default;

bool FastCaseReader::read_case(std::string_view text, ref::Case* out) {
  element doc;
  if (impl_->parser.parse(text.data(), text.size()).get(doc)) return false;
  return read_case_object(impl_->kept, doc, *out);
}

bool FastCaseReader::read_request(std::string_view line, std::string* id, std::optional<std::string>* profile,
                                  ref::Case* out) {
  element doc;
  if (impl_->parser.parse(line.data(), line.size()).get(doc) || doc.type() != element_type::OBJECT) return false;
  bool resolve = false, has_id = false, has_profile = false, has_case = false;
  element case_json;
  for (auto field : object_of(doc)) {
    element v = field.value;
    if (field.key == "cmd") {
      if (resolve || v.type() != element_type::STRING || string_of(v) != "resolve") return false;
      resolve = true;
    } else if (field.key == "id") {
      if (has_id || v.type() != element_type::STRING) return false;
      has_id = true;
      set_text(*id, string_of(v));
    } else if (field.key == "profile") {
      if (has_profile || v.type() != element_type::STRING) return false;
      has_profile = true;
      profile->emplace(string_of(v));
    } else if (field.key == "case") {
      if (has_case) return false;
      has_case = true;
      case_json = v;
    }
  }
  if (!resolve || !has_id) return false;
  if (!has_profile) profile->reset();
  if (!has_case || case_json.type() == element_type::NULL_VALUE) {
    clear_case(impl_->kept, *out);
    return true;
  }
  return read_case_object(impl_->kept, case_json, *out);
}

}  // namespace accord::conformance
