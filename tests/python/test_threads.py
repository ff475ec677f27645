"""Objects are safe to share between threads for reads; host() releases the GIL."""

import threading
import time
import warnings

import sysdesc


def test_concurrent_reads_agree():
    spec = sysdesc.compose("GPU=nvidia/h100-sxm:8", "CPU=amd/mi300x")
    expected = {f"GPU{i}": 132 for i in range(8)}
    path = spec.path("GPU3", "L2_cache_size_in_bytes")
    lay = spec.layout()
    errors = []

    def reader(seed):
        try:
            for i in range(3000):
                dev = f"GPU{(i + seed) % 8}"
                assert spec[dev]["num_compute_units"] == expected[dev]
                assert spec.query(dev, "arch") == "sm_90"
                assert path() == 52428800
                assert lay.size_in_bits("i64") == 64
                assert spec.get("nope") is None
                if i % 500 == 0:
                    assert spec.to_json().startswith("{")
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=reader, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_host_releases_the_gil():
    """While host() probes, another Python thread keeps running.

    A tick can carry a time inside a host() call only if the ticker ran
    while that call was in C: with the GIL held there, no tick could (the
    ticker takes its timestamp while holding the GIL).  Probes are repeated
    until one call has a tick inside it, so a loaded machine only makes the
    test slower, never wrong."""
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.0002)

    t = threading.Thread(target=ticker)
    t.start()
    calls = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", sysdesc.ProbeWarning)
            for _ in range(50):
                start = time.perf_counter()
                sysdesc.host(runtimes=False, cache=False)
                calls.append((start, time.perf_counter()))
                if any(s < x < e for s, e in calls for x in list(ticks)):
                    break
    finally:
        done.set()
        t.join()
    inside = [x for s, e in calls for x in ticks if s < x < e]
    assert inside, "no tick inside any of %d host() calls: the GIL was held" % len(calls)


def test_parallel_probes_and_loads():
    results, errors = [], []

    def work(i):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", sysdesc.ProbeWarning)
                s = sysdesc.host(runtimes=False, cache=False) if i % 2 else sysdesc.catalog("amd/mi210")
            results.append(list(s)[0])
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and sorted(results) == ["CPU"] * 4 + ["GPU"] * 4
