"""Case vocabularies, the systematic grids and the seeded random samples of differential.py."""
import itertools
import json
import random


# ---------------------------------------------------------------------------------------------------- vocabularies
STRATEGY_NAMES = [  # the 28 registered names of 1.6.5 (StrategyRegistry.available_strategies())
    "ddp", "ddp_find_unused_parameters_false", "ddp_spawn", "ddp_spawn_find_unused_parameters_false", "ddp2", "dp",
    "ddp_sharded", "ddp_sharded_find_unused_parameters_false", "ddp_sharded_spawn",
    "ddp_sharded_spawn_find_unused_parameters_false", "ddp_fully_sharded", "fsdp", "deepspeed", "deepspeed_stage_1",
    "deepspeed_stage_2", "deepspeed_stage_2_offload", "deepspeed_stage_3", "deepspeed_stage_3_offload",
    "deepspeed_stage_3_offload_nvme", "horovod", "bagua", "hpu_parallel", "hpu_single", "ipu_strategy",
    "single_device", "single_tpu", "tpu_spawn", "tpu_spawn_debug",
]
STRATEGY_VARIANTS = ["DDP", "Ddp_Spawn", "DP", "DDP_CPU", "ddp_cpu", "Tpu_Spawn", "FSDP", "unknown_strategy", ""]
STRATEGY_INSTANCES = [
    "DDPStrategy", "DDPSpawnStrategy", "DataParallelStrategy", "DDP2Strategy", "DDPShardedStrategy",
    "DDPSpawnShardedStrategy", "IPUStrategy", "HPUParallelStrategy", "TPUSpawnStrategy",
    {"class": "SingleDeviceStrategy", "args": {"device": "cpu"}},
    {"class": "SingleDeviceStrategy", "args": {"device": "cuda:0"}},
    {"class": "DDPStrategy", "args": {"find_unused_parameters": False}},
    {"class": "DDPStrategy", "args": {"accelerator": "CPUAccelerator"}},
    {"class": "DDPStrategy", "args": {"parallel_devices": ["cpu", "cpu"]}},
    {"class": "DDPStrategy", "args": {"parallel_devices": ["cuda:0", "cuda:1"]}},
    {"class": "DDPStrategy", "args": {"cluster_environment": "LightningEnvironment"}},
    {"class": "DDPStrategy", "args": {"precision_plugin": "DoublePrecisionPlugin"}},
    {"class": "DDPSpawnStrategy", "args": {"checkpoint_io": "TorchCheckpointIO"}},
]
ACCELERATORS = [None, "auto", "cpu", "gpu", "tpu", "ipu", "hpu", "GPU", "Cpu", "cuda", "invalid", "ddp_cpu", "ddp",
                "ddp_spawn", "dp", "CPUAccelerator", "GPUAccelerator", "TPUAccelerator"]
DEVICES = ["<absent>", None, 1, 2, 4, -1, "-1", "2", "1", "0,1", "1,", [0], [1], [0, 1], [0, 0], 0, "0", [], "auto",
           "[]", " 0", 8, [3], True, 1.5]
HARDWARE = {
    "cpu": {},
    "cuda1": {"cuda_devices": 1},
    "cuda2": {"cuda_devices": 2},
    "cuda4": {"cuda_devices": 4},
    "tpu": {"tpu": True},
    "ipu": {"ipu": True},
    "hpu": {"hpu": True},
}
PRECISIONS = ["<absent>", 16, 32, 64, "16", "32", "64", "bf16", "mixed", "16-mixed", "bf16-mixed", "32-true", 15,
              None, "fp16"]
AMP_BACKENDS = ["<absent>", "native", "apex", "APEX", "Native", "foo", None]
AMP_LEVELS = ["<absent>", None, "O2"]


def slurm(ntasks, procid=0, localid=0, nodeid=0, **extra):
    env = {"SLURM_NTASKS": str(ntasks), "SLURM_PROCID": str(procid), "SLURM_LOCALID": str(localid),
           "SLURM_NODEID": str(nodeid)}
    env.update(extra)
    return env


