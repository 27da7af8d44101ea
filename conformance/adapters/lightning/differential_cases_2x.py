"""The 2.x vocabulary of differential.py (`--vocab 2.x`): Lightning 2.2.5 inputs, grids and random samples.

Flag values, strategy names and classes are those of 2.2.5 (StrategyRegistry, AcceleratorRegistry, the precision
spellings of lightning.fabric.connector), plus the names and flags 2.x removed, wrong case and wrong types. The
order of a case's `flags` is the keyword order of the Trainer call (it decides which removed flag Python names).
"""
import itertools
import random

from differential_cases import ABSENT, case, slurm

# ---------------------------------------------------------------------------------------------------- vocabularies
STRATEGY_NAMES = [  # the 26 registered names of 2.2.5 (StrategyRegistry.available_strategies())
    "ddp", "ddp_spawn", "ddp_fork", "ddp_notebook", "ddp_find_unused_parameters_false",
    "ddp_find_unused_parameters_true", "ddp_spawn_find_unused_parameters_false",
    "ddp_spawn_find_unused_parameters_true", "ddp_fork_find_unused_parameters_false",
    "ddp_fork_find_unused_parameters_true", "ddp_notebook_find_unused_parameters_false",
    "ddp_notebook_find_unused_parameters_true", "deepspeed", "deepspeed_stage_1", "deepspeed_stage_2",
    "deepspeed_stage_2_offload", "deepspeed_stage_3", "deepspeed_stage_3_offload", "deepspeed_stage_3_offload_nvme",
    "fsdp", "fsdp_cpu_offload", "single_device", "single_xla", "xla_debug", "xla", "single_tpu",
]
STRATEGY_VARIANTS = ["auto", "AUTO", "DDP", "Ddp_Spawn", "DDP_FORK", "FSDP", "DeepSpeed", "XLA", "Single_Device", None]
REMOVED_STRATEGIES = ["ddp2", "dp", "ddp_sharded", "ddp_sharded_spawn", "horovod", "bagua", "colossalai", "tpu_spawn",
                      "ipu_strategy", "hpu_parallel", "hpu_single", "ddp_cpu", "ddp_fully_sharded", "unknown", ""]
STRATEGY_INSTANCES = [
    "DDPStrategy",
    {"class": "DDPStrategy", "args": {"start_method": "popen"}},
    {"class": "DDPStrategy", "args": {"start_method": "spawn"}},
    {"class": "DDPStrategy", "args": {"start_method": "fork"}},
    {"class": "SingleDeviceStrategy", "args": {"device": "cpu"}},
    {"class": "SingleDeviceStrategy", "args": {"device": "cuda:0"}},
    {"class": "SingleDeviceStrategy", "args": {"device": "mps"}},
    "XLAStrategy",
    {"class": "SingleDeviceXLAStrategy", "args": {"device": 0}},
    "DeepSpeedStrategy",
    "FSDPStrategy",
    {"class": "DDPStrategy", "args": {"find_unused_parameters": True}},
    {"class": "DDPStrategy", "args": {"accelerator": "CPUAccelerator"}},
    {"class": "DDPStrategy", "args": {"parallel_devices": ["cpu", "cpu"]}},
    {"class": "DDPStrategy", "args": {"parallel_devices": ["cuda:0", "cuda:1"]}},
    {"class": "DDPStrategy", "args": {"cluster_environment": "LightningEnvironment"}},
    {"class": "DDPStrategy", "args": {"precision_plugin": "DoublePrecision"}},
    {"class": "DDPStrategy", "args": {"checkpoint_io": "TorchCheckpointIO", "start_method": "spawn"}},
]
ACCELERATORS = [None, "auto", "cpu", "cuda", "gpu", "mps", "tpu", "GPU", "Cpu", "foo", "ipu", "hpu", "ddp",
                "CPUAccelerator", "CUDAAccelerator", "MPSAccelerator", "XLAAccelerator"]
DEVICES = [ABSENT, "auto", -1, 0, 1, 2, 3, 8, "1", "2", "0,1", "1,", "-1", " 0", "[]", [0], [1], [0, 1], [0, 0], [],
           None, True, False, 0.0]
