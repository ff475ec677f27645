"""Value classes: what DLTI attributes become when Python has no plain type.

integers -> int, floats -> float, booleans -> bool, strings -> str,
arrays -> list, dense arrays -> tuple of numbers, dictionaries -> dict,
maps and specs -> sysdesc.Map (a read-only mapping); a type used as a value
-> MlirType (a str of its MLIR text), any other attribute -> MlirAttr (a str
of its MLIR text), ``unit`` -> UNIT.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional


class MlirType(str):
    """An MLIR type, as its canonical text ("vector<4xf32>").  Also a type key."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"MlirType({str.__repr__(self)})"


class MlirAttr(str):
    """An attribute with no plain Python value, as MLIR prints it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"MlirAttr({str.__repr__(self)})"


class _Unit:
    """MLIR's ``unit`` attribute (a flag that is set)."""

    _instance: Optional["_Unit"] = None

    def __new__(cls) -> "_Unit":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "sysdesc.UNIT"

    def __bool__(self) -> bool:
        return True


UNIT = _Unit()


class Attribute(NamedTuple):
    """A value with its MLIR identity: ``spec.attribute("CPU", "num_cores")``.

    value: the plain Python value (as ``spec.query`` returns it);
    kind: the DLTI kind ("integer", "float", "string", "dense_array", "map"...);
    type: the MLIR type ("i64", "f32", "i1") or None when the kind has none;
    mlir: the attribute as MLIR prints it ("48 : i64").
    """

    value: Any
    kind: str
    type: Optional[str]
    mlir: str
