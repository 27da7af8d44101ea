#!/usr/bin/python3
"""accord protocol adapter for the REAL Lightning accelerator connector (1.6.5 or 2.x; Trainer or Fabric).

    python3 adapter.py --lightning 1.6|2.x [--connector trainer|fabric] [--root DIR]

Lightning is the one this Python imports, unless --root (or $ACCORD_LIGHTNING_ROOT) names a folder made by
setup_oracle.sh.

Reads JSON-lines requests on stdin and answers on stdout (conformance/PROTOCOL.md). Only the connector is built
(1.6: AcceleratorConnector, 2.x: _AcceleratorConnector) with the Trainer's defaults for absent flags; with
`--connector fabric` (2.x only) lightning.fabric.connector._Connector, as Fabric.__init__ builds it.
"""
import argparse
import json
import linecache
import logging
import os
import re
import sys
import time
import traceback
import warnings

sys.dont_write_bytecode = True  # keep the source folder clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import codes  # noqa: E402
import oracle as oracle_mod  # noqa: E402

PROTOCOL = 1
# a string flag value is an instance when it looks like a Lightning class name (registered names are lower case)
CLASS_NAME = re.compile(
    r"^[A-Z][A-Za-z0-9]*(Accelerator|Strategy|Plugin|Environment|IO|Precision|BatchNorm|LayerSync)$")
COMPONENT_ARGS = ("accelerator", "precision_plugin", "checkpoint_io", "cluster_environment", "parallel_devices")
# Fabric's strategies take their precision plugin as `precision=` (a precision plugin's own `precision` argument is a
# string such as "16-mixed", never a class name)
FABRIC_COMPONENT_ARGS = COMPONENT_ARGS + ("precision",)
# constructor arguments an instance gets when the case does not give them (reference/tables/precision_plugins.def)
DEFAULT_ARGS = {
    "NativeMixedPrecisionPlugin": {"precision": 16, "device": "cuda"},
    "ShardedNativeMixedPrecisionPlugin": {"precision": 16, "device": "cuda"},
    "FullyShardedNativeMixedPrecisionPlugin": {"precision": 16, "device": "cuda"},
    "IPUPrecisionPlugin": {"precision": 32},
    "HPUPrecisionPlugin": {"precision": 32},
    "DeepSpeedPrecisionPlugin": {"precision": 32, "amp_type": "native"},
    "MixedPrecision": {"precision": "16-mixed", "device": "cuda"},
    # the table's default precision where the 2.2.5 class requires the argument (Fabric's XLAPrecision, both releases'
    # DeepSpeedPrecision and FSDPPrecision)
    "XLAPrecision": {"precision": "32-true"},
    "DeepSpeedPrecision": {"precision": "32-true"},
    "FSDPPrecision": {"precision": "32-true"},
    "BitsandbytesPrecision": {"mode": "int8"},  # required arguments; without the package the constructor fails first
    "TransformerEnginePrecision": {"weights_dtype": "bfloat16"},
}
DTYPE_ARGS = ("weights_dtype", "dtype", "fallback_compute_dtype")  # a torch dtype named as a string in the case
_MIXED = {16: "16-mixed", "16": "16-mixed", "bf16": "bf16-mixed", 32: "32-true", "32": "32-true"}
_TRUE = {16: "16-true", "16": "16-true", "bf16": "bf16-true", 32: "32-true", "32": "32-true"}
# 1.6 class name -> (2.x class, fixed args, precision value map, args dropped)
EQUIV_2X = {
    "GPUAccelerator": ("CUDAAccelerator", {}, None, ()),
    "TPUAccelerator": ("XLAAccelerator", {}, None, ()),
    "NativeSyncBatchNorm": ("TorchSyncBatchNorm", {}, None, ()),
    "DDPSpawnStrategy": ("DDPStrategy", {"start_method": "spawn"}, None, ()),
    "TPUSpawnStrategy": ("XLAStrategy", {}, None, ()),
    "SingleTPUStrategy": ("SingleDeviceXLAStrategy", {}, None, ()),
    "PrecisionPlugin": ("Precision", {}, None, ()),
    "DoublePrecisionPlugin": ("DoublePrecision", {}, None, ()),
    "NativeMixedPrecisionPlugin": ("MixedPrecision", {}, _MIXED, ()),
    "HalfPrecisionPlugin": ("HalfPrecision", {}, _TRUE, ()),
    "TPUPrecisionPlugin": ("XLAPrecision", {}, _TRUE, ()),
    "TPUBf16PrecisionPlugin": ("XLAPrecision", {"precision": "bf16-true"}, _TRUE, ()),
    "DeepSpeedPrecisionPlugin": ("DeepSpeedPrecision", {}, _MIXED, ("amp_type", "amp_level")),
    "FullyShardedNativeMixedPrecisionPlugin": ("FSDPPrecision", {}, _MIXED, ("device",)),
}
DEVICE_PARSE_CODES = {"err_devices_type", "err_devices_not_int", "err_gpus_none_available", "err_gpu_ids_not_unique",
                      "err_gpu_ids_unavailable", "err_gpu_devices_none", "err_tpu_cores_invalid",
                      "err_cpu_devices_invalid", "err_hpu_devices_type", "err_device_index_type"}
