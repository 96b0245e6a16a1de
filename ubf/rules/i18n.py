"""Translatable text in the Django-free rulebook (docs/translation.md).

The rulebook does not translate. It marks each Swedish message template with
:func:`gettext_noop`, which ``make messages`` (xgettext) extracts into
``locale/*/LC_MESSAGES/django.po``, and hands the template and its parameters upwards. The layer
above renders them in the active language with Django's gettext in one place,
``clubs.i18n.render``.

Templates use named ``%(name)s`` placeholders, never f-strings, so that the msgid is the same
string whatever the figures are. A parameter that is itself a word to translate (a discipline,
a noun) is marked with :func:`gettext_noop` too; the renderer translates such parameters. A
list or tuple parameter is shown as its items, each rendered, joined by ", ".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class Text(str):
    """A Swedish msgid marked for translation (what :func:`gettext_noop` returns)."""

    __slots__ = ()


def gettext_noop(message: str) -> Text:
    """Mark ``message`` (Swedish) for the catalogue; it is returned untranslated."""
    return Text(message)


@dataclass(frozen=True)
class Message:
    """A template and its parameters, rendered later in the reader's language."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @property
    def message_sv(self) -> str:
        return swedish(self.template, self.params)

    def __str__(self) -> str:
        return self.message_sv


def as_data(message: Any) -> dict:
    """A message as plain JSON data (``{"template", "params"}``), for a snapshot that is
    rendered later, when a page shows it; numbers stay numbers, anything else becomes its
    Swedish text."""
    return {
        "template": str(message.template),
        "params": {key: _data_value(value) for key, value in message.params.items()},
    }


def _data_value(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return str(_swedish_value(value))


def swedish(template: str, params: Mapping[str, Any]) -> str:
    """The Swedish text: the template (already Swedish) filled in, without any catalogue."""
    if not params:
        return str(template)
    return template % {key: _swedish_value(value) for key, value in params.items()}


def _swedish_value(value: Any) -> Any:
    if hasattr(value, "template") and hasattr(value, "params"):
        return swedish(value.template, value.params)
    if isinstance(value, Text):
        return str(value)
    if isinstance(value, list | tuple):
        return ", ".join(str(_swedish_value(item)) for item in value)
    return value
