"""A toy Lightning 2.2 accelerator connector in Python, for the plugin's own tests.

Hand-written for the accelerator auto-selection slice of the corpus (`^accelerator/l22-(auto-|cpu-explicit$|invalid-choice$)`):
- no flags: CPU, or one CUDA device, as Lightning 2.2 decides; several CUDA devices in a script: WRONG on purpose
  (it keeps a single device where Lightning builds DDP), so that case fails with a field-level difference;
  several CUDA devices in an interactive session: Skip (the function declines);
- flags {"accelerator": "cpu"}: CPU; any other flag: raises (the case is `errored`, with the traceback);
- it declares no `accelerator:tpu` and no `hardware:mps`, so the harness skips the TPU and MPS cases.
Expected on that slice (profile lightning-2.2): 5 passed, 1 failed, 1 errored, 9 skipped (8 by capability, 1 by Skip).
"""
from accord_conformance import Skip, implementation

CAPABILITIES = ["accelerator:cpu", "accelerator:gpu", "accelerator:cuda", "interactive", "flag:accelerator"]


# What every single-process plan of this slice shares: no cluster manager, no launcher, 32-bit precision.
_COMMON = {"num_nodes": 1, "num_processes": 1,
           "cluster_environment": {"class": "LightningEnvironment", "creates_processes_externally": False, "world_size": 1,
                                   "global_rank": 0, "local_rank": 0, "node_rank": 0},
           "launcher": {"kind": None, "start_method": None, "interactive_compatible": True},
           "precision": {"value": "32-true", "plugin": "Precision", "amp_backend": None, "amp_level": None, "device": None},
           "checkpoint_io": "TorchCheckpointIO", "layer_sync": None, "is_distributed": False}


def _cpu():
    return {"accelerator": "cpu", "accelerator_class": "CPUAccelerator", "devices": 1, "parallel_devices": ["cpu"],
            "strategy": {"name": "single_device", "class": "SingleDeviceStrategy", "family": "single_device", "root_device": "cpu"}, **_COMMON}


def _cuda(n):
    ids = list(range(n))
    return {"accelerator": "cuda", "accelerator_class": "CUDAAccelerator", "devices": ids,
            "parallel_devices": [f"cuda:{i}" for i in ids],
            "strategy": {"name": "single_device", "class": "SingleDeviceStrategy", "family": "single_device", "root_device": "cuda:0"},
            **_COMMON}


@implementation(name="toy", version="0.1", capabilities=CAPABILITIES, profiles=["lightning-2.2"])
def resolve(case, profile):
    flags = case.get("flags", {})
    hardware = case.get("hardware", {})
    if flags and flags != {"accelerator": "cpu"}:
        raise NotImplementedError(f"toy connector handles no flags but accelerator='cpu', got {sorted(flags)}")
    cuda = 0 if flags else int(hardware.get("cuda_devices", 0))
    if cuda > 1 and case.get("interactive"):
        raise Skip("toy connector does not model interactive multi-GPU sessions")
    plan = _cuda(cuda) if cuda else _cpu()  # cuda > 1 in a script: a single-device plan, wrong on purpose
    return {"status": "ok", "plan": plan, "diagnostics": []}


def resolve_case_only(case):
    """The one-argument form, for the protocol tests."""
    return resolve(case, "lightning-2.2")
