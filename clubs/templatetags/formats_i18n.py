"""Figures and days in the reader's language, the one place the public pages format them:
``{{ value|num }}`` (``7,47`` on Swedish pages, ``7.47`` on English ones) and ``{{ d|day }}``
(``26 nov 2016``; ``26 Nov 2016`` in English), ``{{ d|day_short }}`` (``26 nov``).

Model fields (``Decimal``) are localized by Django already, but the standings snapshots keep
their figures as text (``"105.44"``, written with a point by the recompute) and an allocation
share as a sentence (``"2,08 (25/12)"``, written with a comma by ``fmt_fraction``). This filter
reads any decimal number in such a text, with a point or a comma, and writes it again with the
active language's decimal separator (``django.utils.formats.number_format``), keeping its
number of decimals; the rest of the text (a fraction, "–", "∞") is left as it is.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import template
from django.template.defaultfilters import floatformat
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import get_language

register = template.Library()

# A decimal number standing alone: digits, a point or a comma, digits; not part of a fraction
# ("25/12") or of a longer run of digits and separators (a date "2016.11.05", "1,234,5").
_DECIMAL = re.compile(r"(?<![\d/.,])(\d+)[.,](\d+)(?![\d/]|[.,]\d)")


def _localize(match: re.Match) -> str:
    whole, part = match.group(1), match.group(2)
    return number_format(Decimal(f"{whole}.{part}"), decimal_pos=len(part))


@register.filter
def num(value, places=None) -> str:
    """The figure in the active language; ``None`` is empty. With ``places`` a number is
    written as ``floatformat`` does ("-2": up to two decimals, "2": always two, "3": three)."""
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return str(value)
    if places is not None:
        try:
            Decimal(str(value))
        except InvalidOperation:
            return _DECIMAL.sub(_localize, str(value))  # "–", "∞", a sentence
        return floatformat(value, places)
    if isinstance(value, int | float | Decimal):
        return number_format(value)
    return _DECIMAL.sub(_localize, str(value))


def _month_format(with_year: bool) -> str:
    # Django's "M" is "Nov" in every language; Swedish writes the month in lower case ("b").
    month = "b" if (get_language() or "sv").startswith("sv") else "M"
    return f"j {month} Y" if with_year else f"j {month}"


@register.filter
def day(value) -> str:
    """``26 nov 2016`` (Swedish), ``26 Nov 2016`` (English); empty for no date."""
    if not value:
        return ""
    return date_format(value, _month_format(True))


@register.filter
def day_short(value) -> str:
    """``26 nov`` (Swedish), ``26 Nov`` (English)."""
    if not value:
        return ""
    return date_format(value, _month_format(False))


@register.filter
def day_time(value) -> str:
    """``18 nov 14:05`` (Swedish), ``18 Nov 14:05`` (English), in the site's time zone."""
    if not value:
        return ""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return date_format(value, _month_format(False) + " H:i")
