"""The module works installed, away from the source and build trees, with
SYSDESC_PATH unset: from `meson install` (staged with --destdir) and from a
wheel that `pip wheel --no-build-isolation` builds with meson-python (the
catalog travels inside the package)."""

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


@pytest.mark.skipif(not (shutil.which("patchelf") and
                         subprocess.run([sys.executable, "-m", "pip", "--version"],
                                        stdout=subprocess.DEVNULL).returncode == 0),
                    reason="needs pip and patchelf (meson-python sets RPATHs with it)")
@pytest.mark.skipif("address" in os.environ.get("SANITIZE", ""),
                    reason="packaging, not memory: the unsanitized pass builds the wheel")
def test_pip_wheel(tmp_path):
    wheels = tmp_path / "wheels"
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", SRCDIR, "--no-build-isolation",
                        "--no-deps", "--no-index", "-w", str(wheels)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout[-2000:]
    (wheel,) = glob.glob(str(wheels / "sysdesc-*.whl"))
    site = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                        "--target", str(site), wheel],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout[-2000:]
    got = run_installed(str(site), tmp_path)
    assert got["file"] == str(site / "sysdesc" / "__init__.py")
    assert got["names"] == expected_names()
    assert (got["sms"], got["triton"]) == (132, 232448)
    assert got["path"].split(":")[0] == str(site / "sysdesc" / "systems")
