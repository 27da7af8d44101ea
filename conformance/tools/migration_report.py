#!/usr/bin/env python3
"""migration_report.py: the decision-table difference between two accord profiles as a markdown page.

Enumerates the domain under both profiles (`accord enumerate`), quotes `accord diff-table`, then resolves
every cell itself (`accord resolve --batch`) and groups the cells whose outcomes differ by the rule that
decides the difference. Output is deterministic (no timings, dates or absolute paths), so a test can
regenerate it and compare with the committed page (`--check PAGE`).

    python3 conformance/tools/migration_report.py --accord build/bin/accord \\
        --domain property_tests/domains/migration.json --out reference/migration/lightning-1.6-to-2.2.md

Python standard library only.
"""
import argparse
import collections
import difflib
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RENAME_GROUP = "same decision, 2.x names"
# 1.x names of the same decision under 2.x: precision values, accelerator and strategy names, the TPU environment.
PRECISION_RENAMES = {"16": "16-mixed", "32": "32-true", "64": "64-true", "bf16": "bf16-mixed"}
ACCELERATOR_RENAMES = {"gpu": "cuda"}
STRATEGY_RENAMES = {"tpu_spawn": "xla", "single_tpu": "single_xla"}
TPU_ENVIRONMENT = ("Lightning", "XLA")  # on TPU, 2.x reads the ranks from the XLA runtime (XLAEnvironment)
TOP_PAIRS = 5
TOP_CLASS_PAIRS = 10


def fail(msg):
    sys.stderr.write("migration_report: " + msg + "\n")
    sys.exit(2)


