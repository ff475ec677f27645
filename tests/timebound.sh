# Time limits that hold on any machine of the project's kind (sourced by
# shell tests; tests/timebound.py says the same in Python): a limit is a
# figure for an idle machine and a plain build, times the build's factor
# (SYSDESC_TEST_SLOWDOWN, set by tests/meson.build) and the load (the
# 1-minute load average per CPU, at least 1).
# timebound_limit SECONDS: prints the scaled limit in whole seconds.
timebound_limit() {
    awk -v s="$1" -v b="${SYSDESC_TEST_SLOWDOWN:-1}" -v n="$(nproc 2>/dev/null || echo 1)" '
        { l = $1 / n; if (l < 1) l = 1 }
        END { printf "%d\n", s * b * l + 0.999 }' /proc/loadavg
}
