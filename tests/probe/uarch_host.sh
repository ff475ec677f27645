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
[ "$got" = "\"$want\"" ] || { echo "FAIL: sysdesc says $got, llc-22 says $want"; exit 1; }
# The triple names this machine's architecture as LLVM does.
triple=$("$SYSDESC" query --host -q CPU triple)
arch=$(llc-22 --version | sed -n 's/^ *Default target: *\([^-]*\)-.*/\1/p')
case "$triple" in "\"$arch-"*) ;; *) echo "FAIL: triple $triple, llc-22 default target arch $arch"; exit 1;; esac
echo "ok"
