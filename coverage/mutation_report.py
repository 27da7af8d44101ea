"""coverage/mutation_report.py: the reports of coverage/mutate (markdown, JSON, HTML) from its results.

Each result is one mutant: key, file, line, op, diff, status (killed, survived, equivalent, stillborn,
not_in_schemata), and for a killed one what killed it (killed_by, layer, profiles: the profiles whose corpus run
changed a verdict). Every survivor and equivalent mutant is shown with its file, line, diff and nearest rule ID:
the rule a reader of SPEC.md starts from to decide what case would kill it (nearest_rule below).
"""
import collections
import html
import json
import pathlib
import re

STATUSES = ("killed", "survived", "equivalent", "stillborn", "not_in_schemata")
RULE_ROW = re.compile(r'^ACCORD_RULE\((\w+), "([^"]+)"')
RULE_USE = re.compile(r"RuleId::k(\w+)")
FUNCTION_START = re.compile(r"^(?!(?:if|for|while|switch|return|namespace|struct|class|enum)\b)[A-Za-z_][\w:<>,*& ]*?\b([\w:~]+)\(")
SPEC_RULE_ROW = re.compile(r"^\| `([a-z]+\.[a-z0-9-]+)` \|")
WIRE_ID = re.compile(r"`((?:validate|select|realize|fabric)\.[a-z0-9-]+)`")


class Rules:
    """The rule IDs of a tree: the enumerators of reference/tables/rules.def, where the code fires them, and where
    SPEC.md names the tables."""

    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.wire = {}
        for line in (self.root / "reference/tables/rules.def").read_text().splitlines():
            if m := RULE_ROW.match(line):
                self.wire[m.group(1)] = m.group(2)
        self.spec = (self.root / "reference/SPEC.md").read_text().splitlines()
        self.spec_rows = [(m.group(1), text) for text in self.spec if (m := SPEC_RULE_ROW.match(text))]
        self._uses = {}

    def uses(self, path):
        """(line, wire id) of each rule the file fires or names, in order."""
        if path not in self._uses:
            f = self.root / path
            lines = f.read_text().splitlines() if f.exists() else []
            self._uses[path] = [(k + 1, self.wire[m.group(1)]) for k, text in enumerate(lines)
                                for m in RULE_USE.finditer(text) if m.group(1) in self.wire]
        return self._uses[path]

    def function(self, path, line):
        """The C++ function whose definition encloses `path`:`line`: the name before `(` on the last line above it that
        starts a definition at the left margin (None in a table or above every definition)."""
        f = self.root / path
        if path.endswith(".def") or not f.exists():
            return None
        lines = f.read_text().splitlines()[:line]
        for text in reversed(lines):
            if m := FUNCTION_START.match(text):
                return m.group(1)
        return None

    def nearest(self, path, line, diff=""):
        """The rule nearest to `path`:`line`: in code, the RuleId named closest to the line (the one before it on a
        tie); in a .def table, the first rule of SPEC.md's rule tables whose row names one of the mutated row's quoted
        cells (its class or name, in the row's order), else the rule ID written closest to the first line of SPEC.md
        that names the table; None when there is none (a helper no rule names)."""
        if path.endswith(".def"):
            row = next((l[2:] for l in diff.splitlines() if l.startswith("- ")), "")
            for cell in re.findall(r'"([^"]{3,})"', row):
                for rule, text in self.spec_rows:
                    if cell in text:
                        return rule
            name = pathlib.PurePath(path).name
            mentions = [k for k, text in enumerate(self.spec) if name in text]
            ids = [(k, m.group(1)) for k, text in enumerate(self.spec) for m in WIRE_ID.finditer(text)]
            if not mentions or not ids:
                return None
            return min(ids, key=lambda kv: (abs(kv[0] - mentions[0]), kv[0] > mentions[0]))[1]
        uses = self.uses(path)
        if not uses:
            return None
        return min(uses, key=lambda u: (abs(u[0] - line), u[0] > line))[1]


def killing_profiles(r):
    """The profiles whose corpus run killed the mutant (from `profiles`, else from the cases it names)."""
    if "profiles" in r:
        return r["profiles"]
    return sorted({k.split(":")[0] for k in r.get("killed_by", []) if re.match(r"^[a-z0-9.-]+:[a-z0-9-]+/", k)})


