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

import functools
import gettext as gettext_module
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The project's one catalogue (``<repo>/locale``, next to the ``ubf`` package). Pure code that
#: needs an English text (``ImportProblem.message_en``, ``ChainStep.en``,
#: ``Allocation.explain("en")``) reads it here with the standard library's gettext, no Django.
LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"


class Text(str):
    """A Swedish msgid marked for translation (what :func:`gettext_noop` returns)."""

    __slots__ = ()


class Number(str):
    """A number written the Swedish way ("9,33", "9,33 (28/3)"), a parameter of a message: the
    English text shows it with a decimal point ("9.33"). Nothing else in it changes."""

    __slots__ = ()

    @property
    def english(self) -> str:
        return self.replace(",", ".")


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

    @property
    def message_en(self) -> str:
        return english(self.template, self.params)

    def text(self, language: str = "sv") -> str:
        """The text in ``language`` ("sv" or "en"), without Django."""
        return english(self.template, self.params) if language.startswith("en") else self.message_sv

    def __str__(self) -> str:
        return self.message_sv


def as_data(message: Any) -> dict:
    """A message as plain JSON data (``{"template", "params"}``), for a snapshot that is
    rendered later, when a page shows it; numbers stay numbers, a translatable parameter (a
    ``Message`` or a ``Text``) becomes data of its own (``{"template", "params"}``) so that it
    is rendered in the reader's language too, anything else becomes its Swedish text."""
    return {
        "template": str(message.template),
        "params": {key: _data_value(value) for key, value in message.params.items()},
    }


def from_data(data: Mapping[str, Any]) -> Message:
    """The :class:`Message` back from its :func:`as_data` form (nested phrases and numbers
    too), for pure code that needs the text of a stored message in a language."""
    return Message(
        Text(data["template"]),
        {key: _from_data_value(value) for key, value in (data.get("params") or {}).items()},
    )


def _from_data_value(value: Any) -> Any:
    if isinstance(value, Mapping) and "number" in value:
        return Number(value["number"])
    if isinstance(value, Mapping) and "template" in value:
        return from_data(value)
    return value


def _data_value(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if hasattr(value, "template") and hasattr(value, "params"):
        return as_data(value)
    if isinstance(value, Text):
        return {"template": str(value), "params": {}}
    if isinstance(value, Number):
        return {"number": str(value)}
    if isinstance(value, list | tuple) and all(type(item) is str for item in value):
        return list(value)  # names (venues, entries): kept as a list, joined when rendered
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


@functools.cache
def _english_catalogue() -> gettext_module.NullTranslations:
    return gettext_module.translation(
        "django", localedir=str(LOCALE_DIR), languages=["en"], fallback=True
    )


def english(template: str, params: Mapping[str, Any] | None = None) -> str:
    """The English text of a Swedish template: its msgstr in ``locale/en`` filled in with
    ``params`` (each translatable parameter translated too), without Django. A template that
    is not in the catalogue stays Swedish (gettext's fallback); nothing is invented."""
    if not template:
        return ""  # gettext("") would be the catalogue's header
    text = _english_catalogue().gettext(str(template))
    if not params:
        return text
    return text % {key: _english_value(value) for key, value in params.items()}


def _english_value(value: Any) -> Any:
    if isinstance(value, Number):
        return value.english
    if hasattr(value, "template") and hasattr(value, "params"):
        return english(value.template, value.params)
    if isinstance(value, Text):
        return _english_catalogue().gettext(str(value))
    if isinstance(value, list | tuple):
        return ", ".join(str(_english_value(item)) for item in value)
    return value
