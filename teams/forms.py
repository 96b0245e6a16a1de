"""Forms of the team portal (lagportalen). They only collect what a captain or heat
responsible types; every rule is checked by the services in ``teams.services.entries``, so the
forms deliberately accept what the services refuse (e.g. three players) and let the service
answer with the clause."""

from __future__ import annotations

import re
from datetime import date

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.forms import MidField

MID_HELP = _("MID, ett per rad (kommatecken eller mellanslag går också bra).")


def split_mids(text: str) -> list[str]:
    """``"123\\n456, 789"`` → ``["123", "456", "789"]`` (order kept, blanks dropped)."""
    return [m for m in re.split(r"[\s,;]+", text or "") if m]


def tk_reason_field() -> forms.CharField:
    """TK may act after a window has closed (clubs.windows); its reason becomes a TK decision."""
    return forms.CharField(
        label=_("TK:s skäl (efter sista dag)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Behövs bara när fönstret har stängt; skälet sparas som ett TK-beslut."),
    )


class EnterTeamForm(forms.Form):
    """R-TEAM-REG-2: team name, captain's MID, address, phone, e-mail and 4–6 players."""

    name = forms.CharField(label=_("Lagets namn"), max_length=80, required=False)
    captain_mid = MidField(label=_("Lagkaptenens MID"), required=False)
    address = forms.CharField(label=_("Adress"), max_length=200, required=False)
    phone = forms.CharField(label=_("Telefon"), max_length=30, required=False)
    email = forms.CharField(label=_("E-post"), max_length=254, required=False)
    player_mids = forms.CharField(
        label=_("Spelare (4–6)"),
        help_text=MID_HELP,
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "inputmode": "numeric"}),
    )

    def clean_player_mids(self) -> list[str]:
        return split_mids(self.cleaned_data.get("player_mids", ""))


class RosterForm(forms.Form):
    """Add regular players by MID and/or remove current ones (R-TEAM-2)."""

    add_mids = forms.CharField(
        label=_("Lägg till spelare"),
        help_text=MID_HELP,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "inputmode": "numeric"}),
    )
    remove_mids = forms.MultipleChoiceField(
        label=_("Ta bort spelare"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, players=(), tk: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["remove_mids"].choices = [(p.mid, f"{p.full_name} ({p.mid})") for p in players]
        if tk:
            self.fields["reason"] = tk_reason_field()

    def clean_add_mids(self) -> list[str]:
        return split_mids(self.cleaned_data.get("add_mids", ""))

    def clean(self):
        data = super().clean()
        if not data.get("add_mids") and not data.get("remove_mids"):
            raise forms.ValidationError(_("Ange minst en spelare att lägga till eller ta bort."))
        return data


class ExtraPlayerForm(forms.Form):
    """R-TEAM-5: ask TK for a 7th/8th player for one occasion."""

    mid = MidField(label=_("Spelarens MID"), required=False)
    occasion_date = forms.TypedChoiceField(
        label=_("Speltillfälle"),
        required=False,
        coerce=date.fromisoformat,
        empty_value=None,
        help_text=_("Ett av lagets egna speltillfällen; dispens söks före speldagen."),
    )

    def __init__(self, *args, occasions=(), today=None, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "---------")]
        for day, label in occasions:
            passed = today is not None and day < today
            text = f"{day:%Y-%m-%d} {label}" + (" (" + str(_("har varit")) + ")" if passed else "")
            choices.append((day.isoformat(), text))
        self.fields["occasion_date"].choices = choices
        self.occasions = dict(occasions)


class LineupForm(forms.Form):
    """Who plays each half (four players per half, R-TEAM-2; one segment: one half,
    R-TEAM-KVAL-5). The service refuses a wrong number with the clause."""

    def __init__(self, *args, players=(), halves: int = 2, tk: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if tk:
            self.fields["reason"] = tk_reason_field()
        choices = [(p.mid, f"{p.full_name} ({p.mid})") for p in players]
        for number in range(1, halves + 1):
            label = _("Halvlek %(n)s") % {"n": number} if halves > 1 else _("Laguppställning")
            self.fields[f"half{number}"] = forms.MultipleChoiceField(
                label=label,
                choices=choices,
                required=False,
                widget=forms.CheckboxSelectMultiple,
                help_text=_("Välj fyra spelare."),
            )


def request_reason_field() -> forms.CharField:
    """Why a change the window no longer allows is needed: what TK decides on."""
    return forms.CharField(
        label=_("Varför behövs ändringen?"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("TK beslutar utifrån motiveringen; du ser beslutet och TK:s skäl här."),
    )


class RosterChangeRequestForm(RosterForm):
    """ "Begär ändring hos TK": the players of a roster change and why (R-TEAM-2, R-GEN-3)."""

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, players=players, tk=False, **kwargs)
        self.fields["request_reason"] = request_reason_field()


class LineupChangeRequestForm(LineupForm):
    """ "Begär ändring hos TK": who played each half of a match already played, and why."""

    def __init__(self, *args, players=(), halves: int = 2, **kwargs):
        super().__init__(*args, players=players, halves=halves, tk=False, **kwargs)
        self.fields["request_reason"] = request_reason_field()
