"""`pip install --no-index --no-build-isolation` of the package into a fresh venv: it installs offline, the pytest11
entry point is registered (the plugin loads without -p), and, with ACCORD set, the installed plugin runs the toy slice."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import PACKAGE_DIR, TESTS_DIR

SOURCE_FILES = ["pyproject.toml", "README.md", "accord_conformance"]


def _run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, **kwargs)


@pytest.fixture(scope="module")
def venv_python(tmp_path_factory):
    """A --system-site-packages venv with the package installed from a copy of the source (the tree stays clean)."""
    try:
        import venv  # noqa: F401
    except ImportError:
        pytest.skip("the venv module is not available")
    root = tmp_path_factory.mktemp("install")
    src = root / "src"
    src.mkdir()
    for name in SOURCE_FILES:
        path = os.path.join(PACKAGE_DIR, name)
        if os.path.isdir(path):
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(path, src / name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    venv_dir = root / "venv"
    python = venv_dir / "bin" / "python"
    # Without its own pip first (fast): the system pip, visible through the system site-packages, installs into the venv.
    made = _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv_dir)], env=env)
    if made.returncode != 0 or _run([str(python), "-m", "pip", "--version"], env=env).returncode != 0:
        shutil.rmtree(venv_dir, ignore_errors=True)
        made = _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv_dir)], env=env)
    if made.returncode != 0 or not python.exists():
        pytest.skip(f"cannot create a venv: {made.stderr.strip()[-500:]}")
    if _run([str(python), "-m", "pip", "--version"], env=env).returncode != 0:
        pytest.skip("pip is not available in the venv")
    if _run([str(python), "-c", "import setuptools"], env=env).returncode != 0:
        pytest.skip("setuptools is not available (needed by --no-build-isolation)")
    inst = _run([str(python), "-m", "pip", "install", "--no-index", "--no-build-isolation", "--no-deps", str(src)],
                env=env, cwd=str(root))
    assert inst.returncode == 0, inst.stdout[-3000:] + inst.stderr[-3000:]
    return python, env


def test_installed_into_the_venv_with_the_entry_point(venv_python):
    python, env = venv_python
    code = ("import json, importlib.metadata as md, accord_conformance, sys\n"
            "eps = md.entry_points()\n"
            "group = eps.select(group='pytest11') if hasattr(eps, 'select') else eps.get('pytest11', [])\n"
            "print(json.dumps({'file': accord_conformance.__file__, 'prefix': sys.prefix,\n"
            "                  'eps': {e.name: e.value for e in group}}))\n")
    proc = _run([str(python), "-c", code], env=env, cwd="/")
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert info["file"].startswith(info["prefix"])  # the venv's copy, not the source tree
    assert info["eps"].get("accord_conformance.plugin") == "accord_conformance.plugin"


def test_the_entry_point_loads_the_plugin(venv_python, tmp_path):
    python, env = venv_python
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    proc = _run([str(python), "-m", "pytest", "--help"], env=env, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "--accord-impl=MODULE:FUNCTION" in proc.stdout


def test_installed_plugin_runs_the_toy_slice(venv_python, tmp_path, accord_bin, fixtures_dir):
    from test_plugin import PROFILE, TOY_COUNTS, TOY_SLICE, summary_counts
    python, env = venv_python
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    env = dict(env, PYTHONPATH=TESTS_DIR, ACCORD=accord_bin, ACCORD_FIXTURES=fixtures_dir)  # toy_impl only
    proc = _run([str(python), "-m", "pytest", "-p", "no:cacheprovider", "--accord-impl", "toy_impl:resolve",
                 "--accord-profile", PROFILE, "--accord-filter", TOY_SLICE], env=env, cwd=str(tmp_path))
    assert summary_counts(proc.stdout) == TOY_COUNTS, proc.stdout[-3000:] + proc.stderr[-2000:]
