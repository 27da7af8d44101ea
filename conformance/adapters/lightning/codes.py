"""Lightning exception / warning / log messages -> accord diagnostic codes (reference/tables/diagnostics.def).

ONE table. Each row: (regex, code) or (regex, code, options). The first row whose regex matches (re.search, DOTALL)
wins; its named groups become the diagnostic's fields. Options:
  where   regex that one of the traceback's function names must match (tells apart identical Python messages,
          e.g. `int()` failures in the device parser vs in the cluster environment)
  type    regex the exception class name must match
  fields  constant fields added to the captured ones
Comments name the rows of the behaviour inventory (A9/A10 for 1.6, B9/B10 for 2.x). Unmatched exceptions become
`err_unmapped`, unmatched warnings `warn_unmapped`, unmatched log records `info_unmapped`.
"""
import re

_DEVICE_PARSE = r"parse|_normalize|_sanitize|_check_data_type|_check_unique|devices"
_ENV_READ = r"world_size|global_rank|local_rank|node_rank|_is_slurm_managing_tasks|detect|__init__|_read_hosts"

TABLE = [
    # ---- device parsing (E1-E5, E26, E27, E50, E52, B4)
    (r"Device IDs? ?'?s? \(GPU/TPU\) must be (an )?int", "err_devices_type"),  # E1, B4.1
    (r"GPUs requested but none are available", "err_gpus_none_available"),  # E2
    (r"Device ID's \(GPU\) must be unique", "err_gpu_ids_not_unique"),  # E3
    (r"You requested gpu: (?P<requested>\[.*?\])\s*But your machine only has: (?P<available>\[.*?\])",
     "err_gpu_ids_unavailable"),  # E4
    (r"`tpu_cores` can only be 1, 8 or \[<1-8>\]", "err_tpu_cores_invalid"),  # E5
    (r"`devices` can only be 'auto', 1, .* for TPUs", "err_tpu_cores_invalid"),  # B4.2
    (r"Could not parse the selected TPU devices", "err_devices_not_int"),  # B4.2
    (r"`devices` selected with `CPUAccelerator` should be an int > 0", "err_cpu_devices_invalid"),  # E26, B4.3
    (r"`devices` for `HPUAccelerator` must be int, string or None", "err_hpu_devices_type"),  # E27
    (r"You requested (?P<requested>-?\d+) GPUs but your machine only has (?P<available>\d+) GPUs",
     "err_auto_select_gpus_too_many"),  # E52
    (r"^No GPUs available\.", "err_auto_select_gpus_none_free"),  # D4
    (r"'NoneType' object is not iterable", "err_gpu_devices_none", {"where": r"get_parallel_devices"}),  # E50
    (r"'\w+' object cannot be interpreted as an integer", "err_devices_type",
     {"where": r"get_parallel_devices"}),  # A4.4: IPU devices go to range() unparsed ("-1", [0], 1.5)
    (r"invalid literal for int\(\) with base 10", "err_num_nodes_invalid",
     {"where": r"_check_device_config_and_set_final_flags"}),  # int(num_nodes)
    (r"int\(\) argument must be", "err_num_nodes_invalid", {"where": r"_check_device_config_and_set_final_flags"}),
    (r"invalid literal for int\(\) with base 10", "err_devices_not_int", {"where": _DEVICE_PARSE}),  # A4.1 step 2
    # ---- flag validation (E7-E23, B9 P1-P17)
    (r"`Trainer\(strategy='ddp_cpu'\)` is not a valid strategy", "err_strategy_ddp_cpu"),  # E7
    (r"`Trainer\(strategy='tpu_spawn'\)` is not a valid strategy", "err_strategy_tpu_spawn"),  # E8
    (r"Incompatible values set in `strategy` and `accelerator` arguments.*?"
     r"Received both strategy=(?P<strategy>.*) and accelerator=(?P<accelerator>.*)",
     "err_strategy_accelerator_conflict"),  # E9
    (r"strategy (?P<strategy>.*?) already set through `strategy` flag, but have also passed (?P<accelerator>.*?) "
     r"in through the accelerator flag", "err_strategy_accelerator_conflict"),  # E10 (the strategy may be '' or a repr)
    (r"You have passed `Trainer\(strategy=(?P<strategy>.*?)\)` and you can only specify one strategy, "
     r"but you have passed (?P<plugin>.*) as a plugin", "err_strategy_in_plugins"),  # E11
    (r"Precision (?P<precision>.*?) is invalid\. Allowed precision values: (?P<allowed>\(.*?\))",
     "err_precision_invalid"),  # E12, P4
    (r"You set `Trainer\(sync_batchnorm=True\)` and provided a `(?P<plugin>\w+)` plugin",
     "err_sync_batchnorm_layer_sync"),  # E13, P5
    (r"Found invalid type for plugin (?P<plugin>.*?)\. Expected one of", "err_plugin_invalid"),  # E14, P6
    (r"Received multiple values for (?P<kinds>.*?) flags in `plugins`", "err_plugins_duplicate"),  # E15, P7
    (r"Received both `precision=(?P<first>.*?)` and `plugins=(?P<second>.*?)`", "err_flag_conflict"),  # P8
    (r"(?P<component>accelerator|precision|checkpoint_io|cluster_environment) set through both strategy class "
     r"and (?P<other>.*?), choose one", "err_strategy_component_twice"),  # E16-E19, P9-P12
    (r"(?P<device_type>CPU|GPU) parallel_devices set through (?P<strategy>\w+) class, "
     r"but accelerator set to (?P<accelerator>.*?), please choose", "err_parallel_devices_conflict"),  # E20, E21
    (r"You have asked for `amp_level=(?P<amp_level>.*?)` but it's only supported with `amp_backend='apex'`",
     "err_amp_level_without_apex"),  # E22
    (r"`Trainer\(devices=(?P<devices>.*?)\)` value is not a valid input using (?P<accelerator>.*?) accelerator",
     "err_devices_zero"),  # E51, P17
    (r"You passed `devices=(?P<devices>.*?)` but haven't specified", "err_devices_auto_without_accelerator"),  # E23
    (r"When passing string value for the `accelerator` argument of `Trainer`, it can only be one of "
     r"(?P<allowed>.*)\.", "err_accelerator_unknown"),  # E24
    (r"You selected an invalid accelerator name: `accelerator=(?P<accelerator>.*?)`\. "
     r"Available names are: (?P<allowed>.*?)\.$", "err_accelerator_unknown"),  # P2
    (r"(?P<strategy>'.*?') not found in registry\. Available names: (?P<allowed>.*)", "err_strategy_unknown",
     {"type": "KeyError"}),  # E31
    (r"You selected an invalid strategy name: `strategy=(?P<strategy>'.*?')`", "err_strategy_unknown"),  # P1
    (r"You selected an invalid strategy name: `strategy=(?P<strategy>.*?)`\. It must", "err_strategy_invalid_type"),
    (r"'AcceleratorConnector' object has no attribute 'strategy'", "err_strategy_invalid_type"),  # E32
    (r"`num_nodes` must be a positive integer, but got (?P<num_nodes>.*?)\.$", "err_num_nodes_invalid"),  # P16
    (r"deterministic_algorithms\(\): argument", "err_deterministic_invalid"),  # torch rejects a non-bool (1.6 "warn")
    (r"set_benchmark_cudnn expects a bool", "err_flag_type", {"fields": {"flag": "benchmark"}}),  # cudnn.benchmark
    (r".*", "err_value_out_of_range", {"type": "MemoryError"}),  # a device list too long to build
    (r"cannot fit 'int' into an index-sized integer|int too large to convert", "err_value_out_of_range",
     {"type": "OverflowError"}),
    (r"name 'hvd' is not defined", "err_package_missing",
     {"type": "NameError", "fields": {"package": "horovod", "component": "HorovodStrategy"}}),  # HorovodStrategy()
    (r"'NoneType' object has no attribute '(lower|value)'", "err_amp_backend_invalid",
     {"where": r"from_str|_check_and_init_precision|_validate_precision_choice"}),  # A15.3 erratum, E38 quirk
    # ---- accelerator / strategy state (E25, E28-E33, E47-E49, P15, P18, P21-P24, P30, P31)
    (r"`?(?P<accelerator_class>\w+)`? can not run on your system since the accelerator is not available.*"
     r"`Trainer`: (?P<available>.*?)\.$", "err_accelerator_unavailable"),  # E25, P18
    (r"No supported gpu backend found!", "err_accelerator_unavailable", {"fields": {"accelerator": "'gpu'"}}),  # P15
    (r"`accelerator='ddp_cpu'` is not supported on TPU machines", "err_ddp_cpu_on_tpu"),  # E28
    (r"Horovod does not support setting num_nodes / num_gpus explicitly", "err_horovod_num_nodes"),  # E29
    (r"Requested `accelerator=\"horovod\"`, but Horovod is not installed", "err_package_missing",
     {"fields": {"package": "horovod", "component": "HorovodStrategy"}}),  # E30
    (r"To use the (?:DeepSpeed plugin|`DeepSpeedStrategy`), you must have DeepSpeed installed", "err_package_missing",
     {"fields": {"package": "deepspeed", "component": "DeepSpeedStrategy"}}),  # E33
    (r"To use the `BaguaStrategy`, you must have `Bagua` installed", "err_package_missing",
     {"fields": {"package": "bagua", "component": "BaguaStrategy"}}),  # E33
    (r"`(?P<component>\w+)` requires `fairscale` to be installed", "err_package_missing",
     {"fields": {"package": "fairscale"}}),
    (r"You have asked for Apex AMP but you have not installed it", "err_package_missing",
     {"fields": {"package": "apex", "component": "ApexMixedPrecisionPlugin"}}),  # E44
    (r"You have asked for sharded AMP but you have not installed it", "err_package_missing",
     {"fields": {"package": "fairscale", "component": "ShardedNativeMixedPrecisionPlugin"}}),  # E45
    (r"Requirement '(?P<package>[\w.-]+?)(?:[<>=!~].*?)?' not met", "err_package_missing"),  # 2.x RequirementCache
    (r"the IPU integration\s+is not installed", "err_package_missing", {"fields": {"package": "lightning_graphcore"}}),
    (r"You asked to run with HPU but you are missing a required dependency", "err_package_missing",
     {"fields": {"package": "lightning_habana"}}),
    (r"The IPU Accelerator requires IPU devices to run", "err_strategy_needs_hardware",
     {"fields": {"strategy": "IPUStrategy", "hardware": "IPU"}}),  # E33
    (r"`(?P<strategy>\w+)` requires (?P<hardware>HPU) devices to run", "err_strategy_needs_hardware"),  # E33
    # a keyword argument the constructor does not take (validate.instance-arguments); Python 3.10+ names the class
    # that defines __init__, object() says "takes no arguments"
    (r"(?:(?P<class>\w+)\.)?__init__\(\) got an unexpected keyword argument '(?P<argument>\w+)'", "err_instance_argument",
     {"type": "TypeError"}),
    (r"^(?P<class>\w+)\(\) takes no arguments", "err_instance_argument", {"type": "TypeError"}),
    (r"missing 1 required positional argument: 'device'", "err_strategy_needs_device", {"type": "TypeError"}),
    (r"You selected strategy to be `(?P<strategy>\w+)`, but GPU accelerator is not used", "err_strategy_needs_gpu"),
    (r"The strategy `(?P<strategy>\w+)` requires a GPU accelerator", "err_strategy_needs_gpu"),
    (r"`Trainer\(strategy=(?P<strategy>.*?)\)` (?:or `Trainer\(accelerator=.*?\)` )?is not compatible with an "
     r"interactive\s+environment", "err_interactive_incompatible"),  # E47, P30
    (r"The `(?P<accelerator_class>\w+)` can only be used with (?P<allowed>.*?), found (?P<strategy_class>\w+)\.",
     "err_accelerator_strategy_mismatch"),  # E48, E49, P31
    # ---- precision (E34-E46, P28)
    (r"`Trainer\(accelerator='tpu', precision=64\)` is not implemented", "err_tpu_precision_64"),  # E34
    (r"The `TPUAccelerator` can only be used with a `TPUPrecisionPlugin`,\s*found: (?P<plugin>.*)\.$",
     "err_tpu_precision_plugin"),  # E35
    (r"`Trainer\(accelerator='hpu', precision=(?P<precision>.*?)\)` is not supported\."
     r"(?: `precision` must be one of: (?P<allowed>\(.*?\)))?", "err_hpu_precision"),  # E36
    (r"You passed `Trainer\(accelerator='cpu', precision=16, amp_type='apex'\)` but apex AMP not supported on CPU",
     "err_apex_on_cpu"),  # E37
    (r"You passed `Trainer\(amp_type=(?P<amp_backend>.*?), precision='bf16'\)` but it's not supported",
     "err_bf16_requires_native"),  # E38
    (r"Sharded plugins are not supported with apex", "err_sharded_apex"),  # E39
    (r"`Trainer\(accelerator='ipu', precision=(?P<precision>.*?)\)` is not supported\."
     r"(?: `precision` must be one of: (?P<allowed>\(.*?\)))?", "err_ipu_precision"),  # E40
    (r"HPU precision plugin requires HPU devices", "err_strategy_needs_hardware",
     {"fields": {"strategy": "HPUPrecisionPlugin", "hardware": "HPU"}}),  # E41
    (r"^No precision set", "err_precision_unset"),  # E46, P28
    # ---- cluster environments read at connector time
    (r"invalid literal for int\(\) with base (?:0|10): (?P<value>.*)", "err_env_invalid", {"where": _ENV_READ}),
    (r"^'?(?P<variable>[A-Z][A-Z0-9_]+)'?$", "err_env_missing", {"type": "KeyError"}),
    (r"No such file or directory", "err_env_invalid", {"where": r"_read_hosts|_get_node_rank|rankfile",
                                                        "fields": {"variable": "LSB_DJOB_RANKFILE"}}),  # LSF
    (r"The environment variable `(?P<variable>LSB_DJOB_RANKFILE)` is empty", "err_env_invalid",
     {"fields": {"value": ""}}),  # LSF: set but empty is an unreadable value, not a missing variable (SPEC)
    (r"[Ee]nvironment variable `?(?P<variable>[A-Z][A-Z0-9_]+)`?", "err_env_missing", {"where": _ENV_READ}),
    # ---- warnings and infos (W1-W11, H1, H6, H7, D4)
    (r"You passed `deterministic=(?P<deterministic>\w+)` and `benchmark=True`",
     "warn_benchmark_with_deterministic"),  # W1, H1
    (r"Passing `Trainer\(accelerator=(?P<accelerator>.*?)\)` has been deprecated", "dep_accelerator_strategy"),  # W2
    (r"Passing (?P<plugin>.*?) `strategy` to the `plugins` flag in Trainer has been deprecated",
     "dep_plugins_strategy"),  # W3
    (r"The flag `devices=(?P<devices>.*?)` will be ignored, instead the device specific number (?P<legacy_value>.*?) "
     r"will be used", "warn_devices_ignored_legacy"),  # W4
    (r"more than one device specific flag has been set", "warn_multiple_legacy_flags"),  # W5
    (r"Multiprocessing is handled by SLURM", "info_slurm_managing"),  # W6
    (r"You requested one or more GPUs, but set `accelerator='ddp_cpu'`", "warn_ddp_cpu_gpu_ignored"),  # W7
    (r"(?P<strategy>'\w+') is not supported on CPUs, hence setting `strategy='ddp'`", "warn_strategy_cpu_fallback"),
    (r"`Trainer\(accelerator='tpu', precision=16\)` but AMP is not supported with TPUs", "warn_tpu_precision_16"),
    (r"`Trainer\(accelerator='cpu', precision=(?:16|'16-mixed')\)` but (?:native )?AMP (?:with fp16 )?is not "
     r"supported on CPU", "warn_cpu_precision_16"),  # W10, H6
    (r"Using (?P<kind>16bit|16-bit|bfloat16) (?:(?P<backend>native|apex) )?Automatic Mixed Precision \(AMP\)",
     "info_amp"),  # W11, H7
    (r"^Auto select gpus: (?P<ids>.*)", "info_auto_select_gpus"),  # D4
]

_COMPILED = [(re.compile(row[0], re.S), row[1], row[2] if len(row) > 2 else {}) for row in TABLE]
_COMPILED = [(rx, code, dict(opt, where=re.compile(opt["where"]) if "where" in opt else None))
             for rx, code, opt in _COMPILED]


def classify(message, default_code, exc_type=None, functions=()):
    """(code, fields) for a message; default_code (err_unmapped, ...) when no row matches."""
    for rx, code, opt in _COMPILED:
        if opt.get("type") and not (exc_type and re.fullmatch(opt["type"], exc_type)):
            continue
        if opt["where"] is not None and not any(opt["where"].search(f) for f in functions):
            continue
        hit = rx.search(message)
        if hit:
            fields = {k: v for k, v in hit.groupdict().items() if v is not None}
            fields.update(opt.get("fields", {}))
            return code, fields
    return default_code, {}


def codes():
    """Every code the table can produce (for tests against diagnostics.def)."""
    return {row[1] for row in TABLE}
