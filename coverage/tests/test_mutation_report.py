"""Tests of coverage/mutation_report.py: the nearest rule and function of a survivor, the kills by profile, and the
three reports (markdown, JSON, a self-contained escaped HTML page); and coverage/mutate --report-from."""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
import mutation_report  # noqa: E402

RULES_DEF = """// rules.def
ACCORD_RULE(PickA, "select.pick-a", ALWAYS, "src")
ACCORD_RULE(PickB, "select.pick-b", ALWAYS, "src")
ACCORD_RULE(Finish, "realize.finish", ALWAYS, "src")
"""
SPEC = """# SPEC
Tables are in `reference/tables/things.def`; see `select.pick-b`.

| rule | profiles | what | source |
|---|---|---|---|
| `select.pick-a` | all | Picks A; ThingOne is first. | PL |
| `realize.finish` | all | Finishes with WidgetTwo. | PL |
"""
CODE = """// code.cc
namespace x {
bool pick(Resolution& c) {
  c.fire(RuleId::kPickA);
  if (a == b) return true;
  return false;
}

int helper(int n) {
  return n + 1;
}

void finish(Resolution& c) {
  int k = 0;
  c.fire(RuleId::kFinish);
}
}  // namespace x
"""


def tree():
    d = pathlib.Path(tempfile.mkdtemp())
    (d / "reference/tables").mkdir(parents=True)
    (d / "reference/src").mkdir(parents=True)
    (d / "reference/tables/rules.def").write_text(RULES_DEF)
    (d / "reference/SPEC.md").write_text(SPEC)
    (d / "reference/src/code.cc").write_text(CODE)
    return d


def result(key, status, line=5, file="reference/src/code.cc", **kw):
    return {"key": key, "file": file, "line": line, "op": "cond-eq", "diff": f"--- {file}:{line}\n- a == b\n+ a != b",
            "status": status, **kw}


ARGS = argparse.Namespace(sample=0, seed=1, prop_budget=40, with_unit_tests=False)


class NearestRule(unittest.TestCase):
    def setUp(self):
        self.rules = mutation_report.Rules(tree())

    def test_code_takes_the_rule_named_closest_to_the_line(self):
        self.assertEqual(self.rules.nearest("reference/src/code.cc", 5), "select.pick-a")
        self.assertEqual(self.rules.nearest("reference/src/code.cc", 14), "realize.finish")
        # between the two (lines 4 and 15, line 10 is closer to 15 by one): the closer wins
        self.assertEqual(self.rules.nearest("reference/src/code.cc", 10), "realize.finish")
        self.assertEqual(self.rules.nearest("reference/src/code.cc", 9), "select.pick-a")

    def test_a_file_that_fires_no_rule_has_none(self):
        (self.rules.root / "reference/src/value.cc").write_text("int f() {\n  return 1;\n}\n")
        self.assertIsNone(self.rules.nearest("reference/src/value.cc", 2))

    def test_a_table_row_takes_the_rule_whose_spec_row_names_its_cells(self):
        diff = '--- reference/tables/things.def:3\n- ACCORD_THING(Two, "WidgetTwo", true)\n+ ACCORD_THING(Two, "WidgetTwo", false)'
        self.assertEqual(self.rules.nearest("reference/tables/things.def", 3, diff), "realize.finish")
        diff = '- ACCORD_THING(Three, "Unnamed", true)'
        self.assertEqual(self.rules.nearest("reference/tables/things.def", 4, diff), "select.pick-b")  # the table's mention

    def test_the_enclosing_function(self):
        self.assertEqual(self.rules.function("reference/src/code.cc", 5), "pick")
        self.assertEqual(self.rules.function("reference/src/code.cc", 10), "helper")
        self.assertEqual(self.rules.function("reference/src/code.cc", 14), "finish")
        self.assertIsNone(self.rules.function("reference/tables/things.def", 3))


class Reports(unittest.TestCase):
    def write(self, results):
        out = pathlib.Path(tempfile.mkdtemp())
        score = mutation_report.write(out, results, ARGS, len(results), 100, [], True, len(results), tree())
        return score, out

    def test_score_profiles_and_the_three_reports(self):
        results = [result("k1", "killed", profiles=["spec", "lightning-1.6"], killed_by=["spec:a/b"], layer="corpus"),
                   result("k2", "killed", profiles=["spec"], killed_by=["spec:a/c"], layer="corpus"),
                   result("k3", "killed", killed_by=["property_tests exited 1"], layer="property_tests", profiles=[]),
                   result("s1", "survived", line=14, diff="--- x\n- <script>alert(1)</script>\n+ &amp;"),
                   result("e1", "equivalent", why="same <value>")]
        score, out = self.write(results)
        self.assertEqual(score, 75.0)
        summary = json.loads((out / "mutation-report.json").read_text())["summary"]
        self.assertEqual(summary["corpus_kills_by_profile"], {"lightning-1.6": 1, "spec": 2})
        self.assertTrue(summary["corpus_kills_by_profile_complete"])
        md = (out / "mutation-report.md").read_text()
        self.assertIn("reference/src/code.cc:14 in finish() (cond-eq; nearest rule: realize.finish)", md)
        page = (out / "mutation-report.html").read_text()
        self.assertNotIn("<script>", page)
        self.assertIn("&lt;script&gt;alert(1)&lt;/script&gt;", page)
        self.assertIn("&amp;amp;", page)
        self.assertIn("same &lt;value&gt;", page)
        self.assertNotIn('src="', page)  # self-contained: no outside file
        self.assertIn('id="score">75.0%', page)

    def test_kills_by_profile_from_named_cases_are_a_floor(self):
        _, out = self.write([result("k1", "killed", killed_by=["fabric-2.2:a/b", "spec:a/c"], layer="corpus")])
        summary = json.loads((out / "mutation-report.json").read_text())["summary"]
        self.assertEqual(summary["corpus_kills_by_profile"], {"fabric-2.2": 1, "spec": 1})
        self.assertFalse(summary["corpus_kills_by_profile_complete"])
        self.assertIn("at most 8 killing cases", (out / "mutation-report.md").read_text())

    def test_report_from_a_stored_run(self):
        _, first = self.write([result("k1", "killed", profiles=["spec"], layer="corpus"), result("s1", "survived")])
        again = pathlib.Path(tempfile.mkdtemp())
        r = subprocess.run([sys.executable, str(HERE / "mutate"), "--report-from", str(first / "mutation-report.json"),
                            "--out-dir", str(again)], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads((again / "mutation-report.json").read_text())["summary"]["score_percent"], 50.0)
        self.assertTrue((again / "mutation-report.html").exists())
        bad = again / "bad.json"
        bad.write_text("{not json")
        r = subprocess.run([sys.executable, str(HERE / "mutate"), "--report-from", str(bad)], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(str(bad), r.stderr)


if __name__ == "__main__":
    unittest.main()
