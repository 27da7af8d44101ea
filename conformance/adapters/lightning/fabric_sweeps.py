#!/usr/bin/python3
"""Write the fabric-2.2 sweep fixtures: systematic cases whose expectation is the REAL Lightning Fabric 2.2.5 connector.

    python3 conformance/adapters/lightning/fabric_sweeps.py [--check]

Each sweep below is a list of cases (slug, title, covers, given). The oracle (adapter.py's own code, --connector fabric)
answers every case; a case the oracle cannot run (a package it cannot fake, FSDP on this torch) is left out and listed.
The expectation is the oracle's outcome: the plan fields of a few groups, or the error code with its field values,
and the diagnostic codes (exactly). Files: fixtures/cases/<area>/fabric22-<sweep>.json, origin `lightning-2.2.5`.
`--check` writes nothing and exits 1 when a file would change.
"""
import argparse
import json
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import adapter as adapter_mod  # noqa: E402
import oracle as oracle_mod  # noqa: E402
from differential_fixtures import TRAINER_FLAG_TAGS, requires_of  # noqa: E402

REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CPU2 = {"accelerator": "cpu", "devices": 2}
CUDA2 = {"cuda_devices": 2}
TPU = {"tpu": True, "packages": ["torch_xla"]}
SLURM = {"SLURM_NTASKS": "2", "SLURM_NTASKS_PER_NODE": "2", "SLURM_PROCID": "1", "SLURM_LOCALID": "1", "SLURM_NODEID": "0",
         "SLURM_JOB_NAME": "train"}
ELASTIC = {"TORCHELASTIC_RUN_ID": "1", "RANK": "1", "LOCAL_RANK": "1", "WORLD_SIZE": "2", "GROUP_RANK": "0",
           "MASTER_ADDR": "a", "MASTER_PORT": "1"}
LSF = {"LSB_JOBID": "1", "LSB_DJOB_RANKFILE": "/nonexistent/rankfile", "JSM_NAMESPACE_LOCAL_RANK": "0",
       "JSM_NAMESPACE_SIZE": "2", "JSM_NAMESPACE_RANK": "0"}


def case(slug, title, covers, flags=None, env=None, hardware=None, interactive=False):
    given = {"flags": flags or {}}
    if env:
        given["env"] = env
    if hardware:
        given["hardware"] = hardware
    if interactive:
        given["interactive"] = True
    return slug, title, covers, given


def keywords():
    out = []
    for flag, value in (("sync_batchnorm", True), ("deterministic", True), ("benchmark", False),
                        ("use_distributed_sampler", False), ("gpus", 1), ("tpu_cores", 8), ("ipus", 1),
                        ("num_processes", 2), ("amp_backend", "native"), ("amp_level", "O2"), ("auto_select_gpus", True)):
        out.append(case(f"f22-keyword-{flag.replace('_', '-')}", f"Fabric({flag}={value!r}) is not a Fabric keyword",
                        ["validate.unexpected-keyword"], {flag: value, "accelerator": "cpu"}))
    return out


