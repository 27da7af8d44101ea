"""The reference (`$ACCORD serve`) exposed as a Python resolve function: each case is forwarded to one persistent
`accord serve` subprocess, started at the handshake. Its capabilities are the reference's own."""
import itertools
import json
import os
import subprocess

from accord_conformance import Skip, implementation

_server = {}
_ids = itertools.count()


def _start():
    if "proc" not in _server:
        proc = subprocess.Popen([os.environ["ACCORD"], "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        proc.stdin.write(json.dumps({"cmd": "start", "protocol": 1}) + "\n")
        proc.stdin.flush()
        hello = json.loads(proc.stdout.readline())
        if not hello.get("ok"):
            raise RuntimeError(f"accord serve refused the handshake: {hello}")
        _server["proc"], _server["capabilities"] = proc, hello["implementation"]["capabilities"]
    return _server


def capabilities():
    return _start()["capabilities"]


@implementation(name="reference-via-python", version="1", capabilities=capabilities)
def resolve(case, profile):
    proc = _start()["proc"]
    rid = f"py-{next(_ids)}"
    proc.stdin.write(json.dumps({"cmd": "resolve", "id": rid, "profile": profile, "case": case}) + "\n")
    proc.stdin.flush()
    reply = json.loads(proc.stdout.readline())
    if reply.get("id") != rid:
        raise RuntimeError(f"accord serve answered {reply.get('id')!r} for {rid!r}")
    if "skipped" in reply:
        raise Skip(reply["skipped"])
    if "errored" in reply:
        raise RuntimeError(reply["errored"])
    return reply["outcome"]
