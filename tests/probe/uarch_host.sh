#!/bin/sh
# This host's microarchitecture as sysdesc sees it against LLVM's own host
# detection: `llc-22 --version` prints "Host CPU: NAME" (Host.cpp's
# getHostCPUName), which must be CPU.compiler.llvm.cpu, the chip sysdesc
# gives #llvm.target, checked against that same llc-22 (--llc=llc-22: the
# default llc may be an older LLVM that lacks the name).  Skipped (77)
# without llc-22.
set -eu
: "${SYSDESC:?}"
command -v llc-22 >/dev/null 2>&1 || { echo "llc-22 not found: skipped"; exit 77; }
# Another machine's topology (HWLOC_XMLFILE; not HWLOC_THISSYSTEM=1): its
# identity is the XML's, not this CPU's, so llc-22's host is no peer; the
# uarch must say it came from the XML, and its LLVM name be one that llc-22
# knows for the XML's triple.
. "$SRCDIR/tests/topology.sh"
if foreign_topology; then
    how=$("$SYSDESC" query --host -q --llc=llc-22 CPU source uarch 2>/dev/null) || how=
    triple=$("$SYSDESC" query --host -q --llc=llc-22 CPU triple 2>/dev/null | tr -d '"') || triple=
    cpu=$("$SYSDESC" query --host -q --llc=llc-22 CPU compiler llvm cpu 2>/dev/null | tr -d '"') || cpu=
    echo "another machine's topology: uarch from '${how:-nothing}', triple ${triple:-none}, LLVM cpu ${cpu:-none}"
    case "$how" in '' | \"the\ hwloc\ XML*) ;; *) echo "FAIL: the uarch of another machine from $how"; exit 1 ;; esac
    if [ -n "$cpu" ]; then
        llc-22 -mtriple="$triple" -mcpu=help 2>&1 | grep -q "^ *$cpu " ||
            { echo "FAIL: llc-22 does not know $cpu for $triple"; exit 1; }
    fi
    echo "ok"; exit 0
fi
want=$(llc-22 --version | sed -n 's/^ *Host CPU: *//p')
[ -n "$want" ] || { echo "llc-22 prints no Host CPU: skipped"; exit 77; }
got=$("$SYSDESC" query --host -q --llc=llc-22 CPU compiler llvm cpu) || { echo "FAIL: no CPU.compiler.llvm.cpu"; exit 1; }
uarch=$("$SYSDESC" query --host -q --llc=llc-22 CPU uarch)
echo "llc-22 Host CPU: $want; sysdesc: uarch $uarch, LLVM cpu $got"
how=$("$SYSDESC" query --host -q --llc=llc-22 CPU source uarch)
case "$how" in
'"cpuid'*|'"MIDR'*)
    # recognised by its identity, as LLVM recognises it: the names agree
    [ "$got" = "\"$want\"" ] || { echo "FAIL: sysdesc says $got, llc-22 says $want"; exit 1; } ;;
*)
    # a CPU no rule knows, or one that lacks a feature its row needs (a VM
    # that masks AVX-512: "features: ..."): sysdesc gives the row its
    # features reach, LLVM its own guess; both names must be LLVM CPUs
    echo "not recognised by identity ($how): no name to compare"
    llc-22 -mcpu=help 2>&1 | grep -q "^ *$(echo "$got" | tr -d '"') " ||
        { echo "FAIL: llc-22 does not know $got"; exit 1; } ;;
esac
# The triple names this machine's architecture as LLVM does.
triple=$("$SYSDESC" query --host -q --llc=llc-22 CPU triple)
arch=$(llc-22 --version | sed -n 's/^ *Default target: *\([^-]*\)-.*/\1/p')
case "$triple" in "\"$arch-"*) ;; *) echo "FAIL: triple $triple, llc-22 default target arch $arch"; exit 1;; esac
echo "ok"
