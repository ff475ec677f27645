#!/bin/sh
# sysdesc probe --mpi under mpirun (docs/cluster.md), on this machine:
#  - 4 ranks on this node: one node, one class, 4 ranks on it; the spec is
#    `probe --cluster --xml` of this node's `lstopo-no-graphics --of xml`
#    plus the two MPI keys;
#  - 4 ranks playing 3 nodes (SYSDESC_MPI_NODE, and HWLOC_XMLFILE giving each
#    its fixture): the spec is `probe --xml` of the three fixtures plus the
#    MPI keys, queries reach each node's devices, MLIR reads it unchanged;
#  - a node whose topology cannot be loaded: every rank exits 3, rank 0 names
#    the rank, and no file is written.
# Skipped (77) without mpirun or without sysdesc-mpi (built without MPI).
set -u
: "${SYSDESC:?}" "${SRCDIR:?}"
command -v mpirun >/dev/null 2>&1 || { echo "skip: no mpirun"; exit 77; }
[ -x "$(dirname "$SYSDESC")/sysdesc-mpi" ] || { echo "skip: sysdesc built without MPI"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
fail=0
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
X=$SRCDIR/tests/data/xml
# The spec without the MPI keys (they come last in the cluster device).
no_mpi() { sed 's/, "MPI:comm_world_size" = [0-9]* : i64, "MPI:rank_nodes" = \[[^]]*\]//' "$1"; }
mpi() { timeout 300 mpirun --oversubscribe --bind-to none "$@"; }

# ---- one node, four ranks
if mpi -n 4 "$SYSDESC" probe --mpi -q -o "$t/one.mlir" >"$t/out" 2>&1; then
    ok "4 ranks on this node"
else
    bad "mpirun -n 4 probe --mpi: $(tail -5 "$t/out")"
fi
host=$("$SYSDESC" query "$t/one.mlir" cluster MPI:rank_nodes 2>&1)
case $host in
\[\"*\",\ \"*\",\ \"*\",\ \"*\"\]) ok "rank_nodes $host" ;;
*) bad "rank_nodes: $host" ;;
esac
[ "$("$SYSDESC" query "$t/one.mlir" cluster MPI:comm_world_size)" = "4 : i64" ] && ok "comm_world_size 4" || bad "comm_world_size"
[ "$("$SYSDESC" query "$t/one.mlir" cluster num_nodes)" = "1 : i64" ] && ok "one node" || bad "num_nodes"
if command -v lstopo-no-graphics >/dev/null 2>&1; then
    lstopo-no-graphics --of xml >"$t/node.xml"
    "$SYSDESC" probe --cluster --xml "$t/node.xml" -q -o "$t/one_xml.mlir"
    no_mpi "$t/one.mlir" >"$t/one_nompi.mlir"
    cmp -s "$t/one_nompi.mlir" "$t/one_xml.mlir" && ok "equals probe --cluster --xml of lstopo's XML of this node" ||
        bad "differs from probe --xml of this node: $(diff "$t/one_nompi.mlir" "$t/one_xml.mlir" | head -c 600)"
    grep -q '"MPI:comm_world_size"' "$t/one.mlir" && ! grep -q '"MPI:' "$t/one_nompi.mlir" && ok "MPI keys only from --mpi" || bad "MPI keys"
fi

# ---- three nodes played by four ranks
run3() { # OUT  FILE0 FILE1 FILE2
    out=$1
    mpi -n 1 env SYSDESC_MPI_NODE=0 HWLOC_XMLFILE="$2" "$SYSDESC" probe --mpi -q -o "$out" : \
        -n 2 env SYSDESC_MPI_NODE=1 HWLOC_XMLFILE="$3" "$SYSDESC" probe --mpi -q : \
        -n 1 env SYSDESC_MPI_NODE=2 HWLOC_XMLFILE="$4" "$SYSDESC" probe --mpi -q
}
if run3 "$t/three.mlir" "$X/one_socket.xml" "$X/gpu_server.xml" "$X/two_socket_numa.xml" >"$t/out" 2>&1; then
    ok "4 ranks as 3 nodes"
else
    bad "3 nodes: $(tail -5 "$t/out")"
fi
"$SYSDESC" probe --xml "$X/one_socket.xml" --xml "$X/gpu_server.xml" --xml "$X/two_socket_numa.xml" -q -o "$t/three_xml.mlir"
no_mpi "$t/three.mlir" >"$t/three_nompi.mlir"
cmp -s "$t/three_nompi.mlir" "$t/three_xml.mlir" && ok "equals probe --xml of the same three nodes" ||
    bad "differs from --xml: $(diff "$t/three_nompi.mlir" "$t/three_xml.mlir" | head -c 600)"
r=$("$SYSDESC" query "$t/three.mlir" cluster MPI:rank_nodes)
[ "$r" = '["node-a", "node-gpu", "node-gpu", "node-b"]' ] && ok "rank_nodes $r" || bad "rank_nodes $r"
r=$("$SYSDESC" query "$t/three.mlir" node-gpu.GPU3 num_compute_units)
[ "$r" = "114 : i64" ] && ok "node-gpu.GPU3 num_compute_units $r" || bad "node-gpu.GPU3: $r"
r=$("$SYSDESC" query "$t/three.mlir" node-b.CPU num_packages)
[ "$r" = "2 : i64" ] && ok "node-b.CPU num_packages $r" || bad "node-b.CPU: $r"
"$SYSDESC" check "$t/three.mlir" >/dev/null 2>&1 && ok "sysdesc check accepts it" || bad "check: $("$SYSDESC" check "$t/three.mlir" 2>&1 | head -3)"
if command -v mlir-opt-22 >/dev/null 2>&1; then
    mlir-opt-22 "$t/three.mlir" >"$t/three_mlir.mlir" 2>&1 && cmp -s "$t/three.mlir" "$t/three_mlir.mlir" &&
        ok "mlir-opt-22 prints it back unchanged" || bad "mlir-opt-22: $(head -c 300 "$t/three_mlir.mlir")"
fi

# ---- a node that cannot be probed
echo previous >"$t/bad.mlir"
run3 "$t/bad.mlir" "$X/one_socket.xml" "$X/malformed.xml" "$X/two_socket_numa.xml" >"$t/out" 2>&1
rc=$?
[ "$rc" = 3 ] && ok "a failed node: exit 3" || bad "a failed node: exit $rc"
grep -q "rank 1 (node 1): error: hwloc cannot load" "$t/out" && ok "the error names the rank" || bad "error: $(grep error "$t/out" | head -3)"
[ "$(cat "$t/bad.mlir")" = previous ] && ok "-o left as it was" || bad "-o changed"

# ---- usage
"$SYSDESC" probe --mpi --xml "$X/gpu.xml" >/dev/null 2>"$t/err"
[ $? = 2 ] && grep -q "no --xml or --cluster with it" "$t/err" && ok "--mpi with --xml: usage error" || bad "--mpi --xml: $(cat "$t/err")"
exit $fail
