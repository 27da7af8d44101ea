"""Load real Lightning (1.6.5 or 2.x) and fake the hardware it sees.

Nothing of Lightning is copied here: it is the Lightning this Python imports, or the one in a folder made by
setup_oracle.sh (`--root DIR` or $ACCORD_LIGHTNING_ROOT). Hardware
is faked the way Lightning's own tests do it: availability flags and device-count functions are patched in every
Lightning module that bound them, and the optional packages (torch_xla, poptorch, habana; on 1.6 also deepspeed,
fairscale, horovod and bagua) are mocked.
"""
import inspect
import logging
import os
import re
import sys
import types
from unittest import mock

from package_fakes import DEEPSPEED_2X_VERSION, DISTRIBUTED_FAKES, FakeXM, import_torch_shard, install_distributed_fakes

import_error = None  # set by load() when Lightning cannot be imported


def _lightning_dir(root, major):
    """The sys.path folder of the requested version below root (root itself when it already is one)."""
    want = "pytorch_lightning" if major == "1.6" else "lightning"
    if os.path.isdir(os.path.join(root, want)):
        return root
    for name in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        if name.startswith(major if major == "1.6" else "2.") and os.path.isdir(os.path.join(root, name, want)):
            return os.path.join(root, name)
    raise ImportError(f"no Lightning {major} below ACCORD_LIGHTNING_ROOT={root!r} (run setup_oracle.sh)")


def _prepare_torch(major):
    import torch

    import_torch_shard()

    if str(torch.__version__).startswith("1.13.0a0"):
        torch.__version__ = "1.13.1"  # Debian reports 1.13.0a0, which Lightning reads as < 1.13
    if major == "1.6" and "torch.utils.tensorboard" not in sys.modules:  # 1.6 imports tensorboard; Debian has none
        tb = types.ModuleType("torch.utils.tensorboard")
        tb.__path__ = []
        tb.SummaryWriter = type("SummaryWriter", (), {})
        summary = types.ModuleType("torch.utils.tensorboard.summary")
        summary.hparams = lambda *a, **k: None
        sys.modules["torch.utils.tensorboard"] = tb
        sys.modules["torch.utils.tensorboard.summary"] = summary
    return torch


class Hardware:
    """The hardware of the current case; the patched functions read it."""

    def __init__(self):
        self.cuda, self.mps, self.tpu, self.tpu_cores, self.ipu, self.hpu = 0, False, False, 8, False, False
        self.fork, self.dist, self.packages, self.gpu_busy, self.interactive = True, True, set(), set(), False

    def load(self, hw, interactive):
        self.cuda = int(hw.get("cuda_devices", 0))
        self.mps = bool(hw.get("mps", False))
        tpu = hw.get("tpu", False)
        self.tpu = bool(tpu) or "tpu_cores" in hw
        self.tpu_cores = int(hw.get("tpu_cores", tpu if isinstance(tpu, int) and not isinstance(tpu, bool) else 8))
        self.ipu, self.hpu = bool(hw.get("ipu", False)), bool(hw.get("hpu", False))
        self.fork, self.dist = bool(hw.get("fork", True)), bool(hw.get("torch_distributed", True))
        self.packages = set(hw.get("packages", []))
        self.gpu_busy = set(hw.get("gpu_busy", []))
        self.interactive = bool(interactive)
        if self.tpu:
            self.packages.add("torch_xla")
        if self.ipu:
            self.packages.add("poptorch")
        if self.hpu:
            self.packages.add("habana")


HW = Hardware()
# optional packages the oracle can fake; the others make a case "skipped"
FAKEABLE_PACKAGES = {"1.6": {"apex", "poptorch", "habana", "torch_xla", "deepspeed", "fairscale", "horovod", "bagua"},
                     "2.x": {"torch_xla", "deepspeed"}}

