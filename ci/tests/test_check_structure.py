"""Planted violations for ci/check-structure: each check fails on its violation, naming file and line,
and a clean tree passes. Run by ctest (structure_check_tests) or `python3 -m unittest discover -s ci/tests`."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "check-structure")
REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

CLEAN_TREE = {
    "CMakeLists.txt": "add_library(accord_warnings INTERFACE)\nadd_subdirectory(reference)\n",
    "reference/CMakeLists.txt": "add_library(reference src/resolve.cc)\n"
                                "add_library(accord::reference ALIAS reference)\n"
                                "target_link_libraries(reference PRIVATE accord_warnings)\n",
    "reference/include/accord/reference/resolve.h": "#pragma once\nint resolve();\n",
    "reference/src/resolve.cc": '#include "accord/reference/resolve.h"\nint resolve() { return 0; }\n',
    "conformance/CMakeLists.txt": "add_library(conformance src/runner.cc)\n"
                                  "add_library(accord::conformance ALIAS conformance)\n"
                                  "target_link_libraries(conformance PUBLIC accord::reference)\n",
    "conformance/include/accord/conformance/runner.h": "#pragma once\n#include <accord/reference/resolve.h>\n",
    "conformance/src/runner.cc": '#include "accord/conformance/runner.h"\n#include <vector>\n',
    "conformance/cli/main.cc": '#include "accord/conformance/runner.h"\n#include "accord/coverage/report.h"\n'
                               '#include "gen/case.h"\nint main() { return 0; }\n',
    "coverage/include/accord/coverage/report.h": '#pragma once\n#include "accord/conformance/runner.h"\n',
    "property_tests/gen/case.h": '#pragma once\n#include "accord/reference/resolve.h"\n',
    "ci/run": "#!/bin/sh\necho ok\n",
    "fixtures/cases/long.json": '{"x": "' + "y" * 300 + '"}\n',  # data: not size-checked
}


class CheckStructureTest(unittest.TestCase):
    def make_tree(self, extra=None):
        root = tempfile.mkdtemp(prefix="check-structure-")
        self.addCleanup(shutil.rmtree, root, True)
        for path, text in {**CLEAN_TREE, **(extra or {})}.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        return root

    def run_check(self, mode, root):
        return subprocess.run([sys.executable, SCRIPT, mode, root], capture_output=True, text=True)

    def assert_fails_naming(self, result, *needles):
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        for needle in needles:
            self.assertIn(needle, result.stderr)

    def test_clean_tree_passes_both_checks(self):
        root = self.make_tree()
        deps = self.run_check("deps", root)
        self.assertEqual(deps.returncode, 0, deps.stdout + deps.stderr)
        self.assertIn("include: conformance -> reference: 1", deps.stdout)
        self.assertIn("include: conformance/cli -> coverage: 1", deps.stdout)
        self.assertIn("link: conformance -> reference: 1", deps.stdout)
        size = self.run_check("size", root)
        self.assertEqual(size.returncode, 0, size.stdout + size.stderr)
        self.assertEqual(self.run_check("all", root).returncode, 0)

    def test_reference_including_conformance_is_a_back_edge(self):
        root = self.make_tree({"reference/src/bad.cc": '// planted\n#include <vector>\n'
                                                       '#include "accord/conformance/runner.h"\n'})
        result = self.run_check("deps", root)
        self.assert_fails_naming(result, 'reference/src/bad.cc:3: includes "accord/conformance/runner.h"',
                                 "reference -> conformance")
        self.assertIn("include: reference -> conformance: 1   <- BACK EDGE", result.stdout)

    def test_conformance_including_property_tests_is_a_back_edge(self):
        root = self.make_tree({"conformance/src/diff.h": '#pragma once\n#include "gen/case.h"\n'})
        self.assert_fails_naming(self.run_check("deps", root), 'conformance/src/diff.h:2: includes "gen/case.h"')

    def test_siblings_may_not_include_each_other(self):
        root = self.make_tree({"coverage/src/x.cc": '#include "gen/case.h"\n'})
        self.assert_fails_naming(self.run_check("deps", root), "coverage/src/x.cc:1:", "coverage -> property_tests")

    def test_link_back_edge_names_cmake_file_and_line(self):
        root = self.make_tree({"reference/CMakeLists.txt": CLEAN_TREE["reference/CMakeLists.txt"]
                               + "target_link_libraries(reference\n  PRIVATE accord::conformance)\n"})
        self.assert_fails_naming(self.run_check("deps", root),
                                 "reference/CMakeLists.txt:5: reference links accord::conformance")

    def test_planted_include_in_a_copy_of_the_real_reference(self):
        root = self.make_tree()
        shutil.rmtree(os.path.join(root, "reference"))
        shutil.copytree(os.path.join(REPO, "reference"), os.path.join(root, "reference"))
        self.assertEqual(self.run_check("deps", root).returncode, 0)
        resolve_cc = os.path.join(root, "reference", "src", "resolve.cc")
        with open(resolve_cc, encoding="utf-8") as f:
            lines = f.read().splitlines(keepends=True)
        lines.insert(3, '#include "accord/conformance/runner.h"\n')
        with open(resolve_cc, "w", encoding="utf-8") as f:
            f.writelines(lines)
        self.assert_fails_naming(self.run_check("deps", root), 'reference/src/resolve.cc:4: includes "accord/conformance/runner.h"')

    def test_git_tree_checks_tracked_files_only(self):
        root = self.make_tree()
        git = ["git", "-C", root, "-c", "core.hooksPath=/dev/null"]
        subprocess.run(git + ["init", "-q"], check=True)
        subprocess.run(git + ["add", "."], check=True)
        with open(os.path.join(root, "reference", "src", "untracked.cc"), "w", encoding="utf-8") as f:
            f.write('#include "accord/conformance/runner.h"\n')
        self.assertEqual(self.run_check("deps", root).returncode, 0)
        subprocess.run(git + ["add", "reference/src/untracked.cc"], check=True)
        self.assert_fails_naming(self.run_check("deps", root), "reference/src/untracked.cc:1:")

    def test_file_over_600_lines_fails(self):
        root = self.make_tree({"conformance/src/long.cc": "int x;\n" * 601})
        result = self.run_check("size", root)
        self.assert_fails_naming(result, "conformance/src/long.cc:601: file has 601 lines (limit 600)")
        self.assertEqual(self.run_check("size", self.make_tree({"conformance/src/ok.cc": "int x;\n" * 600}))
                         .returncode, 0)

    def test_line_over_160_columns_fails(self):
        long_line = "// " + "x" * 158  # 161 columns
        root = self.make_tree({"reference/src/wide.cc": "int a;\n" + long_line + "\n" + long_line[:-1] + "\n"})
        result = self.run_check("size", root)
        self.assert_fails_naming(result, "reference/src/wide.cc:2: line has 161 columns (limit 160)")
        self.assertNotIn("wide.cc:3:", result.stderr)

    def test_scripts_and_cmake_are_size_checked_data_is_not(self):
        root = self.make_tree({"ci/long-script": "#!/usr/bin/env bash\n" + "echo " + "z" * 200 + "\n",
                               "coverage/CMakeLists.txt": "set(X " + "q" * 170 + ")\n",
                               "reference/tables/big.def": "X(a)\n" * 700})
        result = self.run_check("size", root)
        self.assert_fails_naming(result, "ci/long-script:2: line has 205 columns", "coverage/CMakeLists.txt:1:")
        self.assertNotIn("big.def", result.stderr)
        self.assertNotIn("long.json", result.stderr)


if __name__ == "__main__":
    unittest.main()