def lt_arguments():
    a, cli, used = "validate.fabric-arguments-from-env", "validate.fabric-cli-conflict", "realize.fabric-cli-used"
    out = [
        case("f22-lt-accelerator-cpu", "LT_ACCELERATOR=cpu on a CUDA machine", [a], {}, {"LT_ACCELERATOR": "cpu"}, CUDA2),
        case("f22-lt-accelerator-upper", "LT_ACCELERATOR=CPU is not lower-cased: an invalid name", [a], {}, {"LT_ACCELERATOR": "CPU"}),
        case("f22-lt-accelerator-gpu", "LT_ACCELERATOR=gpu picks CUDA", [a], {}, {"LT_ACCELERATOR": "gpu"}, CUDA2),
        case("f22-lt-strategy-upper", "LT_STRATEGY=DDP_SPAWN is lower-cased like any strategy string", [a],
             {"accelerator": "cpu", "devices": 2}, {"LT_STRATEGY": "DDP_SPAWN"}),
        case("f22-lt-strategy-dp", "LT_STRATEGY=dp with LT_ACCELERATOR=cpu: the dp fallback", [a, "select.strategy-dp-cpu-fallback"],
             {"devices": 2}, {"LT_STRATEGY": "dp", "LT_ACCELERATOR": "cpu"}),
        case("f22-lt-devices-2", "LT_DEVICES=2 is the string '2'", [a], {"accelerator": "cpu"}, {"LT_DEVICES": "2"}),
        case("f22-lt-devices-list", "LT_DEVICES='0,1' on two GPUs", [a], {"accelerator": "cuda"}, {"LT_DEVICES": "0,1"}, CUDA2),
        case("f22-lt-devices-zero", "LT_DEVICES='0'", [a], {"accelerator": "cpu"}, {"LT_DEVICES": "0"}),
        case("f22-lt-num-nodes-2", "LT_NUM_NODES=2 goes through int()", [a, "validate.fabric-num-nodes-int"], CPU2, {"LT_NUM_NODES": "2"}),
        case("f22-lt-num-nodes-space", "LT_NUM_NODES=' 3' (int() strips spaces)", [a], CPU2, {"LT_NUM_NODES": " 3"}),
        case("f22-lt-num-nodes-word", "LT_NUM_NODES=two is not an int", [a, "validate.fabric-num-nodes-int"], CPU2, {"LT_NUM_NODES": "two"}),
        case("f22-lt-num-nodes-float", "LT_NUM_NODES=2.5: int() of the string fails", [a], CPU2, {"LT_NUM_NODES": "2.5"}),
        case("f22-lt-num-nodes-zero", "LT_NUM_NODES=0", [a], CPU2, {"LT_NUM_NODES": "0"}),
        case("f22-lt-precision-16", "LT_PRECISION=16 is the alias '16'", [a], {"accelerator": "cpu"}, {"LT_PRECISION": "16"}),
        case("f22-lt-precision-bf16-mixed", "LT_PRECISION=bf16-mixed", [a], {"accelerator": "cpu"}, {"LT_PRECISION": "bf16-mixed"}),
        case("f22-lt-precision-64", "LT_PRECISION=64", [a], {"accelerator": "cpu"}, {"LT_PRECISION": "64"}),
        case("f22-lt-precision-bad", "LT_PRECISION=fp8 is invalid", [a], {"accelerator": "cpu"}, {"LT_PRECISION": "fp8"}),
    ]
    for flag, value, env in (("accelerator", "cpu", "cuda"), ("strategy", "ddp", "ddp_spawn"), ("devices", 2, "4"),
                             ("num_nodes", 2, "3"), ("precision", "bf16-mixed", "16-mixed")):
        flags = {flag: value}
        if flag != "accelerator":
            flags["accelerator"] = "cpu"
        var = "LT_" + flag.upper()
        out.append(case(f"f22-cli-conflict-{flag.replace('_', '-')}", f"LT_CLI_USED=1: {flag}={value!r} conflicts with {var}={env}",
                        [a, cli], flags, {var: env, "LT_CLI_USED": "1"}))
        out.append(case(f"f22-cli-unused-{flag.replace('_', '-')}", f"LT_CLI_USED=0: {var}={env} replaces {flag}={value!r}",
                        [a], flags, {var: env, "LT_CLI_USED": "0"}))
    out += [
        case("f22-cli-same-value", "LT_CLI_USED=1 and the same value in the flag and the variable: no conflict", [a],
             {"accelerator": "cpu", "devices": 2}, {"LT_DEVICES": "2", "LT_CLI_USED": "1"}),
        case("f22-cli-default-flag", "LT_CLI_USED=1 and the flag at its default ('auto'): the variable wins", [a],
             {"accelerator": "auto"}, {"LT_ACCELERATOR": "cpu", "LT_CLI_USED": "1"}, CUDA2),
        case("f22-cli-precision-int", "LT_CLI_USED=1, precision=16 and LT_PRECISION=16: str(16) == '16', no conflict", [a],
             {"accelerator": "cuda", "precision": 16}, {"LT_PRECISION": "16", "LT_CLI_USED": "1"}, CUDA2),
        case("f22-cli-used-unreadable-conflict", "LT_CLI_USED=yes with a conflicting flag: int() fails in the connector",
             [a], {"accelerator": "cpu"}, {"LT_ACCELERATOR": "cuda", "LT_CLI_USED": "yes"}),
        case("f22-cli-used-empty", "LT_CLI_USED='' without any LT_* argument: Fabric.__init__ fails reading it", [used],
             {"accelerator": "cpu"}, {"LT_CLI_USED": ""}),
        case("f22-cli-used-spaces", "LT_CLI_USED=' 1 ' reads as 1", [used], {"accelerator": "cpu"}, {"LT_CLI_USED": " 1 "}),
        case("f22-cli-used-zero", "LT_CLI_USED=0", [used], {"accelerator": "cpu"}, {"LT_CLI_USED": "0"}),
        case("f22-pl-trainer-ignored", "PL_TRAINER_* variables do not apply to Fabric", [], {},
             {"PL_TRAINER_ACCELERATOR": "cuda", "PL_TRAINER_DEVICES": "4"}),
    ]
    return out


