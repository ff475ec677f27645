"""Every entry point: host, load, parse, catalog, catalog_names, compose, check."""

import os
import re
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


def test_host_answers_from_the_whole_result_cache(tmp_path, monkeypatch):
    # Issue 15: a warm host() is one parse of the cached whole result
    # (docs/runtimes.md, "The whole result"); the library's test hook makes
    # loading the topology fail, so only a hit can answer.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sysdesc.ProbeWarning)
        cold = sysdesc.host(cache_dir=tmp_path)
        monkeypatch.setenv("SYSDESC_TEST_NO_HOST_TOPOLOGY", "1")
        assert sysdesc.host(cache_dir=tmp_path).to_mlir() == cold.to_mlir()
        with pytest.raises(sysdesc.Error):
            sysdesc.host(cache_dir=tmp_path, cache="refresh")
        with pytest.raises(sysdesc.Error):
            sysdesc.host(cache_dir=tmp_path, catalog=False)  # another hook: a miss


def test_host_is_kept_while_nothing_it_depends_on_changes(tmp_path, monkeypatch, srcdir):
    # Issue 15: host() gives the same Spec object again while the stamp taken
    # before it (sysdesc_probe_host_stamp: the cache key read afresh, the disk
    # entry's identity, the change generation of the catalog and libraries)
    # is the one taken before the kept Spec was made; any change the disk
    # cache would see gives a new one.  A probe that found no entry keeps
    # nothing (the entry it writes is read, and kept, by the next call).
    catalog = tmp_path / "systems"
    shutil.copytree(os.path.join(srcdir, "systems"), catalog)
    monkeypatch.setenv("SYSDESC_PATH", str(catalog))
    cache = tmp_path / "cache"
    # the same spec, but for where the runtimes' answers came from
    same = lambda s: re.sub(r'"runtimes" = "[^"]*"', "", s.to_mlir())

    def settled(**kw):
        """host() until it keeps its answer; the kept Spec."""
        sysdesc.host(**kw)
        kept = sysdesc.host(**kw)
        assert sysdesc.host(**kw) is kept and sysdesc.host(**kw) is kept
        return kept

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sysdesc.ProbeWarning)
        first = settled(cache_dir=cache)
        entry = next(catalog.rglob("*.yaml"))  # a catalog file touched
        st = entry.stat()
        os.utime(entry, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
        touched = sysdesc.host(cache_dir=cache)
        assert touched is not first and same(touched) == same(first)
        touched = settled(cache_dir=cache)
        (catalog / "nvidia" / "extra.yaml").write_text("# a new entry\n")  # one added
        assert sysdesc.host(cache_dir=cache) is not touched
        added = settled(cache_dir=cache)
        monkeypatch.setenv("POCL_SYSDESC_TEST", "1")  # a variable the runtimes read
        assert sysdesc.host(cache_dir=cache) is not added
        env = settled(cache_dir=cache)
        assert sysdesc.host(cache_dir=tmp_path / "elsewhere") is not env  # another cache
        assert sysdesc.host(cache_dir=cache, catalog=False) is not env  # other options
        assert sysdesc.host(cache=False) is not sysdesc.host(cache=False)  # not cached: probed
        # The disk entry rewritten (another process's refresh), a refresh in
        # this process, the entry removed: each gives a new answer.
        kept = settled(cache_dir=cache)
        for entry in cache.rglob("host-*.mlir"):
            text = entry.read_text()
            entry.unlink()
            entry.write_text(text)  # a new file, as an atomic rewrite makes
        rewritten = sysdesc.host(cache_dir=cache)
        assert rewritten is not kept
        refreshed = sysdesc.host(cache_dir=cache, cache="refresh")
        assert sysdesc.host(cache_dir=cache) is not refreshed
        for e in cache.rglob("host-*.mlir"):
            e.unlink()
        gone = sysdesc.host(cache_dir=cache)
        assert gone is not rewritten and gone is not refreshed
        # A forked child does not take its parent's: its generation is its own.
        kept = settled(cache_dir=cache)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.write(w, b"y" if sysdesc.host(cache_dir=cache) is not kept else b"n")
            finally:
                os._exit(0)
        os.close(w)
        answer = os.read(r, 1)
        os.close(r)
        os.waitpid(pid, 0)
        assert answer == b"y"


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
    with pytest.raises(sysdesc.FileError):
        sysdesc.catalog("nvidia/no-such-gpu")


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
