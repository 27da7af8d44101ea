// devices.cc: Lightning 1.6.5 device parsers (utilities/device_parser.py): CPU, GPU, TPU, HPU, IPU.
#include "devices.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <charconv>
#include <iterator>
#include <set>

namespace accord::reference::detail {
namespace {

ParsedDevices fail(DiagCode code, std::string_view flag, const PyValue& v, std::vector<Field> extra = {}) {
  ParsedDevices r;
  std::vector<Field> f;  // each field moved in, none copied
  f.reserve(2 + extra.size());
  f.push_back({"flag", std::string(flag)});
  f.push_back({"value", repr(v)});
  std::move(extra.begin(), extra.end(), std::back_inserter(f));
  r.error = Diagnostic{code, std::move(f)};
  return r;
}

ParsedDevices too_many(std::string_view flag, const PyValue& v) {
  return fail(DiagCode::kValueOutOfRange, flag, v, {{"expected", kMaxDevicesExpected}});
}

// device_parser._check_data_type: None, int (not bool), str, list.
bool device_type_ok(const PyValue& v) {
  return v.is_none() || v.kind == PyValue::Kind::kInt || v.kind == PyValue::Kind::kBigInt ||
         v.kind == PyValue::Kind::kStr || v.kind == PyValue::Kind::kList;
}

/// An empty result whose lists are the room's storage.
ParsedDevices in_room(DeviceRoom&& room) {
  ParsedDevices r;
  r.parallel = std::move(room.parallel);
  r.parsed.list = std::move(room.ids);
  return r;
}

/// `[int(x.strip()) for x in s.split(",") if len(x) > 0]` written into `v` as a list, into `room`'s storage (a
/// reused selection's id list); false = ValueError.
bool comma_ints(std::string_view s, std::vector<PyValue>&& room, PyValue& v) {
  v.kind = PyValue::Kind::kList;
  v.list = std::move(room);
  v.list.clear();
  size_t start = 0;
  while (start <= s.size()) {
    auto pos = s.find(',', start);
    std::string_view piece = s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start);
    if (!piece.empty()) {
      auto n = py_int_from_str(piece);
      if (!n) return false;
      v.list.emplace_back().kind = PyValue::Kind::kInt;
      v.list.back().i = *n;
    }
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return true;
}

/// `list(range(n))` written into `v` (an empty value; its list's storage is used).
void range_list(long long n, PyValue& v) {
  v.kind = PyValue::Kind::kList;
  v.list.resize(static_cast<size_t>(std::max(n, 0LL)));
  for (long long k = 0; k < n; ++k) {
    v.list[static_cast<size_t>(k)].kind = PyValue::Kind::kInt;
    v.list[static_cast<size_t>(k)].i = k;
  }
}
PyValue range_list(long long n) {
  PyValue v;
  range_list(n, v);
  return v;
}

/// What an id is in a Python set: a number by its value (True is 1, 0.0 is 0), a str by its text, None as itself; a
/// list (unhashable: Python raises TypeError, which the model does not) and an instance by their repr.
std::string set_key(const PyValue& id) {
  switch (id.kind) {
    case PyValue::Kind::kBool:
    case PyValue::Kind::kInt: return "n" + std::to_string(id.as_int());
    case PyValue::Kind::kFloat:
      if (id.f == 0) return "n0";  // 0.0 and -0.0 are 0
      if (std::isfinite(id.f) && std::trunc(id.f) == id.f) {  // an integral float is the integer it equals exactly
        char digits[400];  // the largest double has 309 digits
        std::snprintf(digits, sizeof digits, "%.0f", id.f);
        return std::string("n") + digits;
      }
      return "f" + repr(id);
    case PyValue::Kind::kBigInt: return "n" + id.str;
    case PyValue::Kind::kStr: return "s" + id.str;
    default: return "r" + repr(id);
  }
}

/// PL 1.6.5 device_parser.py _check_unique (2.2.5 fabric/utilities/device_parser.py the same):
/// `len(device_ids) == len(set(device_ids))`, Python's equality deciding ([1, True] and [0, 0.0] are not unique).
/// Plain ints (the usual list) are compared as numbers.
bool unique_as_set(const std::vector<PyValue>& ids) {
  bool ints = std::all_of(ids.begin(), ids.end(), [](const PyValue& id) { return id.kind == PyValue::Kind::kInt; });
  if (ints && ids.size() <= 16) {  // the usual few ids: compared pairwise, nothing allocated
    for (size_t a = 0; a < ids.size(); ++a)
      for (size_t b = a + 1; b < ids.size(); ++b)
        if (ids[a].i == ids[b].i) return false;
    return true;
  }
  if (ints) {
    std::vector<std::int64_t> n;
    n.reserve(ids.size());
    for (const auto& id : ids) n.push_back(id.i);
    std::sort(n.begin(), n.end());
    return std::adjacent_find(n.begin(), n.end()) == n.end();
  }
  std::set<std::string> seen;
  for (const auto& id : ids)
    if (!seen.insert(set_key(id)).second) return false;
  return true;
}

}  // namespace

// device_parser.parse_cpu_cores.
ParsedDevices parse_cpu(const PyValue& v, std::string_view flag, DeviceRoom&& room) {
  ParsedDevices r;
  r.parallel = std::move(room.parallel);
  if (v.is_str()) {
    const std::string text = py_strip(v.str);
    if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
      auto x = py_int_from_str(v.str);
      if (!x) return too_many(flag, v);
      r.parsed = PyValue::integer(*x);
    }
  }
  const PyValue& n = r.parsed.is_absent() ? v : r.parsed;
  if (n.kind == PyValue::Kind::kBigInt) return too_many(flag, v);
  if (!n.is_int_like() || n.as_int() <= 0) return fail(DiagCode::kCpuDevicesInvalid, flag, v);
  if (n.as_int() > kMaxDevices) return too_many(flag, v);
  r.parallel.assign(static_cast<size_t>(n.as_int()), "cpu");
  if (r.parsed.is_absent()) r.parsed = v;
  return r;
}

