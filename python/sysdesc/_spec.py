"""Map and Spec: the read-only mapping view of a description.

The mapping protocol (``[]``, ``in``, ``len``, iteration in spec order,
``get``) is the C type ``_sysdesc.Node``; ``collections.abc.Mapping`` adds
``keys()``, ``items()``, ``values()`` and ``==`` with dicts.  Nothing here
copies the description: a Map is a pointer into the loaded attributes.
"""

from __future__ import annotations

import json
import reprlib
import sys
import threading
from collections.abc import Mapping
from typing import Any, Dict, Optional, Sequence, Tuple, Union

from . import _sysdesc
from ._errors import NotFoundError, ValueTypeError
from ._values import Attribute

#: "GPU0.cache.L1.size_in_bytes", or the keys one by one.
PathLike = Union[str, Sequence[str]]

_ABSENT: Any = object()

# A repr shows the first keys, as reprlib does (a device spec has 40 and
# more; the count is said beside them).
_REPR = reprlib.Repr()
_REPR.maxlist = 6
_REPR.maxstring = 60

# The kinds each typed getter takes (the C getters' rule, sysdesc/get.h;
# Python's int has no width: an i128 is an int here).
_KINDS = {
    "int": ("integer",),
    "float": ("float", "integer"),
    "str": ("string",),
    "bool": ("bool",),
}
_WORDS = {"int": "an integer", "float": "a number", "str": "a string", "bool": "a bool"}


# sysdesc reads descriptions up to 1000 levels deep (docs/reliability.md);
# json's decoder spends a level of Python's recursion limit (1000 by
# default) on each, so a deep description would raise RecursionError
# within sysdesc's own limit.  While one is decoded the limit is raised to
# what that depth needs, and set back unless someone else changed it
# meanwhile (the lock keeps this module's own callers in order).
_DEPTH_LIMIT = 1000
_recursion_lock = threading.Lock()


def _loads_deep(text: str) -> Any:
    with _recursion_lock:
        old = sys.getrecursionlimit()
        need = _DEPTH_LIMIT * 2 + 200
        if old >= need:
            return json.loads(text)
        sys.setrecursionlimit(need)
        try:
            return json.loads(text)
        finally:
            if sys.getrecursionlimit() == need:
                sys.setrecursionlimit(old)