ENVS = {
    "none": {},
    "slurm1": slurm(1),
    "slurm2": slurm(2, 1, 1, 0, SLURM_JOB_NAME="train"),
    "slurm4": slurm(4, 3, 1, 1),
    "slurm2-bash": slurm(2, SLURM_JOB_NAME="bash"),
    "slurm-hex": slurm("0x2"),
    "slurm-bad": slurm("08"),
    "slurm-noproc": {"SLURM_NTASKS": "2"},
    "torchelastic": {"TORCHELASTIC_RUN_ID": "1", "RANK": "1", "LOCAL_RANK": "1", "GROUP_RANK": "0",
                     "WORLD_SIZE": "2", "LOCAL_WORLD_SIZE": "2", "MASTER_ADDR": "h", "MASTER_PORT": "1234"},
    "torchelastic-min": {"TORCHELASTIC_RUN_ID": "x"},
    "kubeflow": {"KUBERNETES_PORT": "tcp://10.0.0.1:443", "MASTER_ADDR": "m", "MASTER_PORT": "1234",
                 "WORLD_SIZE": "4", "RANK": "2"},
    "kubeflow+localrank": {"KUBERNETES_PORT": "tcp://10.0.0.1:443", "MASTER_ADDR": "m", "MASTER_PORT": "1234",
                           "WORLD_SIZE": "4", "RANK": "2", "LOCAL_RANK": "0"},
    "lsf-norankfile": {"LSB_JOBID": "1", "LSB_DJOB_RANKFILE": "/nonexistent/rankfile",
                       "JSM_NAMESPACE_LOCAL_RANK": "0", "JSM_NAMESPACE_SIZE": "2", "JSM_NAMESPACE_RANK": "0"},
    "local_rank1": {"LOCAL_RANK": "1"},
    "local_rank0+node": {"LOCAL_RANK": "0", "NODE_RANK": "1"},
    "rank1": {"RANK": "1"},
    "bagua": {"BAGUA_SERVICE_PORT": "1234", "WORLD_SIZE": "2", "RANK": "0", "LOCAL_RANK": "0"},
    "horovod-env": {"OMPI_COMM_WORLD_RANK": "0"},
    "pl-trainer": {"PL_TRAINER_DEVICES": "2", "PL_TRAINER_ACCELERATOR": "cpu"},
}
PLUGINS = [
    "SLURMEnvironment", "LightningEnvironment", "TorchElasticEnvironment", "KubeflowEnvironment",
    "NativeMixedPrecisionPlugin", "PrecisionPlugin", "DoublePrecisionPlugin", "ApexMixedPrecisionPlugin",
    "TPUPrecisionPlugin", "TPUBf16PrecisionPlugin", "IPUPrecisionPlugin", "HPUPrecisionPlugin",
    {"class": "NativeMixedPrecisionPlugin", "args": {"precision": "bf16", "device": "cpu"}},
    "TorchCheckpointIO", "XLACheckpointIO", "NativeSyncBatchNorm", "CustomLayerSync", "ddp", "ddp_spawn", "dp",
    "DDPStrategy", "unknown_plugin", "DDP",
]
ABSENT = "<absent>"


def case(flags=None, env=None, hw=None, interactive=False):
    c = {"flags": {k: v for k, v in (flags or {}).items() if v != ABSENT}}
    if env:
        c["env"] = dict(env)
    if hw:
        c["hardware"] = dict(hw)
    if interactive:
        c["interactive"] = True
    return c


# ---------------------------------------------------------------------------------------------------- grids
def grid_strategy():
    """accelerator x strategy (28 names, variants, instances) x devices x hardware."""
    strategies = [ABSENT] + STRATEGY_NAMES + STRATEGY_VARIANTS + STRATEGY_INSTANCES
    for acc, strat, dev, hwn in itertools.product(
            [ABSENT, "auto", "cpu", "gpu", "tpu", "ipu", "hpu"], strategies, [ABSENT, 1, 2, "auto"], HARDWARE):
        yield "strategy", case({"accelerator": acc, "strategy": strat, "devices": dev}, hw=HARDWARE[hwn])


def grid_devices():
    for acc, dev, hwn, nodes in itertools.product(ACCELERATORS, DEVICES, HARDWARE, [ABSENT, 2]):
        yield "devices", case({"accelerator": acc, "devices": dev, "num_nodes": nodes}, hw=HARDWARE[hwn])


