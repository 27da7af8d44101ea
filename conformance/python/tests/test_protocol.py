"""The protocol helper, serve(), against conformance/PROTOCOL.md: handshake, ids, skip, errored, bad lines, stop."""
import io
import json
import os
import subprocess
import sys

import pytest

import accord_conformance
from accord_conformance import Skip, implementation, serve
from accord_conformance._server import salvage_id
from conftest import PACKAGE_DIR, TESTS_DIR

START = {"cmd": "start", "protocol": 1}
STOP = {"cmd": "stop"}
OK_OUTCOME = {"status": "ok", "plan": {"accelerator": "cpu"}, "diagnostics": []}


def req(rid, case=None, profile="lightning-2.2", **extra):
    return {"cmd": "resolve", "id": rid, "profile": profile, "case": {} if case is None else case, **extra}


def converse(resolve, *messages, binary=False, **kwargs):
    """Run serve() on the messages (dicts, or raw str/bytes lines); returns (status, replies as dicts)."""
    lines = [m if isinstance(m, (str, bytes)) else json.dumps(m) for m in messages]
    if binary:
        inp = io.BytesIO(b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines))
    else:
        inp = io.StringIO("".join(x + "\n" for x in lines))
    out = io.StringIO()
    status = serve(resolve, stdin=inp, stdout=out, **kwargs)
    text = out.getvalue()
    assert text == "" or text.endswith("\n")
    return status, [json.loads(x) for x in text.splitlines()]


def test_handshake_reply():
    status, replies = converse(lambda case, profile: OK_OUTCOME, START, STOP, name="mine", version="1.2",
                               capabilities=["trace", "accelerator:cpu", "trace"])
    assert status == 0
    assert replies == [{"ok": True, "protocol": 1, "implementation": {
        "name": "mine", "version": "1.2", "language": "python", "capabilities": ["accelerator:cpu", "trace"]}}]


def test_handshake_defaults_and_decorator():
    @implementation(name="decorated", version="3", capabilities=lambda: ["env"])
    def fn(case):
        return OK_OUTCOME
    _, [hello] = converse(fn, START)
    assert hello["implementation"] == {"name": "decorated", "version": "3", "language": "python", "capabilities": ["env"]}
    _, [hello] = converse(fn, START, name="override")
    assert hello["implementation"]["name"] == "override"
    _, [hello] = converse(lambda case: OK_OUTCOME, START)
    assert hello["implementation"] == {"name": "python", "version": "0", "language": "python", "capabilities": []}


def test_handshake_refuses_another_protocol_version():
    _, [reply] = converse(lambda case: OK_OUTCOME, {"cmd": "start", "protocol": 2})
    assert reply["ok"] is False and "protocol 2" in reply["error"]


def test_capability_function_that_fails_refuses_the_handshake():
    def broken():
        raise RuntimeError("no hardware database")
    _, [reply] = converse(lambda case: OK_OUTCOME, START, capabilities=broken)
    assert reply["ok"] is False and "no hardware database" in reply["error"]


def test_one_reply_per_request_with_the_same_id_in_order():
    seen = []

    def fn(case, profile):
        seen.append((case, profile))
        return {"status": "ok", "plan": {"devices": case["flags"]["devices"]}}
    ids = ["a", "strategy/x-y", "3"]
    msgs = [req(rid, {"flags": {"devices": n}}, profile=f"p{n}") for n, rid in enumerate(ids)]
    status, replies = converse(fn, START, *msgs, STOP)
    assert status == 0
    assert [r["id"] for r in replies[1:]] == ids
    assert [r["outcome"]["plan"]["devices"] for r in replies[1:]] == [0, 1, 2]
    assert seen == [({"flags": {"devices": n}}, f"p{n}") for n in range(3)]


@pytest.mark.parametrize("fn", [lambda case: {"status": "ok", "who": "case-only"},
                                lambda case, profile: {"status": "ok", "who": profile},
                                lambda case, *, profile: {"status": "ok", "who": profile}])
def test_calling_conventions(fn):
    _, replies = converse(fn, START, req("x", profile="fabric-2.2"))
    assert replies[1]["outcome"]["who"] in ("case-only", "fabric-2.2")


def test_skip_answers_skipped_with_the_reason():
    def fn(case):
        raise Skip("needs a real TPU")
    _, replies = converse(fn, START, req("s1"))
    assert replies[1] == {"id": "s1", "skipped": "needs a real TPU"}


def test_missing_profile_and_required_capability_are_skipped():
    calls = []

    def fn(case):
        calls.append(case)
        return OK_OUTCOME
    _, replies = converse(fn, START, req("p", profile="spec"), req("r", requires=["env:slurm"]),
                          req("ok", requires=["env"]), capabilities=["env"], profiles=["lightning-2.2"])
    assert replies[1]["id"] == "p" and "profile 'spec' is not supported" in replies[1]["skipped"]
    assert replies[2] == {"id": "r", "skipped": "implementation lacks capability env:slurm"}
    assert replies[3] == {"id": "ok", "outcome": OK_OUTCOME}
    assert len(calls) == 1


def _explode(case):
    return {"a": 1}["missing-key-" + str(case.get("n"))]


