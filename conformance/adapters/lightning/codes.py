"""Lightning exception / warning / log messages -> accord diagnostic codes (reference/tables/diagnostics.def).

ONE table. Each row: (regex, code) or (regex, code, options). The first row whose regex matches (re.search, DOTALL)
wins; its named groups become the diagnostic's fields. Options:
  where   regex that one of the traceback's function names must match (tells apart identical Python messages,
          e.g. `int()` failures in the device parser vs in the cluster environment)
  type    regex the exception class name must match
  fields  constant fields added to the captured ones
Comments name the Lightning function that raises or logs the message: 1.6.5 first, then 2.x (tag 2.2.5)
where it differs. Bare names are methods of the connector (1.6.5 pytorch_lightning/trainer/connectors/
accelerator_connector.py, 2.x src/lightning/pytorch/trainer/connectors/accelerator_connector.py). "fabric" names
Lightning Fabric 2.2.5's _Connector (src/lightning/fabric/connector.py, `adapter.py --connector fabric`): its
messages say `Fabric(` where the Trainer's say `Trainer(` and map to the Trainer message's code and fields. For
Fabric the functions `where` sees include qualified names (`_Connector.__init__`). Unmatched exceptions become
`err_unmapped`, unmatched warnings `warn_unmapped`, unmatched log records `info_unmapped`.
"""
import re

_DEVICE_PARSE = r"parse|_normalize|_sanitize|_check_data_type|_check_unique|devices"
_ENV_READ = r"world_size|global_rank|local_rank|node_rank|_is_slurm_managing_tasks|detect|__init__|_read_hosts"

