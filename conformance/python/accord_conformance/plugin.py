"""pytest plugin: the accord fixture corpus as one pytest item per case, run against a Python resolve function.

  pytest --accord-impl mypkg.connector:resolve --accord-profile lightning-2.2 [--accord-fixtures DIR]
         [--accord-bin PATH] [--accord-filter REGEX] [--accord-capability TAG ...] [--accord-jobs N] [--accord-timeout S]

At collection the plugin runs `accord conform DIR --impl '<python> -m accord_conformance mypkg.connector:resolve'
--format json` (`--report json` on older binaries) once and turns each result of the report into an item named by the
case id: passed passes, failed raises an AssertionError holding accord's field-by-field difference, skipped is a pytest
skip, expected-divergence an xfail, errored / crashed / timeout / unexpected-pass fail with accord's message. accord is
the only matcher.
"""
import json
import os
import re
import shlex

import pytest

from . import harness

# option name -> (ini name, help)
OPTIONS = {
    "impl": ("accord_impl", "MODULE:FUNCTION", "the resolve function to run the corpus against (enables the plugin)"),
    "profile": ("accord_profile", "P", "profile of `accord list profiles` (default: accord's, spec)"),
    "fixtures": ("accord_fixtures", "DIR", "fixture corpus (default: $ACCORD_FIXTURES)"),
    "bin": ("accord_bin", "PATH", "the accord binary (default: $ACCORD, else accord on PATH)"),
    "filter": ("accord_filter", "REGEX", "only cases whose id matches (accord conform --filter)"),
    "jobs": ("accord_jobs", "N", "server processes in parallel (accord conform --jobs)"),
    "timeout": ("accord_timeout", "S", "seconds per case (accord conform --timeout; default 10)"),
    "divergences": ("accord_divergences", "FILE", "expected-divergence file (accord conform --divergences)"),
}
PATH_OPTIONS = ("fixtures", "bin", "divergences")
PASSING = ("passed",)
FAILING = ("failed", "errored", "crashed", "timeout", "unexpected-pass")


def pytest_addoption(parser):
    group = parser.getgroup("accord", "accord conformance corpus (accord_conformance)")
    for key, (ini, metavar, text) in OPTIONS.items():
        group.addoption(f"--accord-{key}", dest=ini, metavar=metavar, default=None, help=text)
        parser.addini(ini, text, default=None)
    group.addoption("--accord-capability", dest="accord_capability", action="append", default=[], metavar="TAG",
                    help="a capability to declare besides the function's own (repeatable)")
    parser.addini("accord_capabilities", "capability tags to declare besides the function's own", type="args", default=[])


def _setting(config, key):
    """A setting: the command line (relative to the invocation directory), else the ini file (relative to it)."""
    ini = OPTIONS[key][0]
    value = config.getoption(ini)
    if value is not None:
        base = str(config.invocation_params.dir)
    else:
        value = config.getini(ini)
        base = str(config.inipath.parent) if config.inipath else str(config.rootpath)
        if not value:
            return None
    value = str(value)
    if key in PATH_OPTIONS and (os.sep in value or key != "bin"):
        value = os.path.join(base, os.path.expanduser(value))
    return value


def _settings(config):
    s = {key: _setting(config, key) for key in OPTIONS}
    s["capabilities"] = list(config.getini("accord_capabilities") or []) + list(config.getoption("accord_capability") or [])
    return s


def pytest_configure(config):
    s = _settings(config)
    if not s["impl"] or config.getoption("help", False) or config.getoption("version", False):
        return
    try:
        s["bin"] = harness.find_accord(s["bin"])
        s["fixtures"] = harness.find_fixtures(s["fixtures"])
    except harness.ConformError as e:
        raise pytest.UsageError(f"accord_conformance: {e}") from None
    config._accord_settings = s
    config.addinivalue_line("markers", "accord_case: a case of the accord fixture corpus")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    if getattr(config, "_accord_settings", None) is None:
        return
    corpus = AccordCorpus.from_parent(session, name="accord", nodeid="accord")
    items.extend(session.genitems(corpus))


def pytest_terminal_summary(terminalreporter, config):
    run = getattr(config, "_accord_run", None)
    if run is None:
        return
    impl = run.header.get("implementation", {})
    counts = ", ".join(f"{n} {v}" for v, n in run.counts().items() if n)
    terminalreporter.write_sep("-", "accord conform")
    terminalreporter.write_line(f"{impl.get('name')} {impl.get('version')}, profile {run.header.get('profile')}, "
                                f"{run.header.get('selected')} cases: {counts or 'none'}")
    if config.getoption("verbose") > 0:
        terminalreporter.write_line("command: " + shlex.join(run.command))