def test_exception_answers_errored_with_the_traceback():
    _, replies = converse(_explode, START, req("e1", {"n": 7}), req("after", {"n": 8}))
    reply = replies[1]
    assert reply["id"] == "e1" and set(reply) == {"id", "errored"}
    text = reply["errored"]
    assert text.startswith("Traceback (most recent call last):")
    assert "in _explode" in text and "KeyError: 'missing-key-7'" in text
    assert "_server.py" not in text  # the helper's own frames are left out
    assert replies[2]["id"] == "after"  # the session goes on


@pytest.mark.parametrize("value, message", [(42, "resolve returned int, not an outcome dict"),
                                            ({"status": "ok", "plan": {1, 2}}, "outcome is not JSON"),
                                            ({"status": "ok", "x": float("nan")}, "outcome is not JSON")])
def test_results_that_are_not_outcomes_are_errored(value, message):
    _, replies = converse(lambda case: value, START, req("bad"))
    assert replies[1]["id"] == "bad" and message in replies[1]["errored"]


def test_unreadable_lines_are_errored_with_the_id_when_it_can_be_read():
    broken = '{"cmd": "resolve", "id": "x7", "case": {"flags": '
    _, replies = converse(lambda case: OK_OUTCOME, START, broken, "not json", "[1, 2]",
                          '{"id": "late", "cmd": "resolve", "case": }', req("fine"))
    assert replies[1]["id"] == "x7" and replies[1]["errored"].startswith("request is not valid JSON: column ")
    assert replies[2]["id"] is None and replies[2]["errored"].startswith("request is not valid JSON")
    assert replies[3] == {"id": None, "errored": "request is not a JSON object"}
    assert replies[4]["id"] == "late"
    assert replies[5] == {"id": "fine", "outcome": OK_OUTCOME}


def test_invalid_utf8_and_blank_lines():
    _, replies = converse(lambda case: OK_OUTCOME, START, b'{"id": "u", "cmd": "resolve", "case": {"\xff": 1}}', b"   ",
                          req("next"), binary=True)
    assert replies[1]["id"] == "u" and "invalid UTF-8" in replies[1]["errored"]
    assert replies[2]["id"] == "next" and len(replies) == 3


def test_protocol_order_errors():
    _, replies = converse(lambda case: OK_OUTCOME, req("early"), START, {"cmd": "frobnicate", "id": "f"},
                          {"cmd": "resolve", "id": "nocase"})
    assert replies[0] == {"id": "early", "errored": "resolve before a successful start"}
    assert replies[2] == {"id": "f", "errored": "unknown command 'frobnicate'"}
    assert replies[3] == {"id": "nocase", "errored": "request has no case object"}


def test_stop_ends_with_status_0_and_nothing_after_it_is_answered():
    calls = []
    status, replies = converse(lambda case: calls.append(1) or OK_OUTCOME, START, STOP, req("after-stop"))
    assert status == 0 and len(replies) == 1 and calls == []
    status, replies = converse(lambda case: OK_OUTCOME, START, req("eof"))  # end of input without stop
    assert status == 0 and replies[-1]["id"] == "eof"


def test_salvage_id():
    assert salvage_id('{"cmd": "resolve", "id": "a\\"b", "case": {') == 'a"b'
    assert salvage_id('{"case": {"id": "inner"}, "id": "outer", ') == "outer"
    assert salvage_id('{"case": {"id": "inner"') is None
    assert salvage_id("garbage") is None


def run_cli(*args, lines, env_extra=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE_DIR, TESTS_DIR]), PYTHONDONTWRITEBYTECODE="1")
    env.update(env_extra or {})
    text = "".join(json.dumps(m) + "\n" for m in lines)
    proc = subprocess.run([sys.executable, "-m", "accord_conformance", *args], input=text, capture_output=True,
                          text=True, env=env, timeout=60)
    return proc.returncode, [json.loads(x) for x in proc.stdout.splitlines()], proc.stderr


def test_command_line_server(tmp_path):
    noisy = tmp_path / "noisy_impl.py"
    noisy.write_text("import os, sys\n"
                     "def resolve(case, profile):\n"
                     "    print('chatty print')\n"
                     "    os.write(1, b'raw fd write\\n')\n"
                     "    return {'status': 'ok', 'profile': profile}\n")
    status, replies, err = run_cli("noisy_impl", "--path", str(tmp_path), "--name", "noisy", "--capability", "env",
                                   lines=[START, req("n1"), STOP])
    assert status == 0
    assert replies[0]["implementation"]["name"] == "noisy" and replies[0]["implementation"]["capabilities"] == ["env"]
    assert replies[1] == {"id": "n1", "outcome": {"status": "ok", "profile": "lightning-2.2"}}
    assert "chatty print" in err and "raw fd write" in err


def test_command_line_server_reads_the_decorator():
    status, replies, _ = run_cli("toy_impl:resolve", "--capability", "trace",
                                 lines=[START, req("t", {"flags": {}, "hardware": {"cuda_devices": 1}}), STOP])
    hello = replies[0]["implementation"]
    assert status == 0 and hello["name"] == "toy" and hello["version"] == "0.1"
    assert "accelerator:gpu" in hello["capabilities"] and "trace" in hello["capabilities"]
    assert replies[1]["outcome"]["plan"]["accelerator_class"] == "CUDAAccelerator"


def test_command_line_server_refuses_the_handshake_when_the_target_does_not_load():
    status, replies, err = run_cli("no_such_module_anywhere:resolve", lines=[START])
    assert status == 2
    assert replies[0]["ok"] is False and "No module named 'no_such_module_anywhere'" in replies[0]["error"]
    assert "Traceback" in err
