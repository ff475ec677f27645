"""The sysdesc.Error hierarchy: one class per kind of failure of the C API.

Every error carries what the library reported: ``message`` (MLIR's text,
without the location), ``file``, ``line`` and ``column`` (1-based, 0 when the
error has no position), ``position`` (byte offset), ``code`` (the
dlti_error_code's name) and, for a failed query, ``hint`` (where the path
stops and the nearest key).  ``str(e)`` is what the CLI prints:
``FILE:LINE:COL: error: MESSAGE``.
"""

from __future__ import annotations


class Error(Exception):
    """Base class of every error sysdesc raises."""

    def __init__(self, formatted: str, message: str = "", file: str | None = None,
                 line: int = 0, column: int = 0, position: int = 0,
                 code: str = "error", hint: str | None = None) -> None:
        super().__init__(formatted)
        self.message = message or formatted
        self.file = file
        self.line = line
        self.column = column
        self.position = position
        self.code = code
        self.hint = hint

    def __str__(self) -> str:
        text = self.args[0] if self.args else ""
        return f"{text}\nhint: {self.hint}" if self.hint else text


class ParseError(Error):
    """Malformed text: MLIR or YAML syntax, a value that does not fit its tag."""


class VerifyError(Error):
    """Well-formed but rejected: a DLTI rule, or the device schema's check."""


class LimitError(Error):
    """A documented limit was exceeded (nesting depth, input size, aliases)."""


class NotFoundError(Error, KeyError):
    """A query, key, device, scope or catalog name found nothing (also a KeyError)."""


class ValueTypeError(Error, TypeError):
    """A value of another kind than the one asked for."""


class RangeError(Error, ValueError):
    """A value that does not fit (a layout size beyond 64 bits)."""


class UnsupportedError(Error):
    """Valid MLIR that sysdesc does not model, or an export a device cannot have."""


class ArgumentError(Error, ValueError):
    """An invalid argument: an unknown format, a malformed compose item."""


class FileError(Error, OSError):
    """A file could not be read or written (a name that is neither a file nor a
    catalog entry is a NotFoundError)."""


# dlti_error_code names (python/src/errors.c) -> classes.
BY_CODE = {
    "error": Error,
    "syntax": ParseError,
    "verify": VerifyError,
    "limit": LimitError,
    "not_found": NotFoundError,
    "type": ValueTypeError,
    "range": RangeError,
    "unsupported": UnsupportedError,
    "argument": ArgumentError,
    "io": FileError,
}
