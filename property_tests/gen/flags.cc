// flags.cc: generators for the Trainer flags, weighted so every name and spelling appears often.
#include "flags.h"

#include "choice.h"
#include "vocab.h"

namespace accord::prop {
using nlohmann::json;
using ref::PyValue;

namespace {

rc::Gen<PyValue> absent() { return rc::gen::just(PyValue::absent()); }

/// Uniform over the wire values of a JSON array; shrinks towards the first.
rc::Gen<PyValue> elems(const json& values, bool instances = false) {
  return shrinking_element_of(wire_values(values, instances));
}

rc::Gen<PyValue> names(const std::vector<std::string>& list, bool instances) {
  return elems(json(list), instances);
}

/// `{}` (arg not given) or `{key: value}`; shrinks to `{}`.
rc::Gen<json> opt_arg(std::size_t percent, const std::string& key, const json& values) {
  std::vector<json> objs;
  for (const auto& v : values) objs.push_back({{key, v}});
  return weighted_choice<json>({{100 - percent, rc::gen::just(json::object())}, {percent, shrinking_element_of(objs)}});
}

}  // namespace

rc::Gen<std::string> gen_recased_strategy_name() {
  return rc::gen::apply([](const std::string& n, unsigned mask) { return recase(n, mask); },
                        shrinking_element_of(strategy_flag_names()), rc::gen::arbitrary<unsigned>());
}

rc::Gen<std::string> gen_wrong_case_accelerator_name() {
  return rc::gen::apply([](const std::string& n, unsigned mask) { return recase(n, mask | 1u); },
                        shrinking_element_of(accelerator_flag_names()), rc::gen::arbitrary<unsigned>());
}

rc::Gen<PyValue> gen_accelerator_flag() {
  auto wrong_case = rc::gen::map(gen_wrong_case_accelerator_name(), [](std::string s) { return PyValue::string(s); });
  return weighted_choice<PyValue>({
      {3, absent()},
      {10, names(accelerator_flag_names(), false)},
      {1, names(class_names_of(ref::ClassKind::kAccelerator), true)},
      {1, wrong_case},
      {1, names(strategy_flag_names(), false)},  // the deprecated accelerator=<strategy name> (_check_config_and_set_final_flags)
      {1, elems({"ddp_cpu", "cuda", "mps", "npu", ""})},
      {1, elems({nullptr, 1, true, json::array({"gpu"}), "DDPStrategy", "SLURMEnvironment", json{{"class", "MyAccelerator"}}}, true)},
  });
}

rc::Gen<PyValue> gen_strategy_instance() {
  auto make = [](const std::string& cls, const std::vector<json>& parts) {
    json args = json::object();
    for (const auto& p : parts) args.update(p);
    json j = {{"class", cls}};
    if (!args.empty()) j["args"] = args;
    return wire_value(j, true);
  };
  std::vector<rc::Gen<json>> parts = {
      opt_arg(30, "find_unused_parameters", {false, true}),
      opt_arg(15, "cluster_environment", json(class_names_of(ref::ClassKind::kClusterEnvironment))),
      opt_arg(15, "precision_plugin", json(class_names_of(ref::ClassKind::kPrecisionPlugin))),
      opt_arg(10, "checkpoint_io", json(class_names_of(ref::ClassKind::kCheckpointIO))),
      opt_arg(15, "accelerator", {"GPUAccelerator", "CPUAccelerator", "gpu", "TPUAccelerator"}),
      opt_arg(15, "parallel_devices", {json::array({"cpu", "cpu"}), json::array({"cuda:0", "cuda:1"}), json::array({"cuda:0"})}),
      opt_arg(20, "device", {"cuda:0", "cpu", "xla:0", "hpu"}),
      opt_arg(10, "stage", {2, 3}),
  };
  return rc::gen::apply(make, shrinking_element_of(class_names_of(ref::ClassKind::kStrategy)),
                        rc::gen::apply([](json a, json b, json c, json d, json e, json f, json g, json h) {
                          return std::vector<json>{a, b, c, d, e, f, g, h};
                        }, parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6], parts[7]));
}