def num_nodes():
    out = []
    for slug, v in (("2", 2), ("0", 0), ("minus-1", -1), ("str-2", "2"), ("str-0", "0"), ("float-2", 2.0), ("float-2-7", 2.7),
                    ("true", True), ("false", False), ("word", "abc"), ("str-float", "1.5"), ("str-space", " 3"),
                    ("none", None), ("list", [1]), ("empty", ""), ("million", 10 ** 6), ("underscore", "1_0")):
        out.append(case(f"f22-num-nodes-{slug}", f"num_nodes={v!r} goes through int() first", ["validate.fabric-num-nodes-int"],
                        {"num_nodes": v, "accelerator": "cpu", "devices": 2}))
    return out


def registry():
    out = []
    for name in ("ddp", "ddp_spawn", "ddp_fork", "ddp_notebook", "dp", "DP", "Ddp_Notebook"):
        out.append(case(f"f22-registry-{name.lower().replace('_', '-')}-cpu{'-upper' if name != name.lower() else ''}",
                        f"strategy={name!r} on two CPUs", ["select.strategy-registry"], {"strategy": name, **CPU2}))
        out.append(case(f"f22-registry-{name.lower().replace('_', '-')}-cuda{'-upper' if name != name.lower() else ''}",
                        f"strategy={name!r} on two GPUs", ["select.strategy-registry"], {"strategy": name}, hardware=CUDA2))
    for name in ("xla", "single_xla", "xla_fsdp", "single_tpu", "fsdp"):
        out.append(case(f"f22-registry-{name.replace('_', '-')}-tpu", f"strategy={name!r} on a TPU machine with torch_xla",
                        ["select.strategy-registry"], {"strategy": name}, hardware=TPU))
    for name in ("ddp_find_unused_parameters_false", "xla_debug", "single_device", "bagua", "colossalai", "horovod",
                 "deepspeed_stage_1_offload_x"):
        out.append(case(f"f22-registry-unknown-{name.replace('_', '-')}", f"strategy={name!r} on two CPUs: not in Fabric's registry",
                        ["validate.strategy-registered"], {"strategy": name, **CPU2}))
    out += [
        case("f22-fsdp-tpu-instance-accelerator", "strategy='fsdp' with an XLAAccelerator instance: no xla_fsdp fallback",
             ["select.strategy-fsdp-needs-gpu"], {"strategy": "fsdp", "accelerator": "XLAAccelerator"}, hardware=TPU),
        case("f22-fsdp-cpu-offload-cpu", "strategy='fsdp_cpu_offload' (in Fabric's registry) on two CPUs: FSDP needs a GPU",
             ["select.strategy-fsdp-needs-gpu"], {"strategy": "fsdp_cpu_offload", **CPU2}),
        case("f22-fsdp-cpu-offload-tpu", "strategy='fsdp_cpu_offload' on TPU: not rerouted to xla_fsdp",
             ["select.strategy-fsdp-needs-gpu"], {"strategy": "fsdp_cpu_offload"}, hardware=TPU),
        case("f22-dp-cpu-one-device", "strategy='dp' on one CPU becomes ddp", ["select.strategy-dp-cpu-fallback"],
             {"strategy": "dp", "accelerator": "cpu", "devices": 1}),
        case("f22-dp-cpu-rank-1", "strategy='dp' on CPU on rank 1: the fallback warning is rank-zero only",
             ["realize.rank-zero-only"], {"strategy": "dp", **CPU2}, {"RANK": "1"}),
        case("f22-dp-cpu-instance", "accelerator=CPUAccelerator() with strategy='dp': the fallback needs the name 'cpu'", [],
             {"strategy": "dp", "accelerator": "CPUAccelerator", "devices": 2}),
        case("f22-mps-dp", "strategy='dp' with MPS available: a DDP-family name", ["validate.mps-ddp-family"],
             {"strategy": "dp"}, hardware={"mps": True}),
        case("f22-mps-xla-fsdp", "strategy='xla_fsdp' with MPS available: contains 'dp'", ["validate.mps-ddp-family"],
             {"strategy": "xla_fsdp"}, hardware={"mps": True}),
        case("f22-mps-deepspeed", "strategy='deepspeed' with MPS available", ["validate.mps-ddp-family"],
             {"strategy": "deepspeed"}, hardware={"mps": True}),
    ]
    return out


