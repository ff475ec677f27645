"""The module works installed, away from the source and build trees, with
SYSDESC_PATH unset: from `meson install` (staged with --destdir) and from a
wheel that `pip wheel --no-build-isolation` builds with meson-python (the
catalog travels inside the package), installed into a prefix that is moved
and into a venv, with the tool and C consumers beside it."""

import glob
import os
import shutil
import subprocess
import sys

import pytest

from conftest import SRCDIR

BUILDDIR = os.environ.get("BUILDDIR", os.path.join(SRCDIR, "build"))
MESON = os.environ.get("MESON") or shutil.which("meson")

PROBE = r"""
import json, sys, sysdesc
spec = sysdesc.catalog("nvidia/h100-sxm")
print(json.dumps({
    "file": sysdesc.__file__,
    "names": sysdesc.catalog_names(),
    "sms": spec["GPU"]["num_compute_units"],
    "triton": spec.export("GPU", "triton")["max_shared_mem"],
    "path": sysdesc.catalog_path(),
}))
"""


def run_installed(site, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("SYSDESC_PATH", "PYTHONPATH")}
    env["PYTHONPATH"] = site
    r = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, r.stderr
    import json
    return json.loads(r.stdout)


def expected_names():
    root = os.path.join(SRCDIR, "systems")
    return sorted(os.path.relpath(p, root)[:-5]
                  for p in glob.glob(os.path.join(root, "**", "*.yaml"), recursive=True))