class Map(_sysdesc.Node, Mapping):
    """A #dlti.map, device spec or system spec as a read-only mapping.

    ``m["key"]`` raises NotFoundError (a KeyError) with MLIR's reason;
    ``m.query(*keys)`` follows a path with MLIR's semantics; ``m.path(*keys)``
    resolves the keys once for hot loops.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _sysdesc.Node):
            return _sysdesc.Node.__eq__(self, other)
        return Mapping.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<sysdesc.Map {self.kind} of {len(self)} entries: {_REPR.repr(list(self.keys()))}>"

    def attribute(self, *keys: str, scope: Optional[str] = None) -> Attribute:
        """The value at ``keys`` with its MLIR kind, type and text (sysdesc.Attribute)."""
        node = self._query_raw(*keys, scope=scope)
        kind, mlir_type, value = node._info()
        return Attribute(value, kind, mlir_type, node._mlir())

    def _typed(self, path: PathLike, default: Any, want: str) -> Any:
        if isinstance(path, str):
            found: Optional[Tuple[str, Any]] = self._at(path)
            shown = path
            head, _, last = path.rpartition(".")
            if found is None and head and last.isdigit():
                # an element of a dense array, which has no attribute of its
                # own: read from its values, as the C getters read it
                parent = self._at(head)
                if parent and parent[0] == "dense_array" and int(last) < len(parent[1]):
                    v = parent[1][int(last)]
                    found = ("bool" if isinstance(v, bool) else
                             "integer" if isinstance(v, int) else "float", v)
        else:
            keys = tuple(path)
            shown = ".".join(keys)
            try:
                kind, _, value = self._query_raw(*keys)._info()
                found = (kind, value)
            except NotFoundError:
                found = None
        if found is None:
            if default is not _ABSENT:
                return default
            raise NotFoundError(f"error: no {shown} in {self.system.source}",
                                f"no {shown} in {self.system.source}", code="not_found")
        kind, value = found
        if kind not in _KINDS[want]:
            what = f"{shown} is {'an' if kind[0] in 'aeiou' else 'a'} {kind}, not {_WORDS[want]}"
            raise ValueTypeError("error: " + what, what, code="type")
        return float(value) if want == "float" else value

    def get_int(self, path: PathLike, default: Any = _ABSENT) -> Any:
        """The integer at ``path`` ("CPU.cache.L1.size_in_bytes", or the keys
        as a tuple), of any MLIR integer type and width.

        Absent: ``default`` when given, else NotFoundError (a KeyError).  Of
        another kind (a float, a string): ValueTypeError (a TypeError), default
        or not: a count is never a rounded float.  The path rule of the C
        getters (sysdesc/get.h): keys that hold a dot (a cluster's
        "cn017.GPU3") match as they are."""
        return self._typed(path, default, "int")

    def get_float(self, path: PathLike, default: Any = _ABSENT) -> Any:
        """The number at ``path`` as a float (a float, or an integer); as get_int."""
        return self._typed(path, default, "float")

    def get_str(self, path: PathLike, default: Any = _ABSENT) -> Any:
        """The string at ``path``; as get_int."""
        return self._typed(path, default, "str")

    def get_bool(self, path: PathLike, default: Any = _ABSENT) -> Any:
        """The bool at ``path``; as get_int."""
        return self._typed(path, default, "bool")

    def to_mlir_attr(self) -> str:
        """This map or spec as MLIR prints the attribute."""
        return self._mlir()

    def to_dict(self) -> Dict[str, Any]:
        """A plain nested dict (maps become dicts; other values as in the mapping)."""
        # by a stack of its own, not recursion: a map may nest 1000 deep
        out: Dict[str, Any] = {}
        todo = [(self, out)]
        while todo:
            m, d = todo.pop()
            for k, v in m.items():
                if isinstance(v, Map):
                    d[k] = sub = {}
                    todo.append((v, sub))
                else:
                    d[k] = v
        return out


class Spec(Map):
    """A loaded description: its #dlti.target_system_spec, device by device.

    ``spec["CPU"]["cache"]["L1"]["size_in_bytes"]``, ``spec.query(...)``,
    ``spec.path(...)``, ``spec.layout()``, and the CLI's outputs:
    ``to_mlir()``, ``to_attr()``, ``to_yaml()``, ``to_json()``, ``to_dict()``.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        ids = list(self.keys())
        devices = ", ".join(ids[:_REPR.maxlist]) or "no system spec"
        if len(ids) > _REPR.maxlist:
            devices += f", ... ({len(ids)} devices)"
        return f"<sysdesc.Spec {self.system.source!r}: {devices}>"

    @property
    def devices(self) -> list:
        """The device ids, in spec order."""
        return list(self.keys())

    @property
    def data_layout(self) -> Optional[str]:
        """``data_layout:`` as written (LLVM data layout string or triple), or None."""
        return self.system.data_layout

    def to_mlir(self) -> str:
        """What ``sysdesc convert --to mlir`` prints: the module, as mlir-opt-22 prints it."""
        return self.system.print("mlir")

    def to_attr(self) -> str:
        """What ``sysdesc convert --to attr`` prints: the bare system spec."""
        return self.system.print("attr")

    def to_yaml(self) -> str:
        """What ``sysdesc convert --to yaml`` prints (sysdesc.load reads it back)."""
        return self.system.print("yaml")

    def to_json(self, typed: bool = False) -> str:
        """What ``sysdesc convert --to json [--typed]`` prints."""
        return self.system.print("json", typed=typed)

    def to_dict(self, typed: bool = False) -> Dict[str, Any]:  # type: ignore[override]
        """``json.loads(self.to_json(typed))``: the CLI's JSON as Python objects."""
        return _loads_deep(self.to_json(typed))

    def layout(self, scope: Optional[str] = None) -> "_sysdesc.Layout":
        """The data layout (sysdesc.Layout) of the description, or of nested module ``scope``."""
        return self.system.layout(scope)

    def export(self, device: str, tuner: str) -> Dict[str, Any]:
        """Device ``device`` in an autotuner's own field names (docs/export.md).

        tuner: "tvm" (a TVM target's attributes: kind, arch,
        max_shared_memory_per_block, thread_warp_size, ...), "triton"
        (driver.active.utils.get_device_properties(): max_shared_mem,
        multiprocessor_count, warpSize, clock rates in kHz, ...) or
        "inductor" (torch._inductor.runtime.hints.DeviceProperties fields).
        The same mapping as ``sysdesc export`` (one C function); a field whose
        source key is absent is left out.  Raises NotFoundError for an
        unknown device, UnsupportedError for a device the tuner has no kind
        for (Triton and Inductor: NVIDIA, AMD and Intel GPUs; TVM: CPUs and
        NVIDIA and AMD GPUs; docs/export.md says which)."""
        return _loads_deep(self.system.export(device, tuner))

    def to_tvm(self, device: str) -> Dict[str, Any]:
        """``export(device, "tvm")``: the attributes of a TVM target (tvm.target.Target(d))."""
        return self.export(device, "tvm")

    def to_triton(self, device: str) -> Dict[str, Any]:
        """``export(device, "triton")``: Triton's device properties."""
        return self.export(device, "triton")

    def to_inductor(self, device: str) -> Dict[str, Any]:
        """``export(device, "inductor")``: fields of Inductor's DeviceProperties
        (``index`` is left out: it is the runtime's ordinal, not a property)."""
        return self.export(device, "inductor")

    def fingerprint(self, device: Optional[str] = None) -> str:
        """The key of a tuner's cache: "sd1-" and 16 hex digits (docs/fingerprint.md).

        It changes when the performance-relevant facts change (devices,
        counts, sizes, clocks, limits, drivers' versions, the allocation) and
        not otherwise (sources, host names, UUIDs, bus ids, paths,
        measurements).  ``device``: that device alone, its id left out, so
        that identical GPUs at two places agree.  The same C function as
        ``sysdesc fingerprint``.  Raises NotFoundError for an unknown device."""
        return self.system.fingerprint(device)

    def explain_fingerprint(self, device: Optional[str] = None) -> str:
        """What ``sysdesc fingerprint --explain`` prints: the fingerprint as a
        comment, every line it hashes, and a '#' line for each key left out."""
        return self.system.fingerprint(device, explain=True)

    def occupancy(self, device: str, threads: int, registers: int, shared: int,
                  carveout: Optional[int] = None, subgroup: Optional[int] = None
                  ) -> Dict[str, Any]:
        """The occupancy of a kernel configuration on GPU ``device`` (docs/occupancy.md).

        ``threads`` per block, ``registers`` per thread (AMD: VGPRs per
        lane), ``shared`` memory (LDS) per block in bytes; ``carveout``: the
        NVIDIA shared memory carveout preference in percent (None: the
        default); ``subgroup``: the warp or wave size (None: the device's
        smallest).  Returns what ``sysdesc occupancy --json`` prints: resident
        ``blocks_per_compute_unit`` and ``warps_per_compute_unit``,
        ``occupancy`` (0..1), ``limited_by``, ``blocks_by`` each resource
        (None: it does not bind), ``best_block_sizes``, ...  The same C
        function as the command.  Raises NotFoundError for an unknown device
        or a key the rules need and the device lacks (named),
        UnsupportedError for a vendor without rules."""
        return _loads_deep(self.system.occupancy(device, threads, registers, shared, carveout,
                                                 subgroup or 0))

    def check(self, complete: bool = False, partial: bool = False) -> list:
        """Every problem the device schema finds, as sysdesc.Problem values (none: valid)."""
        from . import Problem, _file_order
        return _file_order([Problem(*p) for p in self.system.check(complete=complete,
                                                                   partial=partial)])
