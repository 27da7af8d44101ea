"""Tests of coverage/hunt: which parts of an outcome a fixture can pin, which a mutant changes, and the expectation
built from a release's answer (only parts the release and the reference agree on)."""
import importlib.machinery
import importlib.util
import pathlib
import sys
import unittest

sys.dont_write_bytecode = True
HERE = pathlib.Path(__file__).resolve().parent.parent
loader = importlib.machinery.SourceFileLoader("hunt", str(HERE / "hunt"))
spec = importlib.util.spec_from_loader("hunt", loader)
hunt = importlib.util.module_from_spec(spec)
loader.exec_module(hunt)


def ok(strategy="ddp", root="cuda:0", codes=(), trace=("select.a",)):
    return {"status": "ok", "diagnostics": [{"code": c, "message": "m " + c} for c in codes], "trace": list(trace),
            "plan": {"accelerator": "gpu", "parallel_devices": ["cuda:0", "cuda:1"],
                     "strategy": {"name": strategy, "class": "DDPStrategy", "root_device": root, "params": {}},
                     "launcher": {"kind": "subprocess"}}}


def error(code="err_x", fields=None, codes=()):
    return {"status": "error", "diagnostics": [{"code": c} for c in codes], "trace": ["validate.a"],
            "error": {"code": code, "message": "text", "fields": fields or {"strategy": "'ddp'"}}}


class Parts(unittest.TestCase):
    def test_trace_and_messages_are_not_parts(self):
        a, b = ok(trace=("select.a",)), ok(trace=("select.b",))
        b["diagnostics"] = [{"code": c["code"], "message": "other"} for c in a["diagnostics"]]
        self.assertEqual(hunt.changed_parts(a, b), [])

    def test_plan_leaves_and_lists_whole(self):
        self.assertEqual(hunt.changed_parts(ok(root="cuda:0"), ok(root="cuda:1")), ["plan/strategy/root_device"])
        b = ok()
        b["plan"]["parallel_devices"] = ["cuda:0"]
        self.assertEqual(hunt.changed_parts(ok(), b), ["plan/parallel_devices"])

    def test_diagnostics_as_a_set_of_codes(self):
        self.assertEqual(hunt.changed_parts(ok(codes=("a", "b")), ok(codes=("b", "a", "a"))), [])
        self.assertEqual(hunt.changed_parts(ok(codes=("a",)), ok(codes=("a", "w"))), ["diagnostics"])

    def test_error_fields_and_status(self):
        self.assertEqual(hunt.changed_parts(error(fields={"a": "1"}), error(fields={"a": "2"})), ["error/fields/a"])
        self.assertIn("status", hunt.changed_parts(ok(), error()))

    def test_a_refused_line_differs_in_status(self):
        refused = {"status": "invalid", "error": "/flags/x: unknown flag", "line": 3}
        self.assertEqual(hunt.parts(refused), {"status": "invalid"})
        self.assertEqual(hunt.changed_parts(ok(), refused)[-1], "status")

    def test_without_trace_cuts_the_last_member(self):
        self.assertEqual(hunt.without_trace('{"plan":{},"status":"ok","trace":["a"]}'), '{"plan":{},"status":"ok"')


class Expectation(unittest.TestCase):
    def test_killing_plan_part_comes_from_the_release(self):
        release, ref = ok(root="cuda:1"), ok(root="cuda:1")
        e = hunt.expectation(release, [ref], ["plan/strategy/root_device"])
        self.assertEqual(e["plan"]["strategy"]["root_device"], "cuda:1")
        self.assertEqual(e["plan"]["strategy"]["name"], "ddp")  # sharpened: release and reference agree

    def test_a_part_the_reference_does_not_share_is_not_added(self):
        release, ref = ok(strategy="ddp"), ok(strategy="ddp_spawn")
        e = hunt.expectation(release, [ref], ["plan/strategy/root_device"])
        self.assertNotIn("name", e["plan"]["strategy"])

    def test_error_fields_pinned_by_value_and_codes_exact(self):
        release = error(fields={"strategy": "'ddp'", "other": "x"}, codes=("w",))
        e = hunt.expectation(release, [release], ["error/fields/strategy", "diagnostics"])
        self.assertEqual(e["error"]["field_values"], {"strategy": "'ddp'"})
        self.assertEqual(e["diagnostics"], ["w"])
        self.assertTrue(e["diagnostics_exact"])


if __name__ == "__main__":
    unittest.main()