LAUNCHER_KINDS = {"_SubprocessScriptLauncher": "subprocess_script", "_SpawnLauncher": "spawn",
                  "_MultiProcessingLauncher": "spawn", "_XLASpawnLauncher": "xla", "_XLALauncher": "xla"}


class Adapter:
    def __init__(self, ora):
        self.ora = ora
        self.fabric = getattr(ora, "kind", "trainer") == "fabric"
        self.component_args = FABRIC_COMPONENT_ARGS if self.fabric else COMPONENT_ARGS
        self.params = {}  # id(instance) -> the strategy's own parameters given in the case
        self.timing = False  # the start line asked for the timing mode: replies carry elapsed_ns

    # ------------------------------------------------------------------ flags -> Python values
    def is_instance_spec(self, v):
        # PROTOCOL.md: a string is an instance when it is one of accord's known class names (`accord list classes`)
        return (isinstance(v, dict) and "class" in v) or (isinstance(v, str) and v in KNOWN_CLASSES)

    def make(self, spec):
        name = spec if isinstance(spec, str) else spec["class"]
        given = {} if isinstance(spec, str) else dict(spec.get("args") or {})
        target, fixed, pmap, dropped = name, {}, None, ()
        # Fabric speaks its own class names only (the fabric-2.2 vocabulary): a 1.x name is not aliased there
        if self.ora.major == "2.x" and name in EQUIV_2X and not self.fabric:
            target, fixed, pmap, dropped = EQUIV_2X[name]
        cls = self.ora.classes.get(target)
        if cls is None:  # unknown classes are plugins of an invalid type (PROTOCOL.md)
            return type(name, (), {"__repr__": lambda self: f"{type(self).__name__}()"})()
        args = dict(DEFAULT_ARGS.get(name, {}), **DEFAULT_ARGS.get(target, {}))
        args.update(given)
        args.update(fixed)
        for k in dropped:
            args.pop(k, None)
        if pmap is not None and "precision" in args:
            args["precision"] = pmap.get(args["precision"], args["precision"])
        for k, v in sorted(args.items()):  # nested instances are built in argument-name order
            if k in DTYPE_ARGS and isinstance(v, str) and isinstance(getattr(self.ora.torch, v, None), self.ora.torch.dtype):
                args[k] = getattr(self.ora.torch, v)
            elif k == "parallel_devices" and isinstance(v, list):
                args[k] = [self.ora.torch.device(d) if isinstance(d, str) else d for d in v]
            elif self.is_instance_spec(v):  # PROTOCOL.md: a known class name is an instance in any argument
                args[k] = self.make(v)
        inst = cls(**args)
        # the strategy's own parameters as the reference writes them: an instance as {"class": name}
        self.params[id(inst)] = {k: ({"class": v if isinstance(v, str) else v["class"]} if self.is_instance_spec(v) else v)
                                 for k, v in given.items() if k not in self.component_args}
        return inst

    def convert(self, key, value):
        if key in ("strategy", "accelerator") and self.is_instance_spec(value):
            return self.make(value)
        if key == "plugins":
            if isinstance(value, list):
                return [self.make(v) if self.is_instance_spec(v) else v for v in value]
            return self.make(value) if self.is_instance_spec(value) else value
        return value

    # ------------------------------------------------------------------ one case
    def resolve(self, case):
        flags = dict(case.get("flags") or {})
        hw = dict(case.get("hardware") or {})
        missing = set(hw.get("packages", [])) - oracle_mod.FAKEABLE_PACKAGES[self.ora.major]
        if missing:
            return {"skipped": f"the oracle cannot fake the packages {sorted(missing)}"}
        self.params = {}
        ora = self.ora
        ora.set_case(hw, case.get("interactive", False), case.get("env") or {})
        try:
            with warnings.catch_warnings(record=True) as notes:
                warnings.simplefilter("always")
                conn, error, env_flags, built, elapsed = None, None, {}, False, None
                try:
                    kwargs = dict(ora.defaults)
                    env_flags = {k: v for k, v in ora.trainer_env_defaults().items() if k not in flags}
                    kwargs.update(env_flags)
                    with warnings.catch_warnings(record=True):  # user code builds instances before the Trainer:
                        given = {k: self.convert(k, flags[k]) for k in build_order(flags)}  # not notes
                    built = True
                    check_trainer_keywords(flags, ora.trainer_params, getattr(ora, "owner", "Trainer"))
                    kwargs.update({k: v for k, v in given.items() if k in ora.defaults})  # the connector's share
                    ora.log_records = notes  # warnings and log records in one list, in emission order
                    kwargs = {ora.renames.get(k, k): v for k, v in kwargs.items()}
                    started = time.perf_counter_ns()
                    try:
                        conn = ora.connector_cls(**kwargs)
                        if self.fabric:
                            ora.after_connector()
                    finally:
                        elapsed = time.perf_counter_ns() - started
                except Exception as e:  # noqa: BLE001 - a connector error is an outcome
                    unknown = machine_unknown(e)
                    if unknown:
                        return {"skipped": unknown}
                    # fields name the values Lightning got (Fabric: LT_* variables replace the call's values, once the
                    # user's instances are built: an instance's own constructor error names the instance)
                    overrides = ora.env_overrides() if self.fabric and built else {}
                    error = self.error_of(e, {**env_flags, **flags, **overrides})
                ora.log_records = []
            outcome = {"status": "error", "error": error} if error else {"status": "ok", "plan": self.plan(conn)}
            outcome["diagnostics"] = [self.note_of(n) for n in notes]
            # The timing mode (PROTOCOL.md): the connector's own time, not building the instances or the reply.
            return {"outcome": outcome, "elapsed_ns": elapsed} if self.timing and elapsed is not None else {"outcome": outcome}
        finally:
            ora.end_case()

    # ------------------------------------------------------------------ translation
    def error_of(self, e, flags):
        msg = e.args[0] if isinstance(e, KeyError) and e.args and isinstance(e.args[0], str) else str(e)
        inner, tb, conn, line, ctor, frame = [], e.__traceback__, None, "", None, None
        while tb is not None:  # the innermost function inside Lightning's folder (not a comprehension / lambda)
            code = tb.tb_frame.f_code
            if code.co_filename.startswith(self.ora.root) and not code.co_name.startswith("<"):
                # Fabric: also the qualified name (`_Connector.__init__` is not any other `__init__`)
                inner = [code.co_name, getattr(code, "co_qualname", code.co_name)] if self.fabric else [code.co_name]
                frame = tb.tb_frame
                line = linecache.getline(code.co_filename, tb.tb_lineno)
                obj = tb.tb_frame.f_locals.get("self")
                if code.co_name == "__init__" and obj is not None and not isinstance(obj, self.ora.connector_cls):
                    ctor = type(obj).__name__  # the innermost Lightning constructor that raised
            if isinstance(tb.tb_frame.f_locals.get("self"), self.ora.connector_cls):
                conn = tb.tb_frame.f_locals["self"]  # the connector as it was when the error was raised
            tb = tb.tb_next
        code, fields = codes.classify(msg, "err_unmapped", type(e).__name__, inner)
        if self.ora.major == "2.x":
            fields = codes.without_addresses(fields)
        if code == "err_not_int" and frame is not None:  # the value given to int(): the message cuts long reprs
            fields.setdefault("value", self.int_argument(fields.get("flag"), frame))
        if code == "err_unmapped":
            fields = {"type": type(e).__name__, "message": msg}
        elif code in DEVICE_PARSE_CODES:
            flag = self.device_flag(flags)
            fields.setdefault("flag", flag)
            fields.setdefault("value", repr(flags.get(flag, self.ora.defaults.get(flag))))
        else:
            self.fill_fields(code, fields, flags, conn, line, ctor)
        return {"code": code, "fields": fields, "message": msg, "exception": type(e).__name__}

    def fill_fields(self, code, fields, flags, conn, line, ctor=None):
        """Fields the message does not carry but the code's template names (reference/tables/diagnostics.def):
        flag values as Lightning held them when it failed (Python repr; instances as `Cls()`), or the
        environment variable the failing source line reads."""
        def state(attr, flag, default=None):
            if conn is not None and getattr(conn, attr, None) is not None:
                return pyrepr(getattr(conn, attr))
            return pyrepr(flags.get(flag, default), spec=True)

        pattr = "_precision_input" if self.fabric else "_precision_flag"  # Fabric's connector names it differently
        fillers = {
            "accelerator": lambda: state("_accelerator_flag", "accelerator"),
            "precision": lambda: (pyrepr(getattr(conn, pattr)) if conn is not None and hasattr(conn, pattr)
                                  and (getattr(conn, pattr) is not None or "precision" in flags)
                                  else pyrepr(flags.get("precision", None if self.fabric else 32), spec=True)),
            "amp_backend": lambda: pyrepr(flags.get("amp_backend", "native"), spec=True),
            "amp_level": lambda: pyrepr(flags.get("amp_level"), spec=True),
            "strategy": lambda: state("_strategy_flag", "strategy"),
            "num_nodes": lambda: state("_num_nodes_flag", "num_nodes", 1),
            "deterministic": lambda: pyrepr(flags.get("deterministic"), spec=True),
            "value": lambda: pyrepr(flags.get(fields.get("flag")), spec=True) if "flag" in fields else None,
            "variable": lambda: (ENV_READ.search(line) or [None, None])[1],
            "component": lambda: ctor,
        }
        for name in list(TEMPLATE_FIELDS.get(code, ())) + EXTRA_FIELDS.get(code, []):
            if name not in fields and name in fillers:
                v = fillers[name]()
                if v is not None:
                    fields[name] = v
        if code == "err_checkpoint_io_unsupported" and getattr(conn, "checkpoint_io", None) is not None:
            fields.setdefault("plugin", f"{type(conn.checkpoint_io).__name__}()")  # the plugin the connector pushed
        # a strategy named by the `strategy` flag whose package is missing: the flag that chose it (seed item 7: an
        # error names each flag involved; Lightning's message names only the class or the package)
        if code == "err_package_missing" and isinstance(flags.get("strategy"), str) and \
                str(fields.get("component") or ctor or "").endswith("Strategy"):
            fields.setdefault("strategy", pyrepr(flags["strategy"]))

    def int_argument(self, flag, frame):
        """Fabric: repr of what int() got. `int(self._argument_from_env("num_nodes", num_nodes, ...))` in
        _Connector.__init__ (LT_NUM_NODES when set, else the flag), `int(os.environ.get("LT_CLI_USED", "0"))`."""
        if flag == "num_nodes":
            env = os.environ.get("LT_NUM_NODES")
            v = env if env is not None else frame.f_locals.get("num_nodes")
        else:
            v = os.environ.get(flag, "0")
        return repr(v) if isinstance(v, dict) else pyrepr(v)

    def device_flag(self, flags):
        """The flag whose value reached the device parser (1.6 legacy flags win: _map_deprecated_devices_specfic_info_to_accelerator_and_device_flag)."""
        if self.ora.major == "1.6":
            for name in ("num_processes", "gpus", "ipus", "tpu_cores"):
                v = flags.get(name)
                if v and v not in ([], 0, "0"):
                    return name
        return "devices"

    def note_of(self, n):
        if isinstance(n, logging.LogRecord):
            msg, severity, default = n.getMessage(), "info", "info_unmapped"
        else:
            msg = str(n.message)
            severity = "deprecation" if issubclass(n.category, DeprecationWarning) else "warning"
            default = "warn_unmapped"
        code, fields = codes.classify(msg, default)
        if self.ora.major == "2.x":
            fields = codes.without_addresses(fields)
        if code == default and severity != "info":
            fields = {"category": n.category.__name__}
        return {"code": code, "severity": severity, "fields": fields, "message": msg}

    def plan(self, c):
        torch, ora = self.ora.torch, self.ora
        acc, strat = c.accelerator, c.strategy
        acc_name = ora.accelerator_names.get(type(acc))
        if acc_name is None and self.fabric:  # Fabric's legacy TPUAccelerator subclasses the registered XLAAccelerator
            acc_name = next((ora.accelerator_names[k] for k in type(acc).__mro__ if k in ora.accelerator_names), None)
        env = c.cluster_environment
        flag = c._strategy_flag
        family = self.fabric_family(strat) if self.fabric else strategy_family(strat)
        name = flag if isinstance(flag, str) else family
        if isinstance(flag, str):
            params = ora.strategy_init_params(flag)
        elif id(strat) in self.params:  # an instance from the case: the arguments the case gave
            params = self.params[id(strat)]
        else:  # built by the connector (_choose_strategy): only the single-device strategies get an argument, `device`
            params = {}
        # SingleDevice/TPU/HPU built from a name or by the connector: their device (an instance from the case keeps the
        # arguments the case gave, as the reference reports them)
        if "Single" in type(strat).__name__ and "device" not in (params or {}) and id(strat) not in self.params:
            params = dict(params or {}, device=safe(lambda: str(strat.root_device)))
        launcher = strat.launcher
        prec = c.precision if self.fabric else c.precision_plugin  # Fabric's connector calls it `precision`
        backend = getattr(prec, "backend", getattr(prec, "amp_type", None))  # 1.6 DeepSpeedPrecisionPlugin: amp_type
        plan = {
            "accelerator": acc_name,
            "accelerator_class": type(acc).__name__,
            "devices": jsonable(c._devices_flag),
            "parallel_devices": [str(d) for d in c._parallel_devices],  # 1.6 TPU/IPU keep ints: "0", "1", ...
            "num_nodes": c._num_nodes_flag,
            "num_processes": safe(lambda: strat.num_processes, 1),
            "cluster_environment": {
                "class": type(env).__name__,
                "creates_processes_externally": safe(lambda: bool(env.creates_processes_externally)),
                "world_size": safe(env.world_size), "global_rank": safe(env.global_rank),
                "local_rank": safe(env.local_rank), "node_rank": safe(env.node_rank),
            },
            "strategy": {"name": name, "class": type(strat).__name__,
                         "family": family,
                         "params": jsonable(params or {}), "root_device": safe(lambda: None if strat.root_device is None else str(strat.root_device))},
            "launcher": {
                "class": type(launcher).__name__ if launcher else None,
                "kind": LAUNCHER_KINDS.get(type(launcher).__name__, type(launcher).__name__) if launcher else None,
                "start_method": getattr(launcher, "_start_method", None) if launcher else None,
                "interactive_compatible": safe(lambda: bool(launcher.is_interactive_compatible)) if launcher else True,
            },
            "precision": {
                "value": str(prec.precision) if hasattr(prec, "precision") else None,
                "plugin": type(prec).__name__,
                "amp_backend": getattr(backend, "value", backend),
                "amp_level": getattr(prec, "amp_level", None),
                "device": getattr(prec, "device", None),
            },
            # Fabric's FSDPStrategy has none: its property raises NotImplementedError (null, as any value Lightning
            # cannot compute)
            "checkpoint_io": safe(lambda: type(strat.checkpoint_io).__name__),
        }
        if self.fabric:  # Fabric has no layer sync, no `is_distributed` and does not touch torch's determinism
            return plan
        plan.update({
            # the layer sync the strategy got (_lazy_init_strategy pushes it only to strategies that have one)
            "layer_sync": type(strat._layer_sync).__name__ if getattr(strat, "_layer_sync", None) is not None else None,
            "is_distributed": safe(lambda: bool(c.is_distributed)),
            "determinism": {
                "use_deterministic_algorithms": torch.are_deterministic_algorithms_enabled(),
                "warn_only": torch.is_deterministic_algorithms_warn_only_enabled(),
                "cudnn_benchmark": bool(torch.backends.cudnn.benchmark),
                "cudnn_deterministic": bool(torch.backends.cudnn.deterministic),
                "env": {k: os.environ[k] for k in sorted(getattr(os.environ, "written", ()))
                        if k in ("CUBLAS_WORKSPACE_CONFIG", "HOROVOD_FUSION_THRESHOLD") and k in os.environ},
            },
        })
        return plan

    def fabric_family(self, strat):
        """Fabric's strategy classes have no `strategy_name`: the Fabric registry name of the class registered
        without init parameters (dp, deepspeed, fsdp, xla, single_xla, xla_fsdp, single_tpu), else DDPStrategy's
        start method (ddp, ddp_spawn, ddp_fork), else the `strategy_name` of the Trainer's class of the same name
        (SingleDeviceStrategy: single_device)."""
        registry = self.ora.strategy_registry()
        for key in registry.available_strategies():
            entry = registry[key]
            if entry["strategy"] is type(strat) and not entry.get("init_params"):
                return key
        name = strategy_family(strat)
        if name is not None:
            return name
        import lightning.pytorch.strategies as pl_strategies

        return getattr(getattr(pl_strategies, type(strat).__name__, None), "strategy_name", None)


