"""What the API shows and reads. Public data read-only; a team's address, phone and e-mail
only to TK and the team itself (its captain's account); nothing else personal is shown."""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs import seats
from clubs.i18n import render
from clubs.models import Competition, Heat, Season
from clubs.permissions import is_tk
from results import seat_states
from results.models import AllocationRun, RecomputeStatus, ResultUpload, StandingSnapshot
from teams.models import BoardResult, Match, Team


def _lang() -> str:
    return (get_language() or "sv")[:2]


def _cached(context: dict, name: str, competition_id: int, compute):
    """One reading per competition and answer (the root serializer's context is shared by a
    list's rows): the heats still to come, each team's final place in words."""
    store = context.setdefault(f"_seat_states_{name}", {})
    if competition_id not in store:
        store[competition_id] = compute()
    return store[competition_id]


def _state_fields(words) -> dict:
    """A final place as the API says it (issue 21): ``state`` (provisional, qualified, direct,
    offered, declined) and ``state_display`` ("preliminärt, 4 heat kvar" …)."""
    if words is None:
        return {"state": None, "state_display": None}
    return {"state": words.state, "state_display": words.text}


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "name", "start_year", "is_current"]


class CompetitionSerializer(serializers.ModelSerializer):
    season = serializers.CharField(source="season.name")
    kind = serializers.CharField()
    name = serializers.SerializerMethodField()

    class Meta:
        model = Competition
        fields = ["id", "season", "discipline", "kind", "name"]

    def get_name(self, obj) -> str:
        return str(obj)


def heat_child(heat: Heat):
    """The PairHeat or TeamHeat of a heat row (selected with it by the view)."""
    return heat.teamheat if heat.kind == Heat.Kind.TEAMS else heat.pairheat


class HeatSerializer(serializers.ModelSerializer):
    competition = serializers.SerializerMethodField()
    organisers = serializers.SerializerMethodField()

    class Meta:
        model = Heat
        fields = [
            "id",
            "competition",
            "kind",
            "name",
            "venue",
            "first_date",
            "last_date",
            "status",
            "organisers",
        ]

    def get_competition(self, obj) -> int:
        return heat_child(obj).competition_id

    def get_organisers(self, obj) -> list[str]:
        return sorted(c.name for c in heat_child(obj).clubs.all())


class TeamRef(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "name"]


class PlayerLine(serializers.Serializer):
    mid = serializers.CharField()
    name = serializers.CharField()


def may_see_contact(user, team: Team) -> bool:
    """Personal data (address, phone, e-mail) is for TK and the team itself."""
    if user is None or not user.is_authenticated:
        return False
    return team.captain_user_id == user.id or is_tk(user)


