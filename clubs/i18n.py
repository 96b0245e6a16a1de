"""The one place where rule and service messages are put into the reader's language.

The rulebook (``ubf.rules``) and the services build a :class:`~ubf.rules.violations.Violation`
or a :class:`~ubf.rules.i18n.Message`: a Swedish template marked for the catalogue plus its
parameters. Every form, admin message, page and e-mail that shows one calls :func:`render`
(docs/translation.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from ubf.rules.i18n import Number, Text


def render(message: Any, language: str | None = None) -> str:
    """``message`` (a Violation, Message or FeeLine, its ``as_data`` form, or a bare msgid
    marked with gettext_noop) in the active language, or in ``language``."""
    if language:
        with translation.override(language):
            return render(message)
    if not message:
        return ""  # gettext("") would be the catalogue's header
    if isinstance(message, str) and not hasattr(message, "template"):
        return gettext(message)  # a bare msgid (an ImportNote is a str with a template)
    if isinstance(message, Mapping):  # ubf.rules.i18n.as_data, as a snapshot stores it
        template, params = gettext(message["template"]), message.get("params") or {}
    else:
        template, params = gettext(message.template), message.params
    if not params:
        return template
    return template % {key: _value(value) for key, value in params.items()}


def render_with_clause(violation: Any, language: str | None = None) -> str:
    """The message followed by its clause ID in brackets, as forms and pages show it; once,
    when the message itself already ends with it ("… (R-GEN-3)." stays as it is)."""
    return with_clause(render(violation, language), getattr(violation, "clause", "") or "")


def with_clause(text: str, clause: str) -> str:
    """``text`` followed by `` (clause)``, unless it already names the clause in its closing
    brackets ("… (R-TEAM-KVAL-5)." or "… (R-REPL-7, R-REPL-5)."): the one place that appends
    a clause, so no page shows "(R-GEN-3). (R-GEN-3)"."""
    if not clause:
        return text
    tail = text.rstrip(" .")
    if tail.endswith(")"):
        inside = tail[tail.rfind("(") + 1 : -1]
        if clause in (c.strip() for c in inside.split(",")):
            return text
    return f"{text} ({clause})"


def _value(value: Any) -> Any:
    if isinstance(value, Number):
        return value.english if _english() else str(value)
    if isinstance(value, Mapping) and "number" in value:  # a Number kept by as_data
        return Number(value["number"]).english if _english() else value["number"]
    if isinstance(value, Mapping) or (hasattr(value, "template") and hasattr(value, "params")):
        return render(value)  # a Message, or its as_data form inside a stored message
    if isinstance(value, Text):
        return gettext(value)
    if isinstance(value, list | tuple):
        return ", ".join(str(_value(item)) for item in value)
    return value


def _english() -> bool:
    return (translation.get_language() or "sv").startswith("en")