def summarize(results, args, total, cases, base_fail, use_props, planned, extra=None):
    counts = {s: sum(r["status"] == s for r in results) for s in STATUSES}
    scored = counts["killed"] + counts["survived"]
    score = round(100.0 * counts["killed"] / scored, 1) if scored else 0.0
    # which part of the suite killed each mutant first: the corpus, else the property tests, else the unit tests
    layers = dict(collections.Counter(r.get("layer", "corpus") for r in results if r["status"] == "killed"))
    corpus_score = round(100.0 * layers.get("corpus", 0) / scored, 1) if scored else 0.0
    by_profile = dict(sorted(collections.Counter(p for r in results if r["status"] == "killed" for p in killing_profiles(r)).items()))
    # results of a run before `profiles` was recorded name at most 8 killing cases each: the counts are then a floor
    by_profile_complete = all("profiles" in r for r in results if r["status"] == "killed" and r.get("layer", "corpus") == "corpus")
    return {"mutants_total": total, "mutants_planned": planned, "mutants_run": len(results), "sampled": bool(args.sample and args.sample < total),
            "sample": args.sample, "seed": args.seed, "counts": counts, "score_percent": score, "goal_percent": 97,
            "killed_by": layers, "corpus_score_percent": corpus_score, "corpus_kills_by_profile": by_profile,
            "corpus_kills_by_profile_complete": by_profile_complete,
            "oracle": {"corpus_case_runs": cases, "property_tests": use_props, "prop_budget": args.prop_budget,
                       "unit_tests": args.with_unit_tests, "baseline_test_failures": base_fail}, **(extra or {})}


def tables(results):
    """{"operator": {op: counts}, "file": {file: counts}}, counts by status."""
    out = {"operator": {}, "file": {}}
    for r in results:
        out["operator"].setdefault(r["op"], dict.fromkeys(STATUSES, 0))[r["status"]] += 1
        out["file"].setdefault(r["file"], dict.fromkeys(STATUSES, 0))[r["status"]] += 1
    return out


def share(c):
    judged = c["killed"] + c["survived"]
    return f"{100.0 * c['killed'] / judged:.1f}%" if judged else "-"


def markdown(summary, results, args, total, planned):
    counts, layers, score = summary["counts"], summary["killed_by"], summary["score_percent"]
    extra_note = []
    if summary.get("schemata"):
        extra_note = [f"Schemata: one build ({summary['build_seconds']} s), each mutant run by its number on {summary['jobs']} workers; "
                      f"unmutated build identical to the normal one (resolve --batch md5, every profile): {summary['unmutated_identical']}. "
                      f"{counts['not_in_schemata']} mutants are not in the schemata (listed below) and not in the score.", ""]
    md = ["# Mutation report", "",
          f"Score: **{score}%** of non-equivalent mutants killed ({counts['killed']} killed, {counts['survived']} survived, "
          f"{counts['equivalent']} equivalent, {counts['stillborn']} stillborn). Goal: 97%.", "",
          "Killed first by: " + ", ".join(f"{k} {v}" for k, v in sorted(layers.items(), key=lambda kv: -kv[1])) +
          f" (the corpus alone: {summary['corpus_score_percent']}%).", "",
          "Killed by each profile's corpus (a mutant several profiles kill counts for each): " +
          (", ".join(f"{p} {n}" for p, n in summary["corpus_kills_by_profile"].items()) or "none") +
          ("." if summary["corpus_kills_by_profile_complete"] else
           " (at least: these results name at most 8 killing cases per mutant).") + "", "",
          (f"Sampled: {planned} of {total} mutants (`--sample {args.sample} --seed {args.seed}`)."
           if summary["sampled"] else f"All {total} mutants.") +
          (f" **Partial: {len(results)} of {planned} run so far.**" if len(results) < planned else ""),
          f"Oracle: `accord conform` on every profile ({summary['oracle']['corpus_case_runs']} case runs)" +
          (f" + property tests (max_success={args.prop_budget})" if summary["oracle"]["property_tests"] else
           " (property tests left out: they fail unmutated)") +
          (" + reference unit tests" if args.with_unit_tests else "") + ".", ""] + extra_note
    for name, table in tables(results).items():
        md += [f"| {name} | score | killed | survived | equivalent | stillborn | not in schemata |", "|---|---:|---:|---:|---:|---:|---:|"]
        for key, c in sorted(table.items()):
            md.append(f"| {key} | {share(c)} | {c['killed']} | {c['survived']} | {c['equivalent']} | {c['stillborn']} | {c['not_in_schemata']} |")
        md.append("")
    left = {}
    for r in results:
        if r["status"] == "not_in_schemata":
            left.setdefault(r["why"].split(":")[0], []).append(r)
    if left:
        md += [f"## Not in the schemata ({counts['not_in_schemata']})", ""]
        md += [f"- {why}: {len(rs)} (" + ", ".join(f"{r['file']}:{r['line']}" for r in rs[:6]) + (", ..." if len(rs) > 6 else "") + ")"
               for why, rs in sorted(left.items(), key=lambda kv: -len(kv[1]))]
    for title, status in (("Survivors", "survived"), ("Equivalent (argued in coverage/mutation-equivalent.json)", "equivalent")):
        rows = [r for r in results if r["status"] == status]
        md += ["", f"## {title} ({len(rows)})"]
        for r in rows:
            where = f"{r['file']}:{r['line']}" + (f" in {r['function']}()" if r.get("function") else "")
            md += ["", f"### `{r['key']}` {where} ({r['op']}; nearest rule: {r.get('rule') or 'none'})"] + \
                  ([r["why"]] if r.get("why") else []) + ["```diff", r["diff"], "```"]
    return "\n".join(md) + "\n"


