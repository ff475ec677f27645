"""to_mlir(), to_attr(), to_yaml(), to_json(), to_dict() give the CLI's bytes,
for the probed host and for every catalog entry."""

import json
import os
import re
import warnings

import pytest

import sysdesc

FORMATS = ["mlir", "attr", "yaml", "json"]
# Under a sanitizer every fourth entry: each comparison starts the tool, a
# sanitized process of its own, and the module's printers are the same code
# for every entry (the unsanitized pass compares them all).
NAMES = sysdesc.catalog_names()
if "address" in os.environ.get("SANITIZE", ""):
    NAMES = NAMES[::4]


def ours(spec, fmt, typed=False):
    if fmt == "json":
        return spec.to_json(typed=typed)
    return {"mlir": spec.to_mlir, "attr": spec.to_attr, "yaml": spec.to_yaml}[fmt]()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_catalog_entry_equals_convert(cli, name, fmt):
    spec = sysdesc.catalog(name)
    assert ours(spec, fmt).encode() == cli("convert", "--to", fmt, name).stdout


@pytest.mark.parametrize("name", NAMES)
def test_catalog_entry_typed_json_and_dict(cli, name):
    spec = sysdesc.catalog(name)
    typed = cli("convert", "--to", "json", "--typed", name).stdout
    assert spec.to_json(typed=True).encode() == typed
    assert spec.to_dict(typed=True) == json.loads(typed)
    assert spec.to_dict() == json.loads(cli("convert", "--to", "json", name).stdout)


@pytest.mark.parametrize("fmt", FORMATS)
def test_host_equals_probe(cli, fmt, tmp_path, monkeypatch):
    # host() asks the runtimes (a cache of its own, cold) and keeps that
    # answer; the CLI then reads the entry that probe wrote.  The CPU's
    # source map says whether the runtimes' answers were asked or cached:
    # that one line differs.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sysdesc.ProbeWarning)
        spec = sysdesc.host(cache_dir=tmp_path / "sysdesc")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    expected = cli("probe", "-q", "--format", fmt).stdout.decode()
    got = ours(spec, fmt)
    source = re.compile(r'"?(asked by this probe|their answers cached by an earlier probe)[^"\n]*"?')
    assert "asked by this probe" in got and "cached by an earlier probe" in expected
    assert source.sub("RUNTIMES", got) == source.sub("RUNTIMES", expected)


def test_round_trips_through_every_format():
    spec = sysdesc.catalog("amd/mi250x")
    for text in (spec.to_mlir(), spec.to_attr(), spec.to_yaml()):
        assert sysdesc.parse(text) == spec
