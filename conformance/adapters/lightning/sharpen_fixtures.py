#!/usr/bin/python3
"""Sharpen the expectations of the cases a real release can answer (Lightning 1.6.5, 2.2.5, Fabric 2.2.5) from its run.

    ACCORD_LIGHTNING_ROOT=... /usr/bin/python3 sharpen_fixtures.py --accord build/bin/accord [--dry-run] FILE...

For every plan or error expectation (no any_of) of the given fixture files' cases whose origin is not a regression
snapshot (`expect` for the profiles the case applies to less those with their own entry, and each entry of
`expect_by_profile`), the real release that models its profiles answers the case (record_oracle.py): Fabric 2.2.5
for fabric-2.2, Lightning 2.2.5's Trainer for lightning-2.2, 1.6.5 for lightning-1.6 and spec (spec is 1.6.5 with the
seed's follow-up items resolved, so 1.6.5 is the source of every part spec keeps). A part of that answer is added
to the expectation only when the reference gives the same on every profile the expectation answers for (so the
expectation stays true of both, and the pinned value's source is the release): for plans, every field but the
parsed devices, the strategy's params and the determinism block (PLAN_POINTERS); for errors, the names of the fields
both give; for every outcome, the diagnostic codes, made exact (for an expectation of spec alone: the release's codes
with those the expectation itself lists in `diagnostics` or `diagnostics_absent`, which come from a SPEC decision).
A case whose origin is not that release gets the release in `refs` when parts are added. Where the release and the
reference differ, nothing is added and the case is listed (a difference to look at). Files in none of the known
layouts (json.dumps, or one case per line) are listed and left alone. Prints what it
did; --dry-run writes nothing.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PLAN_POINTERS = [("accelerator",), ("accelerator_class",), ("parallel_devices",), ("num_nodes",), ("num_processes",),
                 ("strategy", "name"), ("strategy", "class"), ("strategy", "family"), ("strategy", "root_device"),
                 ("launcher", "kind"), ("launcher", "start_method"), ("launcher", "interactive_compatible"),
                 ("precision", "value"), ("precision", "plugin"), ("precision", "amp_backend"), ("precision", "amp_level"),
                 ("precision", "device"), ("cluster_environment", "class"), ("cluster_environment", "creates_processes_externally"),
                 ("cluster_environment", "world_size"), ("cluster_environment", "global_rank"), ("cluster_environment", "local_rank"),
                 ("cluster_environment", "node_rank"), ("checkpoint_io",), ("layer_sync",), ("is_distributed",)]


def one_line_cases(doc, case_keys_per_line, by_profile_lines=False):
    """The hand styles of the fixture files: top keys one per line, then each case on one line, or each case with
    one key per line (values compact; with by_profile_lines, expect_by_profile one profile per line)."""
    def value_text(k, v):
        if by_profile_lines and k == "expect_by_profile" and isinstance(v, dict) and v:
            return "{\n" + ",\n".join("        %s: %s" % (json.dumps(p), json.dumps(e, ensure_ascii=False))
                                       for p, e in v.items()) + "\n      }"
        return json.dumps(v, ensure_ascii=False)

    def case_text(c):
        if not case_keys_per_line:
            return "    " + json.dumps(c, ensure_ascii=False)
        return "    {\n" + ",\n".join("      %s: %s" % (json.dumps(k), value_text(k, v)) for k, v in c.items()) + "\n    }"
    parts = ["  %s: %s" % (json.dumps(k), json.dumps(v, ensure_ascii=False)) for k, v in doc.items() if k != "cases"]
    parts.append('  "cases": [\n' + ",\n".join(case_text(c) for c in doc["cases"]) + "\n  ]")
    return "{\n" + ",\n".join(parts) + "\n}\n"


STYLES = [lambda d, i=i, asc=asc: json.dumps(d, indent=i, ensure_ascii=asc) + "\n" for i in (2, 1) for asc in (False, True)] + \
         [lambda d: one_line_cases(d, False), lambda d: one_line_cases(d, True), lambda d: one_line_cases(d, True, True)]


DEFAULT_PROFILES = ["spec", "lightning-1.6"]  # a case listing no profiles (reference/tables/profiles.def, DefaultCases)


def profiles_of(case):
    """The profiles the case's `expect` answers for: those it applies to, less those with their own expectation."""
    own = case.get("expect_by_profile") or {}
    return [p for p in case.get("profiles") or DEFAULT_PROFILES if p not in own]


