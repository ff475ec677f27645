#!/bin/sh
# This host's microarchitecture as sysdesc sees it against LLVM's own host
# detection: `llc-22 --version` prints "Host CPU: NAME" (Host.cpp's
# getHostCPUName), which must be CPU.compiler.llvm.cpu, the chip sysdesc
# gives #llvm.target.  Skipped (77) without llc-22.
set -eu
: "${SYSDESC:?}"
command -v llc-22 >/dev/null 2>&1 || { echo "llc-22 not found: skipped"; exit 77; }
want=$(llc-22 --version | sed -n 's/^ *Host CPU: *//p')
[ -n "$want" ] || { echo "llc-22 prints no Host CPU: skipped"; exit 77; }
got=$("$SYSDESC" query --host -q CPU compiler llvm cpu) || { echo "FAIL: no CPU.compiler.llvm.cpu"; exit 1; }
uarch=$("$SYSDESC" query --host -q CPU uarch)
echo "llc-22 Host CPU: $want; sysdesc: uarch $uarch, LLVM cpu $got"
how=$("$SYSDESC" query --host -q CPU source uarch)
case "$how" in
'"cpuid'*|'"MIDR'*)
    # recognised by its identity, as LLVM recognises it: the names agree
    [ "$got" = "\"$want\"" ] || { echo "FAIL: sysdesc says $got, llc-22 says $want"; exit 1; } ;;
*)
    # a CPU no rule knows: sysdesc gives the psABI level or generic row its
    # features reach, LLVM its own guess; both names must be LLVM CPUs
    echo "not recognised by identity ($how): no name to compare"
    llc-22 -mcpu=help 2>&1 | grep -q "^ *$(echo "$got" | tr -d '"') " ||
        { echo "FAIL: llc-22 does not know $got"; exit 1; } ;;
esac
# The triple names this machine's architecture as LLVM does.
triple=$("$SYSDESC" query --host -q CPU triple)
arch=$(llc-22 --version | sed -n 's/^ *Default target: *\([^-]*\)-.*/\1/p')
case "$triple" in "\"$arch-"*) ;; *) echo "FAIL: triple $triple, llc-22 default target arch $arch"; exit 1;; esac
echo "ok"
