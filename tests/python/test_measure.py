"""sysdesc.measure(): `sysdesc measure` (and `--device`) from Python.

Nothing here depends on this host's speed: values are checked for presence
and sign, against the CLI's keys, and the GIL's release by the gaps a ticker
thread sees relative to the measurement's own duration."""

import threading
import time
import warnings

import pytest

import sysdesc


def test_measure_cpu_quick_has_the_cli_keys(cli, tmp_path):
    spec = sysdesc.measure(mode="quick")
    m = spec["CPU"]["measured"]
    assert m["mode"] == "quick"
    assert m["memory_bandwidth_in_bytes_per_second"] > 0
    assert m["peak_ops_per_second"]["fp32_vector"] > 0
    assert "runtimes" not in m  # the CPU's own kernels only, as `sysdesc measure`
    out = tmp_path / "m.json"
    cli("measure", "--quick", "-q", "--format", "json", "-o", str(out))
    import json
    want = json.loads(out.read_text())["CPU"]["measured"]
    assert set(m.keys()) == set(want.keys())
    assert set(m["levels"].keys()) == set(want["levels"].keys())


def test_measure_releases_the_gil():
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.005)

    t = threading.Thread(target=ticker)
    t.start()
    t0 = time.monotonic()
    try:
        sysdesc.measure(mode="quick")
    finally:
        t1 = time.monotonic()
        done.set()
        t.join()
    during = [x for x in ticks if t0 <= x <= t1]
    gaps = [b - a for a, b in zip(during, during[1:])]
    # Held through the call, the ticker would stop for all of it.
    assert len(during) > 2 and max(gaps) < (t1 - t0) / 2, (t1 - t0, max(gaps, default=None))


def _runtimes_seeing_the_cpu():
    cpu = sysdesc.host(runtimes=["opencl", "vulkan"], cache=False)["CPU"]
    rts = cpu.get("runtimes", {})
    return [r for r in ("opencl", "vulkan") if r in rts]


def test_measure_device_through_a_runtime():
    seen = _runtimes_seeing_the_cpu()
    if not seen:
        pytest.skip("no OpenCL or Vulkan runtime sees this CPU (pocl, lavapipe)")
    rt = seen[0]
    spec = sysdesc.measure(device="CPU", mode="quick", runtimes=[rt], cache=False)
    cpu = spec["CPU"]
    view = cpu["measured"]["runtimes"][rt]
    assert view["runtime"] == rt
    assert view["levels"]["memory"]["triad_bandwidth_in_bytes_per_second"] > 0
    assert view["transfer"]["host_to_device_bandwidth_in_bytes_per_second"] > 0
    assert cpu["source"][f"measured.runtimes.{rt}"].startswith(f"sysdesc measure through {rt}: ")
    assert "levels" in cpu["measured"]  # the CPU's own kernels too


def test_measure_device_failure_warns_and_says_why(monkeypatch):
    seen = _runtimes_seeing_the_cpu()
    if not seen:
        pytest.skip("no OpenCL or Vulkan runtime sees this CPU (pocl, lavapipe)")
    rt = seen[0]
    monkeypatch.setenv("SYSDESC_MEASURE_BREAK_TRIAD", rt)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        spec = sysdesc.measure(device="CPU", mode="quick", runtimes=[rt], cache=False)
    assert any("1 measurement(s) failed" in str(x.message) for x in w)
    cpu = spec["CPU"]
    assert rt not in cpu["measured"].get("runtimes", {})
    assert cpu["source"][f"measured.runtimes.{rt}"].startswith(
        f"not measured through {rt}: the triad kernel")


def test_measure_arguments_are_checked():
    with pytest.raises(sysdesc.ArgumentError, match="mode"):
        sysdesc.measure(mode="fast")
    with pytest.raises(sysdesc.ArgumentError, match="runtimes go with device"):
        sysdesc.measure(runtimes=["opencl"])
    with pytest.raises(sysdesc.ArgumentError, match="device takes"):
        sysdesc.measure(device=[])
    with pytest.raises(sysdesc.ArgumentError, match="max_threads"):
        sysdesc.measure(max_threads=-1)
    with pytest.raises(sysdesc.ArgumentError, match='no CPU or GPU device "GPU7"'):
        sysdesc.measure(device="GPU7", mode="quick", runtimes=False, cache=False)