rc::Gen<PyValue> gen_strategy_flag() {
  auto recased = rc::gen::map(gen_recased_strategy_name(), [](std::string s) { return PyValue::string(s); });
  return weighted_choice<PyValue>({
      {3, absent()},
      {10, names(strategy_flag_names(), false)},
      {2, recased},
      {2, gen_strategy_instance()},
      {1, elems({"ddp_cpu", "DDP_CPU", "foo", "", "ddp spawn", "DDPStrategy"}, true)},
      {1, elems({nullptr, 2, true, json::array({"ddp"}), "GPUAccelerator", json{{"class", "MyStrategy"}}}, true)},
  });
}

rc::Gen<PyValue> gen_devices_flag() {
  return weighted_choice<PyValue>({
      {3, absent()},
      {5, elems({1, 2, 4, 8, 3})},
      {3, elems({-1, "-1", "auto", "0,1", "1,", "2", json::array({0}), json::array({0, 1}), json::array({1, 3}), "1", nullptr})},
      {1, elems({0, "0", json::array(), " 0", "[]", "x", 2.5, true, "1,a", json::array({0, 0}), 9999999999LL, -2, "0,"})},
  });
}

rc::Gen<PyValue> gen_num_nodes_flag() {
  return weighted_choice<PyValue>({{4, absent()}, {4, elems({1, 2, 4})},
                                   {1, elems({0, -1, "2", 2.0, nullptr, true, json::array({1}), 3000000000LL})}});
}

rc::Gen<PyValue> gen_precision_flag() {
  return weighted_choice<PyValue>({{3, absent()}, {8, elems(precision_spellings())}, {1, elems(invalid_precisions())}});
}

rc::Gen<PyValue> gen_plugin() {
  json strategies = {"ddp", "ddp_spawn", "deepspeed", "DDPStrategy", "ddp_sharded"};
  json precision_args = {json{{"class", "NativeMixedPrecisionPlugin"}, {"args", {{"precision", "bf16"}}}},
                         json{{"class", "PrecisionPlugin"}, {"args", {{"precision", 32}}}}};
  return weighted_choice<PyValue>({
      {3, names(class_names_of(ref::ClassKind::kPrecisionPlugin), true)},
      {3, names(class_names_of(ref::ClassKind::kClusterEnvironment), true)},
      {2, names(class_names_of(ref::ClassKind::kCheckpointIO), true)},
      {2, names(class_names_of(ref::ClassKind::kLayerSync), true)},
      {1, elems(precision_args, true)},
      {2, elems(strategies, true)},
      {1, elems({"GPUAccelerator", "foo", 3, nullptr, json{{"class", "MyPlugin"}}}, true)},
  });
}

rc::Gen<PyValue> gen_distinct_plugins() {
  auto pick = [](ref::ClassKind k) {
    return weighted_choice<PyValue>({{1, absent()}, {2, names(class_names_of(k), true)}});
  };
  auto strategy = weighted_choice<PyValue>({{2, absent()}, {1, elems({"ddp", "ddp_spawn", "DDPStrategy", "deepspeed"}, true)}});
  return rc::gen::apply(
      [](PyValue a, PyValue b, PyValue c, PyValue d, PyValue e) {
        std::vector<PyValue> list;
        for (auto* v : {&a, &b, &c, &d, &e})
          if (!v->is_absent()) list.push_back(*v);
        return PyValue::make_list(list);
      },
      pick(ref::ClassKind::kPrecisionPlugin), pick(ref::ClassKind::kClusterEnvironment), pick(ref::ClassKind::kCheckpointIO),
      pick(ref::ClassKind::kLayerSync), strategy);
}

rc::Gen<PyValue> gen_plugins_flag() {
  auto list = rc::gen::map(rc::gen::container<std::vector<PyValue>>(gen_plugin()),
                           [](std::vector<PyValue> v) { return PyValue::make_list(std::move(v)); });
  return weighted_choice<PyValue>({{5, absent()}, {3, gen_plugin()}, {3, rc::gen::resize(4, list)}});
}

rc::Gen<PyValue> gen_deterministic_flag() {
  return weighted_choice<PyValue>({{4, absent()}, {4, elems({true, false})}, {2, elems({"warn"})}, {1, elems({"yes", 1, nullptr, "WARN"})}});
}

rc::Gen<PyValue> gen_benchmark_flag() {
  return weighted_choice<PyValue>({{4, absent()}, {4, elems({true, false})}, {1, elems({1, "true", nullptr})}});
}

