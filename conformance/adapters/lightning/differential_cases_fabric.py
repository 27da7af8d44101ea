"""The Fabric vocabulary of differential.py (`--vocab fabric`, implied by `--connector fabric`): inputs of
Lightning Fabric 2.2.5's connector (`Fabric(...)` keywords), grids and random samples.

The flags are Fabric's keywords (accelerator, strategy, devices, num_nodes, precision, plugins; callbacks and
loggers are accepted and unused), plus now and then a Trainer keyword Fabric does not take (sync_batchnorm,
deterministic, ...: `Fabric.__init__() got an unexpected keyword argument`). Strategy names are Fabric's
STRATEGY_REGISTRY names (19 in 2.2.5), a few names only the Trainer registers, odd case and wrong types. The
environment adds Fabric's CLI variables (LT_ACCELERATOR, LT_STRATEGY, LT_DEVICES, LT_NUM_NODES, LT_PRECISION,
LT_CLI_USED) to the cluster environments of the 2.x vocabulary. Values shared with the Trainer come from
differential_cases_2x.py.
"""
import itertools
import random

import differential_cases_2x as v2
from differential_cases import ABSENT, case, slurm

# ---------------------------------------------------------------------------------------------------- vocabularies
STRATEGY_NAMES = [  # the 19 names of lightning.fabric.strategies.STRATEGY_REGISTRY (2.2.5, torch.distributed present)
    "ddp", "ddp_spawn", "ddp_fork", "ddp_notebook", "dp", "deepspeed", "deepspeed_stage_1", "deepspeed_stage_1_offload",
    "deepspeed_stage_2", "deepspeed_stage_2_offload", "deepspeed_stage_3", "deepspeed_stage_3_offload",
    "deepspeed_stage_3_offload_nvme", "fsdp", "fsdp_cpu_offload", "single_xla", "xla_fsdp", "xla", "single_tpu",
]
STRATEGY_VARIANTS = ["auto", "AUTO", "DDP", "Ddp_Spawn", "DP", "FSDP", "DeepSpeed", "XLA", "Xla_Fsdp", None]
# names only the Trainer registers (or registered by nobody in 2.2.5), and wrong types
OTHER_STRATEGIES = ["single_device", "ddp_find_unused_parameters_true", "ddp_spawn_find_unused_parameters_false",
                    "xla_debug", "ddp2", "ddp_sharded", "horovod", "tpu_spawn", "hpu_parallel", "unknown", "", 5]
STRATEGY_INSTANCES = [
    "DDPStrategy",
    {"class": "DDPStrategy", "args": {"start_method": "popen"}},
    {"class": "DDPStrategy", "args": {"start_method": "spawn"}},
    {"class": "DDPStrategy", "args": {"start_method": "fork"}},
    "DataParallelStrategy",
    {"class": "SingleDeviceStrategy", "args": {"device": "cpu"}},
    {"class": "SingleDeviceStrategy", "args": {"device": "cuda:0"}},
    {"class": "SingleDeviceStrategy", "args": {"device": "mps"}},
    "XLAStrategy",
    "XLAFSDPStrategy",
    {"class": "SingleDeviceXLAStrategy", "args": {"device": 0}},
    "DeepSpeedStrategy",
    "FSDPStrategy",
    {"class": "DDPStrategy", "args": {"find_unused_parameters": True}},  # DDP's **kwargs (torch DDP arguments)
    {"class": "DDPStrategy", "args": {"accelerator": "CPUAccelerator"}},
    {"class": "DDPStrategy", "args": {"parallel_devices": ["cpu", "cpu"]}},
    {"class": "DDPStrategy", "args": {"parallel_devices": ["cuda:0", "cuda:1"]}},
    {"class": "DDPStrategy", "args": {"cluster_environment": "LightningEnvironment"}},
    {"class": "DDPStrategy", "args": {"precision": "DoublePrecision"}},  # Fabric's spelling
    {"class": "DDPStrategy", "args": {"precision_plugin": "DoublePrecision"}},  # the Trainer's: into DDP's **kwargs
    {"class": "DataParallelStrategy", "args": {"precision_plugin": "DoublePrecision"}},  # no **kwargs: TypeError
    {"class": "DDPStrategy", "args": {"checkpoint_io": "TorchCheckpointIO", "start_method": "spawn"}},
    {"class": "XLAStrategy", "args": {"precision": "Precision"}},
    # the shapes a second, independent generator found differences with: bare single-device classes (their device),
    # an instance in a non-component argument, a strategy accelerator instance beside its parallel devices
    "SingleDeviceStrategy", "SingleDeviceXLAStrategy",
    {"class": "DDPStrategy", "args": {"start_method": "spawn", "precision": "MixedPrecision"}},
    {"class": "DDPStrategy", "args": {"accelerator": "CPUAccelerator", "parallel_devices": ["cpu", "cpu", "cpu"]}},
    {"class": "XLAStrategy", "args": {"sync_module_states": False}},
]
ACCELERATORS = [None, "auto", "cpu", "cuda", "gpu", "mps", "tpu", "GPU", "Cpu", "foo", "ipu", "hpu", "ddp", 5,
                "CPUAccelerator", "CUDAAccelerator", "MPSAccelerator", "XLAAccelerator"]
