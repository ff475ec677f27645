"""Errors: the sysdesc.Error hierarchy with file, line, column and MLIR's
message, as the CLI reports them; bad input never crashes."""

import random

import pytest

import sysdesc


def test_mlir_syntax_error_is_located(cli, tmp_path):
    f = tmp_path / "bad.mlir"
    text = '#dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"a" = >>\n'
    f.write_text(text)
    with pytest.raises(sysdesc.ParseError) as e:
        sysdesc.load(f)
    err = e.value
    assert (err.file, err.line, err.column) == (str(f), 1, text.index("= >>") + 2)  # after the "="
    assert err.code == "syntax" and err.message
    r = cli("fmt", str(f), check=False)
    assert r.stderr.decode().splitlines()[0] == str(err)


def test_yaml_error_is_located(tmp_path, cli):
    f = tmp_path / "dup.yaml"
    f.write_text("GPU:\n  device_type: GPU\n  device_type: GPU\n")
    with pytest.raises(sysdesc.ParseError) as e:
        sysdesc.load(f)
    assert (e.value.line, e.value.column) == (3, 3)
    r = cli("convert", "--to", "mlir", str(f), check=False)
    assert r.returncode == 2 and r.stderr.decode().splitlines()[0] == str(e.value)


def test_parse_names_its_source():
    with pytest.raises(sysdesc.ParseError) as e:
        sysdesc.parse("#dlti.map<", source="inline.mlir")
    assert e.value.file == "inline.mlir" and e.value.line == 1
    assert str(e.value).startswith("inline.mlir:1:")


def test_schema_problem_is_a_verify_error():
    with pytest.raises(sysdesc.VerifyError) as e:
        sysdesc.parse("GPU:\n  base: nvidia/h100-sxm\n  num_compute_units: -3\n", source="g.yaml")
    assert (e.value.file, e.value.line) == ("g.yaml", 3)
    # check=False takes it as written.
    assert sysdesc.parse("GPU:\n  base: nvidia/h100-sxm\n  num_compute_units: -3\n",
                         check=False)["GPU"]["num_compute_units"] == -3


def test_unknown_keys_warn_and_strict_refuses(tmp_path, cli):
    """A spec as MLIR pipelines write it: a key of their own is a warning,
    located as `sysdesc convert` prints it; check="strict" refuses it."""
    f = tmp_path / "pipeline.mlir"
    f.write_text('module attributes {dlti.target_system_spec = #dlti.target_system_spec<'
                 '"CPU" = #dlti.target_device_spec<"num_threads" = 56 : i32, '
                 '"max_vector_width" = 512 : i64>>} {}\n')
    with pytest.warns(UserWarning) as w:
        spec = sysdesc.load(f)
    assert spec["CPU"]["num_threads"] == 56
    assert len(w) == 1 and "unknown key 'max_vector_width' in 'CPU'" in str(w[0].message)
    r = cli("convert", str(f), check=False)
    assert r.returncode == 0
    assert r.stderr.decode().splitlines()[0] == str(w[0].message).replace(
        ": unknown key", ": warning: unknown key", 1)
    with pytest.raises(sysdesc.VerifyError):
        sysdesc.load(f, check="strict")
    with pytest.raises(ValueError):
        sysdesc.load(f, check="lenient")


def test_limit_error_on_deep_nesting():
    deep = "#dlti.map<\"a\" = " * 1200 + "1" + ">" * 1200
    with pytest.raises(sysdesc.LimitError):
        sysdesc.parse(deep)


def test_hierarchy():
    for cls in (sysdesc.ParseError, sysdesc.VerifyError, sysdesc.LimitError,
                sysdesc.NotFoundError, sysdesc.ValueTypeError, sysdesc.RangeError,
                sysdesc.UnsupportedError, sysdesc.ArgumentError, sysdesc.FileError):
        assert issubclass(cls, sysdesc.Error)
    assert issubclass(sysdesc.NotFoundError, KeyError)
    assert issubclass(sysdesc.FileError, OSError)
    assert issubclass(sysdesc.ArgumentError, ValueError)


def test_missing_module_spec_is_not_found():
    # A module is a Spec (its layout answers), with no device to print.
    s = sysdesc.parse("module {}")
    assert len(s) == 0 and s.layout().size("i64") == 8
    with pytest.raises(sysdesc.NotFoundError):
        s.to_mlir()


@pytest.mark.parametrize("text", [b"", b"\x00\x01\x02", b"\xff\xfe: [", b"GPU:\n  a: \x00\n",
                                  b"#", b"module", b"- - -\n", b"GPU: *alias\n",
                                  b"{" * 5000, b"[" * 5000])
def test_bad_input_raises_an_error(text):
    with pytest.raises(sysdesc.Error):
        sysdesc.parse(text)


def test_mutated_descriptions_never_crash():
    rng = random.Random(1234)
    seeds = [sysdesc.catalog("nvidia/h100-sxm").to_yaml().encode(),
             sysdesc.catalog("amd/mi300x").to_mlir().encode()]
    outcomes = {"ok": 0, "error": 0}
    for i in range(600):
        b = bytearray(seeds[i % 2])
        for _ in range(rng.randint(1, 8)):
            pos = rng.randrange(len(b))
            op = rng.randrange(3)
            if op == 0:
                b[pos] = rng.randrange(256)
            elif op == 1:
                del b[pos:pos + rng.randint(1, 20)]
            else:
                b[pos:pos] = bytes(rng.choice(b"<>[]{}:,\"'#!& \n-0123456789") for _ in range(3))
        try:
            s = sysdesc.parse(bytes(b), check=bool(i % 3))
            s.to_json(), s.to_yaml(), list(s)
            outcomes["ok"] += 1
        except sysdesc.Error:
            outcomes["error"] += 1
    # Both outcomes happen: the mutations are neither all harmless nor all fatal.
    assert outcomes["ok"] > 0 and outcomes["error"] > 0
