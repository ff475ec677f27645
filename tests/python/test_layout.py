"""Data layouts: spec.layout(scope) answers as the C API (and `sysdesc layout`) do."""

import pytest

import sysdesc

MODULE = """module attributes {dlti.dl_spec = #dlti.dl_spec<i64 = dense<[32, 64]> : vector<2xi64>,
    index = 32 : i64, "dlti.endianness" = "big">,
  dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<
    "device_type" = "CPU", "vendor" = "V", "model" = "M", "arch" = "a">>} {
  module @inner attributes {dlti.dl_spec = #dlti.dl_spec<f64 = dense<[64, 128]> : vector<2xi64>>} {
  }
}
"""


def test_defaults_without_a_data_layout():
    lay = sysdesc.catalog("nvidia/h100-sxm").layout()
    assert lay.size_in_bits("i64") == 64 and lay.size("i64") == 8
    assert lay.abi_alignment("f64") == 8 and lay.index_bitwidth("index") == 64
    assert lay.index_bitwidth("i32") is None
    assert lay.size("vector<4xf32>") == 16
    assert not lay.big_endian


def test_module_layout_and_scopes(cli, tmp_path):
    s = sysdesc.parse(MODULE)
    outer, inner = s.layout(), s.layout("inner")
    assert outer.abi_alignment("i64") == 4 and outer.preferred_alignment("i64") == 8
    assert outer.index_bitwidth("index") == 32 and outer.big_endian
    assert inner.preferred_alignment("f64") == 16 and inner.abi_alignment("i64") == 4
    # Python values, as the value mapping gives them; the CLI prints the MLIR text.
    assert outer.property("endianness") == "big"
    assert inner.property("stack_alignment") == 0
    assert inner.property("legal_int_widths") == ()
    fpa = inner.property("function_pointer_alignment")
    assert isinstance(fpa, sysdesc.MlirAttr) and fpa.startswith("#dlti.function_pointer_alignment<")
    # `sysdesc layout` agrees, type by type.
    f = tmp_path / "m.mlir"
    f.write_text(MODULE)
    out = cli("layout", "--scope", "inner", str(f), "f64").stdout.decode()
    assert out == (f"f64: size = {inner.size('f64')}, bitsize = {inner.size_in_bits('f64')}, "
                   f"alignment = {inner.abi_alignment('f64')}, "
                   f"preferred = {inner.preferred_alignment('f64')}, index = 0\n")


def test_layout_props_agree_with_the_cli(cli, tmp_path):
    f = tmp_path / "m.mlir"
    f.write_text(MODULE)
    lay = sysdesc.load(f).layout()
    for line in cli("layout", str(f)).stdout.decode().splitlines():
        name, text = line.split(" = ", 1)
        value = lay.property(name)
        if isinstance(value, str) and not isinstance(value, sysdesc.MlirAttr):
            assert text == '"%s"' % value, name
        elif isinstance(value, int):
            assert text.split(" : ")[0] == str(value), name
        else:
            assert text == str(value) or value == (), name


def test_layout_repr():
    s = sysdesc.parse(MODULE, source="m.mlir")
    assert repr(s.layout()) == '<sysdesc.Layout of \'m.mlir\': endianness = "big">'
    # the nested module's layout has the outer one's entries too
    assert repr(s.layout("inner")) == ('<sysdesc.Layout of \'m.mlir\', scope inner: '
                                       'endianness = "big">')
    assert (repr(sysdesc.catalog("nvidia/l4").layout()) ==
            "<sysdesc.Layout of 'nvidia/l4': MLIR's defaults>")


DL_ONLY = """module attributes {dlti.dl_spec = #dlti.dl_spec<"dlti.endianness" = "little",
    i64 = dense<[32, 64]> : vector<2xi64>>} {}
"""


def test_a_data_layout_alone():
    """A module that holds only a dlti.dl_spec is a Spec with no devices
    whose layout() answers; what needs a system spec says so."""
    for s in (sysdesc.parse(DL_ONLY), sysdesc.parse(DL_ONLY.encode(), check=False)):
        assert len(s) == 0 and list(s) == [] and s.check() == []
        lay = s.layout()
        assert lay.property("endianness") == "little" and lay.abi_alignment("i64") == 4
        with pytest.raises(sysdesc.NotFoundError, match="no #dlti.target_system_spec"):
            s.to_yaml()
        with pytest.raises(sysdesc.NotFoundError):
            s.export("GPU", "triton")
        with pytest.raises(sysdesc.NotFoundError):
            s["CPU"]


def test_layout_from_yaml_data_layout():
    s = sysdesc.parse("data_layout: e-m:e-p:32:32-i64:64-n32\n"
                      "CPU:\n  device_type: CPU\n  vendor: V\n  model: M\n  arch: a\n")
    assert s.data_layout == "e-m:e-p:32:32-i64:64-n32"
    assert s.layout().size_in_bits("!llvm.ptr") == 32


def test_layout_errors():
    lay = sysdesc.catalog("nvidia/l4").layout()
    with pytest.raises(sysdesc.ParseError):
        lay.size("not a type")
    with pytest.raises(sysdesc.UnsupportedError):
        lay.size("memref<4xf32>")
    with pytest.raises(TypeError):
        lay.size(64)
    with pytest.raises(KeyError):
        lay.property("colour")
    with pytest.raises(sysdesc.ArgumentError):
        sysdesc.catalog("nvidia/l4").layout("inner")
    with pytest.raises(sysdesc.NotFoundError):
        sysdesc.parse(MODULE).layout("nope")