DEVICES = v2.DEVICES + [[0, 1, 2, 3, 4, 5, 6, 7], "0,", 1.5]
NUM_NODES = [ABSENT, 1, 2, 0, -1, "2", "0", 2.0, 2.5, True, False, "abc", "1.5", " 3", None, [1], "", 10 ** 6]
HARDWARE = dict(v2.HARDWARE, **{
    "tpu1": {"tpu_cores": 1},
    "tpu-cuda4": {"tpu": True, "cuda_devices": 4},
    "mps-cuda2": {"mps": True, "cuda_devices": 2},
    "mps-nofork": {"mps": True, "fork": False},
})
PRECISIONS = v2.PRECISIONS + [True, 12, "32-mixed", "BF16", " 16"]
# LT_* variables: the values Fabric's CLI (`lightning run model`) exports; LT_CLI_USED=1 makes a differing flag an error
LT_ENVS = {
    "lt-acc-cpu": {"LT_ACCELERATOR": "cpu"},
    "lt-acc-cuda": {"LT_ACCELERATOR": "cuda"},
    "lt-cli-acc-cpu": {"LT_ACCELERATOR": "cpu", "LT_CLI_USED": "1"},
    "lt-cli-acc-gpu": {"LT_ACCELERATOR": "gpu", "LT_CLI_USED": "1"},
    "lt-cli-strategy": {"LT_STRATEGY": "ddp", "LT_CLI_USED": "1"},
    "lt-strategy-upper": {"LT_STRATEGY": "DDP_Spawn"},
    "lt-cli-devices": {"LT_DEVICES": "2", "LT_CLI_USED": "1"},
    "lt-devices-list": {"LT_DEVICES": "0,1"},
    "lt-devices-zero": {"LT_DEVICES": "0"},
    "lt-cli-nodes": {"LT_NUM_NODES": "3", "LT_CLI_USED": "1"},
    "lt-nodes-bad": {"LT_NUM_NODES": "abc"},
    "lt-nodes-zero": {"LT_NUM_NODES": "0"},
    "lt-cli-precision": {"LT_PRECISION": "16-mixed", "LT_CLI_USED": "1"},
    "lt-precision-alias": {"LT_PRECISION": "16"},
    "lt-precision-bad": {"LT_PRECISION": "fp8"},
    "lt-cli-off": {"LT_ACCELERATOR": "cpu", "LT_DEVICES": "2", "LT_CLI_USED": "0"},
    "lt-cli-bad": {"LT_DEVICES": "2", "LT_CLI_USED": "yes"},
    "lt-cli-only-bad": {"LT_CLI_USED": "true"},
    "lt-cli-empty": {"LT_CLI_USED": ""},
    "lt-all": {"LT_ACCELERATOR": "cpu", "LT_STRATEGY": "ddp", "LT_DEVICES": "2", "LT_NUM_NODES": "2",
               "LT_PRECISION": "bf16-mixed", "LT_CLI_USED": "1"},
}
CLUSTER_ENVS = {k: v for k, v in v2.ENVS.items() if not k.startswith("pl-trainer")}
CLUSTER_ENVS.update({
    "slurm-fabric-test": slurm(2, SLURM_NTASKS_PER_NODE="1", SLURM_JOB_NAME="SOME_NAME", LOCAL_RANK="0"),
    "ompi": {"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_LOCAL_RANK": "1"},
    "pmi": {"PMI_RANK": "0", "PMI_SIZE": "2"},
    "torchelastic+slurm": dict(slurm(2), TORCHELASTIC_RUN_ID="1", WORLD_SIZE="2", RANK="1", LOCAL_RANK="1"),
})
ENVS = dict(CLUSTER_ENVS, **LT_ENVS)
PLUGINS = [p for p in v2.PLUGINS if p not in ("TorchSyncBatchNorm", "CustomLayerSync")] + [
    "TorchSyncBatchNorm", "CustomLayerSync", "NativeSyncBatchNorm",  # the Trainer's layer syncs: not Fabric plugins
    "AsyncCheckpointIO", "XLAEnvironment",
    {"class": "DeepSpeedPrecision", "args": {"precision": "16-mixed"}},
    {"class": "FSDPPrecision", "args": {"precision": "bf16-mixed"}},
    {"class": "XLAPrecision", "args": {"precision": "bf16-true"}},
    {"class": "HalfPrecision", "args": {"precision": "junk"}}, 5,
    "BitsandbytesPrecision", "TransformerEnginePrecision",  # their required arguments: PROTOCOL.md defaults
]
# Trainer keywords Fabric.__init__ does not take, and their typical values
NON_FABRIC_FLAGS = {"sync_batchnorm": [True, False], "deterministic": [True, "warn"], "benchmark": [True],
                    "use_distributed_sampler": [False], "gpus": [1, "0,1"], "tpu_cores": [8], "amp_backend": ["native"],
                    "num_processes": [2], "max_epochs": [1]}
