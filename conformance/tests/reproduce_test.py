#!/usr/bin/env python3
"""reproduce_test.py: a failing or differing case picked from every report format reproduces with the command that
the report prints for it (ctest conformance_reports_reproduce).

conform: an implementation with known mistakes (conformance_mutant_impl) on its corpus, in the terminal report and
in JSON lines, JUnit, markdown and HTML; compare: the reference under two profiles, as text, markdown, JSON and
HTML. From each, the first case not passing (or differing) and its `reproduce` command are taken; the command, run
as printed (its leading `accord` is the binary under test), must run that case alone and fail (or differ) again.

    python3 reproduce_test.py --accord BUILD/bin/accord --mutant BUILD/bin/conformance_mutant_impl --data DIR --fixtures DIR
"""
import argparse
import html
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

ARGS = None


def run(argv, cwd):
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def rerun(command, cwd):
    argv = shlex.split(command)
    assert argv[0] == "accord", command
    return run([ARGS.accord] + argv[1:], cwd)


def md_code(text):
    """The text of a markdown table-cell code span (md_cell escapes | and backticks)."""
    return text.replace("\\|", "|").replace("\\`", "`")


def picks_conform(fmt, text):
    """(id, command) of the first reported case with a reproducing command."""
    if fmt == "text":
        m = re.search(r"^FAILED (\S+) .*?^  reproduce: ([^\n]*)$", text, re.M | re.S)
        return m.group(1), m.group(2)
    if fmt == "json":
        for line in text.splitlines():
            j = json.loads(line)
            if j.get("reproduce"):
                return j["id"], j["reproduce"]
    if fmt == "junit":
        for case in ET.fromstring(text).iter("testcase"):
            failure = case.find("failure")
            if failure is not None:
                return case.get("name"), re.search(r"^reproduce: (.*)$", failure.text, re.M).group(1)
    if fmt == "markdown":
        m = re.search(r"^### `([^`]+)`: failed.*?^- reproduce: `([^\n]*)`$", text, re.M | re.S)
        return m.group(1), md_code(m.group(2))
    if fmt == "html":
        m = re.search(r'<tr class="case failed"><td><code>([^<]+)</code>.*?<pre class="reproduce">([^<]+)</pre>', text, re.S)
        return html.unescape(m.group(1)), html.unescape(m.group(2))
    raise AssertionError(fmt)


def picks_compare(fmt, text):
    if fmt == "text":
        m = re.search(r"^! (\S+) .*?^    reproduce: ([^\n]*)$", text, re.M | re.S)
        return m.group(1), m.group(2)
    if fmt == "json":
        row = next(r for r in json.loads(text)["rows"] if r["differ"])
        return row["id"], row["reproduce"]
    if fmt == "markdown":
        m = re.search(r"^### ≠ `([^`]+)`.*?^- reproduce: `([^\n]*)`$", text, re.M | re.S)
        return m.group(1), md_code(m.group(2))
    if fmt == "html":
        m = re.search(r'<tr class="case differ"><td><code>([^<]+)</code>.*?reproduce <pre>([^<]+)</pre>', text, re.S)
        return html.unescape(m.group(1)), html.unescape(m.group(2))
    raise AssertionError(fmt)


class Reproduce(unittest.TestCase):
    def check(self, base, formats, picks, again):
        """Each format's first reported case, rerun with its command, must show `again(case)` with exit 1."""
        with tempfile.TemporaryDirectory() as tmp:
            for fmt in formats:
                with self.subTest(fmt=fmt):
                    out = os.path.join(tmp, "report." + fmt)
                    status, said = run(base + ([] if fmt == "text" else ["--format", fmt, "--out", out]), tmp)
                    self.assertEqual(status, 1, said)
                    text = said if fmt == "text" else open(out, encoding="utf-8").read()
                    case, command = picks(fmt, text)
                    status, said = rerun(command, tmp)
                    self.assertEqual(status, 1, command + "\n" + said)
                    for pattern in again(case):
                        self.assertRegex(said, pattern, command)

    def test_conform_reports(self):
        self.check([ARGS.accord, "conform", os.path.join(ARGS.data, "mutant"), "--impl", ARGS.mutant],
                   ("text", "json", "junit", "markdown", "html"), picks_conform,
                   lambda case: [r"FAIL: 1 cases: 0 passed, 1 failed", "FAILED " + re.escape(case) + " "])

    def test_compare_reports(self):
        self.check([ARGS.accord, "compare", ARGS.fixtures, "--impl", "reference:spec", "--impl", "reference:lightning-1.6",
                    "--filter", "^amp/"], ("text", "json", "markdown", "html"), picks_compare,
                   lambda case: [r"\n1 of 1 cases differ", "! " + re.escape(case) + " "])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    for a in ("--accord", "--mutant", "--data", "--fixtures"):
        parser.add_argument(a, required=True)
    ARGS, rest = parser.parse_known_args()
    ARGS.accord, ARGS.mutant = os.path.abspath(ARGS.accord), os.path.abspath(ARGS.mutant)
    ARGS.data, ARGS.fixtures = os.path.abspath(ARGS.data), os.path.abspath(ARGS.fixtures)
    unittest.main(argv=[sys.argv[0]] + rest)
