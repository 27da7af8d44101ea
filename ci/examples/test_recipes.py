#!/usr/bin/env python3
"""test_recipes.py: the CI recipes of ci/examples run as their CI systems would run them (ctest `ci_recipes`).

For the GitHub Actions workflow and the GitLab CI job: reads the job's environment and its command lines, then runs
the lines that belong to accord (`accord/ci/examples/*.sh`) with bash, in a scratch folder where `accord` is this
checkout, with the job's environment except for what must not touch this machine (no apt-get, install prefix and
build folder under the scratch folder) and with `accord serve` of the installed command as the implementation.
Checks: the build installs `bin/accord`; conform exits 0 with a well-formed JUnit report holding one test case per
case of the profile, none failing; a planted failing case exits 1 and is a <failure> in the report; the report path
the CI system displays is the one conform writes; the Dockerfile builds with the same script and package list.
The steps that set up the CI machine itself (checkout, apt-get, git clone) are not run.

    python3 ci/examples/test_recipes.py [--build-dir DIR] [-v]      (needs PyYAML: Debian python3-yaml)
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ARGS = None
SCRIPT_LINE = re.compile(r"^accord/ci/examples/[\w-]+\.sh$")
FAILING_CASE = {"cases": [{"id": "strategy/recipe-fails-on-purpose", "title": "expects ddp where every profile picks another",
                           "covers": [], "origin": "regression-snapshot", "profiles": ["spec", "lightning-1.6", "lightning-2.2", "fabric-2.2"],
                           "given": {"flags": {"accelerator": "cpu"}},
                           "expect": {"plan": {"strategy": {"name": "ddp"}}}}]}


def load(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        return yaml.safe_load(f)


def github_job():
    doc = load("github-actions.yml")
    job = doc["jobs"]["conform"]
    lines = [s["run"].strip() for s in job["steps"] if "run" in s]
    junit = [s for s in job["steps"] if "junit" in s.get("uses", "")]
    return job["env"], lines, junit


def gitlab_job():
    job = load("gitlab-ci.yml")["accord-conformance"]
    return job["variables"], [line.strip() for line in job["script"]], job


class Recipes(unittest.TestCase):
    scratch = None
    build = None

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="accord-recipes-")
        os.symlink(ROOT, os.path.join(cls.scratch, "accord"))
        cls.build = ARGS.build_dir or os.path.join(cls.scratch, "build")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def run_lines(self, env, lines, label, **override):
        """Runs the recipe's accord lines in order; returns {line: CompletedProcess}."""
        prefix = os.path.join(self.scratch, "prefix")
        run_env = dict(os.environ)
        run_env.update({k: str(v) for k, v in env.items()})
        run_env.update(ACCORD_INSTALL_PACKAGES="0", ACCORD_PREFIX=prefix, ACCORD_BUILD=self.build,
                       # Debug (-O0) in place of the recipe's Release: the same configure, build and install steps,
                       # in about a third less compile time (the test checks the steps, not the optimiser).
                       ACCORD_CMAKE_ARGS="-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON"
                       " -DCMAKE_BUILD_TYPE=Debug",
                       ACCORD_IMPL=os.path.join(prefix, "bin", "accord") + " serve", PATH=os.path.join(prefix, "bin") + os.pathsep
                       + os.environ.get("PATH", ""))
        run_env.update(override)
        mine = [line for line in lines if SCRIPT_LINE.match(line)]
        self.assertEqual(mine, ["accord/ci/examples/build-accord.sh", "accord/ci/examples/conform.sh"], label)
        done = {}
        for line in mine:
            p = subprocess.run(["bash", "-c", line], cwd=self.scratch, env=run_env, capture_output=True, text=True, timeout=1500)
            if ARGS.verbose:
                print("%s: %s -> exit %d\n%s" % (label, line, p.returncode, (p.stdout + p.stderr)[-600:]))
            done[line] = p
            if line.endswith("build-accord.sh"):
                self.assertEqual(p.returncode, 0, "%s: %s\n%s" % (label, line, (p.stdout + p.stderr)[-3000:]))
                self.assertTrue(os.access(os.path.join(prefix, "bin", "accord"), os.X_OK), label)
        return done

    def cases_of(self, profile):
        """How many corpus cases apply to the profile, as the in-process reference run counts them."""
        p = subprocess.run([os.path.join(self.scratch, "prefix", "bin", "accord"), "conform", os.path.join(ROOT, "fixtures"),
                            "--profile", profile], capture_output=True, text=True, timeout=600)
        m = re.search(r"(\d+) cases: (\d+) passed", p.stdout)
        self.assertIsNotNone(m, p.stdout[-2000:])
        return int(m.group(1))

    def check_report(self, path, profile, label):
        suite = ET.parse(path).getroot()
        cases = suite.iter("testcase")
        n = sum(1 for _ in cases)
        self.assertEqual(n, self.cases_of(profile), label)
        self.assertEqual(sum(1 for _ in suite.iter("failure")), 0, label)

    def check_recipe(self, env, lines, label):
        done = self.run_lines(env, lines, label)
        conform = done["accord/ci/examples/conform.sh"]
        self.assertEqual(conform.returncode, 0, "%s\n%s" % (label, (conform.stdout + conform.stderr)[-3000:]))
        self.check_report(os.path.join(self.scratch, env["ACCORD_REPORT"]), env["ACCORD_PROFILE"], label)
        planted = os.path.join(self.scratch, "planted", "cases", "strategy")
        os.makedirs(planted, exist_ok=True)
        with open(os.path.join(planted, "x.json"), "w", encoding="utf-8") as f:
            json.dump(FAILING_CASE, f)
        failing = self.run_lines(env, lines, label + " (planted failure)", ACCORD_FIXTURES=os.path.dirname(os.path.dirname(planted)),
                                 ACCORD_REPORT="failing.xml")["accord/ci/examples/conform.sh"]
        self.assertEqual(failing.returncode, 1, failing.stdout + failing.stderr)
        suite = ET.parse(os.path.join(self.scratch, "failing.xml")).getroot()
        failed = [c.get("name") for c in suite.iter("testcase") if c.find("failure") is not None]
        self.assertEqual(len(failed), 1, label)
        self.assertIn("recipe-fails-on-purpose", failed[0], label)

    def test_github_actions(self):
        env, lines, junit = github_job()
        self.assertEqual(len(junit), 1, "one JUnit report step")
        self.assertEqual(junit[0]["with"]["report_paths"], env["ACCORD_REPORT"])
        self.assertEqual(junit[0].get("if"), "always()", "the report is shown when conform fails too")
        self.check_recipe(env, lines, "github-actions.yml")

    def test_gitlab_ci(self):
        env, lines, job = gitlab_job()
        self.assertEqual(job["artifacts"]["reports"]["junit"], env["ACCORD_REPORT"])
        self.assertEqual(job["artifacts"]["when"], "always", "the report is kept when conform fails too")
        self.check_recipe(env, lines, "gitlab-ci.yml")

    def test_dockerfile(self):
        with open(os.path.join(HERE, "Dockerfile"), encoding="utf-8") as f:
            text = f.read()
        for src in re.findall(r"^COPY (\S+) ", text, re.M):
            self.assertTrue(os.path.exists(os.path.join(ROOT, src)), "COPY source %s" % src)
        self.assertIn("ci/examples/packages.txt", text)
        self.assertRegex(text, r"RUN .*ci/examples/build-accord\.sh")
        with open(os.path.join(HERE, "packages.txt"), encoding="utf-8") as f:
            pkgs = [p.strip() for p in f if p.strip() and not p.startswith("#")]
        self.assertIn("cmake", pkgs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", help="build folder of the recipes' build (default: a scratch folder)")
    parser.add_argument("-v", "--verbose", action="store_true")
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest)
