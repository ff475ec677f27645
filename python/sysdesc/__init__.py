"""sysdesc: heterogeneous computers as MLIR DLTI target system specs.

    >>> import sysdesc
    >>> spec = sysdesc.host()
    >>> spec["CPU"]["cache"]["L1"]["size_in_bytes"]
    49152
    >>> spec.query("CPU", "cache", "L1", "size_in_bytes")   # MLIR's semantics
    49152
    >>> l1 = spec.path("CPU", "cache", "L1", "size_in_bytes")  # resolved once
    >>> l1()
    49152
    >>> sysdesc.catalog("nvidia/h100-sxm").export("GPU", "triton")["max_shared_mem"]
    232448

Entry points: host(), load(), parse(), catalog(), catalog_names(),
compose(), measure(), check().  A Spec is a read-only nested mapping; values are plain
Python values (docs/python.md, "Values").  Errors are sysdesc.Error
subclasses carrying file, line, column and MLIR's message.  Every object is
safe to read from several threads.
"""

# The module's namespace is its API (dir(sysdesc)): what it uses itself is
# imported under a leading underscore.
import os as _os
import typing as _t
import threading as _threading
import warnings as _warnings

from . import _sysdesc
from ._errors import (ArgumentError, Error, FileError, LimitError, NotFoundError, ParseError,
                      RangeError, UnsupportedError, ValueTypeError, VerifyError,
                      BY_CODE as _BY_CODE)
from ._spec import Map, Spec
from ._values import UNIT, Attribute, MlirAttr, MlirType

Path = _sysdesc.Path
Layout = _sysdesc.Layout
System = _sysdesc.System

__version__ = _sysdesc.version

__all__ = [
    "host", "load", "parse", "catalog", "catalog_names", "catalog_entries", "catalog_path",
    "compose", "measure", "check", "TUNERS",
    "Spec", "Map", "Path", "Layout", "System", "Attribute", "Problem", "CatalogEntry",
    "MlirType", "MlirAttr", "UNIT",
    "Error", "ParseError", "VerifyError", "LimitError", "NotFoundError", "ValueTypeError",
    "RangeError", "UnsupportedError", "ArgumentError", "FileError", "ProbeWarning",
]

_sysdesc._register(Map, Spec, MlirType, MlirAttr, UNIT, dict(_BY_CODE))

_PathLike = _t.Union[str, "_os.PathLike[str]"]


class Problem(_t.NamedTuple):
    """One problem the device schema found (sysdesc.check, Spec.check)."""

    formatted: str          #: "FILE:LINE:COL: error: MESSAGE", as `sysdesc check` prints it
    message: str            #: the message alone
    file: _t.Optional[str]
    line: int               #: 1-based; 0 when unknown
    column: int


class CatalogEntry(_t.NamedTuple):
    """One entry of the systems/ catalog (sysdesc.catalog_entries)."""

    name: str    #: "nvidia/h100-sxm"
    path: str    #: the YAML file
    vendor: str
    model: str


class ProbeWarning(UserWarning):
    """A probed value that failed a sanity check (it is also listed under "suspect")."""


#: The autotuners Spec.export() and `sysdesc export --to` know.
TUNERS = ("tvm", "triton", "inductor")

# ---- the catalog ----

_PACKAGE_CATALOG = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "systems")
# Inside the installed package (a wheel): there or not for the life of the
# process, so looked for once (host() builds the search path on every call).
_HAS_PACKAGE_CATALOG = _os.path.isdir(_PACKAGE_CATALOG)


def catalog_path() -> str:
    """The catalog search path, ':'-separated: $SYSDESC_PATH, the catalog
    installed inside this package (a wheel from ``pip install``), then the
    library's own search (next to the library, DATADIR, the source tree;
    for an installed package, those of its directories that exist)."""
    parts = []
    env = _os.environ.get("SYSDESC_PATH")
    if env:
        parts.append(env)
    if _HAS_PACKAGE_CATALOG:
        parts.append(_PACKAGE_CATALOG)
    # An installed package (its catalog inside): of the library's own
    # directories, those that are there.  The library reckons them from
    # where the extension lies and from the prefix it was built for; after
    # the prefix is moved those name places that hold no catalog, and an
    # error that lists them sends the reader to the wrong place.  (From the
    # build tree the list is the CLI's, word for word.)
    library = _sysdesc.catalog_path()
    if _HAS_PACKAGE_CATALOG:
        library = ":".join(d for d in library.split(":") if d and _os.path.isdir(d))
    if library:
        parts.append(library)
    return ":".join(parts)


