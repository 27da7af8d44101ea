#!/usr/bin/python3
"""Differential run: real Lightning (through adapter.py) against accord's reference, case by case.

    ACCORD_LIGHTNING_ROOT=~/accord-oracle /usr/bin/python3 differential.py --accord build/bin/accord [--cache DIR]

Generates systematic grids (accelerator x strategy x devices x hardware, cluster environments, precision x amp,
plugins, legacy device flags, determinism, interactive, instances) plus seeded random samples, runs them through
the Lightning adapter (`adapter.py --lightning 1.6`) and through `accord resolve --batch --profile lightning-1.6`,
and compares outcome classes field by field (status, error code, accelerator, devices, cluster environment,
strategy, launcher, precision, determinism, diagnostic code sets). Differences are grouped by
(field, reference value, Lightning value), each with its count and its smallest example case.

Other modes:
  --only-lightning      run the adapter only and count ok / error / skipped / errored (e.g. `--lightning 2.x`)
  --write-fixtures DIR  write `<area>/oracle-<topic>.json` fixtures whose expectations come from Lightning
                        (one case per distinct Lightning outcome class of each area, plus the QUIRKS list),
                        for the cases where the reference agrees (the others are listed, not written)
Only the Python standard library is used; Lightning is imported by the adapter, never here.
"""
import argparse
import collections
import gzip
import hashlib
import itertools
import json
import os
import random
import re
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

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


