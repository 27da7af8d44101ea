// dimension_tables.h: internal lookups shared by dimensions.cc, classify.cc and variants.cc.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "accord/coverage/dimensions.h"
#include "accord/reference/value.h"

namespace accord::coverage::detail {

/// Index of `value` in dim_values(d), or -1.
int value_index(Dim d, const std::string& value);
/// The variables a cluster-environment value sets besides its marker; nullptr for none/explicit.
const std::vector<std::pair<std::string, std::string>>* env_vars_of(const std::string& value, const char** marker);
/// (value, marker variable) in detection order.
std::vector<std::pair<std::string, const char*>> env_markers();
/// The hardware facts of each variant of hardware value `v`.
const std::vector<reference::HardwareFacts>& hardware_facts(int v);
/// The spellings of precision value `v` (empty for "default").
const std::vector<reference::PyValue>& precision_spellings(int v);
/// Example values of device form `v`.
const std::vector<reference::PyValue>& form_examples(int v);
/// The `device` argument a strategy class's constructor needs, or nullptr.
const char* strategy_device_arg(const std::string& cls);
/// num_processes, gpus, ipus, tpu_cores (Lightning's mapping order).
const std::array<reference::PyValue reference::UserFlags::*, 4>& legacy_flags();
/// The wire name of legacy_flags()[k] (its row of reference/tables/flags.def).
const char* legacy_flag_name(std::size_t k);

int classify_accelerator(const reference::Case& c);
int classify_strategy(const reference::Case& c);
int classify_precision(const reference::Case& c);
int classify_cluster_env(const reference::Case& c);
int classify_hardware(const reference::Case& c);
int classify_legacy(const reference::Case& c);
int classify_devices_form(const reference::Case& c);

}  // namespace accord::coverage::detail