NUM_NODES = [ABSENT, 1, 2, 0, -1, "2", 2.0, True]
HARDWARE = {
    "cpu": {},
    "cuda1": {"cuda_devices": 1},
    "cuda2": {"cuda_devices": 2},
    "cuda4": {"cuda_devices": 4},
    "cuda8": {"cuda_devices": 8},
    "mps": {"mps": True},
    "tpu": {"tpu": True},
    "cpu-nofork": {"fork": False},
    "cuda2-nofork": {"cuda_devices": 2, "fork": False},
    "cuda2-nodist": {"cuda_devices": 2, "torch_distributed": False},
}
PRECISIONS = [ABSENT, "transformer-engine", "transformer-engine-float16", "16-true", "16-mixed", "bf16-true",
              "bf16-mixed", "32-true", "64-true", 64, 32, 16, "64", "32", "16", "bf16", "mixed", 16.0, "fp16", None]
ENVS = {
    "none": {},
    "slurm1": slurm(1),
    "slurm2": slurm(2, 1, 1, 0, SLURM_JOB_NAME="train", SLURM_NTASKS_PER_NODE="2"),
    "slurm4": slurm(4, 3, 1, 1, SLURM_NTASKS_PER_NODE="2", SLURM_NNODES="2"),
    "slurm2-bash": slurm(2, SLURM_JOB_NAME="bash", SLURM_NTASKS_PER_NODE="2"),
    "slurm2-interactive": slurm(2, SLURM_JOB_NAME="interactive", SLURM_NTASKS_PER_NODE="2"),
    "slurm2-ntasks-only": slurm(2, SLURM_JOB_NAME="train"),
    "slurm-bad": slurm("08", SLURM_NTASKS_PER_NODE="1"),
    "slurm-noproc": {"SLURM_NTASKS": "2", "SLURM_NTASKS_PER_NODE": "2"},
    "torchelastic": {"TORCHELASTIC_RUN_ID": "1", "RANK": "1", "LOCAL_RANK": "1", "GROUP_RANK": "0",
                     "WORLD_SIZE": "2", "LOCAL_WORLD_SIZE": "2", "MASTER_ADDR": "h", "MASTER_PORT": "1234"},
    "torchelastic-min": {"TORCHELASTIC_RUN_ID": "x"},
    "torchelastic-norunid": {"RANK": "0", "LOCAL_RANK": "0", "GROUP_RANK": "0", "LOCAL_WORLD_SIZE": "1",
                             "WORLD_SIZE": "1"},
    "kubeflow": {"KUBERNETES_PORT": "tcp://10.0.0.1:443", "MASTER_ADDR": "m", "MASTER_PORT": "1234",
                 "WORLD_SIZE": "4", "RANK": "2"},
    "lsf-norankfile": {"LSB_JOBID": "1", "LSB_DJOB_RANKFILE": "/nonexistent/rankfile",
                       "JSM_NAMESPACE_LOCAL_RANK": "0", "JSM_NAMESPACE_SIZE": "2", "JSM_NAMESPACE_RANK": "0"},
    "local_rank1": {"LOCAL_RANK": "1"},
    "local_rank0+node": {"LOCAL_RANK": "0", "NODE_RANK": "1"},
    "rank1": {"RANK": "1"},
    "pl-trainer": {"PL_TRAINER_DEVICES": "2", "PL_TRAINER_ACCELERATOR": "cpu"},
    "pl-trainer-removed": {"PL_TRAINER_GPUS": "2", "PL_TRAINER_STRATEGY": "ddp_spawn"},
    "pl-trainer-precision": {"PL_TRAINER_PRECISION": "16", "PL_TRAINER_SYNC_BATCHNORM": "True"},
}
PLUGINS = [
    "Precision", {"class": "MixedPrecision", "args": {"precision": "16-mixed", "device": "cuda"}},
    {"class": "MixedPrecision", "args": {"precision": "bf16-mixed", "device": "cpu"}}, "HalfPrecision",
    {"class": "HalfPrecision", "args": {"precision": "bf16-true"}}, "DoublePrecision",
    {"class": "BitsandbytesPrecision", "args": {"mode": "nf4"}},
    {"class": "TransformerEnginePrecision", "args": {"weights_dtype": None}}, "XLAPrecision",
    "TorchSyncBatchNorm", "CustomLayerSync", "SLURMEnvironment", "TorchElasticEnvironment", "KubeflowEnvironment",
    "LightningEnvironment", "LSFEnvironment", "MPIEnvironment", "TorchCheckpointIO", "XLACheckpointIO",
    "unknown_plugin", "ddp", "DDPStrategy",
]
# 1.x Trainer flags 2.x removed (err_unexpected_keyword) and their typical values
REMOVED_FLAGS = {"gpus": [1, 2, "0,1"], "tpu_cores": [8, 1], "ipus": [1], "num_processes": [2],
                 "amp_backend": ["native", "apex"], "amp_level": ["O2"], "auto_select_gpus": [True, False]}