RELEASE_OF = [("fabric-2.2", ("2.x", "fabric", "lightning-2.2.5")), ("lightning-2.2", ("2.x", "trainer", "lightning-2.2.5")),
              ("lightning-1.6", ("1.6", "trainer", "lightning-1.6.5")), ("spec", ("1.6", "trainer", "lightning-1.6.5"))]


def release_of(profiles):
    """(lightning, connector, release) of the real release that answers for these profiles: the first of RELEASE_OF
    among them (spec is 1.6.5 with the seed's follow-up items resolved: 1.6.5 answers the parts spec keeps)."""
    return next((rel for p, rel in RELEASE_OF if p in profiles), None)


def targets(case):
    """(expectation, the profiles it answers for, release) of each plan or error expectation of the case that a real
    release can sharpen: `expect`, and each entry of expect_by_profile; none for our own output (regression snapshots)."""
    if case.get("origin", "regression-snapshot") == "regression-snapshot":
        return []
    out = []
    expects = [(case.get("expect"), profiles_of(case))] + [(e, [p]) for p, e in (case.get("expect_by_profile") or {}).items()]
    for expect, profiles in expects:
        if isinstance(expect, dict) and ("plan" in expect or "error" in expect) and profiles and release_of(profiles):
            out.append((expect, profiles, release_of(profiles)))
    return out


def get(obj, path):
    for key in path:
        if not isinstance(obj, dict) or key not in obj:
            return KeyError
        obj = obj[key]
    return obj


def put(obj, path, value):
    for key in path[:-1]:
        obj = obj.setdefault(key, {})
    obj[path[-1]] = value


def codes(outcome):
    out = []
    for d in outcome.get("diagnostics", []):
        if isinstance(d, dict) and d.get("code") not in out:
            out.append(d.get("code"))
    return out


# SPEC rules that change only how one flag's value is read: spec answers such an input as 1.6.5 answers its
# canonical spelling, in every part the rule does not touch, so for an expectation of spec alone 1.6.5's run on the
# canonical spelling pins those parts (the case then cites the rule beside the release). (rule, flag, [(spelling, canonical)])
CANONICAL = [("spec:validate.precision-normalize", "precision",
              [("16", 16), ("32", 32), ("64", 64), ("16-mixed", 16), ("bf16-mixed", "bf16"), ("32-true", 32), ("64-true", 64),
               (None, 32)]),
             ("spec:decision-10", "deterministic", [("warn", True)])]
CANON = "#canonical"  # suffix of the id under which the canonical spelling is asked


def canonical(given):
    """(rule, the given with its flag in canonical spelling) for a given that one CANONICAL rule reads; else Nones."""
    flags = given.get("flags") or {}
    for rule, flag, pairs in CANONICAL:
        for spelled, canon in pairs:
            if flag in flags and flags[flag] == spelled and type(flags[flag]) is type(spelled):
                return rule, dict(given, flags=dict(flags, **{flag: canon}))
    return None, None


def record(cases, lightning, connector):
    lines = "".join(json.dumps({"id": cid, "given": given}) + "\n" for cid, given in cases)
    p = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "record_oracle.py"), "--lightning", lightning, "--connector", connector],
                       input=lines, capture_output=True, text=True, check=True)
    return {r["id"]: r.get("outcome") for r in map(json.loads, p.stdout.splitlines())}


def resolve(accord, givens, profile):
    lines = "".join(json.dumps(g) + "\n" for g in givens)
    p = subprocess.run([accord, "resolve", "--batch", "--profile", profile, "-"], input=lines, capture_output=True, text=True)
    return [json.loads(l) for l in p.stdout.split("\n") if l]  # not splitlines(): U+2028 may stand unescaped in a line


