"""accord_conformance.harness with a stand-in accord: the report option it picks (--format where `conform --help` lists
it, else --report), the command line it builds, the report it reads, and the errors it raises."""
import json
import os
import stat
import sys

import pytest

from accord_conformance import harness

FAKE = r'''#!PYTHON
import json, os, sys
args = sys.argv[1:]
if args[:2] == ["conform", "--help"]:
    print(os.environ["FAKE_HELP"])
    sys.exit(0)
with open(os.environ["FAKE_ARGV"], "w") as f:
    json.dump(args, f)
status = int(os.environ.get("FAKE_STATUS", "1"))
if status != 2:
    out = args[args.index("--out") + 1]
    with open(out, "w") as f:
        f.write(json.dumps({"type": "header", "implementation": {"name": "x"}, "profile": "spec", "selected": 1}) + "\n")
        f.write(json.dumps({"type": "result", "id": "a/b", "verdict": "failed", "file": "f.json", "pointer": "/cases/0",
                            "diffs": [{"pointer": "/plan/x", "expected": 1, "actual": 2, "note": ""}]}) + "\n")
        f.write(json.dumps({"type": "footer", "counts": {"failed": 1}, "ok": False}) + "\n")
print("accord conform: fake output")
sys.exit(status)
'''


@pytest.fixture
def fake_accord(tmp_path, monkeypatch):
    path = tmp_path / "fake-accord"
    path.write_text(FAKE.replace("PYTHON", sys.executable, 1))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("FAKE_ARGV", str(tmp_path / "argv.json"))
    harness._help_cache.clear()
    yield str(path), tmp_path / "argv.json"
    harness._help_cache.clear()


@pytest.mark.parametrize("help_text, option", [("  --format TEXT:{json,junit} Needs: --out", "--format"),
                                               ("  --report TEXT:{json,junit,markdown,html} Needs: --out", "--report")])
def test_report_option_and_command_line(fake_accord, monkeypatch, tmp_path, help_text, option):
    accord, argv_file = fake_accord
    monkeypatch.setenv("FAKE_HELP", help_text)
    run = harness.run_conform(accord, str(tmp_path), "python3 -m x", profile="lightning-2.2", filter="^a/", jobs=2)
    argv = json.loads(argv_file.read_text())
    assert argv[:4] == ["conform", str(tmp_path), "--impl", "python3 -m x"]
    assert argv[4:6] == [option, "json"] and argv[6] == "--out"
    assert argv[8:] == ["--profile", "lightning-2.2", "--filter", "^a/", "--jobs", "2"]
    assert not os.path.exists(argv[7])  # the temporary report is removed
    assert run.returncode == 1 and run.counts() == {"failed": 1}
    assert run.results[0]["diffs"][0] == {"pointer": "/plan/x", "expected": 1, "actual": 2, "note": ""}


def test_exit_2_is_a_conform_error_with_accords_output(fake_accord, monkeypatch, tmp_path):
    accord, _ = fake_accord
    monkeypatch.setenv("FAKE_HELP", "--report")
    monkeypatch.setenv("FAKE_STATUS", "2")
    with pytest.raises(harness.ConformError, match="exited with status 2(.|\n)*fake output"):
        harness.run_conform(accord, str(tmp_path), "impl")


def test_finding_the_binary_and_the_corpus(tmp_path, monkeypatch):
    monkeypatch.delenv("ACCORD", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(harness.ConformError, match="no accord binary"):
        harness.find_accord()
    with pytest.raises(harness.ConformError, match="is not an executable file"):
        harness.find_accord(str(tmp_path / "missing" / "accord"))
    monkeypatch.delenv("ACCORD_FIXTURES", raising=False)
    with pytest.raises(harness.ConformError, match="no fixture corpus"):
        harness.find_fixtures()
    assert harness.find_fixtures(str(tmp_path)) == str(tmp_path)


def test_serve_command_quotes_for_the_shell():
    cmd = harness.serve_command("pkg.mod:fn", python="/opt/my python/bin/python3", capabilities=["env:slurm"])
    assert cmd == "'/opt/my python/bin/python3' -m accord_conformance pkg.mod:fn --capability env:slurm"