# the order in which user code builds the instances of a case (a JSON object has no order): accelerator,
# strategy, plugins (in list order); the reference checks instance constructors in the same order
BUILD_ORDER = ("accelerator", "strategy", "plugins")


def build_order(flags):
    return [k for k in BUILD_ORDER if k in flags] + [k for k in flags if k not in BUILD_ORDER]


def check_trainer_keywords(flags, trainer_params, owner="Trainer"):
    """`Trainer(**flags)` (`Fabric(**flags)`) raises this TypeError for a keyword its __init__ does not take (after
    the arguments, the instances, are built). Python names the first such keyword of the call; a case's keyword order
    is the order of its `flags` object as written in the JSON."""
    for k in flags:
        if k not in trainer_params:
            raise TypeError(f"{owner}.__init__() got an unexpected keyword argument '{k}'")


# exceptions that are not Lightning's answer but a limit of the oracle machine: (regex, reason)
MACHINE_UNKNOWNS = [
    (re.compile(r"mutable default .* for field \w+ is not allowed"),
     "this machine's torch (Debian 1.13 on Python 3.11) cannot import its FSDP modules"),
]


def machine_unknown(e):
    """The reason a case is `skipped` when its exception is a limit of this machine, else None."""
    msg = str(e)
    for rx, reason in MACHINE_UNKNOWNS:
        if rx.search(msg):
            return f"{reason}: {type(e).__name__}: {msg}"
    return None


