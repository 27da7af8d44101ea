"""Tests of coverage/schemata.py: operand extents by precedence, nested guards, and what stays out of the schemata."""
import importlib.machinery
import importlib.util
import os
import pathlib
import shutil
import subprocess
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

    def test_a_declaring_condition_flips_the_variable_it_declares(self):
        out, left = render("void f() { if (auto* p = g()) h(p); }", {"if-negate"})
        self.assertEqual(left, [])
        self.assertIn("if (auto* p = g(); ::accord_mutant::flip(1, static_cast<bool>(p))) h(p);", out)

    def test_an_init_statement_keeps_its_declaration_and_flips_the_condition(self):
        out, left = render("void f() { if (int i = 0; g(i)) h(); }", {"if-negate"})
        self.assertEqual(left, [])
        self.assertIn("if (int i = 0; ::accord_mutant::flip(1, static_cast<bool>(g(i)))) h();", out)

    def test_a_structured_binding_stays_out(self):
        _, left = render("void f() { if (auto [a, b] = g()) h(); }", {"if-negate"})
        self.assertEqual(left, ["the condition declares no variable a guard can test"])

    @unittest.skipUnless(shutil.which("g++"), "needs g++")
    def test_flipped_declarations_compile_and_flip(self):
        code = """#include <cstdio>
const char* g(int k) { return k ? "x" : nullptr; }
int main(int argc, char**) {
  if (const char* p = g(argc - 1)) std::printf("some %s\\n", p); else std::printf("none\\n");
  if (int i = argc; i > 1) std::printf("many\\n"); else std::printf("one\\n");
}
"""
        out, left = render(code, {"if-negate"})
        self.assertEqual(left, [])
        with tempfile.TemporaryDirectory() as d:
            header, src, exe = pathlib.Path(d, "accord_mutant.h"), pathlib.Path(d, "x.cc"), pathlib.Path(d, "x")
            header.write_text(schemata.HEADER)
            src.write_text(out)
            subprocess.run(["g++", "-std=c++20", "-include", str(header), str(src), "-o", str(exe), "-pthread"], check=True)
            env = {k: v for k, v in os.environ.items() if k != "ACCORD_MUTANT"}
            run = lambda n: subprocess.run([str(exe), "arg"], capture_output=True, text=True, env=dict(env, ACCORD_MUTANT=n),
                                           check=True).stdout
            self.assertEqual(run("0"), "some x\nmany\n")
            self.assertEqual(run("1"), "none\nmany\n")  # p is set: the flip takes the else branch
            self.assertEqual(run("2"), "some x\none\n")

    def test_an_array_bound_stays_out(self):
        _, left = render("void f() { char buf[32] = \"x\"; g(buf); }", {"int-const"})
        self.assertEqual(left, ["an array bound (the array's type)"])

    def test_a_subscript_is_guarded_like_any_int(self):
        out, left = render("int f(const int* v) { return v[1]; }", {"int-const"})
        self.assertEqual(left, [])
        self.assertIn("return v[(::accord_mutant::on(1) ? 0 : 1)];", out)


SWAP_CODE = """#include <array>
#include <cstdio>
#include <unistd.h>
#include <sys/wait.h>
struct Rule { int id; };
constexpr std::array<Rule, 3> kAutoRules = {{{1}, {2}, {3}}};
void print(const char* who) {
  std::printf("%s", who);
  for (const auto& r : kAutoRules) std::printf(" %d", r.id);
  for (const int* p : {&legacy[0], &legacy[1]}) std::printf(" L%d", *p);
  std::printf("\\n");
  std::fflush(stdout);
}
"""