// device_parser.parse_gpu_ids and GPUAccelerator.get_parallel_devices.
ParsedDevices parse_gpu(const PyValue& v, std::string_view flag, const GpuFacts& facts, DeviceRoom&& room) {
  if (!device_type_ok(v)) return fail(DiagCode::kDevicesType, flag, v);
  if (v.kind == PyValue::Kind::kBigInt) return too_many(flag, v);
  // `str(v).strip()` in ("0", "[]"): only a str, the int 0 or an empty list print that way.
  const std::string text = v.is_str() ? py_strip(v.str) : std::string();
  bool zero_text = std::string_view(text) == "0" || std::string_view(text) == "[]";
  if (v.is_none() || (v.kind == PyValue::Kind::kInt && v.i == 0) || zero_text || (v.kind == PyValue::Kind::kList && v.list.empty())) {
    ParsedDevices r;
    r.parsed = PyValue::none();
    r.no_gpus = true;
    return r;
  }
  PyValue from_text;  // the value a string reads as
  if (v.is_str()) {
    if (std::string_view(v.str) == "-1") {
      from_text = PyValue::integer(-1);
    } else if (v.str.find(',') != std::string::npos) {
      if (!comma_ints(v.str, std::move(room.ids), from_text)) return fail(DiagCode::kDevicesNotInt, flag, v);
    } else {
      auto n = py_int_from_str(v.str);
      if (!n) return fail(DiagCode::kDevicesNotInt, flag, v);
      from_text = PyValue::integer(*n);
    }
  }
  const PyValue& g = v.is_str() ? from_text : v;
  ParsedDevices r = in_room(std::move(room));  // (no id list left when the text's list took it)
  if (g.kind == PyValue::Kind::kList) {
    if (v.is_str())
      r.parsed = std::move(from_text);
    else
      r.parsed = v;
  } else if (g.i == -1) {
    range_list(facts.cuda_devices, r.parsed);
  } else if (g.i != 0) {
    if (g.i > kMaxDevices) return too_many(flag, v);
    range_list(g.i, r.parsed);
  } else {
    r.parsed = PyValue::make_list({});
  }
  const std::vector<PyValue>& ids = r.parsed.list;
  if (ids.empty()) return fail(DiagCode::kGpusNoneAvailable, flag, v);
  bool te_exception = facts.torchelastic && ids.size() != 1 && facts.cuda_devices == 1;
  if (!te_exception) {
    if (!unique_as_set(ids)) return fail(DiagCode::kGpuIdsNotUnique, flag, v);
    // _sanitize_gpu_ids: `id in range(cuda_devices)` by Python's ==, so True and an integral float name an index too.
    auto visible = [&](const PyValue& id) {
      if (id.is_int_like()) return id.as_int() >= 0 && id.as_int() < facts.cuda_devices;
      return id.kind == PyValue::Kind::kFloat && std::trunc(id.f) == id.f && id.f >= 0 && id.f < static_cast<double>(facts.cuda_devices);
    };
    for (const auto& id : ids)
      if (!visible(id))
        return fail(DiagCode::kGpuIdsUnavailable, flag, v,
                    {{"requested", repr(r.parsed)}, {"available", repr(range_list(facts.cuda_devices))}});
  }
  r.parallel.reserve(ids.size());
  for (const auto& id : ids) {
    // GPUAccelerator.get_parallel_devices: torch.device("cuda", id) takes an int only (a bool or a float is a TypeError).
    if (id.kind != PyValue::Kind::kInt) return fail(DiagCode::kDeviceIndexType, flag, v, {{"type", py_type_name(id)}});
    char buf[32] = "cuda:";
    auto end = std::to_chars(buf + 5, buf + sizeof buf, id.i).ptr;
    r.parallel.emplace_back(buf, end);
  }
  return r;
}