def instances():
    return [
        case("f22-instance-ddp-precision", "DDPStrategy(precision=DoublePrecision()) on two CPUs",
             [], {"strategy": {"class": "DDPStrategy", "args": {"precision": "DoublePrecision"}}, **CPU2}),
        case("f22-instance-ddp-precision-plugin-swallowed", "DDPStrategy(precision_plugin=...) goes to DDP's **kwargs",
             [], {"strategy": {"class": "DDPStrategy", "args": {"precision_plugin": "DoublePrecision"}}, **CPU2}),
        case("f22-instance-dp-precision-plugin", "DataParallelStrategy(precision_plugin=...) is a TypeError",
             ["validate.instance-arguments"], {"strategy": {"class": "DataParallelStrategy", "args": {"precision_plugin": "DoublePrecision"}}}),
        case("f22-instance-ddp-precision-twice", "DDPStrategy(precision=...) and a precision plugin",
             ["validate.strategy-instance-precision"],
             {"strategy": {"class": "DDPStrategy", "args": {"precision": "Precision"}}, "plugins": ["DoublePrecision"], **CPU2}),
        case("f22-instance-ddp-accelerator-twice", "DDPStrategy(accelerator=CPUAccelerator()) and accelerator='cpu'",
             ["validate.strategy-instance-accelerator"],
             {"strategy": {"class": "DDPStrategy", "args": {"accelerator": "CPUAccelerator"}}, "accelerator": "cpu"}),
        case("f22-instance-ddp-accelerator", "DDPStrategy(accelerator=CUDAAccelerator()) on two GPUs",
             [],
             {"strategy": {"class": "DDPStrategy", "args": {"accelerator": "CUDAAccelerator"}}}, hardware=CUDA2),
        case("f22-instance-ddp-checkpoint-io-twice", "DDPStrategy(checkpoint_io=...) and a CheckpointIO plugin",
             ["validate.strategy-instance-checkpoint-io"],
             {"strategy": {"class": "DDPStrategy", "args": {"checkpoint_io": "TorchCheckpointIO"}}, "plugins": ["TorchCheckpointIO"]}),
        case("f22-instance-ddp-checkpoint-io", "DDPStrategy(checkpoint_io=TorchCheckpointIO())",
             [],
             {"strategy": {"class": "DDPStrategy", "args": {"checkpoint_io": "TorchCheckpointIO"}}, **CPU2}),
        case("f22-instance-ddp-cluster-env-twice", "DDPStrategy(cluster_environment=...) and a ClusterEnvironment plugin",
             ["validate.strategy-instance-cluster-env"],
             {"strategy": {"class": "DDPStrategy", "args": {"cluster_environment": "LightningEnvironment"}},
              "plugins": ["TorchElasticEnvironment"]}),
        case("f22-instance-ddp-cluster-env", "DDPStrategy(cluster_environment=LightningEnvironment()) under SLURM",
             [],
             {"strategy": {"class": "DDPStrategy", "args": {"cluster_environment": "LightningEnvironment"}}, **CPU2}, SLURM),
        case("f22-instance-ddp-parallel-devices", "DDPStrategy(parallel_devices=[cuda:0, cuda:1])",
             ["select.parallel-devices-from-strategy"],
             {"strategy": {"class": "DDPStrategy", "args": {"parallel_devices": ["cuda:0", "cuda:1"]}}}, hardware=CUDA2),
        case("f22-instance-dp-cuda", "DataParallelStrategy() on two GPUs: one process over both", [],
             {"strategy": "DataParallelStrategy"}, hardware=CUDA2),
        case("f22-instance-single-device-cuda-1", "SingleDeviceStrategy(device='cuda:1')", [],
             {"strategy": {"class": "SingleDeviceStrategy", "args": {"device": "cuda:1"}}}, hardware=CUDA2),
        case("f22-instance-xla-fsdp", "XLAFSDPStrategy() on a TPU", [], {"strategy": "XLAFSDPStrategy"}, hardware=TPU),
        case("f22-instance-xla-fsdp-precision", "XLAFSDPStrategy() with a Precision plugin: its setter wants XLAPrecision",
             ["realize.strategy-plugin-class"], {"strategy": "XLAFSDPStrategy", "plugins": ["Precision"]}, hardware=TPU),
        case("f22-instance-xla-checkpoint-io", "XLAStrategy() with TorchCheckpointIO: its setter wants XLACheckpointIO",
             ["realize.strategy-plugin-class"], {"strategy": "XLAStrategy", "plugins": ["TorchCheckpointIO"]}, hardware=TPU),
        case("f22-instance-ddp-on-tpu", "accelerator='tpu' with DDPStrategy(): XLA needs an XLA strategy",
             ["realize.accelerator-strategy-exclusive"], {"accelerator": "tpu", "strategy": "DDPStrategy"}, hardware=TPU),
    ]