def grid_cluster():
    strategies = [ABSENT, "ddp", "ddp_spawn", "ddp_spawn_find_unused_parameters_false", "dp", "ddp2",
                  "ddp_sharded_spawn", "single_device", "DDPStrategy", "DDPSpawnStrategy",
                  {"class": "DDPStrategy", "args": {"cluster_environment": "KubeflowEnvironment"}}]
    for envn, strat, acc, dev, nodes, hwn in itertools.product(
            ENVS, strategies, ["cpu", "gpu", ABSENT], [ABSENT, 1, 2, 4], [ABSENT, 1, 2, "2", 0, -1, None],
            ["cpu", "cuda2", "cuda4"]):
        yield "cluster", case({"strategy": strat, "accelerator": acc, "devices": dev, "num_nodes": nodes},
                              env=ENVS[envn], hw=HARDWARE[hwn])
    for envn, plug, hwn in itertools.product(ENVS, ["SLURMEnvironment", "LightningEnvironment",
                                                    "TorchElasticEnvironment", "KubeflowEnvironment",
                                                    "LSFEnvironment"], ["cpu", "cuda2"]):
        for dev in (1, 2):
            yield "cluster", case({"devices": dev, "accelerator": "auto", "plugins": [plug]}, env=ENVS[envn],
                                  hw=HARDWARE[hwn])
    for dist, envn in itertools.product([True, False], ["torchelastic", "torchelastic-min", "none"]):
        for flags in ({}, {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2},
                      {"accelerator": "gpu", "devices": [0, 1]}):
            yield "cluster", case(flags, env=ENVS[envn], hw={"cuda_devices": 1, "torch_distributed": dist})


def grid_precision():
    strategies = [ABSENT, "ddp", "ddp_sharded", "ddp_sharded_spawn", "ddp_fully_sharded", "fsdp", "deepspeed", "dp",
                  "ddp_spawn"]
    for prec, amp, lvl, acc, strat, hwn, pk in itertools.product(
            PRECISIONS, AMP_BACKENDS, AMP_LEVELS, ["cpu", "gpu", "tpu", "ipu", "hpu", ABSENT], strategies,
            ["cpu", "cuda2", "tpu", "ipu", "hpu"], [(), ("apex",)]):
        if acc not in (ABSENT, "cpu") and {"gpu": "cuda2"}.get(acc, acc) != hwn:
            continue  # unavailable accelerators are covered by the strategy/devices grids
        hw = dict(HARDWARE[hwn])
        if pk:
            hw["packages"] = list(pk)
        yield "precision-selection", case({"precision": prec, "amp_backend": amp, "amp_level": lvl,
                                           "accelerator": acc, "strategy": strat}, hw=hw)


def grid_plugins():
    singles = [[p] for p in PLUGINS] + [p for p in PLUGINS[:6]]
    pairs = [[a, b] for a, b in itertools.combinations(PLUGINS, 2)]
    for plugs, strat, acc, sbn, prec in itertools.product(
            singles + pairs, [ABSENT, "ddp", "DDPStrategy", {"class": "DDPStrategy", "args": {
                "cluster_environment": "LightningEnvironment", "precision_plugin": "PrecisionPlugin",
                "checkpoint_io": "TorchCheckpointIO"}}],
            [ABSENT, "cpu", "gpu", "tpu"], [ABSENT, True], [ABSENT, 16]):
        hw = {"gpu": HARDWARE["cuda2"], "tpu": HARDWARE["tpu"]}.get(acc, {})
        yield "flags", case({"plugins": plugs, "strategy": strat, "accelerator": acc, "sync_batchnorm": sbn,
                             "precision": prec, "devices": 2}, hw=hw)
    # accelerator flag spellings against the strategy flag (conflicts, deprecations)
    for acc, strat in itertools.product(ACCELERATORS + STRATEGY_INSTANCES[:3] + ["DDP", "Ddp_Spawn"],
                                        [ABSENT, "ddp", "DDP", "ddp_spawn", "DDPStrategy", "dp"]):
        for hwn in ("cpu", "cuda2", "tpu"):
            yield "flags", case({"accelerator": acc, "strategy": strat}, hw=HARDWARE[hwn])