FABRIC_ONLY_FLAGS = {"callbacks": [None, []], "loggers": [None, []]}


# ---------------------------------------------------------------------------------------------------- grids
def grid_strategy():
    """accelerator x strategy (19 names, variants, Trainer-only names, instances) x devices x hardware."""
    strategies = [ABSENT] + STRATEGY_NAMES + STRATEGY_VARIANTS + OTHER_STRATEGIES + STRATEGY_INSTANCES
    for acc, strat, dev, hwn in itertools.product(
            [ABSENT, "auto", "cpu", "cuda", "gpu", "mps", "tpu"], strategies, [ABSENT, 1, 2, "auto"], HARDWARE):
        yield "strategy", case({"accelerator": acc, "strategy": strat, "devices": dev}, hw=HARDWARE[hwn])


def grid_devices():
    for acc, dev, hwn, nodes in itertools.product(ACCELERATORS, DEVICES, HARDWARE, [ABSENT, 2]):
        yield "devices", case({"accelerator": acc, "devices": dev, "num_nodes": nodes}, hw=HARDWARE[hwn])
    for nodes, acc, dev in itertools.product(NUM_NODES, [ABSENT, "cpu", "gpu"], [ABSENT, 2]):
        yield "devices", case({"num_nodes": nodes, "accelerator": acc, "devices": dev}, hw=HARDWARE["cuda2"])