class AccordCorpus(pytest.Collector):
    """The corpus: runs accord conform once and yields one AccordCase per result."""

    def collect(self):
        s = self.config._accord_settings
        impl = harness.serve_command(s["impl"], capabilities=s["capabilities"])
        env = dict(os.environ, PYTHONPATH=harness.python_path(s["impl"]))
        try:
            run = harness.run_conform(s["bin"], s["fixtures"], impl, profile=s["profile"], filter=s["filter"], jobs=s["jobs"],
                                      timeout=s["timeout"], divergences=s["divergences"], env=env,
                                      cwd=str(self.config.invocation_params.dir))
        except harness.ConformError as e:
            raise self.CollectError(str(e)) from None
        self.config._accord_run = run
        profile = run.header.get("profile") or s["profile"]
        for result in run.results:
            item = AccordCase.from_parent(self, name=result["id"], result=result, profile=profile,
                                          implementation=run.header.get("implementation", {}))
            item.add_marker("accord_case")
            yield item


class CaseMismatch(AssertionError):
    """A case whose verdict is not a pass; the message is the whole report."""


_line_cache = {}


def case_line(path, case_id):
    """1-based line of `"id": "<case_id>"` in a fixture file, or None."""
    if path not in _line_cache:
        lines = {}
        try:
            with open(path, encoding="utf-8") as f:
                for number, text in enumerate(f, 1):
                    for m in re.finditer(r'"id"\s*:\s*("(?:[^"\\]|\\.)*")', text):
                        lines.setdefault(json.loads(m.group(1)), number)
        except (OSError, ValueError):
            pass
        _line_cache[path] = lines
    return _line_cache[path].get(case_id)


def _shown(value, limit):
    text = json.dumps(value, sort_keys=True)
    return text if limit is None or len(text) <= limit else text[:limit] + "..."


class AccordCase(pytest.Item):
    """One case of the corpus; its verdict was decided by accord at collection."""

    def __init__(self, *, result, profile, implementation, **kwargs):
        super().__init__(**kwargs)
        self.result = result
        self.profile = profile
        self.implementation = implementation
        self.user_properties.append(("accord_verdict", result.get("verdict")))

    def _file(self):
        f = self.result.get("file", "")
        return f if os.path.isabs(f) else os.path.join(str(self.config.invocation_params.dir), f)

    def reportinfo(self):
        line = case_line(self._file(), self.name)
        return self._file(), (line - 1 if line else 0), f"accord case {self.name}"

    def describe(self):
        """The failure text: verdict, case, fixture location, accord's differences or message, the outcome."""
        r = self.result
        limit = None if self.config.getoption("verbose") > 1 else 300
        impl = self.implementation
        line = case_line(self._file(), self.name)
        shown = self._file()
        rel = os.path.relpath(shown, str(self.config.invocation_params.dir))
        shown = shown if rel.startswith(os.pardir) else rel
        where = f"{shown}{':' + str(line) if line else ''} {r.get('pointer', '')}".rstrip()
        out = [f"accord case {self.name}: {r.get('verdict')} on profile {self.profile} "
               f"(implementation {impl.get('name')} {impl.get('version')})",
               f"fixture: {where}"]
        diffs = r.get("diffs") or []
        if diffs:
            out.append("differences (JSON Pointer: expected / actual):")
            for d in diffs:
                note = f"  [{d['note']}]" if d.get("note") else ""
                out.append(f"  {d.get('pointer') or '/'}: expected {_shown(d.get('expected'), limit)}, "
                           f"actual {_shown(d.get('actual'), limit)}{note}")
        if r.get("message"):
            out.append("message: " + r["message"].rstrip())
        if "outcome" in r:
            out.append("outcome: " + _shown(r["outcome"], None if limit is None else 2000))
        return "\n".join(out)

    def runtest(self):
        verdict = self.result.get("verdict")
        if verdict in PASSING:
            return
        if verdict == "skipped":
            reason = self.result.get("message") or "skipped by the implementation"
            try:
                raise pytest.skip.Exception(reason, _use_item_location=True)
            except TypeError:  # a pytest without item locations for skips
                pytest.skip(reason)
        if verdict == "expected-divergence":
            pointers = ", ".join(d.get("pointer") or "/" for d in self.result.get("diffs") or [])
            pytest.xfail(f"expected divergence: {self.result.get('message') or 'listed'}" + (f"; differs at {pointers}" if pointers else ""))
        raise CaseMismatch(self.describe())

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseMismatch):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)