def catalog_entries() -> _t.List[CatalogEntry]:
    """Every catalog entry, sorted by name (as ``sysdesc list``)."""
    return [CatalogEntry(*e) for e in _sysdesc._catalog_list(catalog_path())]


def catalog_names() -> _t.List[str]:
    """The names of the catalog entries: "nvidia/h100-sxm", ..."""
    return [e.name for e in catalog_entries()]


def _check_mode(check: _t.Union[bool, str]) -> int:
    """0 no check, 1 the default, 2 strict (what the schema does not know fails too)."""
    if check == "strict":
        return 2
    if isinstance(check, str):
        raise ValueError(f"check is True, False or 'strict', not {check!r}")
    return 1 if check else 0


def catalog(name: str, check: _t.Union[bool, str] = True) -> Spec:
    """The catalog entry ``name`` ("nvidia/h100-sxm") as a Spec.

    Raises NotFoundError when there is no such entry (its message names
    the entries ``name`` begins or nearly spells)."""
    if _os.sep in name and _os.path.exists(name) or name.endswith(".mlir"):
        raise ArgumentError(f"catalog: {name!r} is a file, not a catalog name (use sysdesc.load)",
                            f"{name!r} is a file, not a catalog name", code="argument")
    return _sysdesc._load(name, _check_mode(check), catalog_path())


# ---- loading ----

def load(path: _PathLike, check: _t.Union[bool, str] = True) -> Spec:
    """Loads an MLIR, YAML or typed JSON description (told by its content;
    plain JSON, which loses MLIR's types, raises UnsupportedError), or a
    catalog name, as ``sysdesc convert`` does.

    With ``check`` (the default) the description is checked against the
    device schema first (VerifyError at the first mistake; sysdesc.check
    lists them all); a key or device type the schema does not know is a
    UserWarning ("FILE:LINE:COL: unknown key ...") and the load goes on.
    ``check="strict"`` makes those errors too, as ``sysdesc check`` reports
    them; ``check=False`` loads what is written.  Raises ParseError,
    VerifyError, LimitError, FileError (a file that cannot be read),
    NotFoundError (neither a file nor a catalog entry)."""
    return _sysdesc._load(_os.fspath(path), _check_mode(check), catalog_path())