ENV_READ = re.compile(r"environ(?:\.get)?\s*[\[(]\s*[\"'](\w+)[\"']")  # os.environ["X"] / .get("X")
CLASS_SPEC = CLASS_NAME


def _known_classes():
    """The class names of accord's tables (reference/tables): the strings PROTOCOL.md reads as instances."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "reference", "tables")
    names = set()
    # the column of the class name among each row's quoted cells
    for table, column in (("accelerators", 1), ("strategy_classes", 0), ("precision_plugins", 0), ("cluster_envs", 0),
                          ("other_classes", 0)):
        try:
            with open(os.path.join(root, table + ".def"), encoding="utf-8") as f:
                for line in f:
                    if line.startswith("ACCORD_"):
                        names.add(re.findall(r'"(\w*)"', line)[column])
        except OSError:
            pass
    return names or None


KNOWN_CLASSES = _known_classes() or type("AnyClassName", (), {"__contains__": lambda self, v: CLASS_NAME.match(v) is not None})()


def _template_fields():
    """code -> the field names its message template uses (reference/tables/diagnostics.def, when present)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "reference", "tables",
                        "diagnostics.def")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return {}
    return {m.group(1): re.findall(r"\{(\w+)\}", m.group(2))
            for m in re.finditer(r'ACCORD_DIAG\(\w+, "(\w+)", \w+, \w+, "(.*)"\)', text)}


