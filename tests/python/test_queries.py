"""Queries: MLIR's semantics through the C API, the not-found reason, paths."""

import pytest

import sysdesc

SCOPED = """module attributes {dlti.target_system_spec = #dlti.target_system_spec<
  "CPU" = #dlti.target_device_spec<"device_type" = "CPU", "vendor" = "V", "model" = "M",
                                   "arch" = "x86_64", "L1_cache_size_in_bytes" = 32768 : i64>>} {
  module @inner attributes {dlti.dl_spec = #dlti.dl_spec<"inner_only" = 7 : i64>} {
  }
}
"""


def test_query_equals_subscripts():
    s = sysdesc.catalog("nvidia/h100-sxm")
    assert s.query("GPU", "num_compute_units") == s["GPU"]["num_compute_units"] == 132
    assert s["GPU"].query("peak_ops_per_second", "fp64_vector") == 33.5e12


def test_query_not_found_says_where_the_path_stops(cli):
    s = sysdesc.catalog("nvidia/h100-sxm")
    with pytest.raises(sysdesc.NotFoundError) as e:
        s.query("GPU", "num_compute_unit")
    err = e.value
    assert isinstance(err, KeyError)
    # The key path, the device, and the first keys there with how many more:
    # not the device spec whole (MLIR's note), which ran past 1,000 characters.
    keys = list(s["GPU"].keys())
    assert err.message == ('no key "num_compute_unit" in GPU (key path GPU.num_compute_unit, '
                           'device "GPU"); keys there: '
                           + ", ".join(f'"{k}"' for k in keys[:8])
                           + f" and {len(keys) - 8} more")
    assert len(str(err)) < 400
    assert err.hint == 'did you mean "num_compute_units"?'
    # The CLI's words for the same query: MLIR's message as mlir-opt-22 prints
    # it, the device spec whole, and the same hint.
    r = cli("query", "nvidia/h100-sxm", "GPU", "num_compute_unit", check=False)
    assert r.returncode == 1
    whole = s["GPU"].to_mlir_attr()
    assert len(whole) > 1000
    assert r.stderr.decode().splitlines() == [
        f'sysdesc: error: key "num_compute_unit" has no DLTI-mapping per attr: {whole}',
        f"sysdesc: hint: {err.hint}"]


def test_not_found_as_a_user_meets_it():
    s = sysdesc.catalog("nvidia/h100-sxm")
    gpu = s["GPU"]
    cases = [
        # a nested map reached by subscripts: its whole path and its device
        (lambda: gpu["interconnect"].query("nam"),
         'no key "nam" in GPU.interconnect (key path GPU.interconnect.nam, device "GPU"); '
         'keys there: ' + ", ".join(f'"{k}"' for k in gpu["interconnect"]),
         'did you mean "name"?'),
        # a device id in the wrong case: suggested, however short
        (lambda: s.query("gpu", "num_compute_units"),
         'no device "gpu" (key path gpu.num_compute_units); devices: "GPU"',
         'did you mean "GPU"?'),
        # a key below a value that holds none
        (lambda: s.query("GPU", "num_compute_units", "x"),
         'GPU.num_compute_units holds an integer, not keys: no key "x" '
         '(key path GPU.num_compute_units.x, device "GPU")', None),
        # nothing near: the message lists the keys, and no hint repeats them
        (lambda: gpu["never_seen_key_xyz"],
         None, None),
    ]
    for ask, message, hint in cases:
        with pytest.raises(sysdesc.NotFoundError) as e:
            ask()
        if message is not None:
            assert e.value.message == message
        assert e.value.hint == hint
        assert len(str(e.value)) < 400


def test_cli_suggests_a_key_in_another_case(cli):
    for args, want in ((["gpu"], '"GPU"'), (["GPU", "Vendor"], '"vendor"'),
                       (["GPU", "INTERCONNECT", "name"], '"interconnect"')):
        r = cli("query", "nvidia/h100-sxm", *args, check=False)
        assert r.returncode == 1
        assert r.stderr.decode().splitlines()[-1] == f"sysdesc: hint: did you mean {want}?"