class TeamSerializer(serializers.ModelSerializer):
    captain = serializers.CharField(source="captain.full_name")
    players = serializers.SerializerMethodField()
    address = serializers.CharField(required=False, allow_null=True)
    phone = serializers.CharField(required=False, allow_null=True)
    email = serializers.CharField(required=False, allow_null=True)
    #: R-TEAM-ADV-1: the team holds a seat in the final, and the seat's number in the final
    #: (``clubs.seats.with_seats``: the seat rows, nothing cached on the team).
    holds_final_seat = serializers.BooleanField(source="is_finalist", read_only=True)
    final_seat_number = serializers.SerializerMethodField()
    #: Issue 21: the final place in words (``results.seat_states``): a provisional seat says
    #: "preliminärt, X heat kvar" until every heat is in; null when the team has none.
    final_seat_state = serializers.SerializerMethodField()
    final_seat_state_display = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = [
            "id",
            "competition",
            "heat",
            "number",
            "name",
            "status",
            "holds_final_seat",
            "final_seat_number",
            "final_seat_state",
            "final_seat_state_display",
            "captain",
            "players",
            "address",
            "phone",
            "email",
        ]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_final_seat_number(self, obj) -> int | None:
        if "final_seat_number" in obj.__dict__:
            return obj.final_seat_number
        seat = seats.held_by(obj).last()
        return seat.number if seat else None

    def _words(self, obj):
        states = _cached(
            self.context,
            "teams",
            obj.competition_id,
            lambda: seat_states.entry_states(obj.competition),
        )
        return states.get(obj.pk)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_final_seat_state(self, obj) -> str | None:
        return _state_fields(self._words(obj))["state"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_final_seat_state_display(self, obj) -> str | None:
        return _state_fields(self._words(obj))["state_display"]

    @extend_schema_field(PlayerLine(many=True))
    def get_players(self, obj):
        return [{"mid": r.player.mid, "name": r.player.full_name} for r in obj.roster.all()]

    def to_representation(self, obj):
        data = super().to_representation(obj)
        request = self.context.get("request")
        if not may_see_contact(getattr(request, "user", None), obj):
            for name in ("address", "phone", "email"):
                data[name] = None
        return data


class BoardSerializer(serializers.ModelSerializer):
    class Meta:
        model = BoardResult
        fields = [
            "board_number",
            "score_ns_room1",
            "score_ns_room2",
            "contract_room1",
            "declarer_room1",
            "contract_room2",
            "declarer_room2",
            "imps_home",
            "imps_away",
        ]


class MatchSerializer(serializers.ModelSerializer):
    home = TeamRef()
    away = TeamRef()

    class Meta:
        model = Match
        fields = [
            "id",
            "competition",
            "stage",
            "heat",
            "round",
            "home",
            "away",
            "boards",
            "played_on",
            "status",
            "imps_home",
            "imps_away",
            "vp_home",
            "vp_away",
        ]


class MatchDetailSerializer(MatchSerializer):
    board_results = BoardSerializer(many=True)

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "board_results"]


class StandingSummarySerializer(serializers.ModelSerializer):
    """One heat's or final's standings in the list, without its rows: ``url`` has them."""

    url = serializers.HyperlinkedIdentityField(view_name="api:standing-detail")

    class Meta:
        model = StandingSnapshot
        fields = [
            "id",
            "url",
            "scope",
            "competition",
            "heat",
            "computed_at",
            "provisional",
            "rounds_played",
        ]


class StandingSerializer(serializers.ModelSerializer):
    rows = serializers.JSONField(source="data")

    class Meta:
        model = StandingSnapshot
        fields = [
            "id",
            "scope",
            "competition",
            "heat",
            "computed_at",
            "provisional",
            "rounds_played",
            "rows",
        ]


class ChanceSerializer(serializers.Serializer):
    goal = serializers.ChoiceField(choices=["title", "medal", "semifinal"])
    place = serializers.IntegerField(help_text="finishing this place or better")
    order = serializers.ChoiceField(
        choices=["dm", "full"], help_text="DM order (R-TEAM-4) or full order (R-TEAM-SEMI-1)"
    )
    state = serializers.ChoiceField(choices=["certain", "possible", "out"])
    needs_vp = serializers.CharField(
        allow_null=True, help_text="fewest VP from the remaining match(es) that make it possible"
    )
    secures_vp = serializers.CharField(
        allow_null=True, help_text="fewest VP from the remaining match(es) that make it certain"
    )
    text = serializers.CharField()


class TeamNeedsSerializer(serializers.Serializer):
    team = serializers.IntegerField()
    name = serializers.CharField()
    remaining_matches = serializers.IntegerField()
    sm_only = serializers.BooleanField()
    chances = ChanceSerializer(many=True)


class FinalNeedsSerializer(serializers.Serializer):
    """What each team of the final needs (issue 21, ``ubf.rules.outlook.final_outlook``)."""

    competition = serializers.IntegerField()
    before_round = serializers.IntegerField(allow_null=True)
    rounds_left = serializers.IntegerField()
    teams = TeamNeedsSerializer(many=True)


class ExplainedLine(serializers.Serializer):
    clause = serializers.CharField()
    text = serializers.CharField()