def grid_cluster():
    strategies = [ABSENT, "ddp", "ddp_spawn", "ddp_fork", "ddp_notebook", "dp", "deepspeed", "DDPStrategy",
                  {"class": "DDPStrategy", "args": {"start_method": "spawn"}},
                  {"class": "DDPStrategy", "args": {"cluster_environment": "KubeflowEnvironment"}}]
    for envn, strat, acc, dev, nodes, hwn in itertools.product(
            CLUSTER_ENVS, strategies, ["cpu", "gpu", ABSENT], [ABSENT, 1, 2, 4], [ABSENT, 1, 2, "2"],
            ["cpu", "cuda2", "cuda4"]):
        yield "cluster", case({"strategy": strat, "accelerator": acc, "devices": dev, "num_nodes": nodes},
                              env=CLUSTER_ENVS[envn], hw=HARDWARE[hwn])
    for envn, plug, hwn in itertools.product(CLUSTER_ENVS, ["SLURMEnvironment", "LightningEnvironment",
                                                            "TorchElasticEnvironment", "KubeflowEnvironment",
                                                            "LSFEnvironment", "MPIEnvironment", "XLAEnvironment"],
                                             ["cpu", "cuda2", "tpu"]):
        for dev in (1, 2):
            yield "cluster", case({"devices": dev, "plugins": [plug]}, env=CLUSTER_ENVS[envn], hw=HARDWARE[hwn])


def grid_env():
    """Fabric's CLI variables against the flags they replace (and LT_CLI_USED conflicts)."""
    flag_values = {"accelerator": [ABSENT, "auto", "cpu", "cuda", "CPUAccelerator"],
                   "strategy": [ABSENT, "auto", "ddp", "ddp_spawn", "DDPStrategy"],
                   "devices": [ABSENT, "auto", 1, 2, "2", 3], "num_nodes": [ABSENT, 1, "1", 2, 3],
                   "precision": [ABSENT, None, 16, "16", "16-mixed", "64-true", 32]}
    for (envn, env), hwn in itertools.product(LT_ENVS.items(), ["cpu", "cuda2", "cuda8"]):
        for name, values in flag_values.items():
            for v in values:
                yield "env", case({name: v}, env=env, hw=HARDWARE[hwn])
    for envn, flags in itertools.product(LT_ENVS, ({"accelerator": "cuda", "devices": 2, "num_nodes": 2},
                                                   {"strategy": "ddp_spawn", "precision": "64-true"},
                                                   {"devices": 3, "accelerator": "cpu", "strategy": "ddp"})):
        for cli in (ABSENT, "1", "0", "2", "x", " 1"):
            env = dict(LT_ENVS[envn])
            env.pop("LT_CLI_USED", None)
            if cli != ABSENT:
                env["LT_CLI_USED"] = cli
            yield "env", case(flags, env=env, hw=HARDWARE["cuda2"])


def grid_precision():
    strategies = [ABSENT, "ddp", "ddp_spawn", "dp", "fsdp", "deepspeed", "xla", "xla_fsdp", "DDPStrategy",
                  "XLAStrategy"]
    for prec, acc, strat, hwn in itertools.product(
            PRECISIONS, ["cpu", "gpu", "cuda", "tpu", "mps", ABSENT], strategies, ["cpu", "cuda2", "tpu", "mps"]):
        if acc not in (ABSENT, "cpu") and {"gpu": "cuda2", "cuda": "cuda2"}.get(acc, acc) != hwn:
            continue
        yield "precision-selection", case({"precision": prec, "accelerator": acc, "strategy": strat},
                                          hw=HARDWARE[hwn])
    for plug, prec in itertools.product(
            [{"class": c, "args": {"precision": p}} for c in ("XLAPrecision", "DeepSpeedPrecision", "FSDPPrecision",
                                                                 "MixedPrecision", "HalfPrecision")
             for p in ("32-true", "16-true", "bf16-true", "16-mixed", "64-true", 16)]
            + ["Precision", "DoublePrecision", "HalfPrecision", "XLAPrecision", "DeepSpeedPrecision"],
            [ABSENT, "16-mixed", None]):
        for hwn in ("cpu", "cuda2", "tpu"):
            yield "precision-selection", case({"plugins": [plug], "precision": prec}, hw=HARDWARE[hwn])