TABLE = [
    # ---- device parsing
    (r"Device IDs? ?'?s? \(GPU/TPU\) must be (an )?int", "err_devices_type"),  # device_parser.parse_gpu_ids; 2.x device_parser._check_data_type
    (r"GPUs requested but none are available", "err_gpus_none_available"),  # device_parser.parse_gpu_ids
    (r"Device ID's \(GPU\) must be unique", "err_gpu_ids_not_unique"),  # device_parser.parse_gpu_ids
    (r"You requested gpu: (?P<requested>\[.*?\])\s*But your machine only has: (?P<available>\[.*?\])",
     "err_gpu_ids_unavailable"),  # device_parser.parse_gpu_ids
    (r"Device\(\): argument 'index' \(position 2\) must be int, not (?P<type>\w+)",
     "err_device_index_type"),  # GPUAccelerator.get_parallel_devices: torch.device("cuda", id)
    (r"`tpu_cores` can only be 1, 8 or \[<1-8>\]", "err_tpu_cores_invalid"),  # device_parser.parse_tpu_cores
    (r"`devices` can only be 'auto', 1, .* for TPUs", "err_tpu_cores_invalid"),  # 2.x xla._check_tpu_devices_valid
    (r"Could not parse the selected TPU devices", "err_devices_not_int"),  # 2.x xla._check_tpu_devices_valid
    (r"`devices` selected with `CPUAccelerator` should be an int > 0", "err_cpu_devices_invalid"),  # device_parser.parse_cpu_cores; 2.x cpu._parse_cpu_cores
    (r"`devices` for `HPUAccelerator` must be int, string or None", "err_hpu_devices_type"),  # device_parser.parse_hpus
    (r"You requested (?P<requested>-?\d+) GPUs but your machine only has (?P<available>\d+) GPUs",
     "err_auto_select_gpus_too_many"),  # auto_gpu_select.pick_multiple_gpus
    (r"^No GPUs available\.", "err_auto_select_gpus_none_free"),  # auto_gpu_select.pick_single_gpu
    (r"'NoneType' object is not iterable", "err_gpu_devices_none", {"where": r"get_parallel_devices"}),  # GPUAccelerator.get_parallel_devices
    (r"'\w+' object cannot be interpreted as an integer", "err_devices_type",
     {"where": r"get_parallel_devices"}),  # IPUAccelerator.get_parallel_devices: devices go to range() unparsed ("-1", [0], 1.5)
    (r"invalid literal for int\(\) with base 10", "err_num_nodes_invalid",
     {"where": r"_check_device_config_and_set_final_flags"}),  # int(num_nodes)
    (r"int\(\) argument must be", "err_num_nodes_invalid", {"where": r"_check_device_config_and_set_final_flags"}),
    # fabric _Connector.__init__: int(self._argument_from_env("num_nodes", num_nodes, default=1)) (the flag or
    # LT_NUM_NODES); fabric _is_using_cli: int(os.environ.get("LT_CLI_USED", "0")). The adapter fills `value`.
    (r"invalid literal for int\(\)|int\(\) argument must be", "err_not_int",
     {"where": r"^_Connector\.__init__$", "type": r"ValueError|TypeError", "fields": {"flag": "num_nodes"}}),
    (r"invalid literal for int\(\)", "err_not_int",
     {"where": r"^_is_using_cli$", "type": r"ValueError", "fields": {"flag": "LT_CLI_USED"}}),
    (r"invalid literal for int\(\) with base 10", "err_devices_not_int", {"where": _DEVICE_PARSE}),  # device_parser._normalize_parse_gpu_string_input
    # ---- flag validation
    (r"`Trainer\(strategy='ddp_cpu'\)` is not a valid strategy", "err_strategy_ddp_cpu"),  # _check_config_and_set_final_flags
    (r"`Trainer\(strategy='tpu_spawn'\)` is not a valid strategy", "err_strategy_tpu_spawn"),  # _check_config_and_set_final_flags
    (r"Incompatible values set in `strategy` and `accelerator` arguments.*?"
     r"Received both strategy=(?P<strategy>.*) and accelerator=(?P<accelerator>.*)",
     "err_strategy_accelerator_conflict"),  # _check_config_and_set_final_flags
    (r"strategy (?P<strategy>.*?) already set through `strategy` flag, but have also passed (?P<accelerator>.*?) "
     r"in through the accelerator flag", "err_strategy_accelerator_conflict"),  # _check_config_and_set_final_flags (the strategy may be '' or a repr)
    (r"You have passed `Trainer\(strategy=(?P<strategy>.*?)\)` and you can only specify one strategy, "
     r"but you have passed (?P<plugin>.*) as a plugin", "err_strategy_in_plugins"),  # _check_config_and_set_final_flags
    (r"Precision (?P<precision>.*?) is invalid\. Allowed precision values: (?P<allowed>\(.*?\))",
     "err_precision_invalid"),  # _check_config_and_set_final_flags; 2.x fabric connector._convert_precision_to_unified_args
    (r"You set `(?:Trainer|Fabric)\(sync_batchnorm=(?P<sync_batchnorm>True)\)` and provided a `(?P<plugin>\w+)` plugin",
     "err_sync_batchnorm_layer_sync"),  # _check_config_and_set_final_flags (1.6.5 and 2.x)
    (r"Found invalid type for plugin (?P<plugin>.*?)\. Expected one of", "err_plugin_invalid"),  # _check_config_and_set_final_flags (1.6.5 and 2.x)
    (r"Received multiple values for (?P<kinds>.*?) flags in `plugins`", "err_plugins_duplicate"),  # _check_config_and_set_final_flags (1.6.5 and 2.x)
    (r"Received both `precision=(?P<first>.*?)` and `plugins=(?P<second>.*?)`", "err_flag_conflict"),  # 2.x _check_config_and_set_final_flags
    (r"(?P<component>accelerator|precision|checkpoint_io|cluster_environment) set through both strategy class "
     r"and (?P<other>.*?), choose one", "err_strategy_component_twice"),  # _check_config_and_set_final_flags (1.6.5 and 2.x)
    (r"(?P<device_type>CPU|GPU) parallel_devices set through (?P<strategy>\w+) class, "
     r"but accelerator set to (?P<accelerator>.*?), please choose", "err_parallel_devices_conflict"),  # _check_config_and_set_final_flags
    (r"You have asked for `amp_level=(?P<amp_level>.*?)` but it's only supported with `amp_backend='apex'`",
     "err_amp_level_without_apex"),  # _check_config_and_set_final_flags
    (r"`(?:Trainer|Fabric)\(devices=(?P<devices>.*?)\)` value is not a valid input using (?P<accelerator>.*?) "
     r"accelerator", "err_devices_zero"),  # _check_device_config_and_set_final_flags (1.6.5, 2.x and fabric)
    (r"You passed `devices=(?P<devices>.*?)` but haven't specified", "err_devices_auto_without_accelerator"),  # _check_device_config_and_set_final_flags
    (r"When passing string value for the `accelerator` argument of `Trainer`, it can only be one of "
     r"(?P<allowed>.*)\.", "err_accelerator_unknown"),  # _set_parallel_devices_and_init_accelerator
    (r"You selected an invalid accelerator name: `accelerator=(?P<accelerator>.*?)`\. "
     r"Available names are: (?P<allowed>.*?)\.$", "err_accelerator_unknown"),  # 2.x _check_config_and_set_final_flags
    (r"(?P<strategy>'.*?') not found in registry\. Available names: (?P<allowed>.*)", "err_strategy_unknown",
     {"type": "KeyError"}),  # StrategyRegistry.get
    (r"You selected an invalid strategy name: `strategy=(?P<strategy>'.*?')`", "err_strategy_unknown"),  # 2.x _check_config_and_set_final_flags
    (r"You selected an invalid strategy name: `strategy=(?P<strategy>.*?)`\. It must", "err_strategy_invalid_type"),
    (r"'AcceleratorConnector' object has no attribute 'strategy'", "err_strategy_invalid_type"),  # _init_strategy
    (r"`num_nodes` must be a positive integer, but got (?P<num_nodes>.*?)\.$", "err_num_nodes_invalid"),  # 2.x _check_device_config_and_set_final_flags
    (r"deterministic_algorithms\(\): argument", "err_deterministic_invalid"),  # torch rejects a non-bool (1.6 "warn")
    (r"set_benchmark_cudnn expects a bool", "err_flag_type", {"fields": {"flag": "benchmark"}}),  # cudnn.benchmark
    (r".*", "err_value_out_of_range", {"type": "MemoryError"}),  # a device list too long to build
    (r"cannot fit 'int' into an index-sized integer|int too large to convert", "err_value_out_of_range",
     {"type": "OverflowError"}),
    (r"name 'hvd' is not defined", "err_package_missing",
     {"type": "NameError", "fields": {"package": "horovod", "component": "HorovodStrategy"}}),  # HorovodStrategy()
    (r"'NoneType' object has no attribute '(lower|value)'", "err_amp_backend_invalid",
     {"where": r"from_str|_check_and_init_precision|_validate_precision_choice"}),  # LightningEnum.from_str on a non-str; the bf16 message on a None amp type
    (r"The `(?P<class>\w+)` class has been moved to an external package\. Install the extension package as "
     r"`pip install (?P<package>[\w.-]+)` and import with `from (?P<module>\w+) import \w+`\. "
     r"Please see: (?P<url>\S+) for more details\.", "err_class_moved",
     {"type": "NotImplementedError"}),  # 2.x _graveyard/hpu.py, ipu.py stubs (HPUAccelerator.__init__, ...)
    # ---- accelerator / strategy state
    (r"`?(?P<accelerator_class>\w+)`? can not run on your system since the accelerator is not available.*"
     r"`(?:Trainer|Fabric)`: (?P<available>.*?)\.$", "err_accelerator_unavailable"),  # _set_parallel_devices_and_init_accelerator (1.6.5, 2.x, fabric)
    (r"No supported gpu backend found!", "err_accelerator_unavailable", {"fields": {"accelerator": "'gpu'"}}),  # 2.x _choose_gpu_accelerator_backend
    (r"`accelerator='ddp_cpu'` is not supported on TPU machines", "err_ddp_cpu_on_tpu"),  # _check_strategy_and_fallback
    (r"Horovod does not support setting num_nodes / num_gpus explicitly", "err_horovod_num_nodes"),  # _handle_horovod
    (r"Requested `accelerator=\"horovod\"`, but Horovod is not installed", "err_package_missing",
     {"fields": {"package": "horovod", "component": "HorovodStrategy"}}),  # _handle_horovod
    (r"To use the (?:DeepSpeed plugin|`DeepSpeedStrategy`), you must have DeepSpeed installed", "err_package_missing",
     {"fields": {"package": "deepspeed", "component": "DeepSpeedStrategy"}}),  # _init_strategy
    (r"To use the `BaguaStrategy`, you must have `Bagua` installed", "err_package_missing",
     {"fields": {"package": "bagua", "component": "BaguaStrategy"}}),  # _init_strategy
    (r"`(?P<component>\w+)` requires `fairscale` to be installed", "err_package_missing",
     {"fields": {"package": "fairscale"}}),
    (r"You have asked for Apex AMP but you have not installed it", "err_package_missing",
     {"fields": {"package": "apex", "component": "ApexMixedPrecisionPlugin"}}),  # ApexMixedPrecisionPlugin.__init__
    (r"You have asked for sharded AMP but you have not installed it", "err_package_missing",
     {"fields": {"package": "fairscale", "component": "ShardedNativeMixedPrecisionPlugin"}}),  # ShardedNativeMixedPrecisionPlugin.__init__
    (r"Requirement '(?P<package>[\w.-]+?)(?:[<>=!~].*?)?' not met", "err_package_missing"),  # 2.x RequirementCache
    # 2.x RequirementCache messages (`ModuleNotFoundError(str(_XLA_AVAILABLE))`); the component is the class whose
    # constructor raised (the adapter fills it) or, for the connector's own checks, the strategy it names
    (r"The '(?P<package>lightning-bagua)' distribution was not found", "err_package_missing",
     {"fields": {"component": "BaguaStrategy"}}),  # 2.x _check_config_and_set_final_flags (strategy="bagua")
    (r"The '(?P<package>lightning-colossalai)' distribution was not found", "err_package_missing",
     {"fields": {"component": "ColossalAIStrategy"}}),  # 2.x _check_config_and_set_final_flags
    (r"The '(?P<package>[\w.-]+?)(?:[<>=!~][^']*)?' distribution was not found", "err_package_missing"),
    (r"the IPU integration\s+is not installed", "err_package_missing", {"fields": {"package": "lightning_graphcore"}}),
    (r"You asked to run with HPU but you are missing a required dependency", "err_package_missing",
     {"fields": {"package": "lightning_habana"}}),
    (r"The IPU Accelerator requires IPU devices to run", "err_strategy_needs_hardware",
     {"fields": {"strategy": "IPUStrategy", "hardware": "IPU"}}),  # _init_strategy
    (r"`(?P<strategy>\w+)` requires (?P<hardware>HPU) devices to run", "err_strategy_needs_hardware"),  # _init_strategy
    (r"You set `strategy=(?P<strategy>.*?)` but strategies from the DDP family are not supported on the\s+MPS accelerator",
     "err_strategy_mps_unsupported"),  # 2.x _check_config_and_set_final_flags (the flag as str(), not a repr)
    (r"You selected `(?:Trainer|Fabric)\(strategy=(?P<strategy>'.*?')\)` but process forking is not supported on "
     r"this\s+platform", "err_fork_unsupported"),  # 2.x and fabric _check_strategy_and_fallback
    # a keyword argument `Trainer(...)` does not take (the adapter raises Python's TypeError of the call)
    (r"^(?P<owner>Trainer|Fabric)\.__init__\(\) got an unexpected keyword argument '(?P<flag>\w+)'$",
     "err_unexpected_keyword", {"type": "TypeError"}),
    # a keyword argument the constructor does not take (validate.instance-arguments); Python 3.10+ names the class
    # that defines __init__, object() says "takes no arguments"
    (r"(?:(?P<class>\w+)\.)?__init__\(\) got an unexpected keyword argument '(?P<argument>\w+)'", "err_instance_argument",
     {"type": "TypeError"}),
    (r"^(?P<class>\w+)\(\) takes no arguments", "err_instance_argument", {"type": "TypeError"}),
    (r"missing 1 required positional argument: 'device'", "err_strategy_needs_device", {"type": "TypeError"}),
    (r"You selected strategy to be `(?P<strategy>\w+)`, but GPU accelerator is not used", "err_strategy_needs_gpu"),
    (r"The strategy `(?P<strategy>\w+)` requires a GPU accelerator", "err_strategy_needs_gpu"),
    # fabric _check_strategy_and_fallback names no strategy; the Trainer's message names FSDPStrategy.strategy_name
    (r"^You selected the FSDP strategy but FSDP is only available on GPU", "err_strategy_needs_gpu",
     {"fields": {"strategy": "fsdp"}}),
    (r"`(?:Trainer|Fabric)\(strategy=(?P<strategy>.*?)\)` (?:or `Trainer\(accelerator=.*?\)` )?is not compatible "
     r"with an interactive\s+environment", "err_interactive_incompatible"),  # _lazy_init_strategy (1.6.5, 2.x, fabric)
    (r"The `(?P<accelerator_class>\w+)` can only be used with (?P<allowed>.*?), found (?P<strategy_class>\w+)\.",
     "err_accelerator_strategy_mismatch"),  # _lazy_init_strategy (1.6.5 and 2.x)
    (r"The `(?P<accelerator_class>\w+)` can only be used with (?P<allowed>.*?)\. Found (?P<strategy_class>\w+)\.$",
     "err_accelerator_strategy_mismatch"),  # fabric _lazy_init_strategy
    # fabric _Connector._argument_from_env: a flag given in the code and (differently) through LT_<NAME> with
    # LT_CLI_USED set; value is the repr of the code's value, env_value the variable's raw text
    (r"^Your code has `Fabric\((?P<flag>\w+)=(?P<value>.*?), \.\.\.\)` but it conflicts with the value "
     r"`--(?P=flag)=(?P<env_value>.*?)` set through the CLI\.", "err_cli_conflict"),
    (r"^The (?P<strategy>\w+(?: \w+)?) strategy can only work with the `(?P<expected>\w+)` plugin, found (?P<plugin>.*)$",
     "err_strategy_plugin_mismatch"),  # 2.x XLAStrategy / SingleDeviceXLAStrategy / FSDPStrategy setters
    (r"^The `(?P<strategy_class>\w+)` does not support setting a `CheckpointIO` plugin\.$",
     "err_checkpoint_io_unsupported"),  # 2.x fabric FSDPStrategy.checkpoint_io setter (NotImplementedError)
    (r"^The start method '(?P<start_method>[^']*)' is not available on this platform\. Available methods are: "
     r"(?P<available>.*)$", "err_start_method_unavailable"),  # 2.x fabric launchers (_XLALauncher, _MultiProcessingLauncher)
    # ---- precision
    (r"`Trainer\(accelerator='tpu', precision=64\)` is not implemented", "err_tpu_precision_64"),  # _validate_precision_choice
    (r"The `TPUAccelerator` can only be used with a `TPUPrecisionPlugin`,\s*found: (?P<plugin>.*)\.$",
     "err_tpu_precision_plugin"),  # _validate_precision_choice
    (r"`Trainer\(accelerator='hpu', precision=(?P<precision>.*?)\)` is not supported\."
     r"(?: `precision` must be one of: (?P<allowed>\(.*?\)))?", "err_hpu_precision"),  # _validate_precision_choice
    (r"You passed `Trainer\(accelerator='cpu', precision=16, amp_type='apex'\)` but apex AMP not supported on CPU",
     "err_apex_on_cpu"),  # _validate_precision_choice
    (r"You passed `Trainer\(amp_type=(?P<amp_backend>.*?), precision='bf16'\)` but it's not supported",
     "err_bf16_requires_native"),  # _validate_precision_choice
    (r"Sharded plugins are not supported with apex", "err_sharded_apex"),  # _validate_precision_choice
    (r"`Trainer\(accelerator='ipu', precision=(?P<precision>.*?)\)` is not supported\."
     r"(?: `precision` must be one of: (?P<allowed>\(.*?\)))?", "err_ipu_precision"),  # IPUPrecisionPlugin.__init__
    (r"HPU precision plugin requires HPU devices", "err_strategy_needs_hardware",
     {"fields": {"strategy": "HPUPrecisionPlugin", "hardware": "HPU"}}),  # HPUPrecisionPlugin.__init__
    (r"^No precision set", "err_precision_unset"),  # _check_and_init_precision (1.6.5 and 2.x)
    (r"^Bitsandbytes is only supported on CUDA GPUs\.", "err_bitsandbytes_needs_cuda"),  # 2.x _validate_precision_choice
    # 2.x precision plugin constructors: XLAPrecision / FSDPPrecision (pytorch and fabric) print a stray `)`
    (r"^`precision=(?P<precision>.*?)\)` is not supported in XLA\. `precision` must be one of: (?P<allowed>\(.*?\))\.$",
     "err_precision_unsupported", {"fields": {"owner": "XLAPrecision"}}),
    (r"^`precision=(?P<precision>.*?)\)` is not supported in FSDP\. `precision` must be one of: (?P<allowed>\(.*?\))\.$",
     "err_precision_unsupported", {"fields": {"owner": "FSDPPrecision"}}),
    (r"^`precision=(?P<precision>.*?)\)` is not supported in DeepSpeed\. `precision` must be one of: "
     r"(?P<allowed>\(.*?\))\.$", "err_precision_unsupported", {"fields": {"owner": "DeepSpeedPrecision"}}),  # fabric
    (r"^`Trainer\(strategy='deepspeed', precision=(?P<precision>.*?)\)` is not supported\. `precision` must be one of: "
     r"(?P<allowed>\(.*?\))\.$", "err_precision_unsupported", {"fields": {"owner": "DeepSpeedPrecision"}}),
    (r"^`?Passed `(?P<owner>\w+)\(precision=(?P<precision>.*?)\)`\. Precision must be '16-mixed' or 'bf16-mixed'\.$",
     "err_precision_unsupported", {"fields": {"allowed": "('16-mixed', 'bf16-mixed')"}}),  # 2.x MixedPrecision.__init__
    # ---- cluster environments read at connector time
    (r"invalid literal for int\(\) with base (?:0|10): (?P<value>.*)", "err_env_invalid", {"where": _ENV_READ}),
    (r"^'?(?P<variable>[A-Z][A-Z0-9_]+)'?$", "err_env_missing", {"type": "KeyError"}),
    (r"No such file or directory", "err_env_invalid", {"where": r"_read_hosts|_get_node_rank|rankfile",
                                                        "fields": {"variable": "LSB_DJOB_RANKFILE"}}),  # LSF
    (r"You set `--ntasks=(?P<ntasks>\d+)` in your SLURM bash script, but this variable is not supported",
     "err_slurm_ntasks_unsupported"),  # 2.x SLURMEnvironment._validate_srun_variables
    (r"The environment variable `(?P<variable>LSB_DJOB_RANKFILE)` is empty", "err_env_invalid",
     {"fields": {"value": ""}}),  # LSF: set but empty is an unreadable value, not a missing variable (SPEC)
    (r"[Ee]nvironment variable `?(?P<variable>[A-Z][A-Z0-9_]+)`?", "err_env_missing", {"where": _ENV_READ}),
    # ---- warnings and infos
    (r"You passed `deterministic=(?P<deterministic>\w+)` and `benchmark=True`",
     "warn_benchmark_with_deterministic"),  # AcceleratorConnector.__init__; 2.x _set_torch_flags
    (r"Passing `Trainer\(accelerator=(?P<accelerator>.*?)\)` has been deprecated", "dep_accelerator_strategy"),  # _check_config_and_set_final_flags
    (r"Passing (?P<plugin>.*?) `strategy` to the `plugins` flag in Trainer has been deprecated",
     "dep_plugins_strategy"),  # _check_config_and_set_final_flags
    (r"The flag `devices=(?P<devices>.*?)` will be ignored, instead the device specific number (?P<legacy_value>.*?) "
     r"will be used", "warn_devices_ignored_legacy"),  # _map_deprecated_devices_specfic_info_to_accelerator_and_device_flag
    (r"more than one device specific flag has been set", "warn_multiple_legacy_flags"),  # _map_deprecated_devices_specfic_info_to_accelerator_and_device_flag
    (r"Multiprocessing is handled by SLURM", "info_slurm_managing"),  # _choose_and_init_cluster_environment
    (r"You requested one or more GPUs, but set `accelerator='ddp_cpu'`", "warn_ddp_cpu_gpu_ignored"),  # _check_strategy_and_fallback
    (r"(?P<strategy>'\w+') is not supported on CPUs, hence setting `strategy='ddp'`", "warn_strategy_cpu_fallback"),
    (r"`Trainer\(accelerator='tpu', precision=16\)` but AMP is not supported with TPUs", "warn_tpu_precision_16"),
    (r"`(?:Trainer|Fabric)\(accelerator='cpu', precision=(?:16|'16-mixed')\)` but (?:native )?AMP (?:with fp16 )?is "
     r"not supported on CPU", "warn_cpu_precision_16"),  # _check_and_init_precision (1.6.5, 2.x and fabric)
    (r"Using (?P<kind>16bit|16-bit|bfloat16) (?:(?P<backend>native|apex) )?Automatic Mixed Precision \(AMP\)",
     "info_amp"),  # _check_and_init_precision (1.6.5 and 2.x)
    (r"^Auto select gpus: (?P<ids>.*)", "info_auto_select_gpus"),  # _set_devices_flag_if_auto_select_gpus_passed
    (r"^`precision=(?P<precision>.*?)` is supported for historical reasons but its usage is discouraged\. "
     r"Please set your precision to (?P<replacement>.*?) instead!", "warn_precision_alias"),  # 2.x fabric _convert_precision_to_unified_args
    (r"^The (?P<strategy>'\w+') strategy is deprecated\. Use (?P<replacement>'\w+') instead\.", "dep_strategy_renamed"),  # 2.x _graveyard
    (r"^(?:Trainer|Fabric) will use only 1 of (?P<count>\d+) GPUs because it is running inside an interactive / "
     r"notebook", "info_interactive_single_gpu"),  # 2.x and fabric _set_devices_flag_if_auto_passed
]

_COMPILED = [(re.compile(row[0], re.S), row[1], row[2] if len(row) > 2 else {}) for row in TABLE]
_COMPILED = [(rx, code, dict(opt, where=re.compile(opt["where"]) if "where" in opt else None))
             for rx, code, opt in _COMPILED]


# an object Lightning formats with str()/repr() (`<lightning.pytorch.strategies.ddp.DDPStrategy object at 0x7f..>`)
_OBJECT_REPR = re.compile(r"<(?:[\w]+\.)*(\w+) object at 0x[0-9a-fA-F]+>")


def without_addresses(fields):
    """Fields with object reprs written `DDPStrategy()`, the adapter's spelling of an instance (no address).
    The 2.x adapter applies it; 1.6 answers keep Lightning's text."""
    return {k: _OBJECT_REPR.sub(r"\1()", v) if isinstance(v, str) else v for k, v in fields.items()}


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
