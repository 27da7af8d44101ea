"""The pytest plugin, run in a child pytest: one item per case, verdicts from accord's report, failure messages.

The toy implementation (toy_impl.py) runs on a fixed slice of the corpus; the reference, exposed as a Python function
(reference_impl.py forwarding to `$ACCORD serve`), runs on the whole lightning-2.2 corpus and must pass exactly the
cases that `accord conform --impl reference` passes.
"""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import PACKAGE_DIR, TESTS_DIR

PROFILE = "lightning-2.2"
# The toy's slice: the 14 accelerator auto-selection cases of Lightning 2.2 and two connector-test cases. If the corpus
# changes under this filter, recount from `accord conform fixtures --profile lightning-2.2 --filter '<this>' --impl
# 'python3 -m accord_conformance toy_impl:resolve'` (with conformance/python and its tests on PYTHONPATH).
TOY_SLICE = r"^accelerator/l22-(auto-|cpu-explicit$|invalid-choice$)"
TOY_COUNTS = {"passed": 5, "failed": 2, "skipped": 9}  # failed: 1 wrong answer + 1 exception (accord's errored)


def run_pytest(tmp_path, *args, ini="", env_extra=None, timeout=300):
    """pytest in a child process, in tmp_path, with the plugin from this source tree; returns (proc, junit testcases)."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n" + ini)
    junit = tmp_path / "junit.xml"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE_DIR, TESTS_DIR]), PYTHONDONTWRITEBYTECODE="1")
    env.update(env_extra or {})
    argv = [sys.executable, "-m", "pytest", "-p", "accord_conformance.plugin", "-p", "no:cacheprovider",
            f"--junitxml={junit}", "-rs", *args]
    proc = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout)
    cases = ET.parse(junit).getroot().iter("testcase") if junit.exists() else []
    return proc, list(cases)


def verdicts(testcases):
    """{case id: passed | failed | skipped} from the junit testcases."""
    out = {}
    for tc in testcases:
        kind = next((c.tag for c in tc if c.tag in ("failure", "error", "skipped")), "passed")
        out[tc.get("name")] = {"failure": "failed", "error": "failed"}.get(kind, kind)
    return out


def tally(v):
    counts = {}
    for kind in v.values():
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def summary_counts(stdout):
    """{'passed': n, ...} from pytest's last line."""
    last = [x for x in stdout.splitlines() if x.strip()][-1]
    return {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|deselected|error|errors|xfailed)", last)}


@pytest.fixture
def corpus_env(accord_bin, fixtures_dir):
    return {"ACCORD": accord_bin, "ACCORD_FIXTURES": fixtures_dir}


def test_toy_slice_exact_counts_and_failure_message(tmp_path, corpus_env):
    proc, cases = run_pytest(tmp_path, "--accord-impl", "toy_impl:resolve", "--accord-profile", PROFILE,
                             "--accord-filter", TOY_SLICE, env_extra=corpus_env)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert summary_counts(out) == TOY_COUNTS, out
    v = verdicts(cases)
    assert tally(v) == TOY_COUNTS
    assert v["accelerator/l22-auto-script-cpu"] == "passed"
    assert v["accelerator/l22-auto-script-cuda-4"] == "failed"       # wrong on purpose
    assert v["accelerator/l22-invalid-choice"] == "failed"           # the toy raises: accord says errored
    assert v["accelerator/l22-auto-script-tpu-8"] == "skipped"       # no accelerator:tpu capability
    assert v["accelerator/l22-auto-interactive-cuda-4"] == "skipped"  # the toy raises Skip
    # the field-by-field difference: JSON Pointer, expected and actual values, the case's file and id
    assert "accord case accelerator/l22-auto-script-cuda-4: failed on profile lightning-2.2 (implementation toy 0.1)" in out
    assert '/plan/strategy/class: expected "DDPStrategy", actual "SingleDeviceStrategy"' in out
    assert re.search(r"fixture: \S*fixtures/cases/accelerator/lightning22-auto-selection\.json:\d+ /cases/2", out), out
    # the exception, with its traceback
    assert "accord case accelerator/l22-invalid-choice: errored" in out
    assert "NotImplementedError: toy connector handles no flags but accelerator='cpu'" in out
    # capability skips and Skip() reasons are visible as skips
    assert out.count("implementation lacks capability accelerator:tpu") == 6
    assert out.count("implementation lacks capability hardware:mps") == 2
    assert "toy connector does not model interactive multi-GPU sessions" in out


def test_item_names_are_case_ids_for_k(tmp_path, corpus_env):
    proc, cases = run_pytest(tmp_path, "--accord-impl", "toy_impl:resolve", "--accord-profile", PROFILE,
                             "--accord-filter", TOY_SLICE, "-k", "accelerator/l22-auto-script-cuda", "-v", env_extra=corpus_env)
    assert summary_counts(proc.stdout) == {"passed": 1, "failed": 1, "deselected": 14}, proc.stdout
    assert "accord::accelerator/l22-auto-script-cuda-1 PASSED" in proc.stdout
    assert {tc.get("name") for tc in cases} == {"accelerator/l22-auto-script-cuda-1", "accelerator/l22-auto-script-cuda-4"}