class _Requirement:
    """A faked lightning_utilities RequirementCache: true when the case has the package; printed as the real one,
    which names the missing requirement (this machine has none of the faked packages)."""

    def __init__(self, available, real):
        self.available, self.real = available, real

    def __bool__(self):
        return self.available

    def __str__(self):
        return "Requirement met" if self.available else str(self.real)

    __repr__ = __str__


class _GpuProbeTorch:
    """`torch` as seen by 1.6's auto_gpu_select: a GPU listed in hardware.gpu_busy fails the probe allocation."""

    def __init__(self, torch):
        self._torch = torch
        self.cuda = types.SimpleNamespace(device_count=lambda: HW.cuda, memory_reserved=lambda *a, **k: 0)

    def __getattr__(self, name):
        return getattr(self._torch, name)

    def ones(self, *a, **k):
        return self

    def to(self, device):
        if device.index in HW.gpu_busy or device.index >= HW.cuda:
            raise RuntimeError("CUDA error: all CUDA-capable devices are busy or unavailable")
        return self


# optional-package imports guarded at module level (`if _TPU_AVAILABLE: import torch_xla... as xm`)
_OPTIONAL_IMPORT = re.compile(
    r"^\s+(?:import (?P<mod>(?:torch_xla|poptorch|habana_frameworks|deepspeed|fairscale|horovod|bagua)[\w.]*)"
    r"(?: as (?P<as1>\w+))?"
    r"|from (?P<frm>(?:torch_xla|poptorch|habana_frameworks|deepspeed|fairscale|horovod|bagua)[\w.]*) import (?P<names>[\w, ]+))"
    r"\s*(?:#.*)?$",
    re.M,
)


_PACKAGE_OF = {"torch_xla": "torch_xla", "poptorch": "poptorch", "habana_frameworks": "habana", "deepspeed": "deepspeed",
               "fairscale": "fairscale", "horovod": "horovod", "bagua": "bagua"}