def grid_plugins():
    singles = [[p] for p in PLUGINS] + [p for p in PLUGINS[:6]]
    pairs = [[a, b] for a, b in itertools.combinations(PLUGINS, 2)]
    dups = [["LightningEnvironment", "LightningEnvironment"], ["Precision", "Precision"],
            ["Precision", "DoublePrecision", "LightningEnvironment", "SLURMEnvironment"]]
    for plugs, strat, acc, prec in itertools.product(
            singles + pairs + dups, [ABSENT, "ddp", "DDPStrategy", {"class": "DDPStrategy", "args": {
                "cluster_environment": "LightningEnvironment", "precision": "Precision",
                "checkpoint_io": "TorchCheckpointIO"}}],
            [ABSENT, "cpu", "gpu", "tpu"], [ABSENT, "16-mixed"]):
        hw = {"gpu": HARDWARE["cuda2"], "tpu": HARDWARE["tpu"]}.get(acc, {})
        yield "flags", case({"plugins": plugs, "strategy": strat, "accelerator": acc, "precision": prec,
                             "devices": 2}, hw=hw)
    for acc, strat in itertools.product(ACCELERATORS + STRATEGY_INSTANCES[:5] + ["DDP", "Ddp_Spawn"],
                                        [ABSENT, "ddp", "DDP", "ddp_spawn", "DDPStrategy", "dp", "auto", "fsdp"]):
        for hwn in ("cpu", "cuda2", "tpu", "mps"):
            yield "flags", case({"accelerator": acc, "strategy": strat}, hw=HARDWARE[hwn])


def grid_keywords():
    """Trainer keywords Fabric does not take, alone, in pairs (both orders) and among Fabric's flags."""
    flags = [(k, v) for k, vs in NON_FABRIC_FLAGS.items() for v in vs]
    for (k, v), acc, hwn in itertools.product(flags, [ABSENT, "cpu", "gpu"], ["cpu", "cuda2"]):
        yield "keywords", case({"accelerator": acc, k: v, "devices": 1}, hw=HARDWARE[hwn])
        yield "keywords", case({k: v, "accelerator": acc, "strategy": "foo"}, hw=HARDWARE[hwn])
    for (a, va), (b, vb) in itertools.permutations(flags, 2):
        if a != b:
            yield "keywords", case({a: va, b: vb})
    for plug in ("XLAAccelerator", "DeepSpeedStrategy", "FSDPStrategy"):  # the instance is built before the call
        yield "keywords", case({"sync_batchnorm": True, "strategy": plug})
    for k, vs in FABRIC_ONLY_FLAGS.items():
        for v in vs:
            yield "keywords", case({k: v, "accelerator": "cpu", "devices": 2})


def grid_interactive():
    strategies = [ABSENT] + STRATEGY_NAMES + ["DDP_Spawn", "DDP_FORK", "auto"] + STRATEGY_INSTANCES[:5]
    for strat, acc, dev, hwn, fork in itertools.product(strategies, [ABSENT, "cpu", "gpu", "auto", "tpu", "mps"],
                                                        [ABSENT, 1, 2, "auto"], ["cpu", "cuda2", "cuda4", "tpu", "mps"],
                                                        [True, False]):
        hw = dict(HARDWARE[hwn])
        if not fork:
            hw["fork"] = False
        yield "interactive", case({"strategy": strat, "accelerator": acc, "devices": dev}, hw=hw,
                                  interactive=True)


GRIDS = {"strategy": grid_strategy, "devices": grid_devices, "cluster": grid_cluster, "env": grid_env,
         "precision": grid_precision, "plugins": grid_plugins, "keywords": grid_keywords,
         "interactive": grid_interactive}

