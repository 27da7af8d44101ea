"""Running cases through the Lightning adapter (cached) and through accord resolve --batch."""
import gzip
import hashlib
import json
import os
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------------------------------------------- running
def stream(argv, requests, env=None):
    """Writes JSON lines to a process and returns its output lines (a writer thread avoids pipe deadlock)."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=env, text=True, bufsize=1 << 20)

    def write():
        try:
            for r in requests:
                proc.stdin.write(r + "\n")
        except BrokenPipeError:
            pass
        finally:
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass

    t = threading.Thread(target=write, daemon=True)
    t.start()
    lines = [json.loads(line) for line in proc.stdout if line.strip()]
    t.join()
    proc.wait()
    return lines


def run_lightning(cases, major, root, connector="trainer", profile=None):
    """The adapter's replies to the cases (the Trainer's connector, or with connector "fabric" Fabric's)."""
    profile = profile or ("fabric-2.2" if connector == "fabric" else "lightning-1.6")
    reqs = [json.dumps({"cmd": "start", "protocol": 1})]
    reqs += [json.dumps({"cmd": "resolve", "id": str(i), "profile": profile, "case": c})
             for i, (_, c) in enumerate(cases)]
    reqs.append(json.dumps({"cmd": "stop"}))
    env = dict(os.environ)
    argv = [sys.executable, os.path.join(HERE, "adapter.py"), "--lightning", major]
    if root:
        argv += ["--root", root]
    if connector != "trainer":
        argv += ["--connector", connector]
    replies = stream(argv, reqs, env)
    if not replies or not replies[0].get("ok"):
        sys.exit(f"adapter did not start: {replies[:1]}")
    out = [None] * len(cases)
    for r in replies[1:]:
        out[int(r["id"])] = r
    return out


def slim(reply):
    """A reply without what the comparison never reads (messages shortened, trace dropped): smaller caches."""
    out = reply.get("outcome")
    if out is None:
        return reply
    out = dict(out)
    out.pop("trace", None)
    if "error" in out:
        out["error"] = dict(out["error"], message=out["error"].get("message", "")[:300])
    out["diagnostics"] = [dict(d, message=d.get("message", "")[:200]) for d in out.get("diagnostics", [])]
    return dict(reply, outcome=out)


def adapter_fingerprint(major, connector="trainer"):
    h = hashlib.sha1(major.encode() if connector == "trainer" else f"{major}/{connector}".encode())
    for name in ("adapter.py", "codes.py", "oracle.py"):
        with open(os.path.join(HERE, name), "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()[:16]


def run_lightning_cached(cases, major, root, cache_dir, connector="trainer", profile=None):
    """run_lightning, reusing the replies of an earlier run with the same adapter sources (cache_dir)."""
    if not cache_dir:
        return [slim(r) if r else r for r in run_lightning(cases, major, root, connector, profile)]
    os.makedirs(cache_dir, exist_ok=True)
    kind = "lightning" if connector == "trainer" else connector
    path = os.path.join(cache_dir, f"{kind}-{major}-{adapter_fingerprint(major, connector)}.jsonl.gz")
    known = {}
    if os.path.exists(path):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                known[rec["k"]] = rec["r"]
    keys = [json.dumps(c, sort_keys=True) for _, c in cases]
    todo = [i for i, k in enumerate(keys) if k not in known]
    print(f"lightning cache: {len(cases) - len(todo)} known, {len(todo)} to run", file=sys.stderr)
    if todo:
        fresh = run_lightning([cases[i] for i in todo], major, root, connector, profile)
        with gzip.open(path, "at", encoding="utf-8") as fh:
            for i, r in zip(todo, fresh):
                r = slim(r) if r else {"errored": "no reply"}
                r.pop("id", None)
                known[keys[i]] = r
                fh.write(json.dumps({"k": keys[i], "r": r}) + "\n")
    return [known[k] for k in keys]


def run_reference(cases, accord, profile):
    reqs = [json.dumps(c) for _, c in cases]
    return stream([accord, "resolve", "--batch", "--profile", profile], reqs)
