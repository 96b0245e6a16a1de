"""Violations: what a rule check returns instead of raising on data a person entered."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .i18n import swedish


class Severity(StrEnum):
    ERROR = "error"  # refuse: the action must not go through
    WARNING = "warning"  # flag to TK: allowed, but someone must look at it


@dataclass(frozen=True)
class Violation:
    """One broken rule, with the clause it comes from and a message to render.

    ``template`` is the Swedish message template, marked with ``ubf.rules.i18n.gettext_noop``
    so that it is a msgid in the catalogue; ``params`` fills its ``%(name)s`` placeholders.
    ``clubs.i18n.render`` shows it in the active language; :attr:`message_sv` is the Swedish
    text without any catalogue (for logs and the audit trail).

    ``data`` carries the figures a person needs to understand the message (MIDs, counts,
    dates), so that a page or an e-mail can show them without parsing the text.
    """

    clause: str
    template: str
    severity: Severity = Severity.ERROR
    data: dict = field(default_factory=dict, hash=False, compare=False)
    params: dict = field(default_factory=dict, hash=False)

    @property
    def is_error(self) -> bool:
        return self.severity == Severity.ERROR

    @property
    def message_sv(self) -> str:
        return swedish(self.template, self.params)

    def __str__(self) -> str:
        return f"{self.clause}: {self.message_sv}"


def errors(violations: list[Violation]) -> list[Violation]:
    return [v for v in violations if v.is_error]


def warnings(violations: list[Violation]) -> list[Violation]:
    return [v for v in violations if not v.is_error]
