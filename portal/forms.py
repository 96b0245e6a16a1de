"""Forms of the club portal (/klubb/). They only collect and parse the fields; every rule
(periods, deadlines, fees, the pair's eligibility) is checked by the service the view calls."""

from __future__ import annotations

from crispy_forms.bootstrap import AppendedText
from crispy_forms.helper import FormHelper
from crispy_forms.layout import Div, Field, Fieldset, Layout, Submit
from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.forms import MidField
from clubs.i18n import render_with_clause
from clubs.models import Season
from clubs.services.season import CLAUSES
from pairs.models import PairCompetition
from teams.models import TeamCompetition
from ubf.rules.schedule import parse_pairings
from ubf.rules.types import Discipline, HeatType


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class ClubChoiceField(forms.ModelMultipleChoiceField):
    widget = forms.CheckboxSelectMultiple


def _preselect_only_club(field, clubs) -> None:
    ids = list(clubs.values_list("pk", flat=True)) if clubs is not None else []
    if len(ids) == 1:
        field.initial = ids


def _date(label, required=True, help_text=""):
    return forms.DateField(label=label, required=required, widget=DateInput(), help_text=help_text)


class PairHeatForm(forms.Form):
    """R-PAIR-KVAL-1, -3, -5, -6: a pair qualifier heat registered with TK."""

    competition = forms.ModelChoiceField(
        label=_("Tävling"), queryset=PairCompetition.objects.none(), empty_label=None
    )
    clubs = ClubChoiceField(label=_("Arrangerande klubb(ar)"), queryset=None)
    name = forms.CharField(label=_("Heatets namn"), max_length=120)
    heat_type = forms.ChoiceField(
        label=_("Typ av kval"),
        choices=[
            ("", "---------"),
            (HeatType.SILVER.value, _("silverkval")),
            (HeatType.BRONZE.value, _("bronskval")),
        ],
        required=False,
        help_text=_("Silverkval: alla par deltar i DM-kvalet. Bronskval: paren väljer."),
    )
    venue = forms.CharField(label=_("Spelplats"), max_length=120, required=False)
    first_date = _date(_("Speltillfälle 1"))
    last_date = _date(_("Speltillfälle 2"), required=False)
    table_fee = forms.DecimalField(
        label=_("Bordsavgift per spelare (kr)"), max_digits=7, decimal_places=2
    )
    invitation_url = forms.URLField(
        label=_("Inbjudan (länk)"), required=False, assume_scheme="https"
    )
    invitation_file = forms.FileField(label=_("Inbjudan (fil)"), required=False)
    requires_preregistration = forms.BooleanField(label=_("Föranmälan krävs"), required=False)
    last_registration_day = _date(_("Sista anmälningsdag"), required=False)
    pair_limit = forms.IntegerField(
        label=_("Högst antal par"), required=False, help_text=_("Lämna tomt om obegränsat.")
    )

    def __init__(self, *args, season=None, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        competitions = PairCompetition.objects.none()
        if season is not None:
            # R-PAIR-KVAL-1 / R-PAIR-DF-1: no heats in Dam or in a direct final.
            competitions = (
                PairCompetition.objects.filter(season=season, is_direct_final=False)
                .exclude(discipline=Discipline.DAM.value)
                .select_related("season")
            )
        self.fields["competition"].queryset = competitions
        self.fields["clubs"].queryset = clubs
        _preselect_only_club(self.fields["clubs"], clubs)


class TeamHeatForm(forms.Form):
    """R-TEAM-REG-1, R-TEAM-KVAL-1..5, R-TEAM-FEE-1/-2: a team qualifier heat."""

    competition = forms.ModelChoiceField(
        label=_("Tävling"), queryset=TeamCompetition.objects.none(), empty_label=None
    )
    clubs = ClubChoiceField(
        label=_("Arrangerande klubb(ar)"),
        queryset=None,
        help_text=_("Ett gemensamt (regionalt) heat anmäls en gång med alla klubbar."),
    )
    name = forms.CharField(label=_("Heatets namn"), max_length=120)
    venue = forms.CharField(label=_("Spelplats och lokal"), max_length=120, required=False)
    responsible_name = forms.CharField(label=_("Heatansvarig"), max_length=120, required=False)
    responsible_email = forms.CharField(
        label=_("Heatansvarigs e-post"), max_length=254, required=False
    )
    responsible_phone = forms.CharField(
        label=_("Heatansvarigs telefon"), max_length=30, required=False
    )
    boards_per_match = forms.IntegerField(label=_("Brickor per match"))
    dealt_at_table = forms.BooleanField(label=_("Givarna ges vid bordet"), required=False)
    first_date = _date(_("Första speldag"))
    last_date = _date(_("Sista speldag"))
    entries_close = _date(_("Sista anmälningsdag för lag"), required=False)
    start_fee = forms.DecimalField(label=_("Startavgift per lag (kr)"), decimal_places=2)
    table_fee_per_match = forms.DecimalField(
        label=_("Bordsavgift per match (kr)"), decimal_places=2, initial=0
    )
    invitation_url = forms.URLField(
        label=_("Inbjudan (länk)"), required=False, assume_scheme="https"
    )
    invitation_file = forms.FileField(label=_("Inbjudan (fil)"), required=False)

    def __init__(self, *args, season=None, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        competitions = TeamCompetition.objects.none()
        if season is not None:
            competitions = TeamCompetition.objects.filter(season=season).select_related("season")
            self.fields["start_fee"].initial = season.rules().team_start_fee
        self.fields["competition"].queryset = competitions
        self.fields["clubs"].queryset = clubs
        _preselect_only_club(self.fields["clubs"], clubs)


class DirectFinalPairForm(forms.Form):
    """R-PAIR-DF-1: a pair entered straight into a direct final, by the two players' MIDs."""

    mid1 = MidField(label=_("Spelare 1 (MID eller namn)"))
    mid2 = MidField(label=_("Spelare 2 (MID eller namn)"))


class EnterPairForm(forms.Form):
    """A pair entered in a qualifier heat by the two players' MIDs."""

    mid1 = MidField(label=_("Spelare 1 (MID eller namn)"))
    mid2 = MidField(label=_("Spelare 2 (MID eller namn)"))
    pair_number = forms.CharField(
        label=_("Parnummer"),
        max_length=8,
        required=False,
        help_text=_("Lämna tomt för nästa lediga nummer."),
    )
    takes_part_in_qualifier = forms.BooleanField(
        label=_("Paret deltar i DM-kvalet"),
        required=False,
        initial=True,
        help_text=_(
            "Bronskval: avmarkera om paret bara spelar tävlingen. I silverkval deltar alla par."
        ),
    )


def _size_rows(text: str) -> list[list[int]]:
    """ "0=28; 61=32; 81=36" → [[0, 28], [61, 32], [81, 36]]."""
    rows = []
    for part in text.replace(",", ";").split(";"):
        part = part.strip()
        if not part:
            continue
        low, sep, size = part.partition("=")
        if not sep or not low.strip().isdigit() or not size.strip().isdigit():
            raise forms.ValidationError(
                _("Skriv gräns=storlek, åtskilda med semikolon, t.ex. 0=28; 61=32; 81=36.")
            )
        rows.append([int(low), int(size)])
    return rows


class SizesField(forms.CharField):
    def to_python(self, value):
        return _size_rows(super().to_python(value) or "")

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return "; ".join(f"{a}={b}" for a, b in value)
        return value


class PointsField(forms.CharField):
    def to_python(self, value):
        text = super().to_python(value) or ""
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if not all(p.isdigit() for p in parts):
            raise forms.ValidationError(_("Skriv hela tal åtskilda med komma, t.ex. 42, 30, 21."))
        return [int(p) for p in parts]

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return value


class SeasonConfigForm(forms.Form):
    """/tk/sasong/: the season's configuration, each number with the clause it serves
    (``clubs.services.season.CLAUSES``); the service checks the rules and saves."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        extra = {
            "pair_final_sizes": SizesField(label=_("Parfinal: storlek efter antal kvalande")),
            "team_final_sizes": SizesField(label=_("Lagfinal: storlek efter antal kvalande lag")),
            "lot_precedence_seasons": forms.IntegerField(
                label=_("Lottning: företräde i antal säsonger"), min_value=1
            ),
            "team_bonus": PointsField(label=_("Lagfinal: bonus per spelare, plats 1, 2, 3")),
            "wo_max_per_stage": forms.IntegerField(
                label=_("W.O.: flest tillåtna i en etapp innan laget utesluts"), min_value=0
            ),
        }
        for key, clause in CLAUSES.items():
            if key in extra:
                field = extra[key]
            else:
                field = Season._meta.get_field(key).formfield()
                if isinstance(field, forms.DateField):
                    field.widget = DateInput()
            field.clause = clause
            self.fields[key] = field
        self.fields["reason"] = forms.CharField(
            label=_("Motivering"),
            required=False,  # the service asks for it when something changes (R-GEN-3)
            widget=forms.Textarea(attrs={"rows": 2}),
            help_text=_("Sparas med ändringarna i TK:s beslutslogg (R-GEN-3)."),
        )

        def row(key):
            if isinstance(self.fields[key], forms.BooleanField):
                self.fields[key].help_text = CLAUSES[key]
                return Field(key)
            return AppendedText(key, CLAUSES[key])

        groups = [
            (
                _("Datum och åldrar"),
                [
                    "veteran_born_on_or_before",
                    "junior_max_age",
                    "invitation_days_before",
                    "protest_deadline_sm_semifinal",
                    "protest_deadline_sm_final",
                ],
            ),
            (
                _("Avgifter"),
                [
                    "pair_kval_fee_per_player",
                    "pair_final_fee_per_player",
                    "team_start_fee",
                    "team_final_table_fee_per_round",
                    "team_junior_kval_discount",
                    "team_final_junior_reduction_per_round",
                ],
            ),
            (
                _("W.O. och bestraffningar"),
                [
                    "wo_winner_vp",
                    "wo_loser_vp",
                    "wo_winner_average_if_higher",
                    "wo_max_per_stage",
                    "unpaid_player_penalty_vp",
                    "unpaid_fee_grace_days",
                ],
            ),
            (
                _("Tabeller"),
                ["pair_final_sizes", "team_final_sizes", "lot_precedence_seasons", "team_bonus"],
            ),
        ]
        self.helper = FormHelper()
        self.helper.layout = Layout(
            *[Fieldset(title, *[row(k) for k in keys]) for title, keys in groups],
            Field("reason"),
            Submit("save", _("Spara")),
        )

    def values(self) -> dict:
        return {key: self.cleaned_data[key] for key in CLAUSES}

    def add_violations(self, violations, language: str) -> None:
        """The service's refusals, each beside the field it names (else above the form)."""
        for v in violations:
            key = (v.data or {}).get("field")
            if (v.data or {}).get("missing") == "reason":
                key = "reason"
            self.add_error(key if key in self.fields else None, render_with_clause(v, language))


# ---------------------------------------------------------------------------------------------
# A heat's page: move, cancel, change request, invitation, withdrawals
# ---------------------------------------------------------------------------------------------


class MoveHeatForm(forms.Form):
    """R-PAIR-KVAL-2: new dates, up to the registration deadline."""

    first_date = _date(_("Nytt första datum"))
    last_date = _date(
        _("Nytt andra datum"),
        required=False,
        help_text=_(
            "Lämna tomt för att behålla heatets längd (lag) eller ett speltillfälle (par)."
        ),
    )


class CancelHeatForm(forms.Form):
    """R-PAIR-KVAL-2: cancel the heat, up to the registration deadline."""

    reason = forms.CharField(
        label=_("Varför ställs heatet in?"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class HeatChangeRequestForm(forms.Form):
    """R-PAIR-KVAL-2: after the deadline, a request to UBF TK to move or cancel the heat."""

    kind = forms.ChoiceField(
        label=_("Ändring"),
        choices=[("move", _("flytta")), ("cancel", _("ställa in"))],
        widget=forms.RadioSelect,
    )
    new_first_date = _date(_("Nytt första datum"), required=False)
    new_second_date = _date(_("Nytt andra datum"), required=False)
    reason = forms.CharField(
        label=_("Motivering till TK"), widget=forms.Textarea(attrs={"rows": 3})
    )


class InvitationForm(forms.Form):
    """R-PAIR-KVAL-3: the electronic invitation sent to TK's chair."""

    sent_on = _date(_("Skickad"), required=False, help_text=_("Lämna tomt för i dag."))
    url = forms.URLField(label=_("Inbjudan (länk)"), required=False, assume_scheme="https")
    file = forms.FileField(label=_("Inbjudan (fil)"), required=False)
    last_registration_day = _date(_("Sista anmälningsdag"), required=False)
    pair_limit = forms.IntegerField(
        label=_("Högst antal par"), required=False, min_value=1, help_text=_("Tomt: oförändrat.")
    )


class WithdrawForm(forms.Form):
    """A pair or a team withdrawn, with the reason (a team: R-TEAM-REPL-1 needs one)."""

    reason = forms.CharField(label=_("Skäl"), max_length=500, required=False)


class ReserveNoticeForm(forms.Form):
    """R-PAIR-RES-1: the club notifies, before the session, that a pair starts with a reserve
    (the service checks the rest)."""

    session = forms.IntegerField(label=_("Speltillfälle"), min_value=1, initial=1)
    # Blank MIDs are left to the service, which names the clause.
    replaced_mid = forms.CharField(
        label=_("Ordinarie spelare (MID)"), max_length=20, required=False
    )
    reserve_mid = forms.CharField(label=_("Reserv (MID)"), max_length=20, required=False)


class FinalReserveForm(ReserveNoticeForm):
    """R-PAIR-RES-2: the pair's club (or TK) notifies that a pair plays the DM final with a
    reserve: the heat's reserve notice without its session (the final is one)."""

    session = None


# ---------------------------------------------------------------------------------------------
# TK: the member register and the club list (issue 23)
# ---------------------------------------------------------------------------------------------


class RegisterUploadForm(forms.Form):
    """/tk/register/: the federation's member register (or its club list) as CSV or XLSX;
    the page previews it, TK applies it (``clubs.services.register``)."""

    KIND_CHOICES = [("register", _("Medlemsregister")), ("clubs", _("Klubblista"))]

    kind = forms.ChoiceField(
        label=_("Fil"), choices=KIND_CHOICES, initial="register", widget=forms.RadioSelect
    )
    season = forms.ModelChoiceField(
        label=_("Säsong"),
        queryset=Season.objects.filter(is_finished=False),
        required=False,
        help_text=_("Representationsklubb och betald medlemsavgift gäller en säsong (R-GEN-2)."),
    )
    file = forms.FileField(
        label=_("Fil (CSV eller XLSX)"),
        help_text=_(
            "Kolumner: MID, Förnamn, Efternamn, Födelseår eller Födelsedatum, Kön (K/M), Klubb, "
            "Distrikt (UBF för Uppland), Betald (ja/nej); andra kolumner läses inte. "
            "En klubblista: Klubbnummer, Klubb, Distrikt."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].initial = Season.current()
        self.helper = FormHelper()
        self.helper.form_id = "register-upload"
        self.helper.attrs = {"enctype": "multipart/form-data"}
        self.helper.layout = Layout(
            Field("kind"), Field("season"), Field("file"), Submit("preview", _("Förhandsgranska"))
        )


class CompetitionDatesForm(forms.Form):
    """/tk/sasong/: the competitions' own dates (qualifying period, heat registration deadline,
    final days), each with its clause (``results.services.competition_dates``)."""

    def __init__(self, competitions, *args, clauses_of, **kwargs):
        super().__init__(*args, **kwargs)
        self.competitions = competitions
        fieldsets = []
        for competition in competitions:
            names = []
            for key, clause in clauses_of(competition).items():
                name = f"{competition.pk}-{key}"
                model_field = competition._meta.get_field(key)
                self.fields[name] = forms.DateField(
                    label=model_field.verbose_name,
                    required=False,
                    widget=DateInput(),
                    initial=getattr(competition, key),
                )
                self.fields[name].clause = clause
                names.append(AppendedText(name, clause))
            fieldsets.append(Fieldset(str(competition), *names))
        self.fields["dates_reason"] = forms.CharField(
            label=_("Motivering"),
            required=False,
            widget=forms.Textarea(attrs={"rows": 2}),
            help_text=_("Sparas med ändringarna i TK:s beslutslogg (R-GEN-3)."),
        )
        self.helper = FormHelper()
        self.helper.form_id = "competition-dates"
        self.helper.layout = Layout(
            *fieldsets,
            Field("dates_reason"),
            Submit("competition_dates", _("Spara datumen")),
        )

    def values(self) -> dict[int, dict]:
        out: dict[int, dict] = {}
        for name, value in self.cleaned_data.items():
            if "-" in name:
                pk, key = name.split("-", 1)
                out.setdefault(int(pk), {})[key] = value
        return out

    def add_violations(self, violations, language: str) -> None:
        for v in violations:
            key = (v.data or {}).get("field")
            if (v.data or {}).get("missing") == "reason":
                key = "dates_reason"
            self.add_error(key if key in self.fields else None, render_with_clause(v, language))


# ---------------------------------------------------------------------------------------------
# A heat's and the final's schedule (issue 22, R-TEAM-KVAL-4, R-TEAM-FINAL-1)
# ---------------------------------------------------------------------------------------------


class ScheduleProposalForm(forms.Form):
    """What a proposal is made from: the rounds the days allow (a heat), the boards per match
    and the seeding (a heat: 1 = the strongest team), or the boards of a direct final. The
    service makes the proposal (``teams.services.schedule``)."""

    def __init__(self, *args, schedule, **kwargs):
        super().__init__(*args, **kwargs)
        self.schedule = schedule
        final = schedule.is_final
        names = []
        if not final:
            self.fields["rounds"] = forms.IntegerField(
                label=_("Antal ronder"),
                min_value=1,
                max_value=max(1, schedule.full_rounds),
                initial=schedule.full_rounds,
                help_text=_(
                    "Alla möter alla kräver %(n)s ronder (R-TEAM-KVAL-4). Hinns färre på "
                    "heatets speldagar, ange hur många: schemat seedas då så att inget lag "
                    "gynnas eller missgynnas."
                )
                % {"n": schedule.full_rounds},
            )
            names.append(AppendedText("rounds", "R-TEAM-KVAL-4"))
        if not final or schedule.competition.is_direct_final:
            self.fields["boards"] = forms.IntegerField(
                label=_("Brickor per match"),
                min_value=1,
                max_value=99,
                initial=schedule.boards,
                help_text=_(
                    "8–24 brickor, lika många i varje match och minst 70 brickor per lag i "
                    "heatet (R-TEAM-KVAL-5)."
                )
                if not final
                else _("I en direktfinal anpassas brickorna efter antalet lag (R-TEAM-DF-1)."),
            )
            names.append(AppendedText("boards", "R-TEAM-DF-1" if final else "R-TEAM-KVAL-5"))
        seeds = []
        if not final:
            order = {
                n: i for i, n in enumerate(schedule.seeds or [t.number for t in schedule.teams], 1)
            }
            for t in schedule.teams:
                name = f"seed_{t.number}"
                self.fields[name] = forms.IntegerField(
                    label=f"{t.number}. {t.name}",
                    min_value=1,
                    max_value=len(schedule.teams),
                    initial=order.get(t.number, t.number),
                )
                seeds.append(Field(name, wrapper_class="col-6 col-md-3"))
        self.helper = FormHelper()
        self.helper.form_id = "schedule-proposal"
        layout = [*names]
        if seeds:
            layout.append(
                Fieldset(
                    _("Seedning: 1 är det starkaste laget"),
                    Div(*seeds, css_class="row g-2"),
                )
            )
        layout.append(Submit("propose", _("Föreslå schema")))
        self.helper.layout = Layout(*layout)

    def seeds(self) -> list[int]:
        """The team numbers best first (equal seeds: in number order)."""
        teams = self.schedule.teams
        return [
            t.number
            for t in sorted(teams, key=lambda t: (self.cleaned_data[f"seed_{t.number}"], t.number))
        ]


class ScheduleRoundsForm(forms.Form):
    """The schedule to save, a round a line: its day and its matches as the teams' numbers,
    home first ("1-7, 2-6, 3-5"); the boards per match and, when a saved schedule changes, the
    reason. The service checks it all (``save_heat_schedule``, ``save_final_schedule``)."""

    MAX_ROUNDS = 30

    def __init__(self, *args, schedule, count: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.schedule = schedule
        count = count if count is not None else len(schedule.rounds)
        self.count = max(0, min(int(count), self.MAX_ROUNDS))
        self.fields["round_count"] = forms.IntegerField(
            widget=forms.HiddenInput, initial=self.count, min_value=0, max_value=self.MAX_ROUNDS
        )
        rows = []
        for i in range(1, self.count + 1):
            r = schedule.rounds[i - 1] if i <= len(schedule.rounds) else None
            self.fields[f"date_{i}"] = forms.DateField(
                label=_("Rond %(n)s: speldag") % {"n": i},
                required=False,
                widget=DateInput(),
                initial=r.played_on if r else None,
            )
            self.fields[f"matches_{i}"] = forms.CharField(
                label=_("Rond %(n)s: matcher (hemmalag–bortalag)") % {"n": i},
                required=False,
                max_length=400,
                initial=r.text if r else "",
            )
            rows.append(
                Div(
                    Field(f"date_{i}", wrapper_class="col-12 col-md-4"),
                    Field(f"matches_{i}", wrapper_class="col-12 col-md-8"),
                    css_class="row g-2",
                )
            )
        self.fields["boards"] = forms.IntegerField(
            label=_("Brickor per match"), min_value=1, max_value=99, initial=schedule.boards
        )
        if schedule.is_final and not schedule.competition.is_direct_final:
            self.fields["boards"].widget = forms.HiddenInput()
        self.fields["reason"] = forms.CharField(
            label=_("Motivering"),
            required=False,
            widget=forms.Textarea(attrs={"rows": 2}),
            help_text=_("Krävs när ett sparat schema ändras; sparas i TK:s beslutslogg (R-GEN-3)."),
        )
        self.helper = FormHelper()
        self.helper.form_id = "schedule-rounds"
        self.helper.layout = Layout(
            Field("round_count"),
            *rows,
            Field("boards"),
            Field("reason"),
            Submit("save", _("Spara schemat")),
        )

    def entered(self) -> list[tuple]:
        """The rounds as (day, [(home, away), ...]); a line that cannot be read is an error on
        its field (the form is then not valid)."""
        out = []
        for i in range(1, self.count + 1):
            pairs, bad = parse_pairings(self.cleaned_data.get(f"matches_{i}") or "")
            if bad:
                self.add_error(
                    f"matches_{i}",
                    _("Kan inte läsa %(bad)s: skriv matcherna som 1-7, 2-6, 3-5.")
                    % {"bad": ", ".join(f"”{b}”" for b in bad)},
                )
            out.append((self.cleaned_data.get(f"date_{i}"), pairs))
        return out

    def add_violations(self, violations, language: str) -> None:
        for v in violations:
            key = "reason" if (v.data or {}).get("missing") == "reason" else None
            self.add_error(key, render_with_clause(v, language))


# ---------------------------------------------------------------------------------------------
# TK: the direct final (R-PAIR-DF-1, R-TEAM-DF-1) and the masterpoint table (R-PAIR-MP-1)
# ---------------------------------------------------------------------------------------------


class DirectFinalForm(forms.Form):
    """TK's decision for one competition: a direct final or qualifier heats, with a reason."""

    CHOICES = [("yes", _("Direktfinal")), ("no", _("Kval spelas"))]

    competition = forms.IntegerField(widget=forms.HiddenInput)
    direct = forms.ChoiceField(label=_("Beslut"), choices=CHOICES, widget=forms.RadioSelect)
    reason = forms.CharField(
        label=_("Motivering"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_(
            "Krävs när beslutet går emot huvudregeln; annars sparas regelns text (R-GEN-3)."
        ),
    )


class MpTableForm(forms.Form):
    """/tk/sasong/mastarpoang/: SBF's masterpoint table for the pairs finals, as a file or
    pasted; read and checked row by row (``ubf.rules.mp_table``), saved by
    ``clubs.services.season.load_mp_table``."""

    file = forms.FileField(
        label=_("Fil (CSV eller XLSX)"),
        required=False,
        help_text=_(
            "Rubriker: Antal par, Placering, Poäng (en rad per placering), eller Antal par "
            "följt av placeringarna 1, 2, 3 … (en rad per antal par, som SBF:s tabell)."
        ),
    )
    text = forms.CharField(
        label=_("Eller klistra in tabellen"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "class": "font-monospace"}),
        help_text=_("Från ett kalkylark (tabbar), eller med semikolon mellan kolumnerna."),
    )
    reason = forms.CharField(
        label=_("Motivering"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Sparas med den gamla och den nya tabellen i TK:s beslutslogg (R-GEN-3)."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_id = "mp-table"
        self.helper.attrs = {"enctype": "multipart/form-data"}
        self.helper.layout = Layout(
            Field("file"), Field("text"), Field("reason"), Submit("load", _("Spara tabellen"))
        )

    def clean(self):
        data = super().clean()
        if bool(data.get("file")) == bool((data.get("text") or "").strip()):
            raise forms.ValidationError(
                _("Ladda upp en fil eller klistra in tabellen (en av dem).")
            )
        return data


class SemifinalVenueForm(forms.Form):
    """R-TEAM-SEMI-1: one of SBF's semifinal venues (a row of :class:`SemifinalVenuesForm`'s
    formset); an empty extra row is ignored."""

    pk = forms.IntegerField(required=False, widget=forms.HiddenInput)
    name = forms.CharField(label=_("Ort"), max_length=80, required=False)
    first_date = _date(_("Första speldag"), required=False)
    last_date = _date(_("Sista speldag"), required=False)
    places = forms.IntegerField(
        label=_("Platser för UBF:s lag"),
        min_value=1,
        required=False,
        help_text=_("Bara om SBF har angett det; annars tomt."),
    )
    delete = forms.BooleanField(label=_("Ta bort"), required=False)


SemifinalVenueFormSet = forms.formset_factory(SemifinalVenueForm, extra=2)


class SemifinalPlacesForm(forms.Form):
    """R-TEAM-SEMI-1: UBF's number of SM semifinal places (from SBF) and where the figures
    come from (the reason of TK's decision, R-GEN-3)."""

    places = forms.IntegerField(
        label=_("UBF:s platser i SM Lags semifinal (från SBF)"), min_value=0, required=False
    )
    reason = forms.CharField(
        label=_("Källa eller motivering"),
        max_length=500,
        help_text=_("T.ex. SBF:s utskick med orterna och datumet."),
    )