class Oracle:
    def __init__(self, major, root, connector="trainer"):
        self.major = major
        self.kind = connector  # "trainer": the Trainer's connector; "fabric": lightning.fabric.connector._Connector
        self.owner = "Fabric" if connector == "fabric" else "Trainer"  # the class whose __init__ takes the flags
        # root: a folder made by setup_oracle.sh; None: the Lightning importable from this interpreter
        if root:
            self.root = os.path.abspath(_lightning_dir(root, major))
            sys.path.insert(0, self.root)
        self.torch = _prepare_torch(major)
        self._orig_environ = os.environ
        if major == "1.6":
            install_distributed_fakes()
            import pytorch_lightning as pl
            from pytorch_lightning.trainer.connectors.accelerator_connector import AcceleratorConnector

            self.pl, self.package, self.connector_cls = pl, "pytorch_lightning", AcceleratorConnector
            self.version = pl.__version__
            self.renames = {"amp_backend": "amp_type"}
            self.loggers = ["pytorch_lightning"]
        else:
            import lightning
            import lightning.pytorch as pl
            from lightning.pytorch.trainer.connectors.accelerator_connector import _AcceleratorConnector

            self.pl, self.package, self.connector_cls = pl, "lightning", _AcceleratorConnector
            self.version = lightning.__version__
            self.renames = {}
            self.loggers = ["lightning", "lightning.pytorch", "lightning.fabric", "lightning_fabric"]
            if connector == "fabric":
                import lightning.fabric.fabric as fabric_mod
                from lightning.fabric.connector import _Connector

                self.connector_cls, self.fabric_module = _Connector, fabric_mod
        if not root:  # the folders of Lightning's own code (error sites are looked up in frames below them)
            self.root = tuple(os.path.dirname(os.path.abspath(m.__file__)) + os.sep for n, m in list(sys.modules.items())
                              if n in ("pytorch_lightning", "lightning", "lightning_fabric", "lightning_utilities")
                              and getattr(m, "__file__", None))
        # the class whose keyword arguments the case's flags are: Trainer, or Fabric (--connector fabric)
        self.call_cls = self.fabric_module.Fabric if connector == "fabric" else self.pl.Trainer
        self.defaults = self._connector_defaults()
        # the keywords this release's Trainer.__init__ (Fabric.__init__) takes (a case flag outside them is a
        # TypeError of the call)
        self.trainer_params = [n for n in inspect.signature(self.call_cls.__init__).parameters if n != "self"]
        self.modules = [m for n, m in list(sys.modules.items()) if m is not None and n.split(".")[0] in
                        (self.package, "lightning_utilities", "lightning_fabric")]
        self.accelerator_names = self._accelerator_names()
        self._flag_sites = self._find_sites()
        self._kept_globals = {}
        self._optional_globals = self._find_optional_globals()
        self._patch_functions()
        self._rank_fns = {id(f): f for f in (vars(m).get("rank_zero_only") for m in self.modules)
                          if f is not None and hasattr(f, "rank")}.values()
        self._install_log_handler()
        self.classes = self._find_classes()

    # ---------------------------------------------------------------- construction
    def _connector_defaults(self):
        """The Trainer's (Fabric's) defaults for every argument the connector takes (Trainer name -> value).
        Fabric.__init__ passes all six of its connector arguments to _Connector, so these are the connector's input."""
        trainer = inspect.signature(self.call_cls.__init__).parameters
        conn = inspect.signature(self.connector_cls.__init__).parameters
        back = {v: k for k, v in self.renames.items()}
        out = {}
        for name in conn:
            if name == "self":
                continue
            tname = back.get(name, name)
            out[tname] = trainer[tname].default if tname in trainer else conn[name].default
        return out

    def trainer_env_defaults(self):
        """PL_TRAINER_<ARG> variables of the current environment, parsed by Lightning's own helper. The helper
        reads only the variables of the Trainer's own keywords (it walks the Trainer's signature), so a removed
        flag (2.x PL_TRAINER_GPUS) is ignored; of those, only the connector's arguments matter here."""
        if self.kind == "fabric" or not any(k.startswith("PL_TRAINER_") for k in os.environ):
            return {}  # Fabric has no PL_TRAINER_* defaults (its connector reads LT_* itself)
        if self.major == "1.6":
            from pytorch_lightning.utilities.argparse import parse_env_variables
        else:
            from lightning.pytorch.utilities.argparse import _parse_env_variables as parse_env_variables
        return {k: v for k, v in vars(parse_env_variables(self.pl.Trainer)).items() if k in self.defaults}

    def _accelerator_names(self):
        if self.major == "1.6":
            from pytorch_lightning.accelerators.registry import AcceleratorRegistry
        elif self.kind == "fabric":
            from lightning.fabric.accelerators import ACCELERATOR_REGISTRY as AcceleratorRegistry
        else:
            from lightning.pytorch.accelerators import AcceleratorRegistry
        return {v["accelerator"]: k for k, v in AcceleratorRegistry.items()}

    def strategy_registry(self):
        if self.major == "1.6":
            from pytorch_lightning.strategies import StrategyRegistry
        elif self.kind == "fabric":
            from lightning.fabric.strategies import STRATEGY_REGISTRY as StrategyRegistry
        else:
            from lightning.pytorch.strategies import StrategyRegistry
        return StrategyRegistry

    def strategy_init_params(self, name):
        registry = self.strategy_registry()
        return dict(registry[name].get("init_params", {})) if name in registry else None

    def env_overrides(self):
        """The flag values the connector takes from the environment instead of the call's (Fabric: LT_<NAME>,
        read by _Connector._argument_from_env); used to name the values Lightning held in error fields."""
        if self.kind != "fabric":
            return {}
        return {n: os.environ["LT_" + n.upper()] for n in ("accelerator", "strategy", "devices", "num_nodes",
                                                           "precision") if "LT_" + n.upper() in os.environ}

    def after_connector(self):
        """What the call does after the connector that can still fail on the case's input. Fabric.__init__ reads
        `_is_using_cli()` (int(LT_CLI_USED)); when true it would go on with strategy.setup_environment(), which
        the oracle does not run (it starts processes)."""
        if self.kind == "fabric":
            self.fabric_module._is_using_cli()

    # ---------------------------------------------------------------- classes for instances in flags
    _CLASS_PACKAGES = {
        "1.6": ["pytorch_lightning.accelerators", "pytorch_lightning.strategies", "pytorch_lightning.plugins",
                "pytorch_lightning.plugins.precision", "pytorch_lightning.plugins.environments",
                "pytorch_lightning.plugins.io", "pytorch_lightning.plugins.layer_sync"],
        # Fabric: a class name is Fabric's when Fabric has a class of that name, else the Trainer's (LayerSync,
        # AsyncCheckpointIO, ...), so the 2.x list follows
        "fabric": ["lightning.fabric.accelerators", "lightning.fabric.strategies", "lightning.fabric.plugins",
                   "lightning.fabric.plugins.precision", "lightning.fabric.plugins.environments",
                   "lightning.fabric.plugins.io"],
        "2.x": ["lightning.pytorch.accelerators", "lightning.pytorch.strategies", "lightning.pytorch.plugins",
                "lightning.pytorch.plugins.precision", "lightning.pytorch.plugins.environments",
                "lightning.pytorch.plugins.io", "lightning.pytorch.plugins.layer_sync",
                "lightning.fabric.plugins.environments"],
    }

    def _find_classes(self):
        import importlib

        out = {}
        packages = self._CLASS_PACKAGES["fabric"] if self.kind == "fabric" else []
        for pkg in packages + self._CLASS_PACKAGES[self.major]:  # Fabric's classes first, then the Trainer's
            for name, obj in vars(importlib.import_module(pkg)).items():
                if inspect.isclass(obj) and not name.startswith("_") and obj.__module__.startswith(self.package):
                    out.setdefault(name, obj)
        layer_sync = out["LayerSync"]
        # CustomLayerSync: a user subclass of LayerSync (reference/tables/other_classes.def)
        out["CustomLayerSync"] = type("CustomLayerSync", (layer_sync,), {
            "apply": lambda self, model: model, "revert": lambda self, model: model})
        return out

    # ---------------------------------------------------------------- hardware patching
    _FLAGS_16 = {
        "_TPU_AVAILABLE": lambda: HW.tpu,
        "_XLA_AVAILABLE": lambda: "torch_xla" in HW.packages,
        "_IPU_AVAILABLE": lambda: HW.ipu,
        "_POPTORCH_AVAILABLE": lambda: "poptorch" in HW.packages,
        "_HPU_AVAILABLE": lambda: HW.hpu,
        "_HABANA_FRAMEWORK_AVAILABLE": lambda: "habana" in HW.packages,
        "_APEX_AVAILABLE": lambda: "apex" in HW.packages,
        "_DEEPSPEED_AVAILABLE": lambda: "deepspeed" in HW.packages,
        "_FAIRSCALE_AVAILABLE": lambda: "fairscale" in HW.packages,
        "_FAIRSCALE_OSS_FP16_BROADCAST_AVAILABLE": lambda: "fairscale" in HW.packages,
        "_FAIRSCALE_FULLY_SHARDED_AVAILABLE": lambda: "fairscale" in HW.packages,
        "_HOROVOD_AVAILABLE": lambda: "horovod" in HW.packages,
        "_BAGUA_AVAILABLE": lambda: "bagua" in HW.packages,
        "_IS_INTERACTIVE": lambda: HW.interactive,
    }
    _FLAGS_2X = {
        "_XLA_AVAILABLE": lambda: "torch_xla" in HW.packages,
        "_DEEPSPEED_AVAILABLE": lambda: "deepspeed" in HW.packages,
        "_IS_INTERACTIVE": lambda: HW.interactive,
    }

    def _find_sites(self):
        flags = self._FLAGS_16 if self.major == "1.6" else self._FLAGS_2X
        sites = []
        for m in self.modules:
            for name, fn in flags.items():
                if name not in vars(m):
                    continue
                orig = vars(m)[name]
                if not isinstance(orig, bool):  # 2.x RequirementCache: Lightning also prints it (`str(_XLA_AVAILABLE)`)
                    fn = (lambda f, req: lambda: _Requirement(f(), req))(fn, orig)
                sites.append((m, name, fn))
        return sites

    def _find_optional_globals(self):
        """(module, global name, package, module path) for every module-level guarded import of an optional package.
        The module path is None for a name the import bound to one of the 1.6 distributed stand-ins (it is kept
        and put back); the others get a _fake_module per case."""
        out = []
        for m in self.modules:
            path = getattr(m, "__file__", None)
            if not path or not path.endswith(".py"):
                continue
            with open(path, encoding="utf-8") as f:
                src = f.read()
            if not any(p in src for p in _PACKAGE_OF):
                continue
            for hit in _OPTIONAL_IMPORT.finditer(src):
                mod = hit.group("mod") or hit.group("frm")
                pkg = _PACKAGE_OF[mod.split(".")[0]]
                if hit.group("mod"):
                    names = [(hit.group("as1") or mod.split(".")[0], mod)]
                else:  # `from M import A, B as C`: binds A and C
                    names = [(n.split(" as ")[-1].strip(), mod + "." + n.split(" as ")[0].strip())
                             for n in hit.group("names").split(",") if n.strip()]
                for name, full in names:
                    if pkg in DISTRIBUTED_FAKES:
                        if name in vars(m):
                            self._kept_globals[(m.__name__, name)] = vars(m)[name]
                            out.append((m, name, pkg, None))
                    else:
                        out.append((m, name, pkg, full))
        return out

    def _patch_functions(self):
        torch = self.torch
        torch.cuda.device_count = lambda: HW.cuda
        torch.cuda.is_available = lambda: HW.cuda > 0
        torch.distributed.is_available = lambda: HW.dist
        torch.multiprocessing.get_all_start_methods = lambda: ["fork", "spawn", "forkserver"] if HW.fork else ["spawn"]
        if self.major == "1.6":
            from pytorch_lightning.tuner import auto_gpu_select
            from pytorch_lightning.utilities.xla_device import XLADeviceUtils

            XLADeviceUtils.tpu_device_exists = staticmethod(lambda: HW.tpu)
            XLADeviceUtils.xla_available = staticmethod(lambda: "torch_xla" in HW.packages)
            auto_gpu_select.torch = _GpuProbeTorch(torch)
        else:
            import lightning.fabric.accelerators.mps as fmps
            import lightning.fabric.accelerators.xla as fxla
            import lightning.pytorch.accelerators.xla as pxla

            for m in self.modules:  # `from ...cuda import num_cuda_devices` bound the name in many modules
                if "num_cuda_devices" in vars(m):
                    m.num_cuda_devices = lambda: HW.cuda
                if "is_cuda_available" in vars(m):
                    m.is_cuda_available = lambda: HW.cuda > 0
            fmps.MPSAccelerator.is_available = staticmethod(lambda: HW.mps)
            fmps._get_all_available_mps_gpus = lambda: [0] if HW.mps else []
            for cls in (fxla.XLAAccelerator, pxla.XLAAccelerator):
                cls.is_available = staticmethod(lambda: HW.tpu)
                cls.auto_device_count = staticmethod(lambda: HW.tpu_cores if HW.tpu else 0)

    def _fake_module(self, full):
        """A stand-in for an optional package module; torch_xla.core.xla_model is a FakeXM everywhere."""
        if not hasattr(self, "_fakes"):
            xla = mock.MagicMock(name="torch_xla")
            xla.core.xla_model = FakeXM()
            self._fakes = {"torch_xla": xla, "torch_xla.core": xla.core, "torch_xla.core.xla_model": xla.core.xla_model,
                           "torch_xla.experimental": xla.experimental}
        if full not in self._fakes:
            self._fakes[full] = mock.MagicMock(name=full)
        fake = self._fakes[full]
        if getattr(fake, "__spec__", None) is None:  # importlib.util.find_spec (torch's GradScaler) reads it
            import importlib.machinery

            fake.__spec__ = importlib.machinery.ModuleSpec(full, None)
        return fake

    def set_case(self, hw, interactive, env):
        """Put the process into the state of one case: hardware, environment, torch flags, rank."""
        HW.load(hw, interactive)
        for m, name, fn in self._flag_sites:
            setattr(m, name, fn())
        for m, name, pkg, full in self._optional_globals:
            if pkg in HW.packages:
                setattr(m, name, self._fake_module(full) if full else self._kept_globals[(m.__name__, name)])
            elif name in vars(m):
                delattr(m, name)
        if self.major == "2.x":
            for name in ("torch_xla", "torch_xla.core", "torch_xla.core.xla_model", "torch_xla.experimental"):
                if "torch_xla" in HW.packages:
                    sys.modules[name] = self._fake_module(name)
                else:
                    sys.modules.pop(name, None)
            # 2.2.5 imports deepspeed inside the methods that use it (DeepSpeedStrategy.__init__ sets its log level)
            if "deepspeed" in HW.packages:
                sys.modules["deepspeed"] = self._fake_module("deepspeed")
                sys.modules["deepspeed"].__version__ = DEEPSPEED_2X_VERSION
            else:
                sys.modules.pop("deepspeed", None)
        os.environ = RecordingEnviron({str(k): str(v) for k, v in env.items()})  # nothing of the real environment
        torch = self.torch
        torch.use_deterministic_algorithms(False)
        torch.backends.cudnn.deterministic = False
        torch.backends.cudnn.benchmark = bool(hw.get("cudnn_benchmark", False))
        self._set_rank()

    def end_case(self):
        os.environ = self._orig_environ

    def _set_rank(self):
        if self.major == "1.6":
            from pytorch_lightning.utilities.rank_zero import _get_rank
        else:
            from lightning.fabric.utilities.rank_zero import _get_rank
        try:
            rank = _get_rank() or 0
        except ValueError:
            rank = 0
        for fn in self._rank_fns:
            fn.rank = rank

    # ---------------------------------------------------------------- log capture
    def _install_log_handler(self):
        """All INFO records of Lightning's loggers go to self.log_records (nothing to stderr/stdout)."""
        self.log_records = []
        handler = _ListHandler(self)
        for i, name in enumerate(self.loggers):
            lg = logging.getLogger(name)
            lg.handlers = [handler] if i == 0 else []
            lg.propagate = i != 0
        logging.getLogger(self.loggers[0]).setLevel(logging.INFO)


class RecordingEnviron(dict):
    """os.environ replacement for one case; remembers which variables the connector wrote."""

    def __init__(self, base):
        super().__init__(base)
        self.written = set()

    def __setitem__(self, key, value):
        self.written.add(key)
        super().__setitem__(key, value)

    def setdefault(self, key, value=None):
        if key not in self:
            self[key] = value
        return self[key]

    def update(self, *a, **k):
        for key, value in dict(*a, **k).items():
            self[key] = value

    def copy(self):
        return dict(self)


class _ListHandler(logging.Handler):
    def __init__(self, owner):
        super().__init__(logging.INFO)
        self.owner = owner

    def emit(self, record):
        self.owner.log_records.append(record)


def load(major, root, connector="trainer"):
    global import_error
    try:
        return Oracle(major, root, connector)
    except Exception as e:  # noqa: BLE001 - reported by the caller
        import_error = f"{type(e).__name__}: {e}"
        return None