def grid_legacy():
    gpus = [ABSENT, None, 0, 1, 2, -1, "1", "0", "0,1", "1,", [0], [1], [], True, "-1", 3]
    tpus = [ABSENT, 0, 1, 8, [1], "8", 2, [], "0", [0]]
    ipus = [ABSENT, 0, 1, 2]
    nproc = [ABSENT, 0, 1, 2]
    for g, t, i, n in itertools.product(gpus, tpus, ipus, nproc):
        for acc, dev in ((ABSENT, ABSENT), (ABSENT, 2), ("cpu", ABSENT), ("gpu", 1), ("auto", ABSENT)):
            for hwn in ("cpu", "cuda2", "tpu", "ipu"):
                yield "legacy", case({"gpus": g, "tpu_cores": t, "ipus": i, "num_processes": n, "accelerator": acc,
                                      "devices": dev}, hw=HARDWARE[hwn])
    for asg, g, dev, acc, busy, cuda in itertools.product(
            [True, False], [ABSENT, 0, 1, 2, 3, -1, -2, "2", [1]], [ABSENT, 1, 2, 3, -1, "2", [1]],
            [ABSENT, "gpu", "cpu", "auto", "GPUAccelerator"], [[], [0], [0, 1], [0, 1, 2, 3]], [0, 2, 4]):
        hw = {"cuda_devices": cuda}
        if busy:
            hw["gpu_busy"] = busy
        yield "legacy", case({"auto_select_gpus": asg, "gpus": g, "devices": dev, "accelerator": acc}, hw=hw)


def grid_determinism():
    for det, bench, prior, strat, envn in itertools.product(
            [ABSENT, None, True, False, "warn", 1], [ABSENT, None, True, False],
            [False, True], [ABSENT, "horovod", "ddp"], ["none", "rank1"]):
        hw = {"cudnn_benchmark": True} if prior else {}
        yield "determinism", case({"deterministic": det, "benchmark": bench, "strategy": strat}, env=ENVS[envn],
                                  hw=hw)


def grid_interactive():
    strategies = [ABSENT] + STRATEGY_NAMES + ["DDP_Spawn"] + STRATEGY_INSTANCES[:4]
    for strat, acc, dev, hwn, fork in itertools.product(strategies, [ABSENT, "cpu", "gpu", "auto", "tpu"],
                                                        [ABSENT, 1, 2], ["cpu", "cuda2", "tpu"], [True, False]):
        hw = dict(HARDWARE[hwn])
        if not fork:
            hw["fork"] = False
        yield "interactive", case({"strategy": strat, "accelerator": acc, "devices": dev}, hw=hw,
                                  interactive=True)


GRIDS = {"strategy": grid_strategy, "devices": grid_devices, "cluster": grid_cluster,
         "precision": grid_precision, "plugins": grid_plugins, "legacy": grid_legacy,
         "determinism": grid_determinism, "interactive": grid_interactive}

RANDOM_POOLS = {
    "accelerator": ACCELERATORS + [ABSENT] * 6,
    "strategy": [ABSENT] * 8 + STRATEGY_NAMES + STRATEGY_VARIANTS + STRATEGY_INSTANCES,
    "devices": DEVICES + [ABSENT] * 6,
    "num_nodes": [ABSENT] * 8 + [1, 2, 4, "2", 0, -1, None],
    "precision": PRECISIONS + [ABSENT] * 6,
    "amp_backend": AMP_BACKENDS + [ABSENT] * 12,
    "amp_level": AMP_LEVELS + [ABSENT] * 12,
    "plugins": [ABSENT] * 16 + PLUGINS + [[a, b] for a, b in zip(PLUGINS, PLUGINS[3:])],
    "sync_batchnorm": [ABSENT] * 6 + [True, False],
    "deterministic": [ABSENT] * 8 + [None, True, False],
    "benchmark": [ABSENT] * 8 + [None, True, False],
    "gpus": [ABSENT] * 16 + [0, 1, 2, -1, "1", "0,1", [1]],
    "tpu_cores": [ABSENT] * 20 + [1, 8, [1], 0],
    "ipus": [ABSENT] * 20 + [1, 2],
    "num_processes": [ABSENT] * 20 + [1, 2],
    "auto_select_gpus": [ABSENT] * 16 + [True],
}