# ---------------------------------------------------------------------------------------------------- grids
def grid_strategy():
    """accelerator x strategy (26 names, variants, removed names, instances) x devices x hardware."""
    strategies = [ABSENT] + STRATEGY_NAMES + STRATEGY_VARIANTS + REMOVED_STRATEGIES + STRATEGY_INSTANCES
    for acc, strat, dev, hwn in itertools.product(
            [ABSENT, "auto", "cpu", "cuda", "gpu", "mps", "tpu"], strategies, [ABSENT, 1, 2, "auto"], HARDWARE):
        yield "strategy", case({"accelerator": acc, "strategy": strat, "devices": dev}, hw=HARDWARE[hwn])


def grid_devices():
    for acc, dev, hwn, nodes in itertools.product(ACCELERATORS, DEVICES, HARDWARE, [ABSENT, 2]):
        yield "devices", case({"accelerator": acc, "devices": dev, "num_nodes": nodes}, hw=HARDWARE[hwn])


def grid_cluster():
    strategies = [ABSENT, "ddp", "ddp_spawn", "ddp_fork", "ddp_notebook", "ddp_find_unused_parameters_true",
                  "single_device", "deepspeed", "DDPStrategy", {"class": "DDPStrategy", "args": {"start_method": "spawn"}},
                  {"class": "DDPStrategy", "args": {"cluster_environment": "KubeflowEnvironment"}}]
    for envn, strat, acc, dev, nodes, hwn in itertools.product(
            ENVS, strategies, ["cpu", "gpu", ABSENT], [ABSENT, 1, 2, 4], NUM_NODES, ["cpu", "cuda2", "cuda4"]):
        yield "cluster", case({"strategy": strat, "accelerator": acc, "devices": dev, "num_nodes": nodes},
                              env=ENVS[envn], hw=HARDWARE[hwn])
    for envn, plug, hwn in itertools.product(ENVS, ["SLURMEnvironment", "LightningEnvironment",
                                                    "TorchElasticEnvironment", "KubeflowEnvironment",
                                                    "LSFEnvironment", "MPIEnvironment"], ["cpu", "cuda2"]):
        for dev in (1, 2):
            yield "cluster", case({"devices": dev, "accelerator": "auto", "plugins": [plug]}, env=ENVS[envn],
                                  hw=HARDWARE[hwn])
    for dist, envn in itertools.product([True, False], ["torchelastic", "torchelastic-min", "none"]):
        for flags in ({}, {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2},
                      {"accelerator": "gpu", "devices": [0, 1]}):
            yield "cluster", case(flags, env=ENVS[envn], hw={"cuda_devices": 1, "torch_distributed": dist})


def grid_precision():
    strategies = [ABSENT, "ddp", "ddp_spawn", "fsdp", "deepspeed", "xla", "single_device", "DDPStrategy",
                  "DeepSpeedStrategy"]
    for prec, acc, strat, hwn in itertools.product(
            PRECISIONS, ["cpu", "gpu", "cuda", "tpu", "mps", ABSENT], strategies, ["cpu", "cuda2", "tpu", "mps"]):
        if acc not in (ABSENT, "cpu") and {"gpu": "cuda2", "cuda": "cuda2"}.get(acc, acc) != hwn:
            continue  # unavailable accelerators are covered by the strategy/devices grids
        yield "precision-selection", case({"precision": prec, "accelerator": acc, "strategy": strat},
                                          hw=HARDWARE[hwn])
    for plug, prec in itertools.product(  # precision plugins built by the user, against the precision flag
            [{"class": c, "args": {"precision": p}} for c in ("XLAPrecision", "DeepSpeedPrecision", "FSDPPrecision",
                                                                 "MixedPrecision", "HalfPrecision")
             for p in ("32-true", "16-true", "bf16-true", "16-mixed", "64-true", 16)], [ABSENT, "16-mixed"]):
        for hwn in ("cpu", "cuda2", "tpu"):
            yield "precision-selection", case({"plugins": [plug], "precision": prec}, hw=HARDWARE[hwn])