def generate(grids, n_random, seed, n_plausible=0):
    seen, out = set(), []
    streams = [GRIDS[g]() for g in grids] + ([grid_random(n_random, seed)] if n_random else [])
    streams += [grid_plausible(n_plausible, seed)] if n_plausible else []
    for area, c in itertools.chain(*streams):
        key = json.dumps(c, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append((area, c))
    return out


# ---------------------------------------------------------------------------------------------------- running
def stream(argv, requests, env=None):
    """Writes JSON lines to a process and returns its output lines (a writer thread avoids pipe deadlock)."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=env, text=True, bufsize=1 << 20)

    def write():
        try:
            for r in requests:
                proc.stdin.write(r + "\n")
        except BrokenPipeError:
            pass
        finally:
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass

    t = threading.Thread(target=write, daemon=True)
    t.start()
    lines = [json.loads(line) for line in proc.stdout if line.strip()]
    t.join()
    proc.wait()
    return lines


def run_lightning(cases, major, root):
    reqs = [json.dumps({"cmd": "start", "protocol": 1})]
    reqs += [json.dumps({"cmd": "resolve", "id": str(i), "profile": "lightning-1.6", "case": c})
             for i, (_, c) in enumerate(cases)]
    reqs.append(json.dumps({"cmd": "stop"}))
    env = dict(os.environ, ACCORD_LIGHTNING_ROOT=root)
    replies = stream(["/usr/bin/python3", os.path.join(HERE, "adapter.py"), "--lightning", major], reqs, env)
    if not replies or not replies[0].get("ok"):
        sys.exit(f"adapter did not start: {replies[:1]}")
    out = [None] * len(cases)
    for r in replies[1:]:
        out[int(r["id"])] = r
    return out


def slim(reply):
    """A reply without what the comparison never reads (messages shortened, trace dropped): smaller caches."""
    out = reply.get("outcome")
    if out is None:
        return reply
    out = dict(out)
    out.pop("trace", None)
    if "error" in out:
        out["error"] = dict(out["error"], message=out["error"].get("message", "")[:300])
    out["diagnostics"] = [dict(d, message=d.get("message", "")[:200]) for d in out.get("diagnostics", [])]
    return dict(reply, outcome=out)


def adapter_fingerprint(major):
    h = hashlib.sha1(major.encode())
    for name in ("adapter.py", "codes.py", "oracle.py"):
        with open(os.path.join(HERE, name), "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()[:16]


def run_lightning_cached(cases, major, root, cache_dir):
    """run_lightning, reusing the replies of an earlier run with the same adapter sources (cache_dir)."""
    if not cache_dir:
        return [slim(r) if r else r for r in run_lightning(cases, major, root)]
    os.makedirs(cache_dir, exist_ok=True)
    path = os.path.join(cache_dir, f"lightning-{major}-{adapter_fingerprint(major)}.jsonl.gz")
    known = {}
    if os.path.exists(path):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                known[rec["k"]] = rec["r"]
    keys = [json.dumps(c, sort_keys=True) for _, c in cases]
    todo = [i for i, k in enumerate(keys) if k not in known]
    print(f"lightning cache: {len(cases) - len(todo)} known, {len(todo)} to run", file=sys.stderr)
    if todo:
        fresh = run_lightning([cases[i] for i in todo], major, root)
        with gzip.open(path, "at", encoding="utf-8") as fh:
            for i, r in zip(todo, fresh):
                r = slim(r) if r else {"errored": "no reply"}
                r.pop("id", None)
                known[keys[i]] = r
                fh.write(json.dumps({"k": keys[i], "r": r}) + "\n")
    return [known[k] for k in keys]


def run_reference(cases, accord, profile):
    reqs = [json.dumps(c) for _, c in cases]
    return stream([accord, "resolve", "--batch", "--profile", profile], reqs)


# ---------------------------------------------------------------------------------------------------- comparison
# the outcome classes compared (a difference in one of these must be fixed or explained)
PRIMARY_FIELDS = [
    "accelerator", "accelerator_class", "devices", "parallel_devices", "num_nodes", "cluster_environment.class",
    "strategy.name", "strategy.class", "launcher.kind", "launcher.start_method", "precision.value",
    "precision.plugin", "precision.amp_backend", "checkpoint_io", "layer_sync",
    "determinism.use_deterministic_algorithms", "determinism.warn_only", "determinism.cudnn_benchmark",
    "determinism.cudnn_deterministic", "determinism.env",
]
# derived values, reported separately; a Lightning `null` (a property Lightning cannot compute before the
# processes exist, e.g. a TPU world size without torch_xla) is not compared
SECONDARY_FIELDS = [
    "num_processes", "cluster_environment.creates_processes_externally", "cluster_environment.world_size",
    "cluster_environment.global_rank", "cluster_environment.local_rank", "cluster_environment.node_rank",
    "strategy.family", "strategy.params", "strategy.root_device", "launcher.interactive_compatible",
    "precision.amp_level", "precision.device", "is_distributed",
]
PLAN_FIELDS = PRIMARY_FIELDS + SECONDARY_FIELDS
SECONDARY = {"plan." + f for f in SECONDARY_FIELDS}


def dig(obj, path):
    for part in path.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return "<missing>"
        obj = obj[part]
    return obj


def features(outcome):
    """The comparable outcome class of one outcome: field -> hashable value."""
    f = {"status": outcome.get("status")}
    if outcome.get("status") == "error":
        f["error.code"] = outcome["error"]["code"]
    elif outcome.get("status") == "ok":
        for p in PLAN_FIELDS:
            f["plan." + p] = dig(outcome["plan"], p)
    codes = [d["code"] for d in outcome.get("diagnostics", [])]
    f["diagnostics"] = sorted(set(codes))
    return f


def freeze(v):
    return json.dumps(v, sort_keys=True)


# Differences that are understood and cannot be removed (the model cannot express them, or the oracle fakes the
# value). Each: key -> (reason, predicate(case, lightning outcome, difference)). Explained differences are counted
# per key and kept out of the groups.
def _lsf_without_rank_file(c, lo, d):
    f = (c.get("env") or {}).get("LSB_DJOB_RANKFILE")
    return f is not None and not os.path.exists(f) and lo.get("status") == "error" and \
        "No such file or directory" in lo["error"].get("message", "")


def _torch_gradscaler_warning(c, lo, d):
    return d[0] == "diagnostics" and d[1] == "+" and d[2] == "+warn_unmapped" and any(
        x["code"] == "warn_unmapped" and x["message"].startswith("torch.cuda.amp.GradScaler is enabled")
        for x in lo.get("diagnostics", []))


def _xla_process_property(c, lo, d):
    return d[0] in ("plan.strategy.root_device", "plan.is_distributed") and lo.get("status") == "ok" and \
        lo["plan"]["strategy"]["class"] == "TPUSpawnStrategy"


EXPLAINED = {
    "lsf-rank-file": ("LSFEnvironment() reads the hosts in LSB_DJOB_RANKFILE and looks this host up there; the oracle "
                      "machine has no such file, the model assumes a readable one (LSFEnvironment._read_hosts)", _lsf_without_rank_file),
    "torch-gradscaler-warning": ("torch's own UserWarning when a CUDA grad scaler is built without CUDA (a "
                                 "NativeMixedPrecisionPlugin on device cuda on a CPU box); not a connector message",
                                 _torch_gradscaler_warning),
    "xla-process-property": ("TPUSpawnStrategy.root_device / is_distributed are defined inside the spawned XLA "
                             "processes (xm.xla_device(), HOST_WORLD_SIZE); before spawning the oracle's fake answers",
                             _xla_process_property),
}


def explain(c, lo, d):
    for key, (_, pred) in EXPLAINED.items():
        if pred(c, lo, d):
            return key
    return None


def compare(cases, ref, lit, secondary=True, explained=None):
    stats = collections.Counter()
    groups = {}  # (field, ref value, lightning value) -> [count, smallest example]
    per_case = []
    for i, ((area, c), r, l) in enumerate(zip(cases, ref, lit)):
        if l is None or "outcome" not in l:
            stats["lightning " + ("skipped" if l and "skipped" in l else "errored")] += 1
            per_case.append(None)
            continue
        if r.get("status") == "invalid":
            stats["reference invalid"] += 1
            per_case.append(None)
            continue
        stats["compared"] += 1
        fr, fl = features(r), features(l["outcome"])
        diffs = []
        if fr["status"] != fl["status"]:
            diffs.append(("status", fr["status"], fl["status"]))
            if "error.code" in fr or "error.code" in fl:
                diffs.append(("status/code", fr.get("error.code", "ok"), fl.get("error.code", "ok")))
        else:
            for k in fr:
                if k == "diagnostics" or (k in SECONDARY and (fl.get(k) is None or not secondary)):
                    continue
                if fr[k] != fl.get(k):
                    diffs.append((k, fr[k], fl.get(k)))
        if fr["diagnostics"] != fl["diagnostics"]:
            only_r = sorted(set(fr["diagnostics"]) - set(fl["diagnostics"]))
            only_l = sorted(set(fl["diagnostics"]) - set(fr["diagnostics"]))
            diffs.append(("diagnostics", "+" + ",".join(only_r), "+" + ",".join(only_l)))
        kept = []
        for d in diffs:
            why = explain(c, l["outcome"], d)
            if why:
                stats["explained differences: " + why] += 1
            else:
                kept.append(d)
        explained_case = bool(diffs) and not kept
        diffs = kept
        per_case.append(diffs)
        if any(d[0] not in SECONDARY for d in diffs):
            stats["different"] += 1
            stats["different " + area] += 1
        elif diffs:
            stats["different in secondary fields only"] += 1
        elif explained_case:
            stats["explained (every difference of the case)"] += 1
            if explained is not None:
                explained.add(i)
        else:
            stats["agree"] += 1
        for d in diffs:
            key = (d[0], freeze(d[1]), freeze(d[2]))
            size = len(json.dumps(c))
            g = groups.setdefault(key, [0, None, 1 << 30, collections.Counter()])
            g[0] += 1
            g[3][area] += 1
            if size < g[2]:
                g[1], g[2] = i, size
    return stats, groups, per_case


def report(cases, ref, lit, stats, groups, limit, out):
    w = out.write
    w(f"cases generated: {len(cases)}\n")
    for k in sorted(stats):
        w(f"  {k}: {stats[k]}\n")
    w(f"difference groups: {len(groups)}\n\n")
    ordered = sorted(groups.items(), key=lambda kv: (kv[0][0] in SECONDARY, -kv[1][0], kv[0]))
    for (field, rv, lv), (n, idx, _, areas) in ordered[:limit]:
        w(f"[{n}] {field}: reference={rv} lightning={lv}  areas={dict(areas)}\n")
        w(f"    case: {json.dumps(cases[idx][1])}\n")
        lo = lit[idx]["outcome"]
        detail = lo.get("error", {}).get("message", "")[:200] if lo["status"] == "error" else ""
        rdetail = ref[idx].get("error", {}).get("message", "")[:200] if ref[idx].get("status") == "error" else ""
        if detail or rdetail:
            w(f"    lightning: {detail}\n    reference: {rdetail}\n")
        if field == "diagnostics":
            w(f"    lightning diags: {[(d['code'], d['message'][:100]) for d in lo.get('diagnostics', [])]}\n")
    if len(ordered) > limit:
        w(f"... {len(ordered) - limit} more groups\n")


# ---------------------------------------------------------------------------------------------------- fixtures
AREA_OF = {"strategy": "strategy", "devices": "devices", "cluster": "cluster", "precision": "precision-selection",
           "precision-selection": "precision-selection", "flags": "flags", "legacy": "legacy",
           "determinism": "determinism", "interactive": "interactive", "random": None}
REQUIRES_OF_ACC = {"tpu": "accelerator:tpu", "ipu": "accelerator:ipu", "hpu": "accelerator:hpu", "gpu": "accelerator:gpu",
                   "cpu": "accelerator:cpu"}
LEGACY_FLAGS = ("gpus", "tpu_cores", "ipus", "num_processes")


def fixture_class(area, out):
    """What makes two Lightning outcomes of one area 'the same class' for fixture selection."""
    if out["status"] == "error":
        return (area, "error", out["error"]["code"], tuple(sorted({d["code"] for d in out["diagnostics"]})))
    p = out["plan"]
    return (area, "ok", p["accelerator"], p["strategy"]["name"], p["strategy"]["class"],
            p["cluster_environment"]["class"], p["precision"]["plugin"], p["precision"]["value"],
            p["launcher"]["kind"], len(p["parallel_devices"]) > 1,
            tuple(sorted({d["code"] for d in out["diagnostics"]})),
            freeze(p["determinism"]) if area == "determinism" else "")


def requires_of(c, out):
    req = set()
    flags, hw = c.get("flags", {}), c.get("hardware", {})
    if out["status"] == "ok" and out["plan"]["accelerator"] in REQUIRES_OF_ACC:
        req.add(REQUIRES_OF_ACC[out["plan"]["accelerator"]])
    for k in ("tpu", "ipu", "hpu"):
        if hw.get(k):
            req.add(REQUIRES_OF_ACC[k])
    if hw.get("cuda_devices") or (out["status"] == "ok" and out["plan"]["accelerator"] == "gpu"):
        req.add("accelerator:gpu")
    for f in ("amp_backend", "amp_level", "auto_select_gpus"):
        if f in flags:
            req.add("flag:" + f)
    if any(f in flags for f in LEGACY_FLAGS):
        req.add("flag:legacy_devices")
    env = c.get("env", {})
    if env:
        req.add("env")
    for var, tag in (("SLURM_NTASKS", "env:slurm"), ("LSB_JOBID", "env:lsf"), ("TORCHELASTIC_RUN_ID", "env:torchelastic"),
                     ("KUBERNETES_PORT", "env:kubeflow"), ("BAGUA_SERVICE_PORT", "env:bagua")):
        if var in env:
            req.add(tag)
    for p in hw.get("packages", []):
        req.add("package:" + p)
    for key, tag in (("gpu_busy", "hardware:gpu_busy"),):
        if hw.get(key):
            req.add(tag)
    if hw.get("fork") is False:
        req.add("hardware:no_fork")
    if hw.get("torch_distributed") is False:
        req.add("hardware:no_distributed")
    if c.get("interactive"):
        req.add("interactive")
    if "determinism" in json.dumps(out.get("plan", {})) and ("deterministic" in flags or "benchmark" in flags):
        req.add("determinism")
    if any(is_instance_value(v) for v in flags.values()):
        req.add("flag:instances")
    return sorted(req)


def is_instance_value(v):
    if isinstance(v, list):
        return any(is_instance_value(x) for x in v)
    return (isinstance(v, dict) and "class" in v) or (isinstance(v, str) and re.match(
        r"^[A-Z][A-Za-z0-9]*(Accelerator|Strategy|Plugin|Environment|IO|BatchNorm|LayerSync)$", v) is not None)


def expectation(area, out, spec_fields):
    """The expectation of a fixture, from the Lightning outcome only."""
    codes = sorted({d["code"] for d in out["diagnostics"]})
    if out["status"] == "error":
        err = {"code": out["error"]["code"]}
        fields = sorted(k for k in out["error"]["fields"] if k in spec_fields.get(err["code"], ()))
        if fields:
            err["fields"] = fields
        exp = {"error": err}
    else:
        p = out["plan"]
        plan = {"accelerator": p["accelerator"], "parallel_devices": p["parallel_devices"],
                "strategy": {"name": p["strategy"]["name"], "class": p["strategy"]["class"]},
                "launcher": {"kind": p["launcher"]["kind"]},
                "precision": {"plugin": p["precision"]["plugin"], "value": p["precision"]["value"]},
                "cluster_environment": {"class": p["cluster_environment"]["class"]}}
        # a derived value Lightning could not compute (null) is not compared by the driver, so never expected
        if area in ("cluster",):
            plan["cluster_environment"] = {k: v for k, v in p["cluster_environment"].items() if v is not None}
            plan["num_nodes"] = p["num_nodes"]
        if area in ("devices", "legacy"):
            plan["devices"] = p["devices"]
        if area == "determinism":
            plan["determinism"] = p["determinism"]
        if area == "precision-selection":
            plan["precision"] = {k: v for k, v in p["precision"].items()
                                 if v is not None or k in ("value", "plugin", "amp_backend")}
        if area == "interactive":
            plan["launcher"] = p["launcher"]
        exp = {"plan": plan}
    if not any(c.endswith("_unmapped") for c in codes):
        exp["diagnostics"] = codes
        exp["diagnostics_exact"] = True
    return exp


def shown(v):
    """A flag value as the Python user writes it (class-name strings and {"class": ...} objects as calls)."""
    if isinstance(v, dict):
        args = ", ".join(f"{k}={shown(x)}" for k, x in (v.get("args") or {}).items())
        return f"{v['class']}({args})"
    if isinstance(v, str) and re.match(r"^[A-Z][A-Za-z0-9]*(Accelerator|Strategy|Plugin|Environment|IO|BatchNorm|"
                                       r"LayerSync)$", v):
        return f"{v}()"
    if isinstance(v, list):
        return "[" + ", ".join(shown(x) for x in v) + "]"
    return repr(v)


def describe(c):
    parts = [f"{k}={shown(v)}" for k, v in c.get("flags", {}).items()]
    hw = c.get("hardware", {})
    where = []
    if hw.get("cuda_devices"):
        where.append(f"{hw['cuda_devices']} GPU")
    where += [k.upper() for k in ("tpu", "ipu", "hpu") if hw.get(k)]
    where += [f"{k}={v}" for k, v in hw.items() if k not in ("cuda_devices", "tpu", "ipu", "hpu")]
    env = c.get("env", {})
    if env:
        where.append("env " + ",".join(sorted(env))[:60])
    if c.get("interactive"):
        where.append("interactive")
    return "Trainer(" + ", ".join(parts) + ")" + (" on " + ", ".join(where) if where else " on a CPU box")


def outcome_words(out):
    codes = sorted({d["code"] for d in out["diagnostics"]})
    tail = f" [{', '.join(codes)}]" if codes else ""
    if out["status"] == "error":
        return out["error"]["code"] + tail
    p = out["plan"]
    return (f"{p['accelerator']} x{len(p['parallel_devices'])}, {p['strategy']['name']}, "
            f"{p['cluster_environment']['class']}, {p['precision']['plugin']}({p['precision']['value']})" + tail)


def slugify(text, n=60):
    text = re.sub(r"'(-?[\d,. ]*)'", r" str \1 ", text)  # precision='16' -> precision-str-16
    text = re.sub(r"(?<![\w.])-(?=\d)", " minus ", text)  # devices=-1 -> devices-minus-1
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:n].strip("-") or "case"


def spec_fields_of_codes():
    """code -> field names declared by its template in reference/tables/diagnostics.def."""
    out = {}
    path = os.path.join(REPO, "reference", "tables", "diagnostics.def")
    for m in re.finditer(r'ACCORD_DIAG\(\w+, "(\w+)", \w+, \w+, "(.*)"\)', open(path, encoding="utf-8").read()):
        out[m.group(1)] = set(re.findall(r"\{(\w+)\}", m.group(2)))
    return out


# Hand-picked quirks of 1.6.5 (area, slug, title, case, extra plan fields to expect); always written when the
# reference agrees. Their expectations, like every other, are what Lightning produced.
QUIRKS = [
    ("strategy", "strategy-name-case-insensitive", "strategy='DDP_Spawn' is lower-cased (1.6.1 #12528)",
     case({"strategy": "DDP_Spawn", "accelerator": "cpu", "devices": 2}), []),
    ("flags", "accelerator-wrong-case-ignored", "accelerator='GPU' is not a registered name and is ignored: CPU",
     case({"accelerator": "GPU", "devices": 1}, hw={"cuda_devices": 2}), []),
    ("precision-selection", "precision-string-16-unset", "precision='16' (a string) passes the whitelist, then "
     "matches no plugin: RuntimeError 'No precision set'", case({"precision": "16", "accelerator": "gpu"},
                                                                hw={"cuda_devices": 1}), []),
    ("strategy", "gpu-accelerator-instance-single-device-on-cpu", "accelerator=GPUAccelerator() with 1 device: the "
     "default SingleDeviceStrategy compares the flag to 'gpu' and gets device cpu (_choose_strategy)",
     case({"accelerator": "GPUAccelerator", "devices": 1}, hw={"cuda_devices": 1}), ["strategy.root_device"]),
    ("strategy", "dp-on-cpu-warning-silenced-off-rank-zero", "strategy='dp' on CPU with RANK=1: the fallback to ddp "
     "is silent on that rank (rank_zero_warn)", case({"strategy": "dp", "accelerator": "cpu"}, env={"RANK": "1"}),
     []),
    ("cluster", "slurm-managing-info-only-on-rank-zero", "SLURM manages 2 tasks; on SLURM_PROCID=1 the "
     "'Multiprocessing is handled by SLURM' info is not emitted",
     case({"accelerator": "cpu", "devices": 2}, env=slurm(2, 1, 1, 0)), ["cluster_environment"]),
    ("strategy", "ipu-strategy-instance-without-ipu", "IPUStrategy() cannot be built without IPUs, before the "
     "Trainer runs", case({"strategy": "IPUStrategy", "accelerator": "cpu"}), []),
    ("flags", "hpu-precision-plugin-without-hpu", "plugins=[HPUPrecisionPlugin()] without HPUs fails in the "
     "plugin's constructor, before any flag check", case({"plugins": ["HPUPrecisionPlugin", "ddp"],
                                                          "strategy": "ddp"}), []),
    ("flags", "apex-plugin-without-apex", "plugins=[ApexMixedPrecisionPlugin()] without apex fails in the plugin's "
     "constructor, before the duplicate-plugin check", case({"plugins": ["PrecisionPlugin",
                                                                         "ApexMixedPrecisionPlugin"]}), []),
    ("precision-selection", "apex-reports-mixed", "amp_backend='apex', precision=16 on a GPU: the apex plugin's "
     "precision attribute is 'mixed'", case({"accelerator": "gpu", "precision": 16, "amp_backend": "apex"},
                                            hw={"cuda_devices": 1, "packages": ["apex"]}), []),
    ("precision-selection", "bf16-unknown-amp-backend-attribute-error", "precision='bf16', amp_backend='foo': "
     "formatting the bf16/apex message reads None.value (AttributeError)",
     case({"precision": "bf16", "amp_backend": "foo"}), []),
    ("legacy", "auto-select-all-gpus-one-busy", "auto_select_gpus=True, gpus=-1 with GPU 0 busy: every visible GPU "
     "must pass the probe -> 'No GPUs available.'", case({"auto_select_gpus": True, "gpus": -1},
                                                         hw={"cuda_devices": 2, "gpu_busy": [0]}), []),
    ("flags", "pl-trainer-env-defaults", "PL_TRAINER_DEVICES=2 and PL_TRAINER_ACCELERATOR=cpu supply the flags "
     "the case does not pass", case({}, env={"PL_TRAINER_DEVICES": "2", "PL_TRAINER_ACCELERATOR": "cpu"}), []),
    ("flags", "pl-trainer-env-explicit-flag-wins", "PL_TRAINER_DEVICES=2 but devices=1 is passed: the flag wins",
     case({"devices": 1}, env={"PL_TRAINER_DEVICES": "2", "PL_TRAINER_ACCELERATOR": "cpu"}), []),
    ("flags", "empty-strategy-with-accelerator-ddp-cpu", "strategy='' is falsy, so accelerator='ddp_cpu' still "
     "sets the strategy flag: ddp_spawn", case({"strategy": "", "accelerator": "ddp_cpu", "devices": 2}), []),
    ("flags", "empty-strategy-unknown", "strategy='' is not None, so no default strategy is chosen; the registry "
     "does not know ''", case({"strategy": ""}), []),
    ("cluster", "ddp2-torchelastic-reads-node-rank-only", "ddp2 under TorchElastic with only TORCHELASTIC_RUN_ID: "
     "DDP2.set_world_ranks reads the node rank only", case({"strategy": "ddp2", "accelerator": "gpu"},
                                                          env={"TORCHELASTIC_RUN_ID": "x"},
                                                          hw={"cuda_devices": 2}), ["cluster_environment"]),
    ("cluster", "ddp-spawn-local-rank-env-ignored", "ddp_spawn with LOCAL_RANK=1: set_world_ranks(process_idx=0) "
     "makes global rank 0 and root device cuda:0", case({"accelerator": "gpu", "devices": 2},
                                                        env={"LOCAL_RANK": "1"}, hw={"cuda_devices": 2}),
     ["cluster_environment", "strategy.root_device"]),
    ("strategy", "tpu-spawn-instance-has-xla-checkpoint-io", "TPUSpawnStrategy() builds an XLACheckpointIO, so a "
     "TorchCheckpointIO plugin is a second checkpoint io", case({"strategy": "TPUSpawnStrategy",
                                                                  "plugins": ["TorchCheckpointIO"]}), []),
    ("determinism", "deterministic-int-warns-then-fails", "deterministic=1, benchmark=True: the benchmark warning "
     "comes first, then torch rejects the int", case({"deterministic": 1, "benchmark": True}), []),
    ("strategy", "dp-runs-one-process", "strategy='dp' on 2 GPUs: one process drives both devices",
     case({"strategy": "dp", "accelerator": "gpu", "devices": 2}, hw={"cuda_devices": 2}),
     ["num_processes", "strategy.root_device"]),
    ("cluster", "slurm-hex-task-count", "SLURM_NTASKS='0x2' is read with int(x, 0): SLURM manages 2 tasks",
     case({"accelerator": "cpu", "devices": 2}, env=slurm("0x2")), ["cluster_environment"]),
    ("legacy", "tpu-cores-zero-ignored", "tpu_cores=0 is falsy: ignored, CPU", case({"tpu_cores": 0},
                                                                                   hw={"tpu": True}), []),
    ("devices", "devices-empty-list-error", "devices=[] is rejected before the legacy mapping, even with gpus=2",
     case({"devices": [], "gpus": 2}, hw={"cuda_devices": 2}), []),
    ("interactive", "interactive-ddp-spawn-rejected", "an interactive session cannot use the spawn launcher (1.6.5 "
     "always uses start method spawn)", case({"accelerator": "cpu", "devices": 2}, interactive=True), []),
]


def quirk_cases():
    return [(area, c) for area, _, _, c, _ in QUIRKS]


def diversify(idxs, cases, lit):
    """Orders one area's candidate cases so that the first N cover as many error codes / strategies as possible;
    also returns how many such coarse classes there are."""
    buckets = collections.OrderedDict()
    for i in sorted(idxs, key=lambda i: len(json.dumps(cases[i][1]))):
        o = lit[i]["outcome"]
        coarse = ("e", o["error"]["code"]) if o["status"] == "error" else ("p", o["plan"]["strategy"]["name"],
                                                                          o["plan"]["accelerator"])
        buckets.setdefault(coarse, []).append(i)
    out, n_buckets = [], len(buckets)
    while any(buckets.values()):
        for b in buckets.values():
            if b:
                out.append(b.pop(0))
    return out, n_buckets


def fixture_of(area, slug, title, c, out, ref_out, spec_fields, extra):
    exp = expectation(area, out, spec_fields)
    if "error" in exp and "fields" in exp["error"]:  # only the field names the reference also writes
        exp["error"]["fields"] = [k for k in exp["error"]["fields"] if k in ref_out.get("error", {}).get("fields", {})]
        if not exp["error"]["fields"]:
            del exp["error"]["fields"]
    if "plan" in exp:
        for path in extra:
            v = dig(out["plan"], path)
            if isinstance(v, dict):
                v = {k: x for k, x in v.items() if x is not None or k in ("kind", "start_method")}
            if v is None:
                continue
            node = exp["plan"]
            parts = path.split(".")
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            node[parts[-1]] = v
    f = {"id": f"{area}/{slug}", "title": title, "requires": requires_of(c, out), "profiles": ["lightning-1.6"],
         "origin": "lightning-1.6.5", "given": c, "expect": exp}
    if not f["requires"]:
        del f["requires"]
    return f


def write_fixtures(cases, ref, lit, per_case, explained, outdir, per_area_max, log):
    spec_fields = spec_fields_of_codes()
    by_area = collections.defaultdict(dict)  # area -> fixture class -> case index
    quirk_index = {}
    n_quirks = len(QUIRKS)
    first_quirk = len(cases) - n_quirks
    for i, (area, c) in enumerate(cases):
        if i >= first_quirk:
            quirk_index[i] = QUIRKS[i - first_quirk]
            continue
        fa = AREA_OF.get(area)
        l = lit[i]
        if fa is None or l is None or "outcome" not in l or per_case[i] or i in explained:
            continue
        key = fixture_class(fa, l["outcome"])
        if key not in by_area[fa] or len(json.dumps(c)) < len(json.dumps(cases[by_area[fa][key]][1])):
            by_area[fa][key] = i
    files = collections.defaultdict(list)  # (area, topic) -> fixtures
    held = []
    for i, (area, slug, title, c, extra) in quirk_index.items():
        if per_case[i] or i in explained or "outcome" not in (lit[i] or {}):
            held.append((area, i, per_case[i]))
            continue
        out = lit[i]["outcome"]
        files[(area, "quirks")].append(fixture_of(area, "oracle-" + slug, f"{title} -> {outcome_words(out)}", c, out,
                                                  ref[i], spec_fields, extra))
    for area, classes in sorted(by_area.items()):
        used = {f["id"] for fs in files.values() for f in fs}
        extra_of_area = {"cluster": ["cluster_environment", "num_nodes"], "interactive": ["launcher"],
                         "strategy": ["num_processes"]}.get(area, [])
        ordered, n_buckets = diversify(list(classes.values()), cases, lit)
        for i in ordered[:max(per_area_max, n_buckets)]:  # every error code / strategy x accelerator at least once
            c, out = cases[i][1], lit[i]["outcome"]
            slug = "oracle-" + slugify(describe(c).replace("Trainer(", ""), 70)
            base, k = slug, 2
            while f"{area}/{slug}" in used:
                slug, k = f"{base}-{k}", k + 1
            used.add(f"{area}/{slug}")
            topic = "errors" if out["status"] == "error" else "plans"
            files[(area, topic)].append(fixture_of(area, slug, f"{describe(c)} -> {outcome_words(out)}", c, out,
                                                   ref[i], spec_fields, extra_of_area))
    written = 0
    for (area, topic), fixtures in sorted(files.items()):
        os.makedirs(os.path.join(outdir, area), exist_ok=True)
        path = os.path.join(outdir, area, f"oracle-{topic}.json")
        with open(path, "w", encoding="utf-8") as fh:
            what = ("hand-picked 1.6.5 quirks" if topic == "quirks" else
                    f"one case per distinct Lightning 1.6.5 outcome class of the {area} grid ({topic})")
            fh.write('{\n  "description": "Generated by conformance/adapters/lightning/differential.py '
                     f'--write-fixtures: {what}; every expectation is what real Lightning 1.6.5 produced '
                     '(through adapter.py), written only where the reference agreed.",\n  "cases": [\n')
            fh.write(",\n".join("    " + json.dumps(f) for f in fixtures))
            fh.write("\n  ]\n}\n")
        written += len(fixtures)
        log.write(f"wrote {len(fixtures)} fixtures to {path}\n")
    for area, i, diffs in held:
        log.write(f"held back ({area}, reference disagrees or explained): {json.dumps(cases[i][1])} {diffs}\n")
    return written


# ---------------------------------------------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--accord", default=os.path.join(REPO, "build", "bin", "accord"),
                    help="the accord binary (its `resolve --batch --profile P` is the reference)")
    ap.add_argument("--lightning", default="1.6", choices=["1.6", "2.x"])
    ap.add_argument("--root", default=os.environ.get("ACCORD_LIGHTNING_ROOT", os.path.expanduser("~/accord-oracle")))
    ap.add_argument("--profile", default="lightning-1.6")
    ap.add_argument("--grids", default=",".join(GRIDS), help="comma separated: " + ",".join(GRIDS))
    ap.add_argument("--random", type=int, default=20000, help="random cases (0: none)")
    ap.add_argument("--plausible", type=int, default=20000, help="random hardware-consistent cases (0: none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache", help="folder for Lightning replies, reused while the adapter sources are unchanged")
    ap.add_argument("--primary-only", action="store_true", help="do not compare the secondary (derived) fields")
    ap.add_argument("--limit", type=int, default=60, help="difference groups to print")
    ap.add_argument("--json", help="write the difference groups and counts as JSON to this file")
    ap.add_argument("--log", help="append one line of numbers per run to this file")
    ap.add_argument("--only-lightning", action="store_true", help="run the adapter only; count outcomes")
    ap.add_argument("--write-fixtures", metavar="DIR", help="write oracle fixtures below DIR (fixtures/cases)")
    ap.add_argument("--per-area", type=int, default=30, help="generated fixtures per area at most")
    ap.add_argument("--dump-cases", help="write the generated cases (JSON lines) to this file and exit")
    args = ap.parse_args()

    grids = [g for g in args.grids.split(",") if g]
    t0 = time.time()
    cases = generate(grids, args.random, args.seed, args.plausible)
    if args.write_fixtures:  # the quirks go last, undeduplicated, so write_fixtures finds them by position
        cases += quirk_cases()
    if args.dump_cases:
        with open(args.dump_cases, "w", encoding="utf-8") as fh:
            for area, c in cases:
                fh.write(json.dumps({"area": area, "case": c}) + "\n")
        return 0
    print(f"generated {len(cases)} cases in {time.time() - t0:.1f}s", file=sys.stderr)
    t1 = time.time()
    lit = run_lightning_cached(cases, args.lightning, args.root, args.cache)
    print(f"lightning {args.lightning}: {time.time() - t1:.1f}s", file=sys.stderr)
    if args.only_lightning:
        counts = collections.Counter()
        for (area, _), l in zip(cases, lit):
            kind = ("skipped" if "skipped" in l else "errored" if "errored" in l else l["outcome"]["status"])
            counts[kind] += 1
            counts[f"{area}: {kind}"] += 1
            if kind == "error":
                counts["error code " + l["outcome"]["error"]["code"]] += 1
        for k in sorted(counts):
            print(f"{k}: {counts[k]}")
        return 0
    t2 = time.time()
    ref = run_reference(cases, args.accord, args.profile)
    print(f"reference: {time.time() - t2:.1f}s", file=sys.stderr)
    if len(ref) != len(cases):
        sys.exit(f"reference answered {len(ref)} of {len(cases)} cases")
    explained = set()
    stats, groups, per_case = compare(cases, ref, lit, not args.primary_only, explained)
    report(cases, ref, lit, stats, groups, args.limit, sys.stdout)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"stats": stats, "groups": [
                {"field": k[0], "reference": json.loads(k[1]), "lightning": json.loads(k[2]), "count": v[0],
                 "areas": v[3], "example": cases[v[1]][1]} for k, v in sorted(groups.items(), key=lambda kv: -kv[1][0])
            ]}, fh, indent=1)
    if args.log:
        with open(args.log, "a", encoding="utf-8") as fh:
            fh.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} grids={args.grids} random={args.random} "
                     f"plausible={args.plausible} seed={args.seed} "
                     f"cases={len(cases)} compared={stats['compared']} agree={stats['agree']} "
                     f"different={stats['different']} "
                     f"secondary_only={stats['different in secondary fields only']} "
                     f"explained={stats['explained (every difference of the case)']} groups={len(groups)} "
                     f"skipped={stats['lightning skipped']} errored={stats['lightning errored']}\n")
    if args.write_fixtures:
        n = write_fixtures(cases, ref, lit, per_case, explained, args.write_fixtures, args.per_area, sys.stderr)
        print(f"fixtures written: {n}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
