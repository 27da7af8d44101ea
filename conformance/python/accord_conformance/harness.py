"""Running `accord conform` on a Python function and reading its JSON report (no pytest needed here).

The harness is the only matcher: every verdict and every field difference comes from accord's report.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the directory holding accord_conformance/


class ConformError(Exception):
    """accord could not run the corpus (missing binary or corpus, a refused handshake, a bad corpus)."""


class ConformRun:
    """The parsed report of one `accord conform` run."""

    def __init__(self, command, returncode, header, results, footer, output):
        self.command = command        # the argument list that ran
        self.returncode = returncode  # 0 all pass, 1 some did not
        self.header = header          # {"implementation": {...}, "profile": ..., "selected": ...}
        self.results = results        # one dict per case: id, verdict, file, pointer, message?, diffs?, outcome?
        self.footer = footer          # {"counts": {verdict: n}, "ok": bool, ...}
        self.output = output          # accord's stdout and stderr (its field-level diff text)

    def counts(self):
        return dict(self.footer.get("counts", {}))


def find_accord(explicit=None):
    """The accord binary: `explicit`, else $ACCORD, else `accord` on PATH."""
    candidate = explicit or os.environ.get("ACCORD") or shutil.which("accord")
    if not candidate:
        raise ConformError("no accord binary: pass --accord-bin PATH, set accord_bin in the ini file, set ACCORD, "
                           "or put accord on PATH")
    if os.sep in candidate or (os.altsep and os.altsep in candidate):
        if not (os.path.isfile(candidate) and os.access(candidate, os.X_OK)):
            raise ConformError(f"accord binary {candidate!r} is not an executable file")
        return os.path.abspath(candidate)
    found = shutil.which(candidate)
    if not found:
        raise ConformError(f"accord binary {candidate!r} is not on PATH")
    return found


def find_fixtures(explicit=None):
    """The corpus directory: `explicit`, else $ACCORD_FIXTURES."""
    candidate = explicit or os.environ.get("ACCORD_FIXTURES")
    if not candidate:
        raise ConformError("no fixture corpus: pass --accord-fixtures DIR, set accord_fixtures in the ini file, "
                           "or set ACCORD_FIXTURES (the repository's fixtures/ directory)")
    if not os.path.isdir(candidate):
        raise ConformError(f"fixture corpus {candidate!r} is not a directory")
    return os.path.abspath(candidate)


_help_cache = {}


def report_option(accord):
    """`--format` where `accord conform --help` lists it (the new spelling), else `--report`."""
    if accord not in _help_cache:
        try:
            text = subprocess.run([accord, "conform", "--help"], capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.SubprocessError) as e:
            raise ConformError(f"cannot run {accord!r} conform --help: {e}") from e
        _help_cache[accord] = "--format" if re.search(r"(^|[\s,])--format\b", text) else "--report"
    return _help_cache[accord]


def serve_command(target, python=None, capabilities=(), extra=()):
    """The `--impl` shell command that serves `target` (module:function) with this interpreter."""
    argv = [python or sys.executable, "-m", "accord_conformance", target]
    for tag in capabilities:
        argv += ["--capability", tag]
    return shlex.join(argv + list(extra))


def module_root(target):
    """The sys.path entry that holds the module of 'module:function' in this process, or None."""
    import importlib.util
    top = target.partition(":")[0].split(".")[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or spec.origin in ("built-in", "frozen"):
        return None
    path = os.path.dirname(spec.origin)
    return os.path.dirname(path) if spec.submodule_search_locations else path


def python_path(target, extra=()):
    """PYTHONPATH for the server: this package, the target's root, `extra`, then what was set."""
    entries = [PACKAGE_ROOT, module_root(target), *extra, *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
    out = []
    for e in entries:
        if e and e not in out:
            out.append(e)
    return os.pathsep.join(out)


def _tail(text, limit=4000):
    return text if len(text) <= limit else "...\n" + text[-limit:]


def run_conform(accord, fixtures, impl, profile=None, filter=None, jobs=None, timeout=None, divergences=None,
                env=None, cwd=None):
    """Run `accord conform FIXTURES --impl IMPL ... --format json` (or --report) and return the ConformRun.

    Raises ConformError when accord exits 2 (bad corpus, implementation would not start) or writes no complete report.
    """
    fd, report = tempfile.mkstemp(prefix="accord-conform-", suffix=".jsonl")
    os.close(fd)
    argv = [accord, "conform", fixtures, "--impl", impl, report_option(accord), "json", "--out", report]
    for opt, value in (("--profile", profile), ("--filter", filter), ("--jobs", jobs), ("--timeout", timeout),
                       ("--divergences", divergences)):
        if value is not None:
            argv += [opt, str(value)]
    try:
        try:
            proc = subprocess.run(argv, capture_output=True, text=True, errors="replace", env=env, cwd=cwd)
        except OSError as e:
            raise ConformError(f"cannot run {shlex.join(argv)}: {e}") from e
        output = proc.stdout + proc.stderr
        header, results, footer = {}, [], None
        with open(report, encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.strip():
                    continue
                rec = json.loads(line)
                kind = rec.get("type")
                if kind == "header":
                    header = rec
                elif kind == "result":
                    results.append(rec)
                elif kind == "footer":
                    footer = rec
    finally:
        os.unlink(report)
    if proc.returncode not in (0, 1) or footer is None:
        raise ConformError(f"accord conform exited with status {proc.returncode} ({shlex.join(argv)}):\n{_tail(output)}")
    return ConformRun(argv, proc.returncode, header, results, footer, output)
