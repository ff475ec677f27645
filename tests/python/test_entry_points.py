"""Every entry point: host, load, parse, catalog, catalog_names, compose, check."""

import os
import shutil
import warnings

import pytest

import sysdesc


def test_host_has_cpu_with_l1(cli):
    spec = sysdesc.host(runtimes=False, cache=False)
    assert isinstance(spec, sysdesc.Spec)
    assert "CPU" in spec
    l1 = spec["CPU"]["cache"]["L1"]["size_in_bytes"]
    assert isinstance(l1, int) and l1 > 0
    # The same number the CLI answers for this machine.
    out = cli("query", "--host", "-q", "CPU", "cache", "L1", "size_in_bytes").stdout.decode()
    assert out == f"{l1} : i64\n"


def test_host_is_kept_for_the_process(tmp_path, monkeypatch):
    # host() keeps its answer for the process, per arguments: the same Spec
    # object again; "refresh" probes anew and keeps the new answer; False
    # probes afresh and keeps nothing; other arguments are another answer.
    # The sanity warnings come with a probe, not with a kept answer.  No
    # runtime is asked (runtimes=False throughout): what is kept is the
    # same whatever was asked, and each probe here is then a fraction of a
    # second, under ASan too.
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", sysdesc.ProbeWarning)
        first = sysdesc.host(runtimes=False, cache_dir=tmp_path)
        probed = len(seen)
        assert sysdesc.host(runtimes=False, cache_dir=tmp_path) is first
        assert len(seen) == probed, "a kept answer warned again"
        refreshed = sysdesc.host(runtimes=False, cache_dir=tmp_path, cache="refresh")
        assert refreshed is not first and refreshed.to_mlir() == first.to_mlir()
        assert sysdesc.host(runtimes=False, cache_dir=tmp_path) is refreshed
        assert sysdesc.host(runtimes=False, cache_dir=tmp_path, cache=False) is not refreshed
        assert sysdesc.host(runtimes=False, cache_dir=tmp_path) is refreshed  # False kept nothing
        assert sysdesc.host(runtimes=False, cache_dir=tmp_path, catalog=False) is not refreshed
        assert sysdesc.host(runtimes=False, cache_dir=tmp_path / "elsewhere") is not refreshed
        monkeypatch.setenv("SYSDESC_PATH", str(tmp_path / "no-catalog"))
        assert sysdesc.host(runtimes=False, cache_dir=tmp_path) is not refreshed  # another catalog


def test_host_options_are_checked():
    with pytest.raises(sysdesc.ArgumentError):
        sysdesc.host(runtimes=["cuda", "nonsense"])
    with pytest.raises(sysdesc.ArgumentError):
        sysdesc.host(cache="sometimes")


def test_load_yaml_and_mlir(srcdir, tmp_path):
    yaml_spec = sysdesc.load(os.path.join(srcdir, "systems", "nvidia", "h100-sxm.yaml"))
    assert yaml_spec["GPU"]["num_compute_units"] == 132
    mlir = tmp_path / "h100.mlir"
    mlir.write_text(yaml_spec.to_mlir())
    mlir_spec = sysdesc.load(mlir)  # os.PathLike works
    assert mlir_spec.system.is_module
    assert mlir_spec["GPU"]["num_compute_units"] == 132
    assert mlir_spec == yaml_spec


def test_load_catalog_name_and_missing_file():
    assert sysdesc.load("amd/mi300x")["GPU"]["arch"] == "gfx942"
    with pytest.raises(sysdesc.FileError) as e:
        sysdesc.load("/nonexistent/file.yaml")
    assert isinstance(e.value, OSError)
    assert e.value.file == "/nonexistent/file.yaml"


def test_parse_yaml_and_mlir():
    y = sysdesc.parse("CPU:\n  device_type: CPU\n  vendor: GenuineIntel\n  model: X\n  arch: x86_64\n")
    assert y["CPU"]["vendor"] == "GenuineIntel"
    m = sysdesc.parse(y.to_mlir())
    assert m.system.is_module and m == y
    a = sysdesc.parse(y.to_attr())
    assert a["CPU"]["model"] == "X"
    # bytes work too, and a YAML comment first is still YAML.
    b = sysdesc.parse(b"# a comment\nCPU:\n  device_type: CPU\n  vendor: V\n  model: M\n  arch: a\n")
    assert b["CPU"]["vendor"] == "V"


def test_catalog_and_names():
    names = sysdesc.catalog_names()
    assert "nvidia/h100-sxm" in names and names == sorted(names)
    for e in sysdesc.catalog_entries():
        assert os.path.isfile(e.path) and e.path.endswith(e.name + ".yaml")
    assert sysdesc.catalog("nvidia/h100-sxm")["GPU"]["arch"] == "sm_90"
    with pytest.raises(sysdesc.NotFoundError):
        sysdesc.catalog("nvidia/no-such-gpu")
    with pytest.raises(sysdesc.NotFoundError, match="did you mean 'nvidia/h100-sxm'"):
        sysdesc.load("nvidia/h100-sx")
    # The library's suggestion is the error's hint, as the CLI prints it on a
    # line of its own; the message is the rest.
    with pytest.raises(sysdesc.NotFoundError) as e:
        sysdesc.catalog("nvidia/h100-sx")
    assert e.value.hint == "did you mean 'nvidia/h100-sxm'?"
    assert "did you mean" not in e.value.message
    assert e.value.message.startswith("no such file, and no catalog entry 'nvidia/h100-sx' in ")
    with pytest.raises(sysdesc.NotFoundError) as e:
        sysdesc.catalog("nvidia/no-such-gpu")
    assert e.value.hint is None


