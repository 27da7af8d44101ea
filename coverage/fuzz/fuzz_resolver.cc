// fuzz_resolver.cc: libFuzzer target: the whole resolver from structured input. The bytes choose every flag
// (from the connector's vocabularies or free-form), environment variables and hardware facts; the outcome is
// checked for the resolve() guarantees and the JSON wire round trip.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>

#include "accord/reference/flags.h"
#include "accord/reference/registry.h"
#include "fuzz_util.h"

namespace {
using accord::reference::PyValue;

const std::vector<std::string>& words() {
  static const std::vector<std::string> w = [] {
    std::vector<std::string> v = {"auto", "ddp_cpu", "tpu_spawn", "DDP", "Ddp_Spawn", "native", "apex", "APEX", "O2", "warn"};
    for (const auto& p : accord::reference::precision_spellings())  // the str spellings, in table order
      if (p.type == accord::reference::PrecisionType::kStr) v.push_back(p.text);  // (every profile's: the fuzzer reads them all)
    for (const char* word : {"-1", "0", "1", "2", "8", "0,1", "1,", " 0", "[]", "cpu", "cuda:0", "cuda:1", "xla:1", "hpu", "bash", "0x10", "08"})
      v.push_back(word);
    for (const auto& a : accord::reference::accelerators()) v.emplace_back(a.name);
    for (const auto& s : accord::reference::strategies()) v.emplace_back(s.name);
    for (const auto& c : accord::reference::class_names()) v.push_back(c);
    return v;
  }();
  return w;
}

std::string text(FuzzedDataProvider& in) {
  if (in.ConsumeBool()) return words()[in.ConsumeIntegralInRange<size_t>(0, words().size() - 1)];
  std::string s = in.ConsumeRandomLengthString(12);
  for (auto& ch : s) ch = static_cast<char>(32 + static_cast<unsigned char>(ch) % 95);  // valid UTF-8, as JSON gives
  return s;
}

/// A value; `instances` slots read class-name strings as instances (as case_from_json does).
PyValue value(FuzzedDataProvider& in, bool instances, int depth) {
  switch (in.ConsumeIntegralInRange(0, depth > 0 ? 9 : 6)) {
    case 0: return PyValue::absent();
    case 1: return PyValue::none();
    case 2: return PyValue::boolean(in.ConsumeBool());
    case 3: return PyValue::integer(in.ConsumeIntegralInRange<int64_t>(-2, 17));
    case 4: return PyValue::integer(in.ConsumeIntegral<int64_t>());
    case 5: return PyValue::floating(in.ConsumeFloatingPointInRange(-1e6, 1e6));
    case 6: {
      std::string s = text(in);
      return instances && accord::reference::class_by_name(s) ? PyValue::instance(s) : PyValue::string(s);
    }
    case 7: {
      std::vector<PyValue> items;
      for (int k = in.ConsumeIntegralInRange(0, 3); k > 0; --k) {
        PyValue v = value(in, instances, depth - 1);
        if (!v.is_absent()) items.push_back(v);
      }
      return PyValue::make_list(items);
    }
    case 8: {
      PyValue v;
      v.kind = PyValue::Kind::kBigInt;
      v.str = std::to_string(static_cast<uint64_t>(INT64_MAX) + 1 + in.ConsumeIntegralInRange<uint64_t>(0, 1000));
      return v;
    }
    default: {
      static const char* kArgs[] = {"accelerator", "precision_plugin", "checkpoint_io", "cluster_environment",
                                    "parallel_devices", "device", "precision", "find_unused_parameters", "stage"};
      std::map<std::string, PyValue> args;
      for (int k = in.ConsumeIntegralInRange(0, 3); k > 0; --k) {
        PyValue v = value(in, true, depth - 1);
        if (!v.is_absent()) args[in.PickValueInArray(kArgs)] = v;
      }
      auto names = accord::reference::class_names();
      return PyValue::instance(names[in.ConsumeIntegralInRange<size_t>(0, names.size() - 1)], args);
    }
  }
}

void fill_env(FuzzedDataProvider& in, accord::reference::Case& c) {
  static const char* kVars[] = {"SLURM_NTASKS", "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID", "SLURM_JOB_NAME",
                                "TORCHELASTIC_RUN_ID", "WORLD_SIZE", "RANK", "LOCAL_RANK", "GROUP_RANK", "NODE_RANK",
                                "LOCAL_WORLD_SIZE", "KUBERNETES_PORT", "MASTER_ADDR", "MASTER_PORT", "LSB_JOBID",
                                "LSB_DJOB_RANKFILE", "JSM_NAMESPACE_LOCAL_RANK", "JSM_NAMESPACE_SIZE", "JSM_NAMESPACE_RANK",
                                "BAGUA_SERVICE_PORT", "OMPI_COMM_WORLD_RANK", "HOROVOD_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE",
                                "HOROVOD_LOCAL_SIZE"};
  for (int k = in.ConsumeIntegralInRange(0, 8); k > 0; --k) c.env[in.PickValueInArray(kVars)] = text(in);
}

void fill_hardware(FuzzedDataProvider& in, accord::reference::HardwareFacts& h) {
  static const char* kPackages[] = {"deepspeed", "fairscale", "horovod", "apex", "bagua", "poptorch", "habana", "torch_xla"};
  h.cuda_devices = in.ConsumeIntegralInRange(0, 16);
  h.tpu = in.ConsumeBool();
  h.ipu = in.ConsumeBool();
  h.hpu = in.ConsumeBool();
  h.mps = in.ConsumeBool();
  h.fork = in.ConsumeBool();
  h.torch_distributed = in.ConsumeBool();
  h.cudnn_benchmark = in.ConsumeBool();
  for (const char* p : kPackages)
    if (in.ConsumeBool()) h.packages.insert(p);
  for (int k = in.ConsumeIntegralInRange(0, 3); k > 0; --k) h.gpu_busy.insert(in.ConsumeIntegralInRange(0, 15));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  accord::reference::Case c;
  auto& f = c.flags;
  const auto& rows = accord::reference::flags();  // tables/flags.def: the instance flags first, then the others
  for (const auto& r : rows)
    if (r.instances) f.*r.member = value(in, true, 2);
  for (const auto& r : rows)
    if (!r.instances) f.*r.member = in.ConsumeIntegralInRange(0, 3) == 0 ? value(in, false, 1) : PyValue::absent();
  fill_env(in, c);
  fill_hardware(in, c.hardware);
  c.interactive = in.ConsumeBool();
  nlohmann::json outcome = accord::fuzz::check_resolve(c);
  accord::fuzz::check_round_trip(c, outcome);
  return 0;
}
