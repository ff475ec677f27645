"""Shared fixtures: the tool the CLI comparisons run, the source tree, and
the fixtures' folder."""

import os
import subprocess

import pytest

SRCDIR = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), "..", ".."))
TOOL = os.environ.get("SYSDESC", os.path.join(SRCDIR, "build", "cli", "sysdesc"))
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def run_cli(*args, check=True):
    """The tool's stdout (bytes); CalledProcessError on a non-zero exit when `check`."""
    r = subprocess.run([TOOL, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        raise subprocess.CalledProcessError(r.returncode, [TOOL, *args], r.stdout, r.stderr)
    return r


@pytest.fixture(scope="session")
def cli():
    return run_cli


@pytest.fixture(scope="session")
def srcdir():
    return SRCDIR


@pytest.fixture(scope="session")
def data():
    return DATA