def plugin_kinds():
    out = []
    for p in ("TorchSyncBatchNorm", "CustomLayerSync", "AsyncCheckpointIO", "TorchCheckpointIO", "LightningEnvironment",
              "KubeflowEnvironment", "TorchElasticEnvironment", "SLURMEnvironment", "MixedPrecision", "HalfPrecision",
              "DoublePrecision", "Precision", "foo", 5, "DDPStrategy", "CPUAccelerator"):
        slug = str(p).lower()
        kind = ["validate.plugin-kind"] if p in NOT_FABRIC_PLUGINS else []  # the rule is the rejection
        out.append(case(f"f22-plugin-{slug}", f"plugins=[{p!r}] on two CPUs", kind,
                        {"plugins": [p], **CPU2}))
    out.append(case("f22-plugin-single", "plugins=DoublePrecision() (not a list)", ["validate.plugins-wrap"],
                    {"plugins": "DoublePrecision", **CPU2}))
    return out


NOT_FABRIC_PLUGINS = ("TorchSyncBatchNorm", "CustomLayerSync", "foo", 5, "DDPStrategy", "CPUAccelerator")


def cluster():
    return [
        case("f22-env-torchelastic-cuda", "TorchElastic on two GPUs, local rank 1", ["select.devices-gpu-torchelastic"],
             {"accelerator": "cuda", "devices": [0, 1], "strategy": "ddp"}, ELASTIC, {"cuda_devices": 1}),
        case("f22-env-torchelastic-cpu", "TorchElastic on CPU", ["select.cluster-env-torchelastic"], CPU2, ELASTIC),
        case("f22-env-slurm", "SLURM with --ntasks-per-node", ["select.cluster-env-slurm-detect"], CPU2, SLURM),
        case("f22-env-slurm-bash", "SLURM job name bash: not detected", ["select.cluster-env-lightning"], CPU2,
             dict(SLURM, SLURM_JOB_NAME="bash")),
        case("f22-env-slurm-ntasks", "SLURM --ntasks=2 without --ntasks-per-node", ["select.cluster-env-slurm-detect"], CPU2,
             {k: v for k, v in SLURM.items() if k != "SLURM_NTASKS_PER_NODE"}),
        case("f22-env-elastic-over-slurm", "TorchElastic inside SLURM: TorchElastic wins", ["select.cluster-env-torchelastic"],
             CPU2, dict(SLURM, **ELASTIC)),
        case("f22-env-lsf", "LSF detected: its rank file cannot be read", ["select.cluster-env-lsf"], CPU2, LSF),
        case("f22-env-kubeflow", "Kubeflow variables: not detected (LightningEnvironment)", ["select.cluster-env-lightning"],
             CPU2, {"KUBERNETES_PORT": "tcp://1", "MASTER_ADDR": "a", "MASTER_PORT": "1", "WORLD_SIZE": "2", "RANK": "1"}),
        case("f22-env-ompi-without-mpi4py", "Open MPI variables without mpi4py: LightningEnvironment", ["select.cluster-env-lightning"],
             CPU2, {"OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_RANK": "1"}),
        case("f22-env-lightning-local-rank", "LOCAL_RANK=1 with LightningEnvironment: it creates processes externally",
             ["select.cluster-env-lightning"], {"strategy": "ddp", **CPU2}, {"LOCAL_RANK": "1", "NODE_RANK": "0"}),
        case("f22-env-num-nodes-2", "two nodes, NODE_RANK=1", ["select.strategy-default-multi-node"],
             {"accelerator": "cpu", "devices": 2, "num_nodes": 2}, {"NODE_RANK": "1"}),
        case("f22-env-xla-plugin-cpu", "XLAEnvironment given on CPU with torch_xla", ["select.cluster-env-explicit"],
             {"plugins": ["XLAEnvironment"], **CPU2}, hardware={"packages": ["torch_xla"]}),
    ]