def test_map_repr_is_capped():
    gpu = sysdesc.catalog("nvidia/h100-sxm")["GPU"]
    keys = list(gpu.keys())
    assert len(keys) > 6
    shown = ", ".join(repr(k) for k in keys[:6])
    assert repr(gpu) == f"<sysdesc.Map target_device_spec of {len(keys)} entries: [{shown}, ...]>"
    small = gpu["interconnect"]
    assert repr(small) == (f"<sysdesc.Map map of {len(small)} entries: "
                           f"{list(small.keys())!r}>")


def test_query_needs_a_key():
    with pytest.raises(sysdesc.ArgumentError):
        sysdesc.catalog("nvidia/l4").query()


def test_scoped_query_searches_outward():
    s = sysdesc.parse(SCOPED)
    assert s.query("CPU", "L1_cache_size_in_bytes") == 32768
    assert s.query("inner_only", scope="inner") == 7
    # From the inner scope, the first key not found there is tried outward.
    assert s.query("CPU", "vendor", scope="inner") == "V"
    with pytest.raises(sysdesc.NotFoundError):
        s.query("inner_only")
    with pytest.raises(sysdesc.NotFoundError):
        s.query("CPU", scope="no_such_scope")
    with pytest.raises(sysdesc.ArgumentError):
        sysdesc.catalog("nvidia/l4").query("GPU", scope="inner")


def test_path_is_the_query_resolved_once():
    s = sysdesc.catalog("nvidia/h100-sxm")
    p = s.path("GPU", "L2_cache_size_in_bytes")
    assert isinstance(p, sysdesc.Path) and p.keys == ("GPU", "L2_cache_size_in_bytes")
    assert p() == 52428800 == s.query("GPU", "L2_cache_size_in_bytes")
    assert repr(p) == "sysdesc.Path('GPU', 'L2_cache_size_in_bytes')"
    missing = s.path("GPU", "never_seen_key_xyz")
    assert missing.get() is None and missing.get(3) == 3
    with pytest.raises(sysdesc.NotFoundError) as e:
        missing()
    assert 'key "never_seen_key_xyz"' in e.value.message
    with pytest.raises(TypeError):
        p(1)
    with pytest.raises(sysdesc.ArgumentError):
        s.path()


def test_path_on_a_scope_and_a_map():
    s = sysdesc.parse(SCOPED)
    assert s.path("CPU", "vendor", scope="inner")() == "V"
    gpu = sysdesc.catalog("nvidia/h100-sxm")["GPU"]
    assert gpu.path("peak_ops_per_second", "bf16_matrix")() == 989.4e12


def test_type_keys_in_a_dl_spec():
    s = sysdesc.parse(
        'module attributes {dlti.dl_spec = #dlti.dl_spec<i64 = dense<[32, 64]> : vector<2xi64>>,'
        ' dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<'
        '"device_type" = "CPU", "vendor" = "V", "model" = "M", "arch" = "a">>} {}')
    assert s.query(sysdesc.MlirType("i64")) == (32, 64)
    with pytest.raises(sysdesc.NotFoundError):
        s.query(sysdesc.MlirType("i32"))
    with pytest.raises(sysdesc.ParseError):
        s.query(sysdesc.MlirType("not a type"))


def test_a_node_keeps_its_last_answer_only_when_immutable():
    # node.c, node_getitem: the same key object again gives the kept value;
    # a list (mutable) is made anew each time, so a caller's change to one
    # never shows in the next answer.
    spec = sysdesc.catalog("nvidia/h100-sxm")
    key = "GPU"
    assert spec[key] is spec[key]
    assert spec["GPU"]["num_compute_units"] == spec.query("GPU", "num_compute_units")
    dims = spec["GPU"]["max_block_dims"]
    dims.append(0)
    assert spec["GPU"]["max_block_dims"] == [1024, 1024, 64]
    assert spec["GPU"]["max_block_dims"] is not spec["GPU"]["max_block_dims"]
    # Another key in between: the lookup is made again, with the same answer.
    gpu = spec["GPU"]
    first = gpu["num_compute_units"]
    gpu["max_shared_memory_per_block_in_bytes"]
    assert gpu["num_compute_units"] == first
    assert gpu.get("num_compute_units") == first and "num_compute_units" in gpu
    assert gpu.get("no_such_key", 7) == 7 and "no_such_key" not in gpu
