"""load() and parse() read what every command reads (docs/yaml.md,
"Formats" and "JSON"): MLIR, YAML and typed JSON told apart by their content,
typed JSON back to the identical spec, plain JSON refused with the hint,
device ids that once made YAML look like MLIR; the layout of a YAML
description is that of the same description in MLIR."""

import pytest

import sysdesc

YAML = ("data_layout: x86_64-unknown-linux-gnu\n"
        "rack1.node-a:\n  device_type: CPU\n  num_cores: 8\n"
        "v1.0 GPU:\n  device_type: GPU\n  warp_size: !ui32 32\n  peak: !f16 1.5\n")


@pytest.mark.parametrize("source", [None, "d.yaml", "d.mlir", "d.json", "d"])
def test_yaml_with_dotted_ids_under_any_name(source):
    spec = sysdesc.parse(YAML, source=source, check=False)
    assert spec["rack1.node-a"]["num_cores"] == 8


def test_typed_json_reads_back_identical(tmp_path):
    spec = sysdesc.parse(YAML, check=False)
    text = spec.to_json(typed=True)
    assert text.startswith('{\n  "$format": "sysdesc typed JSON 1"')
    again = sysdesc.parse(text, check=False)
    assert again.to_mlir() == spec.to_mlir()
    f = tmp_path / "spec"  # no extension: the content tells
    f.write_text(text)
    assert sysdesc.load(f, check=False).to_mlir() == spec.to_mlir()


def test_plain_json_is_refused_with_the_hint():
    text = sysdesc.parse(YAML, check=False).to_json()
    with pytest.raises(sysdesc.UnsupportedError) as e:
        sysdesc.parse(text, source="d.json", check=False)
    assert "plain JSON is not read" in str(e.value) and "--typed" in str(e.value)


def test_layout_of_yaml_and_json_is_that_of_mlir():
    spec = sysdesc.parse(YAML, check=False)
    mlir = sysdesc.parse(spec.to_mlir(), check=False)
    typed = sysdesc.parse(spec.to_json(typed=True), check=False)
    for t in ["i64", "f80", "i128", "f16"]:
        assert spec.layout().size(t) == mlir.layout().size(t) == typed.layout().size(t)
