#!/usr/bin/env python3
"""hostile_test.py: runs the rows of hostile_inputs.json against the `accord` binary.

Each row: a command line, the bytes of one input, the expected exit status and a regex the combined
stdout + stderr must match (`stdout`: a regex for stdout alone; `out_file`: one for the report written to
{out}).
{fixtures} is the repository's corpus; {accord} the binary under test (an implementation: `{accord} serve`).
The same runner checks cli_conventions.json (--table). Nothing may abort
(exit 134, 139) or hang. Usage (ctest does this):
    python3 hostile_test.py --accord build/bin/accord [--table hostile_inputs.json] [-v]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ARGS = None


def content_of(row):
    """The input bytes of a row: `content` (text, UTF-8) or `content_hex`, with @DEEP@ replaced by
    `deep` nested lists ([[...]]) and @PAD@ by `pad` spaces."""
    if "content_hex" in row:
        data = bytes.fromhex(row["content_hex"])
    else:
        data = row.get("content", "").encode("utf-8")
    if "pad" in row:  # @PAD@: that many spaces (a line past the 64 MiB limit without a 64 MiB table row)
        data = data.replace(b"@PAD@", b" " * int(row["pad"]))
    if "deep" in row:
        n = int(row["deep"])
        data = data.replace(b"@DEEP@", b"[" * n + b"]" * n)
    return data


def run_row(row, tmp):
    data = content_of(row)
    path = os.path.join(tmp, "input.json")
    corpus = os.path.join(tmp, "corpus")
    os.makedirs(os.path.join(corpus, "cases", "strategy"), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    with open(os.path.join(corpus, "cases", "strategy", "x.json"), "wb") as f:
        f.write(row["corpus_content"].encode("utf-8") if "corpus_content" in row else data)
    subs = {"{file}": path, "{corpus}": corpus, "{dir}": tmp, "{missing}": os.path.join(tmp, "no-such-file.json"),
            "{fixtures}": os.path.join(os.path.dirname(os.path.dirname(HERE)), "fixtures"), "{out}": os.path.join(tmp, "report"),
            "{accord}": ARGS.accord}
    argv = [ARGS.accord]
    for a in row["args"]:
        for k, v in subs.items():
            a = a.replace(k, v)
        argv.append(a)
    stdin = data if row.get("stdin") else b""
    p = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=row.get("timeout", 30), cwd=tmp)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


class HostileInputs(unittest.TestCase):
    def test_rows(self):
        with open(ARGS.table, encoding="utf-8") as f:
            table = json.load(f)
        self.assertGreater(len(table["rows"]), 0)
        for row in table["rows"]:
            with self.subTest(row["name"]), tempfile.TemporaryDirectory(prefix="accord-hostile-") as tmp:
                status, out, err = run_row(row, tmp)
                said = "exit %d\n--- stdout\n%s\n--- stderr\n%s" % (status, out[-2000:], err[-2000:])
                self.assertEqual(status, row["exit"], said)
                self.assertRegex(out + err, re.compile(row["message"], re.S), said)
                if "stdout" in row:
                    self.assertRegex(out, re.compile(row["stdout"], re.S), said)
                if "out_file" in row:  # a regex the report file written to {out} must match
                    with open(os.path.join(tmp, "report"), encoding="utf-8", errors="replace") as f:
                        self.assertRegex(f.read(), re.compile(row["out_file"], re.S), said)
                if ARGS.verbose:
                    print("%-44s exit %d  %s" % (row["name"], status, (err or out).strip().splitlines()[-1:]))
                if ARGS.markdown:  # the row, its exit status and the text its message regex found
                    found = re.search(row["message"], out + err, re.S).group(0).replace("\n", " ").replace(tmp, "<tmp>")
                    found = (found[:137] + "...") if len(found) > 140 else found
                    self.rows.append("| %s | %d | `%s` |" % (row["name"].replace("|", "\\|"), status, found.replace("`", "'").replace("|", "\\|")))

    rows = []

    @classmethod
    def tearDownClass(cls):
        if ARGS.markdown:
            with open(ARGS.markdown, "w", encoding="utf-8") as f:
                f.write("| row (input x command) | exit | message |\n|---|---|---|\n" + "\n".join(cls.rows) + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--accord", required=True)
    parser.add_argument("--table", default=os.path.join(HERE, "hostile_inputs.json"))
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--markdown", help="also write each row, its exit status and the message found, as a markdown table")
    ARGS, rest = parser.parse_known_args()
    ARGS.accord = os.path.abspath(ARGS.accord)
    unittest.main(argv=[sys.argv[0]] + rest)
