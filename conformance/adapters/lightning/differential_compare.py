"""Outcome classes compared field by field, known explanations, the difference report."""
import collections
import json
import os


# ---------------------------------------------------------------------------------------------------- comparison
# the outcome classes compared (a difference in one of these must be fixed or explained)
PRIMARY_FIELDS = [
    "accelerator", "accelerator_class", "devices", "parallel_devices", "num_nodes", "cluster_environment.class",
    "strategy.name", "strategy.class", "launcher.kind", "launcher.class", "launcher.start_method", "precision.value",
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


def _xla_runtime_stand_in(c, lo, d):
    return lo.get("status") == "error" and lo["error"]["code"] == "err_unmapped" and \
        "torch_xla.core.xla_env_vars" in lo["error"].get("message", "")


EXPLAINED = {
    "lsf-rank-file": ("LSFEnvironment() reads the hosts in LSB_DJOB_RANKFILE and looks this host up there; the oracle "
                      "machine has no such file, the model assumes a readable one (LSFEnvironment._read_hosts)", _lsf_without_rank_file),
    "torch-gradscaler-warning": ("torch's own UserWarning when a CUDA grad scaler is built without CUDA (a "
                                 "NativeMixedPrecisionPlugin on device cuda on a CPU box); not a connector message",
                                 _torch_gradscaler_warning),
    "xla-runtime-stand-in": ("XLAEnvironment reads the torch_xla runtime (torch_xla.core.xla_env_vars) for its ranks; the "
                             "oracle's stand-in torch_xla has no runtime, the model states the ranks before spawning",
                             _xla_runtime_stand_in),
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