def precision():
    out = []
    for slug, v in (("16", 16), ("str-16", "16"), ("32", 32), ("64", 64), ("bf16", "bf16"), ("16-mixed", "16-mixed"),
                    ("bf16-mixed", "bf16-mixed"), ("16-true", "16-true"), ("bf16-true", "bf16-true"), ("32-true", "32-true"),
                    ("64-true", "64-true"), ("mixed", "mixed"), ("float-16", 16.0), ("true", True), ("te", "transformer-engine")):
        out.append(case(f"f22-precision-{slug}-cpu", f"precision={v!r} on CPU", ["validate.precision-convert"],
                        {"precision": v, "accelerator": "cpu"}))
        if slug in ("16", "bf16", "16-mixed", "bf16-true", "float-16"):
            out.append(case(f"f22-precision-{slug}-cuda", f"precision={v!r} on a GPU", ["validate.precision-convert"],
                            {"precision": v, "accelerator": "cuda", "devices": 1}, hardware={"cuda_devices": 1}))
    for v in ("16-mixed", "32-true", "bf16-true", "64-true"):
        out.append(case(f"f22-precision-xla-{v}", f"precision={v!r} on a TPU (XLAPrecision)", ["select.precision-xla"],
                        {"precision": v, "devices": 1}, hardware=TPU))
    return out


def devices():
    out = []
    for slug, v in (("2", 2), ("str-2", "2"), ("minus-1", -1), ("list-0", [0]), ("str-0-comma", "0,"), ("float", 1.5),
                    ("word", "abc"), ("true", True), ("auto", "auto")):
        out.append(case(f"f22-devices-cpu-{slug}", f"devices={v!r} on CPU", ["select.devices-parse-cpu"],
                        {"accelerator": "cpu", "devices": v}))
    for slug, v in (("minus-1", -1), ("list", [0, 1]), ("str-list", "0,1"), ("dup", [0, 0]), ("missing", [5]),
                    ("str-empty-list", "[]"), ("str-space-0", " 0"), ("minus-2", -2), ("3", 3)):
        out.append(case(f"f22-devices-cuda-{slug}", f"devices={v!r} on two GPUs", ["select.devices-parse-gpu"],
                        {"accelerator": "cuda", "devices": v}, hardware=CUDA2))
    for slug, v in (("1", 1), ("8", 8), ("list-1", [1]), ("2", 2)):
        out.append(case(f"f22-devices-tpu-{slug}", f"devices={v!r} on a TPU", ["select.devices-parse-xla"],
                        {"accelerator": "tpu", "devices": v}, hardware=TPU))
    for slug, v in (("1", 1), ("2", 2), ("minus-1", -1)):
        out.append(case(f"f22-devices-mps-{slug}", f"devices={v!r} on MPS", ["select.devices-parse-mps"],
                        {"accelerator": "mps", "devices": v}, hardware={"mps": True}))
    return out


