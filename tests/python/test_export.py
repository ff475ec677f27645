"""The autotuner bridges: Spec.export() and `sysdesc export` are one mapping
(sysdesc_tuner_export); each field comes from its documented key, in the
unit the tuner expects, and is absent when its key is."""

import json

import pytest

import sysdesc


def devices():
    for name in sysdesc.catalog_names():
        for dev in sysdesc.catalog(name):
            yield name, dev


@pytest.mark.parametrize("name,device", list(devices()))
@pytest.mark.parametrize("tuner", sysdesc.TUNERS)
def test_python_equals_cli(cli, name, device, tuner):
    spec = sysdesc.catalog(name)
    r = cli("export", "--to", tuner, name, device, check=False)
    try:
        ours = spec.system.export(device, tuner)
    except sysdesc.UnsupportedError as e:
        assert r.returncode == 2 and r.stderr.decode() == f"sysdesc: error: export: {e.message}\n"
        return
    assert r.returncode == 0 and ours.encode() == r.stdout
    assert spec.export(device, tuner) == json.loads(r.stdout)


def test_h100_fields_from_their_keys():
    spec = sysdesc.catalog("nvidia/h100-sxm")
    gpu = spec["GPU"]
    assert spec.to_tvm("GPU") == {
        "kind": "cuda",
        "arch": gpu["arch"],
        "max_shared_memory_per_block": gpu["shared_memory_per_block_in_bytes"],
        "max_threads_per_block": gpu["max_threads_per_block"],
        "thread_warp_size": gpu["subgroup_sizes"][0],
        "registers_per_block": gpu["registers_per_block"],
        "l2_cache_size_bytes": gpu["L2_cache_size_in_bytes"],
    }
    triton = spec.to_triton("GPU")
    assert triton["max_shared_mem"] == gpu["max_shared_memory_per_block_in_bytes"] == 232448
    assert triton["sm_clock_rate"] == gpu["max_clock_in_mhz"] * 1000  # kHz, as CUDA reports
    if "memory_clock_in_mhz" in gpu:
        assert triton["mem_clock_rate"] == gpu["memory_clock_in_mhz"] * 1000
    else:
        assert "mem_clock_rate" not in triton
    inductor = spec.to_inductor("GPU")
    assert (inductor["type"], inductor["cc"], inductor["major"]) == ("cuda", 90, 9)
    assert "index" not in inductor


def test_absent_keys_leave_fields_out():
    spec = sysdesc.parse("GPU:\n  base: nvidia/h100-sxm\n  memory_clock_in_mhz: 2619\n",
                         source="g.yaml")
    assert spec.to_triton("GPU")["mem_clock_rate"] == 2619000
    bare = sysdesc.parse("GPU:\n  device_type: GPU\n  vendor: NVIDIA\n", check=False)
    assert bare.to_tvm("GPU") == {"kind": "cuda"}
    assert bare.to_triton("GPU") == {}


def test_several_subgroup_sizes_give_no_warp_size():
    spec = sysdesc.catalog("intel/max-1550")
    assert len(spec["GPU"]["subgroup_sizes"]) > 1
    assert "warp_size" not in spec.to_inductor("GPU")
    assert "warpSize" not in spec.to_triton("GPU")


def test_amd_kinds():
    spec = sysdesc.catalog("amd/mi300x")
    assert spec.to_tvm("GPU")["kind"] == "rocm" and spec.to_tvm("GPU")["mcpu"] == "gfx942"
    assert spec.to_triton("GPU")["arch"] == "gfx942"
    assert spec.to_inductor("GPU")["cc"] == "gfx942"


def test_cpu_as_a_tvm_llvm_target():
    spec = sysdesc.host(runtimes=False, cache=False)
    tvm = spec.to_tvm("CPU")
    assert tvm["kind"] == "llvm" and tvm["num-cores"] == spec["CPU"]["num_cores"]
    assert tvm["mattr"] == ["+" + f for f in spec["CPU"]["features"]]
    assert tvm["mtriple"] == spec["CPU"]["triple"]
    assert tvm["mcpu"] == spec["CPU"]["compiler"]["llvm"]["cpu"]
    assert list(tvm) == ["kind", "mtriple", "mcpu", "mattr", "num-cores"]
    epyc = sysdesc.catalog("amd/epyc-9654")["CPU"]
    assert sysdesc.catalog("amd/epyc-9654").to_tvm("CPU")["mcpu"] == epyc["compiler"]["llvm"]["cpu"]
    with pytest.raises(sysdesc.UnsupportedError):
        spec.to_triton("CPU")


def test_export_errors(cli):
    spec = sysdesc.catalog("nvidia/l4")
    with pytest.raises(sysdesc.NotFoundError):
        spec.export("GPU7", "tvm")
    with pytest.raises(sysdesc.ArgumentError):
        spec.export("GPU", "halide")
    assert cli("export", "--to", "tvm", "nvidia/l4", "GPU7", check=False).returncode == 1
    assert cli("export", "--to", "halide", "nvidia/l4", "GPU", check=False).returncode == 2
    assert cli("export", "nvidia/l4", "GPU", check=False).returncode == 2
    assert cli("export", "--to", "tvm", "/no/such.yaml", "GPU", check=False).returncode == 3