rc::Gen<ref::UserFlags> gen_plausible_flags() {
  using ref::UserFlags;
  namespace g = rc::gen;
  auto recased = g::map(gen_recased_strategy_name(), [](std::string s) { return PyValue::string(s); });
  auto some = [](std::size_t absent_w, std::size_t w, const json& values) {
    return weighted_choice<PyValue>({{absent_w, absent()}, {w, elems(values)}});
  };
  auto mostly = [](std::size_t absent_w, std::size_t w, const json& common, const json& rest) {
    return weighted_choice<PyValue>({{absent_w, absent()}, {w, elems(common)}, {1, elems(rest)}});
  };
  auto plugins = weighted_choice<PyValue>({{8, absent()}, {1, gen_distinct_plugins()}});
  return g::build<UserFlags>(
      g::set(&UserFlags::accelerator, weighted_choice<PyValue>({{3, absent()}, {10, names(accelerator_flag_names(), false)}})),
      g::set(&UserFlags::strategy, weighted_choice<PyValue>({{4, absent()}, {10, names(strategy_flag_names(), false)}, {1, recased}})),
      g::set(&UserFlags::devices, mostly(3, 6, {1, 2, 4, 8, "auto"}, {-1, "0,1", json::array({0}), json::array({1})})),
      g::set(&UserFlags::num_nodes, some(4, 2, {1, 2, 4})),
      g::set(&UserFlags::precision, mostly(3, 6, {16, 32, 64, "bf16"}, precision_spellings())),
      g::set(&UserFlags::amp_backend, some(9, 1, {"native", "apex"})),
      g::set(&UserFlags::amp_level, g::just(PyValue::absent())),
      g::set(&UserFlags::plugins, plugins),
      g::set(&UserFlags::sync_batchnorm, some(6, 2, {true, false})),
      g::set(&UserFlags::deterministic, mostly(4, 3, {true, false}, {"warn"})),
      g::set(&UserFlags::benchmark, some(4, 2, {true, false})),
      g::set(&UserFlags::gpus, some(25, 1, {1, 2, -1, "0,1"})), g::set(&UserFlags::tpu_cores, some(30, 1, {1, 8})),
      g::set(&UserFlags::ipus, some(30, 1, {1, 2})), g::set(&UserFlags::num_processes, some(30, 1, {1, 2})),
      g::set(&UserFlags::auto_select_gpus, some(12, 1, {true, false})));
}

}  // namespace accord::prop

namespace rc {
using accord::reference::PyValue;
using accord::reference::UserFlags;

Gen<UserFlags> Arbitrary<UserFlags>::arbitrary() {
  namespace p = accord::prop;
  using nlohmann::json;
  auto rare = [](std::size_t absent_w, std::size_t w, const json& values) {
    return p::weighted_choice<PyValue>({{absent_w, gen::just(PyValue::absent())}, {w, p::shrinking_element_of(p::wire_values(values, false))}});
  };
  return gen::build<UserFlags>(
      gen::set(&UserFlags::accelerator, p::gen_accelerator_flag()), gen::set(&UserFlags::strategy, p::gen_strategy_flag()),
      gen::set(&UserFlags::devices, p::gen_devices_flag()), gen::set(&UserFlags::num_nodes, p::gen_num_nodes_flag()),
      gen::set(&UserFlags::precision, p::gen_precision_flag()),
      gen::set(&UserFlags::amp_backend, rare(6, 4, {"native", "apex", "NATIVE", "Apex", "native", "apex", "foo", nullptr, 1})),
      gen::set(&UserFlags::amp_level, rare(8, 2, {"O1", "O2", nullptr, 3})),
      gen::set(&UserFlags::plugins, p::gen_plugins_flag()),
      gen::set(&UserFlags::sync_batchnorm, rare(6, 4, {true, false, true, false, "yes", 1, nullptr})),
      gen::set(&UserFlags::deterministic, p::gen_deterministic_flag()),
      gen::set(&UserFlags::benchmark, p::gen_benchmark_flag()),
      gen::set(&UserFlags::gpus, rare(8, 2, {1, 2, -1, "0,1", json::array({0}), 0, "0", "2", 2.5, "x"})),
      gen::set(&UserFlags::tpu_cores, rare(9, 1, {1, 8, json::array({1}), "8", 2, json::array({9})})),
      gen::set(&UserFlags::ipus, rare(9, 1, {1, 2, 4, 0, "2"})),
      gen::set(&UserFlags::num_processes, rare(9, 1, {1, 2, 3, 0})),
      gen::set(&UserFlags::auto_select_gpus, rare(8, 2, {true, false})));
}

}  // namespace rc