def grid_plugins():
    singles = [[p] for p in PLUGINS] + [p for p in PLUGINS[:6]]
    pairs = [[a, b] for a, b in itertools.combinations(PLUGINS, 2)]
    dups = [["LightningEnvironment", "LightningEnvironment"], ["Precision", "Precision"],
            ["TorchSyncBatchNorm", "CustomLayerSync"]]
    for plugs, strat, acc, sbn, prec in itertools.product(
            singles + pairs + dups, [ABSENT, "ddp", "DDPStrategy", {"class": "DDPStrategy", "args": {
                "cluster_environment": "LightningEnvironment", "precision_plugin": "Precision",
                "checkpoint_io": "TorchCheckpointIO"}}],
            [ABSENT, "cpu", "gpu", "tpu"], [ABSENT, True], [ABSENT, "16-mixed"]):
        hw = {"gpu": HARDWARE["cuda2"], "tpu": HARDWARE["tpu"]}.get(acc, {})
        yield "flags", case({"plugins": plugs, "strategy": strat, "accelerator": acc, "sync_batchnorm": sbn,
                             "precision": prec, "devices": 2}, hw=hw)
    for acc, strat in itertools.product(ACCELERATORS + STRATEGY_INSTANCES[:4] + ["DDP", "Ddp_Spawn"],
                                        [ABSENT, "ddp", "DDP", "ddp_spawn", "DDPStrategy", "dp", "auto"]):
        for hwn in ("cpu", "cuda2", "tpu", "mps"):
            yield "flags", case({"accelerator": acc, "strategy": strat}, hw=HARDWARE[hwn])


def grid_removed():
    """1.x flags a 2.x Trainer does not take, alone, in pairs (both orders) and among valid flags."""
    flags = [(k, v) for k, vs in REMOVED_FLAGS.items() for v in vs]
    for (k, v), acc, hwn in itertools.product(flags, [ABSENT, "cpu", "gpu"], ["cpu", "cuda2"]):
        yield "removed", case({"accelerator": acc, k: v, "devices": 1}, hw=HARDWARE[hwn])
        yield "removed", case({k: v, "accelerator": acc, "strategy": "foo"}, hw=HARDWARE[hwn])
    for (a, va), (b, vb) in itertools.permutations(flags, 2):
        if a != b:
            yield "removed", case({a: va, b: vb})
    for uds, strat, dev in itertools.product([True, False, None, 0], [ABSENT, "ddp", "DDPStrategy"], [ABSENT, 2]):
        yield "removed", case({"use_distributed_sampler": uds, "strategy": strat, "devices": dev})
    for plug in ("XLAAccelerator", "DeepSpeedStrategy", "FSDPStrategy"):  # the instance is built before the call
        yield "removed", case({"gpus": 1, "strategy": plug})


def grid_determinism():
    for det, bench, prior, strat, envn in itertools.product(
            [ABSENT, None, True, False, "warn", 1, "foo"], [ABSENT, None, True, False],
            [False, True], [ABSENT, "ddp", "ddp_spawn"], ["none", "rank1"]):
        hw = {"cudnn_benchmark": True} if prior else {}
        yield "determinism", case({"deterministic": det, "benchmark": bench, "strategy": strat}, env=ENVS[envn],
                                  hw=hw)


def grid_interactive():
    strategies = [ABSENT] + STRATEGY_NAMES + ["DDP_Spawn", "DDP_FORK", "auto"] + STRATEGY_INSTANCES[:4]
    for strat, acc, dev, hwn, fork in itertools.product(strategies, [ABSENT, "cpu", "gpu", "auto", "tpu", "mps"],
                                                        [ABSENT, 1, 2, "auto"], ["cpu", "cuda2", "cuda4", "tpu", "mps"],
                                                        [True, False]):
        hw = dict(HARDWARE[hwn])
        if not fork:
            hw["fork"] = False
        yield "interactive", case({"strategy": strat, "accelerator": acc, "devices": dev}, hw=hw,
                                  interactive=True)


GRIDS = {"strategy": grid_strategy, "devices": grid_devices, "cluster": grid_cluster,
         "precision": grid_precision, "plugins": grid_plugins, "removed": grid_removed,
         "determinism": grid_determinism, "interactive": grid_interactive}

