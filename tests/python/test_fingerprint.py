"""Spec.fingerprint() and `sysdesc fingerprint` are one function
(sysdesc_fingerprint, docs/fingerprint.md): equal for this host and for
catalog entries, for the system and for one device; the explanation is the
CLI's and hashes to the fingerprint.  The rule key by key:
tests/sysdesc/test_fingerprint.c."""

import re
import warnings

import pytest

import sysdesc


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for c in data:
        h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


@pytest.mark.parametrize("name", ["nvidia/h100-sxm", "nodes/dgx-h100", "amd/mi300x"])
def test_python_equals_cli(cli, name):
    spec = sysdesc.catalog(name)
    assert spec.fingerprint() == cli("fingerprint", name).stdout.decode().strip()
    assert spec.explain_fingerprint() == cli("fingerprint", "--explain", name).stdout.decode()
    device = spec.devices[-1]
    assert spec.fingerprint(device) == \
        cli("fingerprint", "--device", device, name).stdout.decode().strip()


def test_host_equals_cli(cli, tmp_path, monkeypatch):
    # host() asks the runtimes (a cache of its own, cold); the CLI then
    # reads the entry it wrote: the specs differ in a source line, which is
    # left out (test_cli_outputs.py has to take that line out by hand).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sysdesc.ProbeWarning)
        spec = sysdesc.host(cache_dir=tmp_path / "sysdesc")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert re.fullmatch(r"sd1-[0-9a-f]{16}", spec.fingerprint())
    assert spec.fingerprint() == cli("fingerprint", "--quiet").stdout.decode().strip()
    assert spec.fingerprint("CPU") == \
        cli("fingerprint", "--quiet", "--device", "CPU").stdout.decode().strip()


def test_explanation_hashes_to_the_fingerprint():
    spec = sysdesc.catalog("nodes/dgx-h100")
    text = spec.explain_fingerprint()
    counted = b"".join(line for line in text.encode().splitlines(keepends=True)
                       if not line.startswith(b"#"))
    assert spec.fingerprint() == "sd1-%016x" % fnv1a64(counted)
    assert text.startswith(f"# {spec.fingerprint()}: ")


def test_formats_agree():
    spec = sysdesc.catalog("nodes/dgx-h100")
    for text in (spec.to_mlir(), spec.to_yaml(), spec.to_json(typed=True)):
        assert sysdesc.parse(text).fingerprint() == spec.fingerprint()
    # plain JSON loses MLIR's types; read by YAML's rules, it is one text still
    assert sysdesc.parse(spec.to_json(), source="plain.yaml").fingerprint() == spec.fingerprint()


def test_unknown_device():
    with pytest.raises(sysdesc.NotFoundError, match="no device 'GPU99'"):
        sysdesc.catalog("nvidia/h100-sxm").fingerprint("GPU99")
