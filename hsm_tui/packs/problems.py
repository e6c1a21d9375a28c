"""Problems found in content packs: every one names its file, line, entry and key."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"


class Code(Enum):
    """The kind of problem (stable, for tests and filtering)."""

    SYNTAX = "syntax"  # not valid TOML
    IO = "io"  # unreadable file or folder
    MISSING_PACK = "missing-pack"  # no pack.toml
    MISSING_KEY = "missing-key"
    TYPE = "type"  # wrong TOML type
    RANGE = "range"  # number out of range
    VALUE = "value"  # not one of the allowed values
    ID = "id"  # malformed id
    UNKNOWN_KEY = "unknown-key"
    DUPLICATE = "duplicate"
    REFERENCE = "reference"  # dangling reference
    DICE = "dice"  # bad dice expression
    CYCLE = "cycle"  # requires cycle
    REQUIRES = "requires"  # required pack missing or not declared
    CHART = "chart"  # Severe Wound chart gaps/overlaps
    RULES = "rules"  # built against the character rules (e.g. Talents ≠ Luck)


@dataclass(frozen=True)
class Problem:
    """One problem; ``line`` is 1-based (0 when the whole file is meant)."""

    path: str
    line: int
    severity: Severity
    code: Code
    message: str
    entry: str | None = None
    key: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def format(self) -> str:
        """``path:line: error|warning: message`` (the ``hsm content check`` line)."""
        return f"{self.path}:{self.line}: {self.severity.value}: {self.message}"