def accelerators():
    out = []
    hws = {"cpu": None, "cuda2": CUDA2, "mps": {"mps": True}, "tpu": TPU}
    for name in ("auto", "cpu", "cuda", "gpu", "mps", "tpu", "GPU", "foo", None, "CPUAccelerator", "CUDAAccelerator",
                 "MPSAccelerator", "XLAAccelerator"):
        for hw in ("cpu", "cuda2") if name not in ("mps", "tpu", "MPSAccelerator", "XLAAccelerator") else ("cpu", name.lower()[:3]):
            hw = {"xla": "tpu", "mps": "mps", "tpu": "tpu"}.get(hw, hw)
            spelled = str(name) if str(name).islower() else "upper-" + str(name).lower()  # 'GPU' beside 'gpu'
            slug = f"f22-accelerator-{spelled}-{hw}"
            named = [] if str(name).endswith("Accelerator") else ["validate.accelerator-name"]  # instances are built first
            out.append(case(slug, f"accelerator={name!r} on a {hw} machine", named,
                            {"accelerator": name}, hardware=hws[hw]))
    return out


def interactive():
    out = []
    for name in ("ddp", "ddp_spawn", "ddp_fork", "ddp_notebook", "dp"):
        out.append(case(f"f22-interactive-{name.replace('_', '-')}-cuda", f"interactive, strategy={name!r} on two GPUs",
                        ["realize.interactive-check"] if name != "dp" else [], {"strategy": name}, hardware=CUDA2, interactive=True))
    out += [
        case("f22-interactive-default-cuda4", "interactive, defaults on four GPUs: one GPU", ["select.devices-auto-interactive"],
             {}, hardware={"cuda_devices": 4}, interactive=True),
        case("f22-interactive-devices-2-cuda", "interactive, devices=2 on two GPUs: ddp_fork", ["select.strategy-default-ddp-fork"],
             {"devices": 2}, hardware=CUDA2, interactive=True),
        case("f22-interactive-xla", "interactive on a TPU (XLA launcher)", [], {"devices": 8}, hardware=TPU, interactive=True),
        case("f22-interactive-xla-no-fork", "interactive on a TPU without fork: Fabric's XLA launcher does not check it", [],
             {"devices": 8}, hardware=dict(TPU, fork=False), interactive=True),
        case("f22-interactive-dp-cpu", "interactive, strategy='dp' on CPU: ddp, not interactive-compatible", [],
             {"strategy": "dp", **CPU2}, interactive=True),
    ]
    return out


# (area, file topic, description, cases)
SWEEPS = [
    ("flags", "keywords", "Fabric.__init__'s keywords: every Trainer-only flag is a TypeError", keywords),
    ("flags", "lt-arguments", "LT_* arguments, LT_CLI_USED conflicts and Fabric.__init__'s own read of LT_CLI_USED", lt_arguments),
    ("num-nodes", "values", "num_nodes values through int()", num_nodes),
    ("strategy", "registry", "Fabric's strategy registry and its fallbacks", registry),
    ("strategy", "instances", "strategy instances with Fabric's constructor arguments", instances),
    ("plugins", "kinds", "the plugin kinds Fabric takes and rejects", plugin_kinds),
    ("cluster", "environments", "cluster environment detection", cluster),
    ("precision", "spellings", "precision spellings and the plugins they select", precision),
    ("devices", "values", "device flags per accelerator", devices),
    ("accelerator", "names", "accelerator names and instances per machine", accelerators),
    ("interactive", "strategies", "interactive sessions", interactive),
]
# fields whose value is a phrase of the message (lists of choices, advice), compared by presence only, as in the
# lightning-2.2 sweeps
PROSE_FIELDS = ("allowed", "other", "compatible", "advice")
PLAN_KEYS = ("accelerator", "accelerator_class", "devices", "parallel_devices", "num_nodes", "num_processes", "checkpoint_io")


