"""Tests of coverage/schemata.py: operand extents by precedence, nested guards, and what stays out of the schemata."""
import importlib.machinery
import importlib.util
import pathlib
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
import schemata  # noqa: E402

loader = importlib.machinery.SourceFileLoader("mutate", str(HERE / "mutate"))
spec = importlib.util.spec_from_loader("mutate", loader)
mutate = importlib.util.module_from_spec(spec)
loader.exec_module(mutate)


def render(code, ops=None):
    """The code with every mutant of coverage/mutate (of the given operators) guarded; the mutants left out."""
    mask = mutate.code_mask(code)
    ms = [m for m in mutate.operator_mutants("x.cc", code, mask) if ops is None or m.op in ops]
    number_of = {m.key: k + 1 for k, m in enumerate(ms)}
    sites, left_out = schemata.sites_for(code, mask, ms, number_of)
    out, crossed = schemata.render_file(code, sites)
    return out, [why for _, why in left_out] + ["crossed"] * len(crossed)


class Extents(unittest.TestCase):
    def test_equality_takes_the_arithmetic_around_it(self):
        out, left = render("bool f(int a, int b, int c) { return a + b == c; }", {"cond-eq"})
        self.assertEqual(left, [])
        self.assertIn("return (::accord_mutant::on(1) ? ((a + b) != (c)) : ((a + b) == (c)));", out)

    def test_and_binds_tighter_than_or_and_chains_associate_left(self):
        out, _ = render("bool f(bool a, bool b, bool c) { return a && b && c || a; }", {"cond-logic"})
        # the first && takes `a` and `b`; the second takes `a && b` and `c`; || takes the whole left side
        self.assertIn("((a) || (b)) : ((a) && (b))", out)
        self.assertRegex(out, r"return \(::accord_mutant::on\(3\) \? \(\(\(::accord_mutant::on\(2\) \? \(\(\(::accord_mutant::on\(1\)")
        self.assertIn("(c)))) || (a)));", out)

    def test_calls_members_and_templates_stay_inside_an_operand(self):
        out, left = render("bool f() { return static_cast<int>(v.size()) <= g(1, 2)->n; }", {"cond-rel"})
        self.assertEqual(left, [])
        self.assertIn("((static_cast<int>(v.size())) < (g(1, 2)->n))", out)

    def test_an_if_condition_is_flipped_and_holds_its_own_mutants(self):
        out, _ = render("void f(int a) { if (a == 1) g(); }", {"if-negate", "cond-eq"})
        self.assertIn("if (::accord_mutant::flip(2, static_cast<bool>((::accord_mutant::on(1) ? ((a) != (1)) : ((a) == (1))))))", out)

    def test_a_deleted_guard_keeps_braces_for_a_following_else(self):
        out, _ = render("bool f(C& c, int a) { if (a) return c.fail(x); else return true; }", {"guard-del"})
        self.assertIn("if (a) { if (!::accord_mutant::on(1)) return c.fail(x); } else return true;", out)

    def test_an_int_keeps_its_suffix(self):
        out, _ = render("long f() { return 10ULL; }", {"int-const"})
        self.assertIn("return (::accord_mutant::on(1) ? 11ULL : 10ULL);", out)

    def test_declaring_conditions_stay_out(self):
        _, left = render("void f() { if (auto* p = g()) h(p); }", {"if-negate"})
        self.assertEqual(left, ["the condition declares a variable"])


class WholeTree(unittest.TestCase):
    def test_most_source_mutants_of_the_reference_have_a_guard(self):
        with tempfile.TemporaryDirectory() as d:
            root = pathlib.Path(d)
            for f in (HERE.parent / "reference").rglob("*"):
                if f.is_file() and f.suffix in (".cc", ".def", ".h"):
                    (root / f.relative_to(HERE.parent)).parent.mkdir(parents=True, exist_ok=True)
                    (root / f.relative_to(HERE.parent)).write_text(f.read_text())
            ms = mutate.all_mutants(root)
            sch = schemata.Schemata(root, ms, mutate.code_mask)
            source = [m for m in ms if m.op not in ("row-swap",)]
            guarded = [m for m in source if m.key not in sch.left_out]
            self.assertGreater(len(guarded), 0.95 * len(source))
            text = (root / "reference" / "src" / "resolve.cc").read_text()
            self.assertIn("::accord_mutant::", text)
            sch.restore()
            self.assertEqual((root / "reference" / "src" / "resolve.cc").read_text(),
                             (HERE.parent / "reference" / "src" / "resolve.cc").read_text())


if __name__ == "__main__":
    unittest.main()