TEMPLATE_FIELDS = _template_fields()
# flag fields a code carries although its message template quotes the value literally
EXTRA_FIELDS = {"err_tpu_precision_64": ["precision"], "err_bf16_requires_native": ["precision"]}


def pyrepr(v, spec=False):
    """Python repr of a flag value; instances (or, with spec, their case spelling) are written `Cls()`."""
    if spec and isinstance(v, dict) and "class" in v:
        return f"{v['class']}()"
    if spec and isinstance(v, str) and CLASS_SPEC.match(v):
        return f"{v}()"
    if v is None or isinstance(v, (bool, int, float, str)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(pyrepr(x, spec) for x in v) + "]"
    return f"{type(v).__name__}()"


def strategy_family(strat):
    """The class's `strategy_name`; 2.x DDPStrategy has none and is named after its start method."""
    name = getattr(type(strat), "strategy_name", None)
    if name is None and hasattr(strat, "_start_method"):
        name = "ddp" if strat._start_method == "popen" else f"ddp_{strat._start_method}"
    return name


def safe(fn, default=None):
    try:
        return jsonable(fn())
    except Exception:  # noqa: BLE001 - a value Lightning cannot compute is reported as null
        return default


def jsonable(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if hasattr(v, "value") and type(v).__module__ != "builtins" and isinstance(getattr(v, "value"), (str, int)):
        return v.value  # enums
    return str(v)


def capabilities(major, connector="trainer"):
    if connector == "fabric":  # Fabric's keywords only; no determinism in a Fabric plan
        flags = ["accelerator", "strategy", "devices", "num_nodes", "precision", "plugins", "instances"]
        return ([f"accelerator:{a}" for a in ("cpu", "gpu", "cuda", "mps", "tpu")] + [f"flag:{f}" for f in flags]
                + [f"package:{p}" for p in sorted(oracle_mod.FAKEABLE_PACKAGES[major])]
                + [f"env:{e}" for e in ("slurm", "torchelastic", "kubeflow", "lsf")]
                + [f"hardware:{h}" for h in ("no_fork", "no_distributed", "mps")]
                + ["env", "interactive", "instances", "oracle"])
    flags = ["accelerator", "strategy", "devices", "num_nodes", "precision", "plugins", "sync_batchnorm",
             "deterministic", "benchmark"]
    if major == "1.6":
        flags += ["amp_backend", "amp_level", "gpus", "tpu_cores", "ipus", "num_processes", "auto_select_gpus"]
        accs = ["cpu", "gpu", "tpu", "ipu", "hpu"]
    else:
        accs = ["cpu", "gpu", "cuda", "mps", "tpu"]
    pkgs = sorted(oracle_mod.FAKEABLE_PACKAGES[major])
    envs = ["slurm", "torchelastic", "kubeflow", "lsf"] + (["bagua"] if major == "1.6" else [])
    hardware = ["no_fork", "no_distributed"] + (["gpu_busy"] if major == "1.6" else ["mps"])
    if major == "1.6":
        flags.append("legacy_devices")
    return ([f"accelerator:{a}" for a in accs] + [f"flag:{f}" for f in flags + ["instances"]]
            + [f"package:{p}" for p in pkgs] + [f"env:{e}" for e in envs] + [f"hardware:{h}" for h in hardware]
            + ["env", "interactive", "instances", "determinism", "oracle"])


# profile name prefixes of each connector: a request for another connector's profile is answered `skipped`
PROFILE_PREFIXES = {"trainer": "lightning-", "fabric": "fabric-"}
IMPLEMENTATION_NAMES = {"trainer": "lightning", "fabric": "lightning-fabric"}


def foreign_profile(profile, connector):
    """The reason to skip a request whose profile belongs to the other connector (None: run it)."""
    if not isinstance(profile, str):
        return None
    for other, prefix in PROFILE_PREFIXES.items():
        if other != connector and profile.startswith(prefix):
            return (f"profile {profile!r} is the {other} connector's; this adapter runs the {connector} connector"
                    f" (adapter.py --connector {other})")
    return None


def serve(major, inp, out, connector="trainer", root=None):
    ora, adapter = None, None
    for line in inp:
        line = line.strip()
        if not line:
            continue
        rid = None
        try:
            req = json.loads(line)
            cmd = req.get("cmd")
            rid = req.get("id")
            if cmd == "start":
                if req.get("protocol") != PROTOCOL:
                    reply = {"ok": False, "error": f"unsupported protocol {req.get('protocol')!r}; speaks {PROTOCOL}"}
                else:
                    ora = ora or oracle_mod.load(major, root, connector)
                    if ora is None:
                        reply = {"ok": False, "error": f"cannot import Lightning {major}: {oracle_mod.import_error}"}
                    else:
                        adapter = Adapter(ora)
                        adapter.timing = req.get("timing") is True
                        reply = {"ok": True, "protocol": PROTOCOL, "implementation": {
                            "name": IMPLEMENTATION_NAMES[connector], "version": ora.version, "language": "python",
                            "capabilities": capabilities(major, connector)}}
            elif cmd == "stop":
                return 0
            elif cmd == "resolve":
                skip = foreign_profile(req.get("profile"), connector)
                if adapter is None:
                    reply = {"id": rid, "errored": "resolve before a successful start"}
                elif skip:
                    reply = {"id": rid, "skipped": skip}
                else:
                    reply = dict(id=rid, **adapter.resolve(req.get("case") or {}))
            else:
                reply = {"id": rid, "errored": f"unknown command {cmd!r}"}
        except Exception:  # noqa: BLE001 - an adapter bug must not end the session
            reply = {"id": rid, "errored": traceback.format_exc()}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lightning", choices=["1.6", "2.x"], required=True)
    ap.add_argument("--connector", choices=["trainer", "fabric"], default="trainer",
                    help="the Trainer's accelerator connector (default) or Lightning Fabric's _Connector (2.x only)")
    ap.add_argument("--root", default=os.environ.get("ACCORD_LIGHTNING_ROOT") or None,
                    help="a folder made by setup_oracle.sh (default: $ACCORD_LIGHTNING_ROOT, else the Lightning this Python imports)")
    args = ap.parse_args()
    if args.connector == "fabric" and args.lightning != "2.x":
        ap.error("--connector fabric needs --lightning 2.x (Fabric is part of Lightning 2)")
    out = sys.stdout
    sys.stdout = sys.stderr  # anything Lightning prints must not corrupt the protocol stream
    return serve(args.lightning, sys.stdin, out, args.connector, args.root)


if __name__ == "__main__":
    sys.exit(main())
