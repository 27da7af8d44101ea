// fuzz_device_strings.cc: libFuzzer target: the devices / precision / SLURM_NTASKS string parsers, reached by
// resolving a case whose devices (or a legacy flag), precision and SLURM_NTASKS come from the input.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"

namespace {
using accord::reference::PyValue;

/// Printable ASCII (what a JSON case can carry, minus escapes the reader would turn into the same bytes).
std::string text(FuzzedDataProvider& in) {
  std::string s = in.ConsumeRandomLengthString(24);
  for (auto& ch : s) ch = static_cast<char>(32 + static_cast<unsigned char>(ch) % 95);
  return s;
}

PyValue device_value(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0: return PyValue::string(text(in));
    case 1: return PyValue::integer(in.ConsumeIntegralInRange<int64_t>(-3, 64));
    case 2: {
      std::vector<PyValue> ids;
      for (int k = in.ConsumeIntegralInRange(0, 4); k > 0; --k) ids.push_back(PyValue::integer(in.ConsumeIntegralInRange(-2, 9)));
      return PyValue::make_list(ids);
    }
    default: return PyValue::integer(in.ConsumeIntegral<int64_t>());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  accord::reference::Case c;
  static const char* kAccelerators[] = {nullptr, "auto", "cpu", "gpu", "tpu", "ipu", "hpu"};
  if (const char* a = kAccelerators[in.ConsumeIntegralInRange(0, 6)]) c.flags.accelerator = PyValue::string(a);
  c.hardware.cuda_devices = in.ConsumeIntegralInRange(0, 9);
  c.hardware.tpu = in.ConsumeBool();
  c.hardware.ipu = in.ConsumeBool();
  c.hardware.hpu = in.ConsumeBool();
  PyValue devices = device_value(in);
  switch (in.ConsumeIntegralInRange(0, 4)) {
    case 0: c.flags.devices = devices; break;
    case 1: c.flags.gpus = devices; break;
    case 2: c.flags.tpu_cores = devices; break;
    case 3: c.flags.ipus = devices; break;
    default: c.flags.num_processes = devices; break;
  }
  c.flags.precision = in.ConsumeBool() ? PyValue::string(text(in)) : PyValue::integer(in.ConsumeIntegralInRange(-1, 130));
  if (in.ConsumeBool()) c.flags.num_nodes = PyValue::string(text(in));
  if (in.ConsumeBool()) {
    c.env["SLURM_NTASKS"] = text(in);
    c.env["SLURM_PROCID"] = "0";
    c.env["SLURM_LOCALID"] = "0";
    c.env["SLURM_NODEID"] = "0";
  }
  if (in.ConsumeBool()) c.env["TORCHELASTIC_RUN_ID"] = "1";
  nlohmann::json outcome = accord::fuzz::check_resolve(c);
  accord::fuzz::check_round_trip(c, outcome);
  return 0;
}
