"""Spec.get_int, get_float, get_str, get_bool (issue 36): each answer held to
the same value reached by the mapping, `query --raw` of the CLI and the C
getters' path rule; absent and wrong type raise or give the default as
docs/python.md says; host() and measure() carry this host's data layout, as
`sysdesc probe` does."""

import json
import warnings

import pytest

import sysdesc

FIXTURE = """\
CPU:
  device_type: CPU
  vendor: GenuineIntel
  num_cores: 8
  big: !i128 170141183460469231731687303715884105727
  clock_in_hz: 3.5e9
  has_avx512: true
  sizes: [32, 64]
  dims: !mlir 'array<i32: 1024, 768>'
  cache:
    L1:
      size_in_bytes: 49152
  source:
    measured.levels: sysdesc measure
"""


@pytest.fixture(scope="module")
def spec():
    return sysdesc.parse(FIXTURE, check=False)


def test_values_are_the_mappings(spec):
    cpu = spec["CPU"]
    assert spec.get_int("CPU.num_cores") == cpu["num_cores"]
    assert spec.get_int("CPU.cache.L1.size_in_bytes") == cpu["cache"]["L1"]["size_in_bytes"]
    assert spec.get_int(("CPU", "cache", "L1", "size_in_bytes")) == cpu["cache"]["L1"]["size_in_bytes"]
    assert cpu.get_int("cache.L1.size_in_bytes") == cpu["cache"]["L1"]["size_in_bytes"]
    assert spec.get_int("CPU.big") == cpu["big"]            # Python's int has no width
    assert spec.get_float("CPU.clock_in_hz") == cpu["clock_in_hz"]
    f = spec.get_float("CPU.num_cores")
    assert type(f) is float and f == cpu["num_cores"]
    assert spec.get_str("CPU.vendor") == cpu["vendor"]
    assert spec.get_bool("CPU.has_avx512") is cpu["has_avx512"]
    assert spec.get_str("CPU.source.measured.levels") == cpu["source"]["measured.levels"]
    assert spec.get_int("CPU.sizes.1") == cpu["sizes"][1]
    assert spec.get_int("CPU.dims.1") == cpu["dims"][1]


def test_absent_and_wrong_type(spec):
    with pytest.raises(sysdesc.NotFoundError):
        spec.get_int("CPU.cache.L3.size_in_bytes")
    with pytest.raises(KeyError):
        spec.get_int("GPU0.num_compute_units")
    assert spec.get_int("CPU.cache.L3.size_in_bytes", 7) == 7
    assert spec.get_str("CPU.nothing", None) is None
    assert spec.get_int("CPU.sizes.2", -1) == -1
    for path, getter in (("CPU.vendor", spec.get_int), ("CPU.clock_in_hz", spec.get_int),
                         ("CPU.num_cores", spec.get_bool), ("CPU.has_avx512", spec.get_int),
                         ("CPU.cache", spec.get_str)):
        with pytest.raises(sysdesc.ValueTypeError):
            getter(path)
        with pytest.raises(TypeError):   # a default does not hide a wrong type
            getter(path, 0)


def test_catalog_agrees_with_the_cli(cli):
    h100 = sysdesc.catalog("nvidia/h100-sxm")
    for path in ("GPU.num_compute_units", "GPU.max_shared_memory_per_block_in_bytes",
                 "GPU.subgroup_sizes.0"):
        keys = path.split(".")
        raw = cli("query", "--raw", "nvidia/h100-sxm", *keys[:2]).stdout.decode()
        want = json.loads(raw)
        if len(keys) == 3:
            want = want[int(keys[2])]
        assert h100.get_int(path) == want
    assert h100.get_str("GPU.vendor") == cli("query", "--raw", "nvidia/h100-sxm", "GPU",
                                             "vendor").stdout.decode().rstrip("\n")


def test_host_carries_its_data_layout(cli, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sysdesc.ProbeWarning)
        host = sysdesc.host(runtimes=False, cache=False)
    triple = host.get_str("CPU.triple")
    assert host.data_layout == triple
    peer = tmp_path / "peer.mlir"
    dl = cli("dl-import", "--triple", triple).stdout.decode().strip()
    peer.write_text("module attributes {dlti.dl_spec = %s} {\n}\n" % dl)
    theirs = sysdesc.load(str(peer)).layout()
    for t in ("i64", "f64", "index", "!llvm.ptr"):
        assert host.layout().abi_alignment(t) == theirs.abi_alignment(t)
        assert host.layout().size(t) == theirs.size(t)
