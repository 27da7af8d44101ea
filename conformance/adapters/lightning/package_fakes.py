"""Stand-ins for the optional packages the Lightning oracle fakes (oracle.py): torch_xla's xla_model, the 1.6
distributed packages (deepspeed, fairscale, horovod, bagua), and the import of torch.distributed._shard that
Debian's torch 1.13 cannot do on Python 3.11 unaided."""
import os
import sys
import types
from unittest import mock


def import_torch_shard():
    """Debian's torch 1.13 declares a dataclass field with a mutable default (`tensor_properties:
    TensorProperties = field(default=TensorProperties())`), which Python 3.11 refuses, so
    `torch.distributed._shard` (and with it every FSDP class) cannot be imported. Import it once with such a
    default turned into a default_factory of a copy, as on the Python torch 1.13 was made for (each instance then
    gets its own copy instead of a shared one; nothing the connector reads)."""
    import copy
    import dataclasses

    orig = dataclasses._get_field

    def get_field(cls, name, *rest):
        try:
            return orig(cls, name, *rest)
        except ValueError as e:
            f = cls.__dict__.get(name)
            if "mutable default" not in str(e) or not isinstance(f, dataclasses.Field):
                raise
            f.default_factory, f.default = (lambda v=f.default: copy.copy(v)), dataclasses.MISSING
            return orig(cls, name, *rest)

    dataclasses._get_field = get_field
    try:
        import torch.distributed._shard.sharded_tensor  # noqa: F401
    except Exception:  # noqa: BLE001 - a torch without distributed: FSDP is then unknown, as before
        pass
    finally:
        dataclasses._get_field = orig


# 1.6: the distributed packages are importable stand-ins from the start (1.6.5 binds their names in `if
# _X_AVAILABLE:` blocks at import time); whether a case has one is the availability flags (_FLAGS_16), patched per
# case. The versions are those current when 1.6.5 was released (June 2022), so version gates take their newer branch.
DISTRIBUTED_FAKES = {"deepspeed": "0.6.5", "fairscale": "0.4.6", "horovod": "0.25.0", "bagua": "0.9.0"}
DEEPSPEED_2X_VERSION = "0.14.2"  # 2.x fakes deepspeed only, at the version current when 2.2.5 was released (May 2024)


class _FakeHorovod(types.ModuleType):
    """horovod.torch stand-in. Its sizes and ranks are what Horovod's controllers report: the variables mpirun
    (OMPI_COMM_WORLD_*) or horovodrun's gloo launcher (HOROVOD_*) set, else one process of rank 0 (a script run
    without a launcher)."""

    def __init__(self):
        super().__init__("horovod.torch")

    @staticmethod
    def _read(names, default):
        for n in names:
            if n in os.environ:
                return int(os.environ[n])
        return default

    def init(self):
        pass

    def size(self):
        return self._read(("OMPI_COMM_WORLD_SIZE", "HOROVOD_SIZE"), 1)

    def local_size(self):
        return self._read(("OMPI_COMM_WORLD_LOCAL_SIZE", "HOROVOD_LOCAL_SIZE"), 1)

    def rank(self):
        return self._read(("OMPI_COMM_WORLD_RANK", "HOROVOD_RANK"), 0)

    def local_rank(self):
        return self._read(("OMPI_COMM_WORLD_LOCAL_RANK", "HOROVOD_LOCAL_RANK"), 0)

    def __getattr__(self, name):
        return mock.MagicMock(name=f"hvd.{name}")


def install_distributed_fakes():
    import importlib.machinery

    for pkg, version in DISTRIBUTED_FAKES.items():
        top = mock.MagicMock(name=pkg)
        top.__version__ = version
        sys.modules[pkg] = top
    sys.modules["horovod.torch"] = sys.modules["horovod"].torch = _FakeHorovod()
    # `from a.b.c import X` needs each parent in sys.modules; find_spec (_module_available) needs __spec__
    for full in ("fairscale.nn", "fairscale.nn.data_parallel", "fairscale.nn.data_parallel.sharded_ddp", "fairscale.optim",
                 "fairscale.optim.grad_scaler", "deepspeed.utils", "deepspeed.utils.zero_to_fp32", "bagua.torch_api",
                 "bagua.torch_api.algorithms", "bagua.torch_api.algorithms.q_adam", "bagua.torch_api.communication",
                 "bagua.torch_api.data_parallel", "bagua.torch_api.data_parallel.distributed"):
        parent, _, leaf = full.rpartition(".")
        sys.modules[full] = getattr(sys.modules[parent], leaf)
    for name, m in list(sys.modules.items()):
        if name.split(".")[0] in DISTRIBUTED_FAKES:
            m.__spec__ = importlib.machinery.ModuleSpec(name, None)


class FakeXM(types.ModuleType):
    """torch_xla.core.xla_model stand-in: just enough for strategy constructors."""

    def __init__(self):
        super().__init__("torch_xla.core.xla_model")

    def xla_device(self, n=None, devkind=None):
        import torch

        return torch.device("xla", 0 if n is None else int(n))

    def xrt_world_size(self):  # before the processes are spawned a TPU host reports one process
        return 1

    def get_ordinal(self):
        return 0

    def get_local_ordinal(self):
        return 0

    def __getattr__(self, name):
        return mock.MagicMock(name=f"xm.{name}")
