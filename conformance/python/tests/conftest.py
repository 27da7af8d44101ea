"""Shared fixtures: the package from this source tree, the accord binary ($ACCORD) and the corpus ($ACCORD_FIXTURES)."""
import os
import sys

import pytest

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # conformance/python
TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
if PACKAGE_DIR not in sys.path:
    sys.path.insert(0, PACKAGE_DIR)


@pytest.fixture
def accord_bin():
    path = os.environ.get("ACCORD")
    if not path:
        pytest.skip("ACCORD is not set (the path of the accord binary)")
    if not os.access(path, os.X_OK):
        pytest.fail(f"ACCORD={path!r} is not an executable")
    return os.path.abspath(path)


@pytest.fixture
def fixtures_dir():
    path = os.environ.get("ACCORD_FIXTURES")
    if not path:
        pytest.skip("ACCORD_FIXTURES is not set (the repository's fixtures/ directory)")
    return os.path.abspath(path)