// device_parser.parse_tpu_cores and TPUAccelerator.get_parallel_devices.
ParsedDevices parse_tpu(const PyValue& v, std::string_view flag, DeviceRoom&& room) {
  if (!device_type_ok(v)) return fail(DiagCode::kDevicesType, flag, v);
  PyValue from_text;  // the value a string reads as
  if (v.is_str()) {
    std::string s = py_strip(v.str);
    if (s == "1" || s == "8") {
      from_text = PyValue::integer(s == "1" ? 1 : 8);
    } else {
      if (!comma_ints(s, std::move(room.ids), from_text)) return fail(DiagCode::kDevicesNotInt, flag, v);
    }
  }
  ParsedDevices r = in_room(std::move(room));  // (no id list left when the text's list took it)
  if (v.is_str()) r.parsed = std::move(from_text);
  else r.parsed = v;
  const PyValue& t = r.parsed;
  if (t.kind == PyValue::Kind::kInt && (t.i == 1 || t.i == 8)) {
    for (long long k = 0; k < t.i; ++k) r.parallel.push_back(std::to_string(k));
    return r;
  }
  if (t.kind == PyValue::Kind::kList && t.list.size() == 1 && t.list[0].is_int_like() && t.list[0].as_int() >= 1 &&
      t.list[0].as_int() <= 8) {
    r.parallel.push_back(py_str(t.list[0]));
    return r;
  }
  return fail(DiagCode::kTpuCoresInvalid, flag, v);
}

// device_parser.parse_hpus and HPUAccelerator.get_parallel_devices.
ParsedDevices parse_hpu(const PyValue& v, std::string_view flag, DeviceRoom&& room) {
  if (v.kind == PyValue::Kind::kBigInt) return too_many(flag, v);
  if (!v.is_str() && !v.is_none() && !v.is_int_like()) return fail(DiagCode::kHpuDevicesType, flag, v);
  // int(devices) of a str; None counts as 0 devices.
  const std::optional<std::int64_t> n = v.is_str() ? py_int_from_str(v.str) : std::optional<std::int64_t>(v.as_int());
  if (!n) return fail(DiagCode::kDevicesNotInt, flag, v);
  if (*n > kMaxDevices) return too_many(flag, v);
  ParsedDevices r = in_room(std::move(room));
  if (v.is_str()) r.parsed = PyValue::integer(*n);
  else r.parsed = v;
  for (long long k = 0; k < *n; ++k) r.parallel.push_back("hpu");
  return r;
}

// IPUAccelerator.parse_devices (identity) and get_parallel_devices (range(devices)).
ParsedDevices parse_ipu(const PyValue& v, std::string_view flag, DeviceRoom&& room) {
  if (v.kind == PyValue::Kind::kBigInt || (v.is_int_like() && v.as_int() > kMaxDevices)) return too_many(flag, v);
  if (!v.is_int_like()) return fail(DiagCode::kDevicesType, flag, v);
  ParsedDevices r = in_room(std::move(room));
  r.parsed = v;
  for (long long k = 0; k < v.as_int(); ++k) r.parallel.push_back(std::to_string(k));
  return r;
}

std::optional<Diagnostic> check_device_type22(const PyValue& v, std::string_view flag) {
  bool ok = v.kind == PyValue::Kind::kInt || v.kind == PyValue::Kind::kBigInt || v.kind == PyValue::Kind::kStr;
  if (v.kind == PyValue::Kind::kList)
    ok = std::all_of(v.list.begin(), v.list.end(), [](const PyValue& e) { return e.kind == PyValue::Kind::kInt; });
  if (ok) return std::nullopt;
  return fail(DiagCode::kDevicesType, flag, v).error;
}

ParsedDevices parse_xla(const PyValue& v, std::string_view flag, int count, DeviceRoom&& room) {
  if (auto e = check_device_type22(v, flag)) {
    ParsedDevices r;
    r.error = e;
    return r;
  }
  PyValue from_text;  // the value a string reads as
  if (v.is_str()) {  // _parse_tpu_devices_str: int(s.strip()), else a comma list of ints
    std::string s = py_strip(v.str);
    if (auto n = py_int_from_str(s)) {
      from_text = PyValue::integer(*n);
    } else {
      if (!comma_ints(s, std::move(room.ids), from_text)) return fail(DiagCode::kDevicesNotInt, flag, PyValue::string(s));
    }
  }
  ParsedDevices r = in_room(std::move(room));  // (no id list left when the text's list took it)
  if (v.is_str()) r.parsed = std::move(from_text);
  else r.parsed = v;
  const PyValue& t = r.parsed;
  if (t.kind == PyValue::Kind::kInt && (t.i == 1 || t.i == count)) {
    r.parallel.reserve(static_cast<size_t>(t.i));
    for (long long k = 0; k < t.i; ++k) {
      char buf[32] = "xla:";
      r.parallel.emplace_back(buf, std::to_chars(buf + 4, buf + sizeof buf, k).ptr);
    }
    return r;
  }
  if (t.kind == PyValue::Kind::kList && t.list.size() == 1 && t.list[0].as_int() >= 0 && t.list[0].as_int() <= count - 1) {
    r.parallel.push_back("xla:" + std::to_string(t.list[0].as_int()));
    return r;
  }
  return fail(DiagCode::kTpuCoresInvalid, flag, v, {{"count", std::to_string(count)}});
}

}  // namespace accord::reference::detail