def test_ini_options_and_extra_capability(tmp_path, corpus_env):
    fixtures = corpus_env["ACCORD_FIXTURES"]
    ini = (f"accord_impl = toy_impl:resolve\naccord_profile = {PROFILE}\naccord_filter = {TOY_SLICE}\n"
           f"accord_fixtures = {fixtures}\naccord_capabilities = hardware:mps\n")
    proc, cases = run_pytest(tmp_path, ini=ini, env_extra={"ACCORD": corpus_env["ACCORD"], "ACCORD_FIXTURES": ""})
    # hardware:mps declared: the 2 MPS cases now run, and the toy (no MPS logic) answers CPU: 2 more failures
    assert summary_counts(proc.stdout) == {"passed": 5, "failed": 4, "skipped": 7}, proc.stdout
    assert verdicts(cases)["accelerator/l22-auto-script-mps"] == "failed"


def test_expected_divergences_are_xfail_and_unexpected_passes_fail(tmp_path, corpus_env):
    divergences = tmp_path / "toy-divergences.json"
    divergences.write_text(json.dumps({"implementation": "toy", "divergences": {
        "accelerator/l22-auto-script-cuda-4": "the toy keeps one GPU", "accelerator/l22-auto-script-cpu": "listed, but passes"}}))
    proc, cases = run_pytest(tmp_path, "--accord-impl", "toy_impl:resolve", "--accord-profile", PROFILE, "--accord-filter", TOY_SLICE,
                             "--accord-divergences", divergences.name, "-rx", env_extra=corpus_env)
    assert summary_counts(proc.stdout) == {"passed": 4, "failed": 2, "skipped": 9, "xfailed": 1}, proc.stdout
    line = next(l for l in proc.stdout.splitlines() if "expected divergence: the toy keeps one GPU; differs at /plan/" in l)
    assert "/plan/launcher/" in line and "/plan/strategy/name" in line, line
    assert "accord case accelerator/l22-auto-script-cpu: unexpected-pass" in proc.stdout


def test_missing_corpus_is_a_usage_error(tmp_path, accord_bin):
    proc, _ = run_pytest(tmp_path, "--accord-impl", "toy_impl:resolve", env_extra={"ACCORD": accord_bin, "ACCORD_FIXTURES": ""})
    assert proc.returncode == 4
    assert "no fixture corpus: pass --accord-fixtures DIR" in proc.stdout + proc.stderr


def test_missing_binary_is_a_usage_error(tmp_path, fixtures_dir):
    proc, _ = run_pytest(tmp_path, "--accord-impl", "toy_impl:resolve", "--accord-bin", str(tmp_path / "no-accord"),
                         env_extra={"ACCORD_FIXTURES": fixtures_dir})
    assert proc.returncode == 4
    assert "is not an executable file" in proc.stdout + proc.stderr


def test_function_that_does_not_load_is_a_collection_error(tmp_path, corpus_env):
    proc, _ = run_pytest(tmp_path, "--accord-impl", "no_such_module_anywhere:resolve", "--accord-profile", PROFILE,
                         env_extra=corpus_env)
    assert proc.returncode == 2, proc.stdout
    assert "ERROR collecting accord" in proc.stdout
    assert "No module named 'no_such_module_anywhere'" in proc.stdout


def test_plugin_is_inactive_without_an_implementation(tmp_path, corpus_env):
    (tmp_path / "test_plain.py").write_text("def test_plain():\n    pass\n")
    proc, cases = run_pytest(tmp_path, env_extra=corpus_env)
    assert proc.returncode == 0 and [tc.get("name") for tc in cases] == ["test_plain"], proc.stdout


def reference_pass_count(accord_bin, fixtures_dir, tmp_path):
    """passed count and ids of `accord conform FIXTURES --profile lightning-2.2 --impl reference` (its JSON report)."""
    from accord_conformance import harness
    report = tmp_path / "reference.jsonl"
    argv = [accord_bin, "conform", fixtures_dir, "--profile", PROFILE, "--impl", "reference",
            harness.report_option(accord_bin), "json", "--out", str(report)]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    records = [json.loads(x) for x in report.read_text().splitlines() if x.strip()]
    footer = next(r for r in records if r["type"] == "footer")
    passed = {r["id"] for r in records if r["type"] == "result" and r["verdict"] == "passed"}
    assert footer["counts"]["passed"] == len(passed)
    return footer["counts"]["passed"], passed


def test_whole_corpus_through_the_reference_as_a_python_function(tmp_path, accord_bin, fixtures_dir):
    expected, expected_ids = reference_pass_count(accord_bin, fixtures_dir, tmp_path)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    proc, cases = run_pytest(run_dir, "--accord-impl", "reference_impl:resolve", "--accord-profile", PROFILE, "-q",
                             env_extra={"ACCORD": accord_bin, "ACCORD_FIXTURES": fixtures_dir})
    counts = summary_counts(proc.stdout)
    print(f"pytest through the plugin: {counts}; accord conform --impl reference: {expected} passed")
    assert counts.get("passed") == expected, proc.stdout[-3000:]
    v = verdicts(cases)
    assert {k for k, kind in v.items() if kind == "passed"} == expected_ids
    assert "reference-via-python 1, profile lightning-2.2" in proc.stdout
