"""to_mlir(), to_attr(), to_yaml(), to_json(), to_dict() give the CLI's bytes,
for the probed host and for every catalog entry."""

import json
import warnings

import pytest

import sysdesc

FORMATS = ["mlir", "attr", "yaml", "json"]


def ours(spec, fmt, typed=False):
    if fmt == "json":
        return spec.to_json(typed=typed)
    return {"mlir": spec.to_mlir, "attr": spec.to_attr, "yaml": spec.to_yaml}[fmt]()


@pytest.mark.parametrize("name", sysdesc.catalog_names())
@pytest.mark.parametrize("fmt", FORMATS)
def test_catalog_entry_equals_convert(cli, name, fmt):
    spec = sysdesc.catalog(name)
    assert ours(spec, fmt).encode() == cli("convert", "--to", fmt, name).stdout


@pytest.mark.parametrize("name", sysdesc.catalog_names())
def test_catalog_entry_typed_json_and_dict(cli, name):
    spec = sysdesc.catalog(name)
    typed = cli("convert", "--to", "json", "--typed", name).stdout
    assert spec.to_json(typed=True).encode() == typed
    assert spec.to_dict(typed=True) == json.loads(typed)
    assert spec.to_dict() == json.loads(cli("convert", "--to", "json", name).stdout)


@pytest.mark.parametrize("fmt", FORMATS)
def test_host_equals_probe(cli, fmt):
    # Both read the runtimes' answers from the cache (docs/runtimes.md): the
    # first host() fills it when it is cold, and the CPU's source map says
    # whether the answers were asked or cached, so both sides must find it warm.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sysdesc.ProbeWarning)
        sysdesc.host()
        expected = cli("probe", "-q", "--format", fmt).stdout
        spec = sysdesc.host()
    assert ours(spec, fmt).encode() == expected


def test_round_trips_through_every_format():
    spec = sysdesc.catalog("amd/mi250x")
    for text in (spec.to_mlir(), spec.to_attr(), spec.to_yaml()):
        assert sysdesc.parse(text) == spec