def test_catalog_vendor_and_model_of_systems():
    """A system's vendor is its devices' vendors, each once; its model their
    models, "N × MODEL" for N alike (`sysdesc list`'s columns)."""
    for e in sysdesc.catalog_entries():
        devices = list(sysdesc.catalog(e.name, check=False).values())
        vendors = list(dict.fromkeys(d["vendor"] for d in devices if d.get("vendor")))
        assert e.vendor == ", ".join(vendors), e.name
        models = [d["model"] for d in devices if d.get("model")]
        counted = [(f"{models.count(m)} \u00d7 " if models.count(m) > 1 else "") + m
                   for m in dict.fromkeys(models)]
        assert e.model == " + ".join(counted), e.name
    m2 = [e for e in sysdesc.catalog_entries() if e.name == "apple/m2"][0]
    assert m2.vendor == "Apple"


def test_catalog_names_equal_cli_list(cli):
    listed = [line.split()[0] for line in cli("list").stdout.decode().splitlines()[1:] if line]
    assert sysdesc.catalog_names() == listed


def test_catalog_path_puts_sysdesc_path_first(monkeypatch, tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "gpu.yaml").write_text(
        "GPU:\n  base: nvidia/h100-sxm\n  num_compute_units: 7\n")
    monkeypatch.setenv("SYSDESC_PATH", str(tmp_path))
    assert sysdesc.catalog_path().split(":")[0] == str(tmp_path)
    assert sysdesc.catalog("mine/gpu")["GPU"]["num_compute_units"] == 7
    assert "mine/gpu" in sysdesc.catalog_names()


def test_compose_rules():
    s = sysdesc.compose("GPU=nvidia/h100-sxm:2", "amd/mi300x")
    assert list(s) == ["GPU0", "GPU1", "GPU"]
    assert s["GPU1"]["num_compute_units"] == 132
    with pytest.raises(sysdesc.VerifyError):  # the id GPU twice
        sysdesc.compose("nvidia/h100-sxm", "amd/mi300x")
    with pytest.raises(sysdesc.ArgumentError):
        sysdesc.compose("GPU=nvidia/h100-sxm:0")
    with pytest.raises(sysdesc.ArgumentError):
        sysdesc.compose()
    with pytest.raises(TypeError):
        sysdesc.compose(3)


def test_compose_equals_cli(cli):
    items = ["GPU=nvidia/h100-sxm:2", "ACC=amd/mi300x", "NODE=nodes/dgx-h100"]
    ours = sysdesc.compose(*items)
    theirs = cli("compose", "--format", "mlir", *items).stdout.decode()
    assert ours.to_mlir() == theirs


@pytest.mark.parametrize("item", ["nvidia/h100-sxm:", "nvidia/h100-sxm:-1", "GPU=nvidia/h100-sxm:+1",
                                  "nvidia/h100-sxm:0", "=nvidia/h100-sxm", "GPU=",
                                  "nvidia/h100-sxm:99999999999999999999", "nvidia/nope",
                                  "GPU=nvidia/h100-sxm:1"])
def test_compose_items_as_the_cli_reads_them(cli, item):
    # One parser (sysdesc_compose_add_item) for both: the same verdict and message.
    r = cli("compose", item, check=False)
    try:
        sysdesc.compose(item)
        said = None
    except sysdesc.Error as e:
        said = str(e)
    if r.returncode == 0:
        assert said is None, said
    else:
        assert said is not None and said in r.stderr.decode(), (said, r.stderr)


def test_compose_with_host_has_the_cpu():
    s = sysdesc.compose("GPU=nvidia/l4", host=True, io=False, runtimes=False, cache=False)
    assert list(s)[:1] == ["CPU"] and "GPU" in s


def test_check_lists_every_problem(tmp_path, cli):
    bad = tmp_path / "bad.yaml"
    bad.write_text("MYGPU:\n  base: nvidia/h100-sxm\n  num_compute_unit: 84\n"
                   "  shared_memory_per_block_in_bytes: 64KB\n")
    problems = sysdesc.check(bad)
    assert [(p.line, p.column) for p in problems] == [(3, 3), (4, 3)]
    assert "did you mean 'num_compute_units'" in problems[0].message
    assert problems[1].file == str(bad)
    # The lines `sysdesc check` prints.
    r = cli("check", str(bad), check=False)
    assert r.stderr.decode().splitlines()[:2] == [p.formatted for p in problems]
    assert sysdesc.check("nvidia/h100-sxm", complete=True) == []
    spec = sysdesc.load(bad, check=False)
    assert len(sysdesc.check(spec)) == 2


def test_check_unloadable_file_is_one_problem(tmp_path):
    bad = tmp_path / "syntax.yaml"
    bad.write_text("GPU: [unclosed\n")
    problems = sysdesc.check(bad)
    assert len(problems) == 1 and problems[0].line >= 1