@pytest.mark.skipif(not MESON, reason="meson not found")
def test_meson_install_staged(tmp_path):
    stage = tmp_path / "stage"
    r = subprocess.run([MESON, "install", "-C", BUILDDIR, "--no-rebuild", "--destdir", str(stage)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        pytest.skip("meson install --destdir failed: " + r.stdout[-300:])
    inits = glob.glob(str(stage / "**" / "sysdesc" / "__init__.py"), recursive=True)
    assert len(inits) == 1
    site = os.path.dirname(os.path.dirname(inits[0]))
    got = run_installed(site, tmp_path)
    assert got["file"].startswith(str(stage))
    assert got["names"] == expected_names()
    assert (got["sms"], got["triton"]) == (132, 232448)
    # The catalog it reads is the one inside the staged package.
    assert got["path"].split(":")[0] == os.path.join(site, "sysdesc", "systems")


MOVED_ERRORS = r"""
import json, sysdesc
out = {"path": sysdesc.catalog_path()}
for name in ("nvidia/h100-sx", "nvidia/no-such-gpu"):
    try:
        sysdesc.catalog(name)
    except sysdesc.NotFoundError as e:
        out[name] = [e.message, e.hint]
print(json.dumps(out))
"""


@pytest.mark.skipif(not MESON, reason="meson not found")
def test_moved_install_errors_name_the_searched_catalog(tmp_path):
    """A `meson install` whose prefix is then moved: a catalog error lists
    the directories searched that are there (the package's own catalog),
    not the prefix the build was configured for, and carries the library's
    suggestion as its hint."""
    stage = tmp_path / "stage"
    r = subprocess.run([MESON, "install", "-C", BUILDDIR, "--no-rebuild", "--destdir", str(stage)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        pytest.skip("meson install --destdir failed: " + r.stdout[-300:])
    inits = glob.glob(str(stage / "**" / "sysdesc" / "__init__.py"), recursive=True)
    assert len(inits) == 1
    moved = tmp_path / "elsewhere"
    shutil.move(str(stage), str(moved))
    site = os.path.dirname(os.path.dirname(inits[0])).replace(str(stage), str(moved), 1)
    env = {k: v for k, v in os.environ.items() if k not in ("SYSDESC_PATH", "PYTHONPATH")}
    env["PYTHONPATH"] = site
    r = subprocess.run([sys.executable, "-c", MOVED_ERRORS], cwd=tmp_path, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, r.stderr
    import json
    got = json.loads(r.stdout)
    searched = got["path"].split(":")
    assert searched[0] == os.path.join(site, "sysdesc", "systems")
    assert all(os.path.isdir(d) for d in searched), searched
    for name, hint in (("nvidia/h100-sx", "did you mean 'nvidia/h100-sxm'?"),
                       ("nvidia/no-such-gpu", None)):
        message, got_hint = got[name]
        assert message == (f"no such file, and no catalog entry '{name}' in {got['path']} "
                           "(set SYSDESC_PATH to add directories)")
        assert got_hint == hint


def cli_tool():
    return os.environ.get("SYSDESC") or os.path.join(BUILDDIR, "cli", "sysdesc")


@pytest.mark.skipif(subprocess.run([sys.executable, "-m", "pip", "--version"],
                                   stdout=subprocess.DEVNULL).returncode != 0,
                    reason="needs pip (python3-pip)")
@pytest.mark.skipif("address" in os.environ.get("SANITIZE", ""),
                    reason="packaging, not memory: the unsanitized pass builds the wheel")
def test_pip_install_moved_and_in_a_venv(tmp_path):
    """A wheel (pyproject.toml: meson-python, -Dwheel=true) installed with
    pip into a prefix that is then moved, and into a venv: the Python module,
    the `sysdesc` tool (list, a catalog query), and C and C++ programs built
    with the package's pkg-config and CMake files (tests/lib/consumers.sh)
    all find the package's own catalog, with SYSDESC_PATH unset."""
    wheels = tmp_path / "wheels"
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", SRCDIR, "--no-build-isolation",
                        "--no-deps", "--no-index", "-w", str(wheels)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout[-2000:]
    (wheel,) = glob.glob(str(wheels / "sysdesc-*.whl"))
    prefix = tmp_path / "prefix"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                        "--prefix", str(prefix), wheel],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout[-2000:]
    moved = tmp_path / "elsewhere" / "moved"
    moved.parent.mkdir()
    os.rename(prefix, moved)
    # Where the scheme put them (Debian's pip: PREFIX/local/bin, .../dist-packages).
    (tool,) = glob.glob(str(moved / "**" / "bin" / "sysdesc"), recursive=True)
    (init,) = glob.glob(str(moved / "**" / "sysdesc" / "__init__.py"), recursive=True)
    site = os.path.dirname(os.path.dirname(init))
    env = {k: v for k, v in os.environ.items() if k not in ("SYSDESC_PATH", "PYTHONPATH")}

    got = run_installed(site, tmp_path)
    assert got["file"] == init
    assert got["names"] == expected_names()
    assert (got["sms"], got["triton"]) == (132, 232448)
    assert got["path"].split(":")[0] == os.path.join(site, "sysdesc", "systems")

    # The tool, from the scheme's bin/, against the built tool as the peer.
    built = subprocess.run([cli_tool(), "query", "nvidia/h100-sxm", "GPU", "num_compute_units"],
                           stdout=subprocess.PIPE, text=True,
                           env=dict(env, SYSDESC_PATH=os.path.join(SRCDIR, "systems"))).stdout
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    r = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--no-deps",
                        "--no-index", wheel], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    assert r.returncode == 0, r.stdout[-2000:]
    for t in (tool, str(venv / "bin" / "sysdesc")):
        r = subprocess.run([t, "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           cwd=tmp_path, env=env)
        assert r.returncode == 0, (t, r.stderr)
        assert [line.split()[0] for line in r.stdout.splitlines()[1:]] == expected_names()
        r = subprocess.run([t, "query", "nvidia/h100-sxm", "GPU", "num_compute_units"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           cwd=tmp_path, env=env)
        assert r.returncode == 0 and r.stdout == built and built, (t, r.stdout, r.stderr)

    # C and C++ consumers: the package is their prefix.
    r = subprocess.run([sys.executable, "-m", "sysdesc", "--prefix"], stdout=subprocess.PIPE,
                       text=True, cwd=tmp_path, env=dict(env, PYTHONPATH=site))
    assert r.returncode == 0 and r.stdout.strip() == os.path.join(site, "sysdesc")
    version = subprocess.run([cli_tool(), "--version"], stdout=subprocess.PIPE,
                             text=True).stdout.split()[-1]
    r = subprocess.run(["sh", os.path.join(SRCDIR, "tests", "lib", "consumers.sh"), "--wheel",
                        r.stdout.strip()], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=dict(env, SRCDIR=SRCDIR, VERSION=version))
    if r.returncode == 77:
        pytest.skip(r.stdout.strip().splitlines()[-1])
    assert r.returncode == 0, r.stdout[-3000:]