PAGE_STYLE = """body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}
td:first-child,th:first-child{text-align:left}th{background:#f3f3f3}.low{background:#fde2e2}.ok{background:#e3f6e3}
details{border:1px solid #ddd;margin:.3em 0;padding:.2em .6em}summary{cursor:pointer}pre{background:#f7f7f7;padding:.5em;overflow-x:auto}
.score{font-size:1.6em;font-weight:bold}code{background:#f3f3f3;padding:0 .2em}"""


def page(summary, results, goal=97.0):
    """The report as one self-contained HTML page (no script, no outside file; every value escaped)."""
    e = html.escape
    counts = summary["counts"]
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8"><title>accord mutation report</title>',
           f"<style>{PAGE_STYLE}</style></head><body>", "<h1>Mutation report</h1>",
           f'<p><span class="score" id="score">{summary["score_percent"]}%</span> of non-equivalent mutants killed '
           f"(goal {goal:g}%): {counts['killed']} killed, {counts['survived']} survived, {counts['equivalent']} equivalent, "
           f"{counts['stillborn']} stillborn, {counts['not_in_schemata']} not in the schemata; "
           f"{summary['mutants_run']} of {summary['mutants_total']} mutants run.</p>",
           "<p>Killed first by: " + e(", ".join(f"{k} {v}" for k, v in sorted(summary["killed_by"].items(), key=lambda kv: -kv[1]))) +
           f" (the corpus alone: {summary['corpus_score_percent']}%).</p>",
           "<h2>Corpus kills by profile</h2>" + ("" if summary["corpus_kills_by_profile_complete"] else
                                                  "<p>At least: these results name at most 8 killing cases per mutant.</p>") +
           "<table><tr><th>profile</th><th>mutants its corpus kills</th></tr>"]
    out += [f"<tr><td>{e(p)}</td><td>{n}</td></tr>" for p, n in summary["corpus_kills_by_profile"].items()]
    out.append("</table>")
    for name, table in tables(results).items():
        out += [f'<h2>By {name}</h2><table id="by-{name}"><tr><th>{name}</th><th>score</th>' +
                "".join(f"<th>{s.replace('_', ' ')}</th>" for s in STATUSES) + "</tr>"]
        for key, c in sorted(table.items()):
            s = share(c)
            cls = "" if s == "-" else (' class="ok"' if float(s[:-1]) >= goal else ' class="low"')
            out.append(f"<tr><td>{e(key)}</td><td{cls}>{s}</td>" + "".join(f"<td>{c[st]}</td>" for st in STATUSES) + "</tr>")
        out.append("</table>")
    for title, status in (("Survivors", "survived"), ("Equivalent (argued in coverage/mutation-equivalent.json)", "equivalent")):
        rows = [r for r in results if r["status"] == status]
        out.append(f'<h2 id="{status}">{e(title)} ({len(rows)})</h2>')
        for r in sorted(rows, key=lambda r: (r["file"], r["line"])):
            where = f"{r['file']}:{r['line']}" + (f" in {r['function']}()" if r.get("function") else "")
            out.append(f"<details><summary><code>{e(where)}</code> {e(r['op'])}, nearest rule "
                       f"<code>{e(r.get('rule') or 'none')}</code></summary><p>{e(r['key'])}</p>" +
                       (f"<p>{e(r['why'])}</p>" if r.get("why") else "") + f"<pre>{e(r['diff'])}</pre></details>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write(out_dir, results, args, total, cases, base_fail, use_props, planned, root, extra=None):
    """Writes mutation-report.json, .md and .html into out_dir; returns the score. `root` is the tree the mutants'
    lines refer to (the nearest rule of each survivor and equivalent mutant is read there)."""
    rules = Rules(root)
    for r in results:
        if r["status"] in ("survived", "equivalent") and ("rule" not in r or "function" not in r):
            r["rule"] = rules.nearest(r["file"], r["line"], r.get("diff", ""))
            r["function"] = rules.function(r["file"], r["line"])
    summary = summarize(results, args, total, cases, base_fail, use_props, planned, extra)
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "mutation-report.json").write_text(json.dumps({"summary": summary, "mutants": results}, indent=2) + "\n")
    (out_dir / "mutation-report.md").write_text(markdown(summary, results, args, total, planned))
    (out_dir / "mutation-report.html").write_text(page(summary, results))
    print(f"coverage/mutate: score {summary['score_percent']}% ({summary['counts']}); reports in {out_dir}/mutation-report.md, "
          ".json and .html")
    return summary["score_percent"]
