"""Form fields every form that takes a player shares (pair entry, direct final, team entry,
roster): one MID field that normalises what a person types (:func:`clubs.selectors.normalise_mid`:
"00123" is "123") and accepts a name that names one player, with a ``<datalist>`` of
suggestions that the page fills from the player look-up (``/klubb/spelare/``) as one types
(htmx, when the page loads it; without it the field still takes a MID or a unique name)."""

from __future__ import annotations

from django import forms
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.selectors import resolve_player_text

LOOKUP_URL = reverse_lazy("portal:player_lookup")


class MidInput(forms.TextInput):
    """A text input with its own ``<datalist>``; htmx asks the look-up for options while the
    person types (``hx-get``, after a pause of 250 ms)."""

    template_name = "clubs/widgets/mid_input.html"

    class Media:
        js = ("vendor/htmx/htmx.min.js",)

    def __init__(self, attrs=None):
        base = {"autocomplete": "off", "inputmode": "search"}
        super().__init__({**base, **(attrs or {})})

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        list_id = f"{context['widget']['attrs'].get('id') or name}-players"
        context["widget"]["attrs"].update(
            {
                "list": list_id,
                "hx-get": f"{LOOKUP_URL}?format=options",
                "hx-trigger": "input changed delay:250ms",
                "hx-target": f"#{list_id}",
                "hx-swap": "innerHTML",
            }
        )
        context["widget"]["list_id"] = list_id
        return context


class MidField(forms.CharField):
    """A player by MID or by name: a MID is normalised, a name that names exactly one player
    becomes that player's MID, a name that names none or several is an error next to the
    field listing who was found. Empty stays empty (the service says the MID is missing)."""

    widget = MidInput

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 80)
        kwargs.setdefault(
            "help_text", gettext_lazy("MID eller namn; förslag visas medan du skriver.")
        )
        super().__init__(*args, **kwargs)

    def clean(self, value):
        value = super().clean(value)
        mid, candidates = resolve_player_text(value)
        if mid or not value:
            return mid
        if not candidates:
            raise forms.ValidationError(
                _("Ingen spelare heter %(name)s. Ange MID eller en del av namnet.")
                % {"name": value}
            )
        names = ", ".join(f"{p.full_name} ({p.mid})" for p in candidates[:5])
        raise forms.ValidationError(
            _("Flera spelare passar in på %(name)s: %(names)s. Ange MID.")
            % {"name": value, "names": names}
        )