RANDOM_POOLS = {
    "accelerator": ACCELERATORS + [ABSENT] * 8,
    "strategy": [ABSENT] * 10 + STRATEGY_NAMES + STRATEGY_VARIANTS + OTHER_STRATEGIES + STRATEGY_INSTANCES,
    "devices": DEVICES + [ABSENT] * 8,
    "num_nodes": [ABSENT] * 12 + NUM_NODES,
    "precision": PRECISIONS + [ABSENT] * 8,
    "plugins": [ABSENT] * 16 + PLUGINS + [[a, b] for a, b in zip(PLUGINS, PLUGINS[3:])],
}
NON_FABRIC_POOLS = {k: [ABSENT] * (8 * len(v)) + v for k, v in NON_FABRIC_FLAGS.items()}


def random_hardware(rng):
    hw = dict(HARDWARE[rng.choice(list(HARDWARE))])
    if rng.random() < 0.03:
        hw["packages"] = ["torch_xla"]
    return hw


def random_env(rng, p_cluster=0.3, p_lt=0.25):
    env = {}
    if rng.random() < p_cluster:
        env.update(CLUSTER_ENVS[rng.choice(list(CLUSTER_ENVS))])
    if rng.random() < p_lt:
        env.update(LT_ENVS[rng.choice(list(LT_ENVS))])
    return env


def grid_random(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        flags = {k: rng.choice(v) for k, v in RANDOM_POOLS.items()}
        if rng.random() < 0.05:  # a small share names keywords Fabric does not take, at a random place in the call
            items = list(flags.items())
            for k, v in {k: rng.choice(v) for k, v in NON_FABRIC_POOLS.items()}.items():
                items.insert(rng.randrange(len(items) + 1), (k, v))
            flags = dict(items)
        yield "random", case(flags, env=random_env(rng), hw=random_hardware(rng), interactive=rng.random() < 0.1)


def grid_plausible(n, seed):
    """Random cases a user would plausibly write: flags mostly consistent with the hardware (more plans)."""
    rng = random.Random(seed * 7919 + 1)
    acc_for = {"cpu": ["cpu"], "cuda1": ["gpu", "cuda"], "cuda2": ["gpu", "cuda"], "cuda4": ["gpu", "cuda"],
               "cuda8": ["gpu", "cuda"], "mps": ["mps", "gpu"], "tpu": ["tpu"], "cpu-nofork": ["cpu"],
               "cuda2-nofork": ["gpu", "cuda"], "cuda2-nodist": ["gpu", "cuda"], "tpu1": ["tpu"],
               "tpu-cuda4": ["tpu", "cuda"], "mps-cuda2": ["mps", "gpu"], "mps-nofork": ["mps"]}
    strategies = [ABSENT] * 10 + ["auto"] * 4 + STRATEGY_NAMES + ["DDP", "Ddp_Spawn"] + STRATEGY_INSTANCES[:13]
    good_plugins = [p for p in PLUGINS if p not in ("unknown_plugin", "ddp", "DDPStrategy", 5, "TorchSyncBatchNorm",
                                                    "CustomLayerSync", "NativeSyncBatchNorm")]
    for _ in range(n):
        hwn = rng.choice(list(HARDWARE))
        hw = dict(HARDWARE[hwn])
        flags = {"accelerator": rng.choice(acc_for[hwn] * 4 + ["auto", ABSENT, "cpu"]),
                 "strategy": rng.choice(strategies),
                 "devices": rng.choice([ABSENT, ABSENT, "auto", 1, 2, 4, -1, [0], [1], [0, 1], "0,1", 8]),
                 "num_nodes": rng.choice([ABSENT] * 6 + [1, 2, 4]),
                 "precision": rng.choice([ABSENT] * 4 + ["16-mixed", "bf16-mixed", "32-true", "64-true", "16-true",
                                                         "bf16-true", 16, "bf16", 32, 64])}
        if rng.random() < 0.2:
            flags["plugins"] = rng.choice(good_plugins)
        if rng.random() < 0.03:
            extra = rng.choice(list(NON_FABRIC_FLAGS))
            flags[extra] = rng.choice(NON_FABRIC_FLAGS[extra])
        yield "random", case(flags, env=random_env(rng, 0.3, 0.15), hw=hw, interactive=rng.random() < 0.08)