def _line(x: dict) -> dict:
    return {"clause": x.get("clause", ""), "text": render(x.get("message"), _lang())}


class AllocationSerializer(serializers.ModelSerializer):
    venues = serializers.SerializerMethodField()
    lots = serializers.SerializerMethodField()
    lines = serializers.SerializerMethodField()
    chain = serializers.SerializerMethodField()

    class Meta:
        model = AllocationRun
        fields = [
            "id",
            "competition",
            "computed_at",
            "provisional",
            "final_size",
            "seats",
            "qualifying_entries",
            "venues",
            "lots",
            "lines",
            "chain",
        ]

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_venues(self, obj):
        return obj.explanation.get("venues", [])

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_lots(self, obj):
        return obj.explanation.get("lots", [])

    @extend_schema_field(ExplainedLine(many=True))
    def get_lines(self, obj):
        return [_line(x) for x in obj.explanation.get("lines", [])]

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_chain(self, obj):
        return [
            {
                "seat": c.get("seat"),
                "status": c.get("status"),
                "holder": c.get("holder"),
                "ask": c.get("ask"),
                "pending": c.get("pending"),
                "steps": [_line(s) for s in c.get("steps", [])],
            }
            for c in obj.explanation.get("chain", [])
        ]


class OfferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    to = serializers.CharField()
    offered_at = serializers.DateTimeField()
    answer = serializers.CharField()
    answered_at = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField()


class SeatSerializer(serializers.Serializer):
    """A final seat, pairs or teams (``clubs.models.FinalSeat``): who holds it, why, the
    seat it replaces and the offers made for it (the replacement chain)."""

    id = serializers.IntegerField()
    competition = serializers.IntegerField(source="competition_id")
    source = serializers.CharField()
    status = serializers.CharField()
    key = serializers.CharField(source="chain_key")
    held = serializers.BooleanField(source="is_held")
    holder = serializers.CharField(source="holder_name")
    origin_heat = serializers.IntegerField(source="origin_heat_id", allow_null=True)
    replaces = serializers.IntegerField(source="replaces_id", allow_null=True)
    reason = serializers.SerializerMethodField()
    offers = serializers.SerializerMethodField()
    #: Issue 21: the seat in words (``results.seat_states``): ``state`` provisional, qualified,
    #: direct, offered or declined; ``state_display`` "preliminärt, 4 heat kvar" …
    state = serializers.SerializerMethodField()
    state_display = serializers.SerializerMethodField()

    def get_reason(self, obj) -> str:
        return obj.reason_text(_lang())

    def _words(self, obj):
        # the heats still to come and the holders waiting on an undrawn lot (R-PAIR-TIE-1)
        left, pending = _cached(
            self.context,
            "seats",
            obj.competition_id,
            lambda: seat_states.seat_reading(obj.competition),
        )
        return seat_states.seat_words(obj, left, pending)

    def get_state(self, obj) -> str:
        return self._words(obj).state

    def get_state_display(self, obj) -> str:
        return self._words(obj).text

    @extend_schema_field(OfferSerializer(many=True))
    def get_offers(self, obj):
        return [
            {
                "id": o.pk,
                "to": str(o.entry),
                "offered_at": o.offered_at,
                "answer": o.answer,
                "answered_at": o.answered_at,
                "reason": o.reason_text(_lang()),
            }
            for o in obj.offers.all()
        ]

    def to_representation(self, obj):
        data = super().to_representation(obj)
        data["offers"] = OfferSerializer(data["offers"], many=True).data
        return data


class CalendarEventSerializer(serializers.Serializer):
    uid = serializers.CharField()
    kind = serializers.CharField()
    competition = serializers.IntegerField(source="competition.pk")
    competition_label = serializers.CharField()
    title = serializers.CharField()
    venue = serializers.CharField()
    first = serializers.DateField()
    last = serializers.DateField()
    status = serializers.CharField()
    path = serializers.CharField()


# --- writes --------------------------------------------------------------------------------