def expectation(out):
    codes = sorted({d["code"] for d in out["diagnostics"]})
    if out["status"] == "error":
        values = {k: v for k, v in out["error"]["fields"].items() if k not in PROSE_FIELDS}
        exp = {"error": {"code": out["error"]["code"], "fields": sorted(out["error"]["fields"])}}
        if values:
            exp["error"]["field_values"] = values
    else:
        p = out["plan"]
        plan = {k: p[k] for k in PLAN_KEYS}
        plan["strategy"] = {k: v for k, v in p["strategy"].items()}
        plan["launcher"] = {k: p["launcher"][k] for k in ("kind", "class", "start_method")}
        plan["precision"] = {k: p["precision"][k] for k in ("plugin", "value", "device")}
        plan["cluster_environment"] = {k: v for k, v in p["cluster_environment"].items() if v is not None}
        exp = {"plan": plan}
    exp["diagnostics"] = codes
    exp["diagnostics_exact"] = True
    return exp


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.environ.get("ACCORD_LIGHTNING_ROOT") or None,
                    help="a folder made by setup_oracle.sh (default: $ACCORD_LIGHTNING_ROOT, else the Lightning this Python imports)")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file would change")
    args = ap.parse_args()
    real_stdout, sys.stdout = sys.stdout, sys.stderr  # anything Lightning prints stays out of the report
    ora = oracle_mod.load("2.x", args.root, "fabric")
    if ora is None:
        sys.exit(f"cannot import Lightning 2.2.5: {oracle_mod.import_error}")
    adapter = adapter_mod.Adapter(ora)
    stale, total = [], 0
    for area, topic, description, make in SWEEPS:
        cases, left_out = [], []
        for slug, title, covers, given in make():
            reply = adapter.resolve(given)
            if "outcome" not in reply or any(d["code"].endswith("_unmapped") for d in reply["outcome"].get("diagnostics", [])) \
                    or reply["outcome"].get("error", {}).get("code", "").endswith("_unmapped"):
                left_out.append(f"{slug}: {reply.get('skipped') or reply.get('errored') or 'unmapped message'}")
                continue
            out = reply["outcome"]
            # a Trainer-only flag is an unexpected keyword here, which any Fabric implementation answers: no flag tag
            requires = [t for t in requires_of(given, out) if t not in TRAINER_FLAG_TAGS]
            fx = {"id": f"{area}/{slug}", "title": title, "covers": covers, "requires": requires,
                  "profiles": ["fabric-2.2"], "origin": "lightning-2.2.5", "given": given, "expect": expectation(out)}
            if not fx["covers"]:
                del fx["covers"]
            if not fx["requires"]:
                del fx["requires"]
            cases.append(fx)
        doc = {"description": f"fabric-2.2 sweep, {description}: the expectation of each case is the real Lightning Fabric "
                              f"2.2.5 connector's answer (conformance/adapters/lightning/fabric_sweeps.py).", "cases": cases}
        text = json.dumps(doc, indent=2) + "\n"
        path = os.path.join(REPO, "fixtures", "cases", area, f"fabric22-{topic}.json")
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old != text:
            stale.append(os.path.relpath(path, REPO))
            if not args.check:
                open(path, "w", encoding="utf-8").write(text)
        total += len(cases)
        print(f"{os.path.relpath(path, REPO)}: {len(cases)} cases" + (f"; left out {len(left_out)}" if left_out else ""),
              file=real_stdout)
        for line in left_out:
            print(f"  left out {line}", file=real_stdout)
    print(f"{total} cases" + (f"; {'stale' if args.check else 'written'}: {', '.join(stale)}" if stale else "; unchanged"),
          file=real_stdout)
    sys.exit(1 if args.check and stale else 0)


if __name__ == "__main__":
    main()
