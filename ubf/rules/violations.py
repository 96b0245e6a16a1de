"""Violations: what a rule check returns instead of raising on data a person entered."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"  # refuse: the action must not go through
    WARNING = "warning"  # flag to TK: allowed, but someone must look at it


@dataclass(frozen=True)
class Violation:
    """One broken rule, with the clause it comes from and a message in Swedish and English.

    ``data`` carries the figures a person needs to understand the message (MIDs, counts,
    dates), so that a page or an e-mail can show them without parsing the text.
    """

    clause: str
    message_sv: str
    message_en: str
    severity: Severity = Severity.ERROR
    data: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def is_error(self) -> bool:
        return self.severity == Severity.ERROR

    def message(self, language: str = "sv") -> str:
        return self.message_en if language.startswith("en") else self.message_sv

    def __str__(self) -> str:
        return f"{self.clause}: {self.message_sv}"


def errors(violations: list[Violation]) -> list[Violation]:
    return [v for v in violations if v.is_error]


def warnings(violations: list[Violation]) -> list[Violation]:
    return [v for v in violations if not v.is_error]