class ResultFileInput(serializers.Serializer):
    file = serializers.FileField()
    #: The file's SHA-256 as the program computed it: a file changed on the way is refused.
    checksum = serializers.RegexField(r"^[0-9a-fA-F]{64}$", required=False)
    session = serializers.IntegerField(required=False, min_value=1, max_value=2)
    round = serializers.IntegerField(required=False, min_value=1, max_value=99)


class ProblemLine(serializers.Serializer):
    text = serializers.CharField()
    where = serializers.CharField()
    clause = serializers.CharField()
    severity = serializers.CharField()


class UploadSerializer(serializers.ModelSerializer):
    """The stored upload and what happens next: ``recompute_pending`` while the standings are
    still to be counted (the recompute runs after the answer, or later when the broker was
    unreachable: the sweep sends it again), and ``message``, the upload page's words for it."""

    unchanged = serializers.SerializerMethodField()
    warnings = ProblemLine(many=True)
    recompute_pending = serializers.SerializerMethodField()
    message = serializers.SerializerMethodField()

    class Meta:
        model = ResultUpload
        fields = [
            "id",
            "competition",
            "heat",
            "round",
            "session",
            "status",
            "format",
            "checksum",
            "original_name",
            "uploaded_at",
            "unchanged",
            "warnings",
            "recompute_pending",
            "message",
        ]

    def get_unchanged(self, obj) -> bool:
        return bool(self.context.get("unchanged"))

    def get_recompute_pending(self, obj) -> bool:
        status = RecomputeStatus.objects.filter(competition_id=obj.competition_id).first()
        return bool(status and status.pending)

    def get_message(self, obj) -> str:
        if self.context.get("unchanged"):
            return _("Filen är identisk med den senast inlästa. Inget ändrades.")
        return _("Sparat, resultatlistan uppdateras snart.")


MIDS = serializers.ListField(child=serializers.CharField(max_length=12), max_length=12)


class PairEntryInput(serializers.Serializer):
    heat = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    mid1 = serializers.CharField(max_length=12)
    mid2 = serializers.CharField(max_length=12)
    pair_number = serializers.CharField(max_length=10, required=False, allow_blank=True)
    session = serializers.IntegerField(required=False, min_value=1, max_value=2, default=1)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class PairEntryResult(serializers.Serializer):
    id = serializers.IntegerField()
    heat = serializers.IntegerField()
    pair_number = serializers.CharField(allow_null=True)
    players = PlayerLine(many=True)
    status = serializers.CharField()
    warnings = ProblemLine(many=True)


class TeamEntryInput(serializers.Serializer):
    heat = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    name = serializers.CharField(max_length=80)
    captain_mid = serializers.CharField(max_length=12)
    address = serializers.CharField(max_length=200)
    phone = serializers.CharField(max_length=30)
    email = serializers.EmailField()
    player_mids = serializers.ListField(child=serializers.CharField(max_length=12), max_length=12)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class RosterInput(serializers.Serializer):
    add_mids = serializers.ListField(
        child=serializers.CharField(max_length=12), max_length=12, required=False, default=list
    )
    remove_mids = serializers.ListField(
        child=serializers.CharField(max_length=12), max_length=12, required=False, default=list
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class LineupInput(serializers.Serializer):
    team = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    half1_mids = serializers.ListField(child=serializers.CharField(max_length=12), max_length=8)
    half2_mids = serializers.ListField(
        child=serializers.CharField(max_length=12), max_length=8, required=False, default=list
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class LineupResult(serializers.Serializer):
    match = serializers.IntegerField()
    team = serializers.IntegerField()
    halves = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    warnings = ProblemLine(many=True)


class OfferAnswerInput(serializers.Serializer):
    answer = serializers.ChoiceField(choices=["accepted", "declined"])
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class OfferAnswerResult(serializers.Serializer):
    id = serializers.IntegerField()
    answer = serializers.CharField()
    answered_at = serializers.DateTimeField(allow_null=True)