RANDOM_POOLS = {
    "accelerator": ACCELERATORS + [ABSENT] * 6,
    "strategy": [ABSENT] * 8 + STRATEGY_NAMES + STRATEGY_VARIANTS + REMOVED_STRATEGIES + STRATEGY_INSTANCES,
    "devices": DEVICES + [ABSENT] * 6,
    "num_nodes": [ABSENT] * 8 + NUM_NODES,
    "precision": PRECISIONS + [ABSENT] * 6,
    "plugins": [ABSENT] * 16 + PLUGINS + [[a, b] for a, b in zip(PLUGINS, PLUGINS[3:])],
    "sync_batchnorm": [ABSENT] * 6 + [True, False],
    "deterministic": [ABSENT] * 8 + [None, True, False, "warn", 1, "foo"],
    "benchmark": [ABSENT] * 8 + [None, True, False],
    "use_distributed_sampler": [ABSENT] * 8 + [True, False],
}
REMOVED_POOLS = {k: [ABSENT] * (12 * len(v)) + v for k, v in REMOVED_FLAGS.items()}


def random_hardware(rng):
    hw = dict(HARDWARE[rng.choice(list(HARDWARE))])
    if rng.random() < 0.1:
        hw["cudnn_benchmark"] = True
    if rng.random() < 0.03:
        hw["packages"] = ["torch_xla"]
    return hw


def grid_random(n, seed):
    rng = random.Random(seed)
    env_names = list(ENVS)
    for _ in range(n):
        flags = {k: rng.choice(v) for k, v in RANDOM_POOLS.items()}
        if rng.random() < 0.12:  # a small share names removed flags, at a random place in the call
            removed = {k: rng.choice(v) for k, v in REMOVED_POOLS.items()}
            items = list(flags.items())
            for k, v in removed.items():
                items.insert(rng.randrange(len(items) + 1), (k, v))
            flags = dict(items)
        hw = random_hardware(rng)
        env = ENVS[rng.choice(env_names)] if rng.random() < 0.4 else {}
        yield "random", case(flags, env=env, hw=hw, interactive=rng.random() < 0.1)


def grid_plausible(n, seed):
    """Random cases a user would plausibly write: flags mostly consistent with the hardware (more plans)."""
    rng = random.Random(seed * 7919 + 1)
    hw_names = list(HARDWARE)
    acc_for = {"cpu": ["cpu"], "cuda1": ["gpu", "cuda"], "cuda2": ["gpu", "cuda"], "cuda4": ["gpu", "cuda"],
               "cuda8": ["gpu", "cuda"], "mps": ["mps", "gpu"], "tpu": ["tpu"], "cpu-nofork": ["cpu"],
               "cuda2-nofork": ["gpu", "cuda"], "cuda2-nodist": ["gpu", "cuda"]}
    strategies = [ABSENT] * 10 + ["auto"] * 4 + STRATEGY_NAMES + ["DDP", "Ddp_Spawn"] + STRATEGY_INSTANCES[:12]
    good_plugins = [p for p in PLUGINS if p not in ("unknown_plugin", "ddp", "DDPStrategy")]
    for _ in range(n):
        hwn = rng.choice(hw_names)
        hw = dict(HARDWARE[hwn])
        acc = rng.choice(acc_for[hwn] * 4 + ["auto", ABSENT, "cpu"])
        flags = {"accelerator": acc, "strategy": rng.choice(strategies),
                 "devices": rng.choice([ABSENT, ABSENT, "auto", 1, 2, 4, -1, [0], [1], [0, 1], "0,1", 8]),
                 "num_nodes": rng.choice([ABSENT] * 6 + [1, 2, 4]),
                 "precision": rng.choice([ABSENT] * 4 + ["16-mixed", "bf16-mixed", "32-true", "64-true", "16-true",
                                                         "bf16-true", 16, "bf16", 32, 64]),
                 "sync_batchnorm": rng.choice([ABSENT] * 4 + [True, False]),
                 "deterministic": rng.choice([ABSENT] * 4 + [True, False, None, "warn"]),
                 "benchmark": rng.choice([ABSENT] * 4 + [True, False, None])}
        if rng.random() < 0.2:
            flags["plugins"] = rng.choice(good_plugins)
        if rng.random() < 0.1:
            flags["use_distributed_sampler"] = rng.choice([True, False])
        if rng.random() < 0.05:
            legacy = rng.choice(list(REMOVED_FLAGS))
            flags[legacy] = rng.choice(REMOVED_FLAGS[legacy])
        if rng.random() < 0.1:
            hw["cudnn_benchmark"] = True
        env = ENVS[rng.choice(list(ENVS))] if rng.random() < 0.35 else {}
        yield "random", case(flags, env=env, hw=hw, interactive=rng.random() < 0.08)