class RowSwaps(unittest.TestCase):
    def plan(self, code):
        mutants = [m for m in mutate.row_swap_mutants("x.cc", code)]
        number_of = {m.key: k + 1 for k, m in enumerate(mutants)}
        return mutants, schemata.swap_plan(mutants, number_of)

    def test_each_swap_of_an_array_and_a_legacy_list_gets_its_pair(self):
        code = "int legacy[2] = {7, 8};\n" + SWAP_CODE
        mutants, plan = self.plan(code)
        self.assertEqual(len(mutants), 3)
        out = schemata.play_swaps(code, plan["x.cc"])
        self.assertIn("for (const auto& r : ::accord_mutant::swapped(kAutoRules, {1, 2}))", out)
        self.assertIn("::accord_mutant::swapped(std::array{&legacy[0], &legacy[1]}, {3})", out)
        self.assertIn("constexpr std::array<Rule, 3> kAutoRules = {{{1}, {2}, {3}}};", out)  # the declaration stays

    @unittest.skipUnless(shutil.which("g++"), "needs g++")
    def test_a_swap_reorders_the_rows_and_a_fork_reads_the_switch_again(self):
        code = "int legacy[2] = {7, 8};\n" + SWAP_CODE + """
int main() {
  print("parent");  // the switch is read here, before the fork
  if (fork() == 0) {
    setenv("ACCORD_MUTANT", "2", 1);
    print("child");
    return 0;
  }
  wait(nullptr);
}
"""
        _, plan = self.plan(code)
        with tempfile.TemporaryDirectory() as d:
            header, src, exe = pathlib.Path(d, "accord_mutant.h"), pathlib.Path(d, "x.cc"), pathlib.Path(d, "x")
            header.write_text(schemata.HEADER)
            src.write_text(schemata.play_swaps(code, plan["x.cc"]))
            subprocess.run(["g++", "-std=c++20", "-include", str(header), str(src), "-o", str(exe), "-pthread"], check=True)
            env = {k: v for k, v in os.environ.items() if k != "ACCORD_MUTANT"}
            out = subprocess.run([str(exe)], capture_output=True, text=True, env=env, check=True).stdout
            self.assertEqual(out, "parent 1 2 3 L7 L8\nchild 1 3 2 L7 L8\n")
            out = subprocess.run([str(exe)], capture_output=True, text=True, env=dict(env, ACCORD_MUTANT="3"), check=True).stdout
            self.assertTrue(out.startswith("parent 1 2 3 L8 L7\n"), out)


class WholeTree(unittest.TestCase):
    def test_every_mutant_has_its_own_key(self):
        ms = mutate.all_mutants(HERE.parent)
        self.assertEqual(len({m.key for m in ms}), len(ms))

    def test_every_argued_equivalent_is_a_mutant_of_the_tree(self):
        # A key is a hash of the mutated text: an edit to that line makes a new mutant, to be judged (or argued) anew,
        # and leaves the old argument naming nothing.
        import json
        keys = {m.key for m in mutate.all_mutants(HERE.parent)}
        argued = json.loads((HERE / "mutation-equivalent.json").read_text())
        self.assertEqual(sorted(k for k in argued if k not in keys), [])

    def test_most_source_mutants_of_the_reference_have_a_guard(self):
        with tempfile.TemporaryDirectory() as d:
            root = pathlib.Path(d)
            for f in (HERE.parent / "reference").rglob("*"):
                if f.is_file() and f.suffix in (".cc", ".def", ".h"):
                    (root / f.relative_to(HERE.parent)).parent.mkdir(parents=True, exist_ok=True)
                    (root / f.relative_to(HERE.parent)).write_text(f.read_text())
            ms = mutate.all_mutants(root)
            sch = schemata.Schemata(root, ms, mutate.code_mask)
            guarded = [m for m in ms if m.key not in sch.left_out]
            self.assertGreater(len(guarded), 0.95 * len(ms))
            self.assertEqual([m.key for m in ms if m.op == "row-swap" and m.key in sch.left_out], [])  # every swap is played
            text = (root / "reference" / "src" / "resolve.cc").read_text()
            self.assertIn("::accord_mutant::", text)
            sch.restore()
            self.assertEqual((root / "reference" / "src" / "resolve.cc").read_text(),
                             (HERE.parent / "reference" / "src" / "resolve.cc").read_text())


if __name__ == "__main__":
    unittest.main()
