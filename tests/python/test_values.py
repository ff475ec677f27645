"""Every attribute kind becomes its documented Python value, with its MLIR
type and text available through Attribute (tests/python/data/kinds.mlir)."""

import os

import pytest

import sysdesc


@pytest.fixture(scope="module")
def x(data):
    return sysdesc.load(os.path.join(data, "kinds.mlir"), check=False)["X"]


@pytest.mark.parametrize("key,value,pytype,kind,mlir_type", [
    ("i32", 42, int, "integer", "i32"),
    ("i64", -7, int, "integer", "i64"),
    ("i128", 2**127 - 1, int, "integer", "i128"),
    ("ui64", 2**64 - 1, int, "integer", "ui64"),
    ("index", 3, int, "integer", "index"),
    ("f32", 1.5, float, "float", "f32"),
    ("f64", 2.25, float, "float", "f64"),
    ("bf16", 1.0, float, "float", "bf16"),
    ("true", True, bool, "bool", None),
    ("false", False, bool, "bool", None),
    ("str", "text", str, "string", None),
    ("utf8", "caf\u00e9", str, "string", None),
    ("array", [1, "a", 2.5], list, "array", None),
    ("dense_array", (1, 2, 3), tuple, "dense_array", "i32"),
    ("dense_floats", (1.5, 2.0), tuple, "dense_array", "f32"),
    ("empty_dense", (), tuple, "dense_array", "i64"),
    ("dense", (1, 2), tuple, "dense", "vector<2xi64>"),
    ("dict", {"a": 1, "b": sysdesc.UNIT}, dict, "dictionary", None),
])
def test_plain_values(x, key, value, pytype, kind, mlir_type):
    v = x[key]
    assert type(v) is pytype and v == value
    a = x.attribute(key)
    assert (a.value, a.kind, a.type) == (value, kind, mlir_type)


def test_bool_is_not_int_1(x):
    assert x["true"] is True and x["false"] is False


def test_type_opaque_and_unit(x):
    assert isinstance(x["type"], sysdesc.MlirType) and x["type"] == "vector<4xf32>"
    assert isinstance(x["opaque"], sysdesc.MlirAttr) and x["opaque"] == '#foo.bar<"x">'
    assert x["unit"] is sysdesc.UNIT and x.attribute("unit").kind == "unit"


def test_attribute_mlir_text_is_the_printers(x):
    assert x.attribute("i32").mlir == "42 : i32"
    assert x.attribute("f32").mlir == "1.500000e+00 : f32"
    assert x.attribute("dense").mlir == "dense<[1, 2]> : vector<2xi64>"


def test_nested_maps_are_mappings(x):
    m = x["map"]
    assert isinstance(m, sysdesc.Map) and m.kind == "map"
    assert m["nested"]["deep"] == 4
    assert m.attribute("nested", "deep").type == "i8"
    assert m.to_dict() == {"k": 1, "nested": {"deep": 4}}
    assert dict(m["nested"]) == {"deep": 4}
    assert m.to_mlir_attr() == '#dlti.map<"k" = 1 : i64, "nested" = #dlti.map<"deep" = 4 : i8>>'


def test_mapping_protocol_in_spec_order(x):
    keys = list(x)
    assert keys[:3] == ["i32", "i64", "i128"] and keys[-1] == "unit"
    assert list(x.keys()) == keys and len(x) == len(keys)
    assert [k for k, _ in x.items()] == keys
    assert "i32" in x and "nope" not in x and 5 not in x
    assert x.get("nope") is None and x.get("nope", 7) == 7 and x.get("i32") == 42
    with pytest.raises(TypeError):
        x[5]
    with pytest.raises(TypeError):
        x["i32"] = 1
    with pytest.raises(TypeError):
        hash(x)


def test_spec_kinds_and_equality_with_dicts():
    s = sysdesc.catalog("nvidia/h100-sxm")
    assert s.kind == "target_system_spec" and s["GPU"].kind == "target_device_spec"
    assert s.devices == ["GPU"]
    assert s["GPU"]["peak_ops_per_second"] == dict(s["GPU"]["peak_ops_per_second"].items())
    assert s == sysdesc.catalog("nvidia/h100-sxm") and s != sysdesc.catalog("nvidia/h200")


def test_deep_spec_to_dict():
    """A description as deep as sysdesc reads (1000 levels, nearly all of
    them here) converts to dicts: neither Map.to_dict nor Spec.to_dict
    runs into Python's recursion limit (both raised RecursionError at 995)."""
    import sys
    depth = 995
    inner = "7"
    for _ in range(depth):
        inner = '#dlti.map<"a" = %s>' % inner
    text = ('module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = '
            '#dlti.target_device_spec<"device_type" = "CPU", "deep" = %s>>} {}' % inner)
    spec = sysdesc.parse(text, source="deep.mlir", check=False)
    limit = sys.getrecursionlimit()
    for d in (spec.to_dict()["CPU"]["deep"], spec["CPU"]["deep"].to_dict()):
        n = 1
        while isinstance(d["a"], dict):
            d, n = d["a"], n + 1
        assert (n, d["a"]) == (depth, 7)
    assert sys.getrecursionlimit() == limit