def parse(text: _t.Union[str, bytes], source: _t.Optional[str] = None,
          check: _t.Union[bool, str] = True) -> Spec:
    """Parses a description held in a string by the rule of ``load``: MLIR,
    YAML or typed JSON, told by its content (``source``'s extension breaks
    ties: docs/yaml.md, "Formats").  ``source`` names the text in errors (and
    is the base of relative ``base:`` paths)."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogateescape")
    return _sysdesc._parse(text, source, _check_mode(check), catalog_path())


# ---- probing ----

# word -> SYSDESC_RUNTIME_* bit, from the library's table of runtime sources
_RUNTIMES = dict(_sysdesc.RUNTIMES)

_CACHE = {True: _sysdesc.CACHE_AUTO, None: _sysdesc.CACHE_AUTO, False: _sysdesc.CACHE_OFF,
          "auto": _sysdesc.CACHE_AUTO, "off": _sysdesc.CACHE_OFF,
          "refresh": _sysdesc.CACHE_REFRESH}


def _probe_args(io: _t.Optional[bool], runtimes: _t.Union[None, bool, _t.Iterable[str]],
                cache: _t.Union[None, bool, str], cache_dir: _t.Optional[_PathLike],
                catalog: bool) -> tuple:
    if runtimes is None or runtimes is True:
        bits = 0  # the default: all of them
    elif runtimes is False:
        bits = _sysdesc.RUNTIME_NONE
    else:
        if isinstance(runtimes, str):
            runtimes = [runtimes]
        bits = 0
        for r in runtimes:
            if r not in _RUNTIMES:
                raise ArgumentError(f"unknown runtime {r!r} ({', '.join(_RUNTIMES)})",
                                    code="argument")
            bits |= _RUNTIMES[r]
        bits = bits or _sysdesc.RUNTIME_NONE
    if not isinstance(cache, (bool, str, type(None))) or cache not in _CACHE:
        raise ArgumentError(f"cache must be True, False, 'auto', 'off' or 'refresh', not {cache!r}",
                            code="argument")
    io_arg = -1 if io is None else int(bool(io))
    return (io_arg, bits, _CACHE[cache], None if cache_dir is None else _os.fspath(cache_dir),
            bool(catalog), catalog_path())


def _warn(lines: _t.List[str]) -> None:
    for line in lines:
        _warnings.warn(line, ProbeWarning, stacklevel=3)


# host()'s answers in this process, by their arguments: a machine does not
# change under a running program often enough to probe it at every call
# (archspec keeps its host for the process; hwloc's users keep the topology).
_host_memo: dict = {}


def host(io: _t.Optional[bool] = None, runtimes: _t.Union[None, bool, _t.Iterable[str]] = None,
         cache: _t.Union[None, bool, str] = None, cache_dir: _t.Optional[_PathLike] = None,
         catalog: bool = True) -> Spec:
    """Probes this machine, as ``sysdesc probe`` does, into a Spec.

    io: PCI/GPU discovery (None: the library's default, off for this host;
        True: on, as ``--io``).
    runtimes: vendor runtimes to ask ("opencl", "vulkan", "cuda", "rocm",
        "level_zero"); None or True: all; False or []: none.
    cache: True/"auto" (default): the answer is kept for this process (the
        same arguments give the same Spec object again) and the runtimes'
        answers come from their disk cache when it is current; "refresh":
        probe again, ask the runtimes again, and keep the new answer;
        False/"off": probe afresh and keep nothing.  cache_dir: the disk
        cache's directory (None: $XDG_CACHE_HOME/sysdesc).
    catalog: fill probed GPUs from the catalog by PCI id (as the CLI does).
    The GIL is released while probing.  Sanity-check warnings are issued as
    sysdesc.ProbeWarning when the machine is probed (not again for a kept
    answer).  Raises FileError when the topology cannot be read."""
    args = _probe_args(io, runtimes, cache, cache_dir, catalog)
    key = args[:2] + args[3:]  # every argument but the cache mode
    mode = args[2]
    if mode == _CACHE[True]:
        kept = _host_memo.get(key)
        if kept is not None:
            return kept
    spec, lines = _sysdesc._host(*args)
    _warn(lines)
    if mode != _CACHE[False]:
        _host_memo[key] = spec
    return spec


def compose(*items: str, host: bool = False, io: _t.Optional[bool] = True,
            runtimes: _t.Union[None, bool, _t.Iterable[str]] = None,
            cache: _t.Union[None, bool, str] = None, cache_dir: _t.Optional[_PathLike] = None,
            catalog: bool = True, check: _t.Union[bool, str] = True) -> Spec:
    """One system from several descriptions, by ``sysdesc compose``'s rules.

    Each item is a string as on the command line: a file or catalog name
    ("nvidia/h100-sxm"), ``ID=ITEM`` (the device gets id ID; a system's ids
    get "ID." in front), ``ITEM:N`` (N identical devices ID0..ID<N-1>):
    ``compose("GPU=nvidia/h100-sxm:8", host=True)``.  ``host`` adds this
    machine (probed with ``io`` on by default, as ``compose --host``).
    A device id used twice is a VerifyError."""
    for item in items:
        if not isinstance(item, (str, _os.PathLike)):
            raise TypeError(f"compose items are strings ([ID=]ITEM[:N]), not {type(item).__name__}")
    args = _probe_args(io, runtimes, cache, cache_dir, catalog)
    spec, lines = _sysdesc._compose(tuple(_os.fspath(i) for i in items), bool(host), *args,
                                    _check_mode(check))
    _warn(lines)
    return spec


_MODES = {"quick": _sysdesc.MEASURE_QUICK, "default": _sysdesc.MEASURE_DEFAULT,
          "full": _sysdesc.MEASURE_FULL}
# Two measurements at once would measure each other.
_measure_lock = _threading.Lock()


def measure(device: _t.Union[None, str, _t.Iterable[str]] = None, mode: str = "default",
            runtimes: _t.Union[None, bool, _t.Iterable[str]] = None, max_threads: int = 0,
            device_timeout_ms: int = 0, cache: _t.Union[None, bool, str] = None,
            cache_dir: _t.Optional[_PathLike] = None, catalog: bool = True) -> Spec:
    """Probes this machine and measures it, as ``sysdesc measure`` does, into
    a Spec with each measured device's ``measured`` map (docs/measure.md).

    device: None: the CPU by its own kernels (``sysdesc measure``); a device
        id ("CPU", "GPU0"), a list of them, or "all": each through its
        runtime as ``sysdesc measure --device`` (the CPU also through each
        runtime that sees it, under ``measured["runtimes"]``).
    mode: "quick", "default" or "full".  runtimes, cache, cache_dir,
    catalog: as for host().  max_threads: the most threads of the CPU's
    all-thread runs (0: every allowed CPU).  device_timeout_ms: the bound on
    one device's measurement (0: by mode).
    The GIL is released while probing and measuring; calls from several
    threads run one after the other.  A device whose measurement failed (a
    crash, a hang, a wrong result) has no ``measured`` map and says why in
    its ``source``; a ProbeWarning says how many failed.  Raises VerifyError
    when the CPU's own kernels return a wrong result, ArgumentError for an
    id the system does not hold."""
    if mode not in _MODES:
        raise ArgumentError(f"mode must be 'quick', 'default' or 'full', not {mode!r}",
                            code="argument")
    if device is None:
        ids: tuple = ()
        if runtimes is not None:
            raise ArgumentError("measure: runtimes go with device", code="argument")
    elif isinstance(device, str):
        ids = (device,)
    else:
        ids = tuple(device)
        if not ids or not all(isinstance(i, str) for i in ids):
            raise ArgumentError("measure: device takes an id, a list of ids or 'all'",
                                code="argument")
    for name, v in (("max_threads", max_threads), ("device_timeout_ms", device_timeout_ms)):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 0xFFFFFFFF:
            raise ArgumentError(f"measure: {name} takes an integer from 0, not {v!r}",
                                code="argument")
    args = _probe_args(None, runtimes, cache, cache_dir, catalog)
    with _measure_lock:
        spec, lines, failed = _sysdesc._measure(ids, _MODES[mode], max_threads,
                                                device_timeout_ms, *args)
    _warn(lines)
    if failed:
        _warnings.warn(f"measure: {failed} measurement(s) failed: each device's source says why",
                       ProbeWarning, stacklevel=2)
    return spec


def check(what: _t.Union[_PathLike, Spec], complete: bool = False,
          partial: bool = False) -> _t.List[Problem]:
    """Every problem the device schema finds in a file, catalog name or Spec
    (``sysdesc check``): an empty list when it is valid.  ``complete``: the
    required keys must be there (catalog entries); ``partial``: a fragment
    (an override file).  A file that does not load is one problem."""
    if isinstance(what, Spec):
        return what.check(complete=complete, partial=partial)
    found = [Problem(*p) for p in _sysdesc._check_file(_os.fspath(what), bool(complete),
                                                       bool(partial), catalog_path())]
    return _file_order(found)


def _file_order(problems: _t.List[Problem]) -> _t.List[Problem]:
    """The order `sysdesc check` prints: by line and column, problems at one
    place (the keys a device misses) in the checker's order."""
    return sorted(problems, key=lambda p: (p.line, p.column))
