"""Oracle fixtures from Lightning outcomes: areas, requirements, expectations, the QUIRKS cases."""
import collections
import json
import os
import re

from differential_cases import case, slurm
from differential_compare import dig, freeze

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


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


# The tags of the 1.x Trainer's own flags (requires_of): in a 2.x vocabulary such a flag is an unexpected keyword,
# which every 2.x implementation answers, so it needs no tag there.
TRAINER_FLAG_TAGS = ("flag:amp_backend", "flag:amp_level", "flag:auto_select_gpus", "flag:legacy_devices")


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