def sharpen(expect, oracle, refs, why, spec_only=False):
    """Adds to `expect` what the oracle and every reference outcome agree on; returns how many parts were added.
    spec_only: the expectation answers for spec alone (1.6.5 with the seed's follow-up items resolved)."""
    added = 0
    if any(r.get("status") != oracle.get("status") for r in refs):
        why.append("status differs")
        return 0
    if "plan" in expect and oracle.get("status") == "ok":
        for path in PLAN_POINTERS:
            want = get(oracle["plan"], path)
            if want is KeyError or any(get(r["plan"], path) != want for r in refs):
                if want is not KeyError:
                    why.append("/plan/" + "/".join(path) + " differs")
                continue
            have = get(expect["plan"], path)
            if path == ("num_nodes",) and (isinstance(want, bool) or not isinstance(want, int)):
                continue  # 2.2.5 keeps num_nodes=True as given: outside the fixture schema's integer
            if have is KeyError:
                put(expect["plan"], path, want)
                added += 1
        launchers = [oracle["plan"].get("launcher")] + [r["plan"].get("launcher") for r in refs]
        kinds = {json.dumps(l.get("kind")) for l in launchers if isinstance(l, dict)}
        if all(isinstance(l, dict) for l in launchers) and len(kinds) == 1 and "launcher" not in expect["plan"]:
            expect["plan"]["launcher"] = {"kind": launchers[0].get("kind")}
            added += 1
    if "error" in expect and oracle.get("status") == "error":
        names = [k for k in (oracle.get("error", {}).get("fields") or {}) if all(k in (r.get("error", {}).get("fields") or {}) for r in refs)]
        listed = expect["error"].get("fields", [])
        missing = [k for k in names if k not in listed]
        if missing:
            expect["error"]["fields"] = listed + missing
            added += 1
    if not expect.get("diagnostics_exact"):
        oc, want, absent = codes(oracle), expect.get("diagnostics", []), set(expect.get("diagnostics_absent", []))
        # spec alone: the release's codes with what the expectation itself adds (`diagnostics`) or takes away
        # (`diagnostics_absent`) by its own source, a SPEC decision; a release profile: the release's codes as they are
        stated = [c for c in want + oc if c not in absent] if spec_only else oc
        consistent = spec_only or (set(want) <= set(oc) and not absent & set(oc))
        if any(set(codes(r)) != set(stated) for r in refs):
            why.append("diagnostics differ")
        elif consistent:
            expect["diagnostics"] = want + [c for c in dict.fromkeys(stated) if c not in want]
            expect["diagnostics_exact"] = True
            added += 1
    return added


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--accord", required=True)
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    docs, picked = {}, {}
    for path in a.files:
        text = open(path, encoding="utf-8").read()
        doc = json.loads(text)
        style = next((f for f in STYLES if f(doc) == text), None)
        found = [(k, c, t) for k, c in enumerate(doc.get("cases", [])) for t in targets(c)]
        if not found:
            continue
        if style is None:
            print("left alone (hand-formatted): %s (%d oracle expectations)" % (path, len(found)))
            continue
        docs[path] = (doc, style)
        for k, c, (expect, profiles, rel) in found:
            picked.setdefault(rel, []).append((path, k, c, expect, profiles))
    total = parts = 0
    for (lightning, connector, release), items in sorted(picked.items()):
        asked = {c["id"]: c["given"] for _, _, c, _, _ in items}
        rules = {}  # case id -> the SPEC rule whose canonical spelling the release answers for spec
        for _, _, c, _, ps in items:
            rule, canon = canonical(c["given"]) if ps == ["spec"] else (None, None)
            if canon:
                rules[c["id"]], asked[c["id"] + CANON] = rule, canon
        answers = record(list(asked.items()), lightning, connector)
        profiles = sorted({p for *_, ps in items for p in ps})
        refs = {p: dict(zip(asked, resolve(a.accord, list(asked.values()), p))) for p in profiles}
        for path, k, c, expect, ps in items:
            rule = rules.get(c["id"]) if ps == ["spec"] else None
            oracle = answers.get(c["id"] + CANON if rule else c["id"])
            if not isinstance(oracle, dict):
                print("no oracle answer: %s" % c["id"])
                continue
            why = []
            added = sharpen(expect, oracle, [refs[p][c["id"]] for p in ps], why, ps == ["spec"])
            total += added > 0
            parts += added
            for source in [release] + ([rule] if rule else []):  # the parts the release's run pinned, and the rule
                if added and c["origin"] != source and source not in c.get("refs", []):  # that makes it answer them
                    c["refs"] = c.get("refs", []) + [source]
            if why:
                print("differs: %s (%s): %s" % (c["id"], ", ".join(ps), "; ".join(why)))
    if not a.dry_run:
        for path, (doc, style) in docs.items():
            open(path, "w", encoding="utf-8").write(style(doc))
    print("sharpened %d cases (%d parts) in %d files" % (total, parts, len(docs)))


if __name__ == "__main__":
    sys.exit(main())