def grid_random(n, seed):
    rng = random.Random(seed)
    hw_names, env_names = list(HARDWARE), list(ENVS)
    for _ in range(n):
        flags = {k: rng.choice(v) for k, v in RANDOM_POOLS.items()}
        hw = dict(HARDWARE[rng.choice(hw_names)])
        if rng.random() < 0.15:
            hw["packages"] = ["apex"]
        if rng.random() < 0.1:
            hw["cudnn_benchmark"] = True
        if rng.random() < 0.1 and hw.get("cuda_devices"):
            hw["gpu_busy"] = [0]
        env = ENVS[rng.choice(env_names)] if rng.random() < 0.4 else {}
        yield "random", case(flags, env=env, hw=hw, interactive=rng.random() < 0.1)


def grid_plausible(n, seed):
    """Random cases a user would plausibly write: flags mostly consistent with the hardware (more plans)."""
    rng = random.Random(seed * 7919 + 1)
    hw_names = list(HARDWARE)
    acc_for = {"cpu": ["cpu"], "cuda1": ["gpu"], "cuda2": ["gpu"], "cuda4": ["gpu"], "tpu": ["tpu"], "ipu": ["ipu"],
               "hpu": ["hpu"]}
    strategies = [ABSENT] * 10 + STRATEGY_NAMES + ["DDP", "Ddp_Spawn"] + STRATEGY_INSTANCES[:12]
    for _ in range(n):
        hwn = rng.choice(hw_names)
        hw = dict(HARDWARE[hwn])
        acc = rng.choice(acc_for[hwn] * 4 + ["auto", ABSENT, "cpu"])
        flags = {"accelerator": acc, "strategy": rng.choice(strategies),
                 "devices": rng.choice([ABSENT, ABSENT, 1, 2, 4, -1, "auto", [0], [1], [0, 1], "0,1", 8]),
                 "num_nodes": rng.choice([ABSENT] * 6 + [1, 2, 4]),
                 "precision": rng.choice([ABSENT] * 4 + [16, 32, 64, "bf16", 16, "16"]),
                 "amp_backend": rng.choice([ABSENT] * 8 + ["native", "apex"]),
                 "sync_batchnorm": rng.choice([ABSENT] * 4 + [True, False]),
                 "deterministic": rng.choice([ABSENT] * 4 + [True, False, None]),
                 "benchmark": rng.choice([ABSENT] * 4 + [True, False, None])}
        if flags["amp_backend"] == "apex":
            hw["packages"] = ["apex"]
            flags["amp_level"] = rng.choice([ABSENT, "O1", "O2"])
        if rng.random() < 0.2:
            flags["plugins"] = rng.choice([p for p in PLUGINS if p not in ("unknown_plugin", "DDP")])
        if rng.random() < 0.15:
            legacy = rng.choice(["gpus", "tpu_cores", "ipus", "num_processes"])
            flags[legacy] = rng.choice([1, 2, 8, -1, [1], "1"])
        if rng.random() < 0.1 and hw.get("cuda_devices"):
            flags["auto_select_gpus"] = True
            if rng.random() < 0.5:
                hw["gpu_busy"] = [0]
        if rng.random() < 0.1:
            hw["cudnn_benchmark"] = True
        env = ENVS[rng.choice(list(ENVS))] if rng.random() < 0.35 else {}
        yield "random", case(flags, env=env, hw=hw, interactive=rng.random() < 0.08)


def vocabulary(vocab):
    """(grids, random generator, plausible generator) of a vocabulary: "1.6" here, "2.x" differential_cases_2x,
    "fabric" differential_cases_fabric (Lightning Fabric 2.2.5's connector)."""
    if vocab == "1.6":
        return GRIDS, grid_random, grid_plausible
    if vocab == "fabric":
        import differential_cases_fabric as vf

        return vf.GRIDS, vf.grid_random, vf.grid_plausible
    import differential_cases_2x as v2

    return v2.GRIDS, v2.grid_random, v2.grid_plausible


def generate(grids, n_random, seed, n_plausible=0, vocab="1.6"):
    seen, out = set(), []
    table, rand, plausible = vocabulary(vocab)
    streams = [table[g]() for g in grids] + ([rand(n_random, seed)] if n_random else [])
    streams += [plausible(n_plausible, seed)] if n_plausible else []
    for area, c in itertools.chain(*streams):
        key = json.dumps(c, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append((area, c))
    return out