def run(cmd, ok=(0,), stdin=None):
    p = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode not in ok:
        fail("`%s` exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    return p.stdout


def rel(path):
    """A path for the page: relative to the repository when inside it, else its file name."""
    full = os.path.abspath(path)
    if full.startswith(REPO + os.sep):
        return os.path.relpath(full, REPO).replace(os.sep, "/")
    return os.path.basename(full)


# ---------------------------------------------------------------- domain -> cases

def wire(v):
    return "-" if v is None else (v if isinstance(v, str) else json.dumps(v))


def axis_values(axis):
    """[(label, fragment)] of one axis, in table order ('-' first where the axis has `absent`)."""
    if "presets" in axis:
        return [(p["label"], p["case"]) for p in axis["presets"]]
    for kind, field in (("flag", "flags"), ("hardware", "hardware"), ("env", "env")):
        if kind in axis:
            out = [("-", {})] if axis.get("absent") else []
            return out + [(wire(v), {field: {axis[kind]: v}}) for v in axis["values"]]
    if "interactive" in axis:
        return [(wire(v), {"interactive": v}) for v in axis["values"]]
    fail("axis %r: expected one of flag, hardware, env, interactive, presets" % axis.get("name"))


def merge(case, frag):
    for key, val in frag.items():
        if isinstance(val, dict):
            case.setdefault(key, {}).update(val)
        else:
            case[key] = val


def cells(domain):
    """Every cell of the domain, last axis fastest: (description, case)."""
    axes = domain["axes"]
    values = [axis_values(a) for a in axes]
    for combo in itertools.product(*values):
        case = {}
        for _, frag in combo:
            merge(case, frag)
        where = " ".join("%s=%s" % (a["name"], label) for a, (label, _) in zip(axes, combo))
        yield where, case


# ---------------------------------------------------------------- outcomes

def env_name(cls):
    return cls[:-len("Environment")] if cls.endswith("Environment") and cls != "Environment" else cls


def outcome_class(o):
    """The decision-table class of one wire outcome (conformance/src/enumerate/outcome_class.cc)."""
    if o.get("status") == "error" and "error" in o:
        return o["error"].get("code", "?")
    p = o.get("plan")
    if o.get("status") != "ok" or not isinstance(p, dict):
        return "!invalid"
    devices = len(p["parallel_devices"]) if isinstance(p.get("parallel_devices"), list) else -1
    nodes = p.get("num_nodes") if isinstance(p.get("num_nodes"), int) else 1
    count = str(devices) if nodes == 1 else "%dx%d" % (devices, nodes)
    return "|".join([str(p.get("strategy", {}).get("name", "?")), str(p.get("accelerator", "?")), count,
                     str(p.get("precision", {}).get("value", "?")), env_name(str(p.get("cluster_environment", {}).get("class", "?")))])


def resolve_all(accord, profile, cases_path):
    """[(class, trace, error message or None)] for every line of cases_path, in order."""
    with open(cases_path) as f:
        out = run([accord, "resolve", "--batch", "--profile", profile], stdin=f)
    res = []
    for line in out.splitlines():
        o = json.loads(line)
        err = o.get("error")
        res.append((outcome_class(o), tuple(o.get("trace", [])), err.get("message") if isinstance(err, dict) else None))
    return res


def renamed(cls):
    """A 1.x plan class in 2.x names (errors unchanged)."""
    parts = cls.split("|")
    if len(parts) != 5:
        return cls
    parts[0] = STRATEGY_RENAMES.get(parts[0], parts[0])
    parts[1] = ACCELERATOR_RENAMES.get(parts[1], parts[1])
    if parts[1] == "tpu" and parts[4] == TPU_ENVIRONMENT[0]:
        parts[4] = TPU_ENVIRONMENT[1]
    parts[3] = PRECISION_RENAMES.get(parts[3], parts[3])
    return "|".join(parts)


def show(cls):
    """strategy/accelerator/devices/precision (+ environment other than Lightning), or the error code."""
    parts = cls.split("|")
    if len(parts) != 5:
        return "`%s`" % cls
    text = "/".join(parts[:4])
    return "`%s`" % (text if parts[4] == "Lightning" else text + " on " + parts[4])


# Plan components in the order their choice depends on each other, with the rule-id prefixes that choose them (preferred first).
COMPONENTS = [(1, "accelerator", ("select.accelerator-", "validate.accelerator-")),
              (2, "devices", ("select.devices-", "select.parallel-devices", "select.auto-select", "validate.legacy-devices")),
              (4, "environment", ("select.cluster-env-",)),
              (0, "strategy", ("select.strategy-", "realize.strategy-", "validate.strategy-")),
              (3, "precision", ("select.precision-", "validate.precision-"))]
NOW_FAILS, NOW_WORKS, PLAN_CHANGED = "now an error", "no longer an error", "a different plan"


def error_rule(res, codes):
    """The rule that raised an error: the last rule of the trace, when its SPEC.md row names the code."""
    cls, trace, _ = res
    if trace and cls in codes.get(trace[-1], ()):
        return "`%s`" % trace[-1]
    return "`%s` (no rule of its own)" % cls


def deciding_rule(a, b, codes):
    """(rule, kind) that decides why outcome a (profile A) and b (profile B) differ."""
    cls_a, trace_a, err_a = a
    cls_b, trace_b, err_b = b
    if err_b is not None:
        return error_rule(b, codes), NOW_FAILS
    if err_a is not None:
        return error_rule(a, codes), NOW_WORKS
    new = [r for r in trace_b if r not in set(trace_a)]
    pa, pb = renamed(cls_a).split("|"), cls_b.split("|")
    for index, _, prefixes in COMPONENTS:  # the first component that differs, by B's first new rule choosing it
        if pa[index] != pb[index]:
            for prefix in prefixes:
                for r in new:
                    if r.startswith(prefix):
                        return "`%s`" % r, PLAN_CHANGED
    new.sort(key=lambda r: r.startswith("validate."))  # stable: choosing rules before input checks
    return ("`%s`" % new[0] if new else "(same rules)"), PLAN_CHANGED


# ---------------------------------------------------------------- rule meanings (SPEC.md rule tables)

def first_sentence(text, limit=260):
    depth, tick = 0, False
    for i, ch in enumerate(text):
        if ch == "`":
            tick = not tick
        elif not tick and ch in "([":
            depth += 1
        elif not tick and ch in ")]":
            depth = max(0, depth - 1)
        elif not tick and depth == 0 and ch == "." and (i + 1 == len(text) or text[i + 1] == " "):
            text = text[:i + 1]
            break
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " ..."


def rule_meanings(spec_path):
    """{rule: (profiles column, first sentence)}, {rule: the error codes its row names}."""
    meanings, codes = {}, {}
    row = re.compile(r"^\| `([a-z0-9]+\.[a-z0-9.-]+)` \| ([^|]*) \| (.*) \| [^|]*\|\s*$")
    with open(spec_path) as f:
        for line in f:
            m = row.match(line)
            if m and m.group(1) not in meanings:
                meanings[m.group(1)] = (m.group(2).strip(), first_sentence(m.group(3).strip()))
                codes[m.group(1)] = set(re.findall(r"\b(err_[a-z0-9_]+)", m.group(3)))
    return meanings, codes


# ---------------------------------------------------------------- the page

def parse_diff(text):
    head = re.search(r"^compared (\d+) cells: (\d+) differ.*$", text, re.M)
    if not head:
        fail("diff-table printed no headline:\n" + text[:2000])
    pairs = re.findall(r"^  (\d+)\t(.+?)  ->  (.+)$", text.split("\nby class", 1)[1] if "\nby class" in text else "", re.M)
    return head.group(0), int(head.group(1)), int(head.group(2)), [(int(n), a, b) for n, a, b in pairs]


def profile_titles(accord):
    titles = {}
    for line in run([accord, "list", "profiles"]).splitlines():
        cols = line.split("\t")
        if len(cols) >= 5:
            titles[cols[0]] = cols[4]
    return titles


def flag_count(case):
    return (len(case.get("flags", {})), len(case.get("env", {})) + len(case.get("hardware", {})) + int(bool(case.get("interactive"))))


def page_command(args, out=None):
    cmd = "python3 conformance/tools/migration_report.py --accord build/bin/accord --domain %s" % rel(args.domain)
    if args.from_profile != "lightning-1.6" or args.to_profile != "lightning-2.2":
        cmd += " --from %s --to %s" % (args.from_profile, args.to_profile)
    if args.connectors:
        cmd += " --connectors"
    between = "-vs-" if args.connectors else "-to-"
    return cmd + " --out " + (out or "reference/migration/%s%s%s.md" % (args.from_profile, between, args.to_profile.replace("lightning-", "")))


def outcome_text(res):
    cls, _, err = res
    return "%s: %s" % (show(cls), err) if err is not None else show(cls)


def build_page(args, domain, headline, n_table, m_table, class_pairs, groups, where, case_list, res_a, res_b, meanings, titles):
    A, B = args.from_profile, args.to_profile
    dom = rel(args.domain)
    n_cells = len(case_list)
    n_diff = sum(len(v) for v in groups.values())
    L = []
    w = L.append
    if args.connectors:
        w("# `%s` and `%s` side by side: the decision-table difference" % (A, B))
    else:
        w("# Migrating from `%s` to `%s`: the decision-table difference" % (A, B))
    w("")
    w("<!-- Generated by conformance/tools/migration_report.py; do not edit. The ctest `migration_page_current` checks it is current. -->")
    w("")
    if args.connectors:
        w("What `Trainer(...)` and `Fabric(...)` decide, under the same inputs, in two accord profiles of one release:")
    else:
        w("What `Trainer(...)` decides, under the same inputs, in two accord profiles:")
    w("")
    w("- `%s`: %s" % (A, titles.get(A, A)))
    w("- `%s`: %s" % (B, titles.get(B, B)))
    w("")
    if args.connectors:
        w("The inputs are the %d cells of `%s`, what a user moving code between the two connectors would try (product of the "
          "axes below, last axis fastest; `-` = not passed):" % (n_cells, dom))
    else:
        w("The inputs are the %d cells of `%s`, what a user moving between the releases would try, in 1.x and 2.x vocabulary "
          "(product of the axes below, last axis fastest; `-` = not passed):" % (n_cells, dom))
    w("")
    w("| axis | values |")
    w("|---|---|")
    for axis, vals in zip(domain["axes"], (axis_values(a) for a in domain["axes"])):
        w("| %s | %s |" % (axis["name"], ", ".join("`%s`" % label for label, _ in vals)))
    w("")
    w("Regenerate this page, and the decision-table diff its headline quotes:")
    w("")
    w("```bash")
    w(page_command(args))
    w("```")
    w("```bash")
    w("build/bin/accord enumerate --domain %s --profile %s --out /tmp/a.table && build/bin/accord enumerate --domain %s --profile %s "
      "--out /tmp/b.table && build/bin/accord diff-table /tmp/a.table /tmp/b.table --limit 0" % (dom, A, dom, B))
    w("```")
    w("")
    n_rename = len(groups.get((RENAME_GROUP, ""), []))
    if args.connectors:
        w("`accord diff-table`: **%s** (%.1f%%). Resolving every cell with `accord resolve --batch` under both profiles finds the "
          "same %d cells." % (headline, 100.0 * m_table / max(1, n_table), n_diff))
    else:
        w("`accord diff-table`: **%s** (%.1f%%). Resolving every cell with `accord resolve --batch` under both profiles finds the same %d cells; "
          "%d of them are the same decision in 2.x names, %d differ in the decision itself." %
          (headline, 100.0 * m_table / max(1, n_table), n_diff, n_rename, n_diff - n_rename))
    w("")
    w("Its most common class changes (cells: `%s` -> `%s`; a plan is strategy|accelerator|devices|precision|environment):" % (A, B))
    w("")
    w("| cells | %s | %s |" % (A, B))
    w("|---:|---|---|")
    for n, a, b in class_pairs[:TOP_CLASS_PAIRS]:
        w("| %d | `%s` | `%s` |" % (n, a, b))
    w("")
    w("## Groups")
    w("")
    w("Each differing cell belongs to the rule that decides its difference:")
    w("")
    w("- *%s* in `%s`: the rule that raises the `%s` error (the last rule of its trace; \"no rule of its own\" when that rule's row in "
      "reference/SPEC.md does not name the error code);" % (NOW_FAILS, B, B))
    w("- *%s* in `%s`: the `%s` rule that raised the error `%s` no longer raises (found the same way);" % (NOW_WORKS, B, A, B))
    w("- *%s*: the first rule of the `%s` trace that the `%s` trace does not have, among the rules that choose the first plan part "
      "that differs (accelerator, devices, environment, strategy, precision; else any such rule);" % (PLAN_CHANGED, B, A))
    if not args.connectors:
        w("- *%s*: both plans are the same decision, `%s` reporting it in 2.x names (precision %s; accelerator %s; strategy %s; "
          "on TPU the environment %s -> %s)." % ((RENAME_GROUP, B, ", ".join("%s -> %s" % kv for kv in PRECISION_RENAMES.items()),
                                                 ", ".join("%s -> %s" % kv for kv in ACCELERATOR_RENAMES.items()),
                                                 ", ".join("%s -> %s" % kv for kv in STRATEGY_RENAMES.items())) + TPU_ENVIRONMENT))
    w("")
    w("A rule's meaning is the first sentence of its row in reference/SPEC.md. Plans read strategy/accelerator/devices/precision "
      "(devices `NxM`: N per node on M nodes), with the cluster environment when it is not Lightning's own.")
    w("")
    order = sorted(groups, key=lambda g: (-len(groups[g]), g))

    def title(g):
        return RENAME_GROUP if g[0] == RENAME_GROUP else "%s: %s" % (g[0], g[1])

    w("| # | group | cells |")
    w("|---:|---|---:|")
    for k, g in enumerate(order, 1):
        w("| %d | %s | %d |" % (k, title(g), len(groups[g])))
    w("")
    for k, g in enumerate(order, 1):
        idx = groups[g]
        w("### %d. %s (%d cells)" % (k, title(g), len(idx)))
        w("")
        rule = re.match(r"`([^`]+)`", g[0])
        if g[0] == RENAME_GROUP:
            w("Both releases make the same choice; `%s` reports it in its own names." % B)
        elif rule and g[0].endswith("(no rule of its own)"):
            w("Raised by a check that has no rule id of its own; the example's message says which.")
        elif rule:
            where_p, meaning = meanings.get(rule.group(1), ("", "(no row in reference/SPEC.md)"))
            w("%s%s" % (meaning, " (profiles: %s)" % where_p if where_p and where_p != "all" else ""))
        else:
            w("Both traces apply the same rules.")
        w("")
        pairs = collections.Counter((res_a[i][0], res_b[i][0]) for i in idx)
        top = sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
        w("| cells | %s | %s |" % (A, B))
        w("|---:|---|---|")
        for (a, b), n in top[:TOP_PAIRS]:
            w("| %d | %s | %s |" % (n, show(a), show(b)))
        if len(top) > TOP_PAIRS:
            w("| %d | (%d more pairs) | |" % (sum(n for _, n in top[TOP_PAIRS:]), len(top) - TOP_PAIRS))
        w("")
        ex = min(idx, key=lambda i: (flag_count(case_list[i]), i))
        w("Example (`%s`):" % where[ex])
        w("")
        w("```json")
        w(json.dumps(case_list[ex], sort_keys=True))
        w("```")
        w("")
        w("- `%s`: %s" % (A, outcome_text(res_a[ex])))
        w("- `%s`: %s" % (B, outcome_text(res_b[ex])))
        w("")
    return "\n".join(L)


def generate(args):
    with open(args.domain) as f:
        domain = json.load(f)
    spec = args.spec or os.path.join(REPO, "reference", "SPEC.md")
    with tempfile.TemporaryDirectory(prefix="migration-report-") as tmp:
        tables = []
        for prof in (args.from_profile, args.to_profile):
            t = os.path.join(tmp, prof + ".table")
            run([args.accord, "enumerate", "--domain", args.domain, "--profile", prof, "--out", t])
            tables.append(t)
        diff_text = run([args.accord, "diff-table", tables[0], tables[1], "--limit", "0"], ok=(0, 1))
        headline, n_table, m_table, _ = parse_diff(diff_text)
        # --limit 0 lists no class pairs; a second run lists the top ones (and as many cells, not used).
        pairs_text = run([args.accord, "diff-table", tables[0], tables[1], "--limit", str(TOP_CLASS_PAIRS)], ok=(0, 1))
        class_pairs = parse_diff(pairs_text)[3]
        where, case_list = [], []
        cases_path = os.path.join(tmp, "cases.jsonl")
        with open(cases_path, "w") as f:
            for desc, case in cells(domain):
                where.append(desc)
                case_list.append(case)
                f.write(json.dumps(case, sort_keys=True) + "\n")
        res_a = resolve_all(args.accord, args.from_profile, cases_path)
        res_b = resolve_all(args.accord, args.to_profile, cases_path)
    if not (len(res_a) == len(res_b) == len(case_list) == n_table):
        fail("cell counts disagree: domain %d, %s %d, %s %d, diff-table %d" %
             (len(case_list), args.from_profile, len(res_a), args.to_profile, len(res_b), n_table))
    meanings, codes = rule_meanings(spec)
    groups = collections.defaultdict(list)
    for i, (a, b) in enumerate(zip(res_a, res_b)):
        if a[0] == b[0]:
            continue
        same_in_new_names = not args.connectors and renamed(a[0]) == b[0]
        groups[(RENAME_GROUP, "") if same_in_new_names else deciding_rule(a, b, codes)].append(i)
    n_diff = sum(len(v) for v in groups.values())
    if n_diff != m_table:
        fail("resolve --batch finds %d differing cells, diff-table %d" % (n_diff, m_table))
    return build_page(args, domain, headline, n_table, m_table, class_pairs, groups, where, case_list, res_a, res_b,
                      meanings, profile_titles(args.accord)) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--accord", required=True, help="the accord binary")
    ap.add_argument("--domain", required=True, help="domain file (property_tests/README.md, Domains)")
    ap.add_argument("--from", dest="from_profile", default="lightning-1.6")
    ap.add_argument("--to", dest="to_profile", default="lightning-2.2")
    ap.add_argument("--connectors", action="store_true",
                    help="the two profiles are two connectors of one release (Trainer and Fabric): a side-by-side page, no 1.x renames")
    ap.add_argument("--spec", help="SPEC.md with the rule tables (default: reference/SPEC.md of this repository)")
    out = ap.add_mutually_exclusive_group(required=True)
    out.add_argument("--out", help="markdown page to write")
    out.add_argument("--check", metavar="PAGE", help="regenerate into a temporary file and fail when it differs from PAGE")
    args = ap.parse_args()
    page = generate(args)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(page)
        return 0
    with open(args.check) as f:
        committed = f.read()
    if committed == page:
        print("migration_report: %s is current" % rel(args.check))
        return 0
    with tempfile.NamedTemporaryFile("w", suffix=".md", prefix="migration-page-", delete=False) as f:
        f.write(page)
    diff = list(difflib.unified_diff(committed.splitlines(), page.splitlines(), rel(args.check), "regenerated", lineterm=""))
    print("\n".join(diff[:120] + (["... %d more diff lines" % (len(diff) - 120)] if len(diff) > 120 else [])))
    print("\nmigration_report: %s is stale (regenerated: %s). See the difference with\n  diff -u %s %s\nand refresh it with\n  %s"
          % (args.check, f.name, args.check, f.name, page_command(args, args.check)))
    return 1


if __name__ == "__main__":
    sys.exit(main())
