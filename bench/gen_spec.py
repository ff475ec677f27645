#!/usr/bin/env python3
"""Writes the benchmark inputs: one attribute per file.

  gen_spec.py small OUT   two devices (CPU, GPU) with nested cache maps
  gen_spec.py big OUT     1000 devices x 51 keys (a nested cache map + 50 scalars)
  gen_spec.py devices N OUT   as big, with N devices (query_scaling.sh)

Deterministic: the same bytes on every run.
"""
import sys


def cache_map(i):
    return ('"cache" = #dlti.map<"L1" = #dlti.map<"size_in_bytes" = %d, "line_size_in_bytes" = 64 : i32>, '
            '"L2" = #dlti.map<"size_in_bytes" = %d>, "L3" = #dlti.map<"size_in_bytes" = %d>>'
            % (32768 + i, 1048576 + i, 33554432 + i))


def big(n=1000):
    devices = []
    for d in range(n):
        keys = [cache_map(d)]
        for k in range(50):
            if k % 5 == 0:
                v = '%d.%03d : f32' % (k, d % 1000)
            elif k % 5 == 1:
                v = '"vendor-%d-%d"' % (d, k)
            elif k % 5 == 2:
                v = '%d : ui32' % (d * 50 + k)
            else:
                v = '%d' % (d * 1000 + k)
            keys.append('"key_%02d" = %s' % (k, v))
        devices.append('"dev%d" = #dlti.target_device_spec<%s>' % (d, ", ".join(keys)))
    return "#dlti.target_system_spec<" + ", ".join(devices) + ">\n"


def small():
    return ('#dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cache" = #dlti.map<"L1" = '
            '#dlti.map<"size_in_bytes" = 32768>>, "num_threads" = 16 : ui32>, "GPU" = '
            '#dlti.target_device_spec<"max_shared_memory_per_block" = 49152, "num_sms" = 132>>\n')


if __name__ == "__main__":
    if sys.argv[1] == "devices":
        text, out = big(int(sys.argv[2])), sys.argv[3]
    else:
        text, out = {"small": small, "big": big}[sys.argv[1]](), sys.argv[2]
    with open(out, "w") as f:
        f.write(text)
