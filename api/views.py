"""The API's views: thin. Reads go through querysets and the pages' selectors; writes parse
the request, check the token's scope (``api.scopes``) and call the same service as the page,
which checks the user's permission and does the work in one transaction. Errors are problem
details (``api.problems``)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db.models import Prefetch, Q
from django.http import Http404
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from drf_spectacular.views import SpectacularAPIView
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView, get_object_or_404
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response

from clubs import seats
from clubs.i18n import render
from clubs.models import Competition, FinalSeat, Heat, Season, SeatOffer
from clubs.services.seats import answer_offer
from pairs.models import PairCompetition, PairHeat
from pairs.services.entries import enter_pair
from portal.caching import public_read, shows
from portal.selectors.calendar import season_events, season_named
from portal.selectors.outlook import competition_needs
from results.models import AllocationRun, StandingSnapshot
from results.services.uploads import upload_pair_final, upload_pair_heat, upload_team_results
from teams.models import (
    Match,
    RosterEntry,
    Team,
    TeamCompetition,
    TeamHeat,
)
from teams.services.entries import enter_team, record_lineup, update_roster

from . import filters, scopes
from . import serializers as s
from .idempotency import idempotent
from .problems import CONTENT_TYPE

# The refusals (problem details) are documented for every operation by
# ``api.schema.problem_responses``.
IDEMPOTENCY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="the same key again answers the first result and changes nothing",
)


class ProblemsMixin:
    """Problem details go out as ``application/problem+json`` (JSON, whatever renderer the
    view has, the schema's YAML included; the browsable API shows them as its page). The
    query string is checked as the schema says (issue 25): each parameter once, ``lang`` one
    of the site's languages; else 400."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        check_query(request)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        renderer = getattr(response, "accepted_renderer", None)
        if getattr(response, "problem", False) and not isinstance(renderer, BrowsableAPIRenderer):
            if not isinstance(renderer, JSONRenderer):
                response.accepted_renderer = JSONRenderer()
                response.accepted_media_type = CONTENT_TYPE
                response.renderer_context = self.get_renderer_context()
            response.content_type = CONTENT_TYPE
        return response


def check_query(request) -> None:
    errors = {}
    for name, values in request.query_params.lists():
        if len(values) > 1:
            errors[name] = [_("Ange %(name)s högst en gång.") % {"name": name}]
    lang = request.query_params.get("lang")
    codes = [code for code, _name in settings.LANGUAGES]
    if lang is not None and lang not in codes:
        errors.setdefault("lang", []).append(
            _("Språket är ett av %(codes)s.") % {"codes": ", ".join(codes)}
        )
    if errors:
        raise ValidationError(errors)


class SchemaView(ProblemsMixin, SpectacularAPIView):
    """The OpenAPI schema (``/api/schema/``), its refusals as problem details like the API's."""


class CachedReads:
    """The public reads are served from the public pages' cache (``portal.caching``, issue
    21): for an anonymous reader of JSON, with the same versions, per-worker copies, gzip,
    ETag and 304, stale-while-revalidate and Redis-down behaviour as the pages. A cached
    answer (and a 304) is given before the REST framework runs, so it is not counted by the
    throttles: only a render is (``api.throttling``).

    What an answer shows decides when it is stale: a list filtered to one competition
    (``?competition=``, or a heat's or a team's), or to a season (``?season=``: everything of
    it), and one object (its competition) declare it with ``portal.caching.shows``; any other
    list depends on every write."""

    @classmethod
    def as_view(cls, *args, **kwargs):
        return public_read(super().as_view(*args, **kwargs))

    def list(self, request, *args, **kwargs):
        response = super().list(request, *args, **kwargs)
        scope = self.list_shows(request.query_params)
        if scope is not None:
            shows(request, **scope)
        return response

    def retrieve(self, request, *args, **kwargs):
        response = super().retrieve(request, *args, **kwargs)
        shows(request, **self.object_shows(response.data))
        return response

    def list_shows(self, params) -> dict | None:
        """What a list shows, from its filters; None: anything."""
        competition = _whole(params.get("competition"))
        if competition:
            return {"competitions": [competition]}
        heat = _whole(params.get("heat"))
        if heat:
            found = (
                Heat.objects.filter(pk=heat)
                .values_list("pairheat__competition_id", "teamheat__competition_id")
                .first()
            )
            return {"competitions": list(found or ())}
        team = _whole(params.get("team"))
        if team:
            return {
                "competitions": list(
                    Team.objects.filter(pk=team).values_list("competition_id", flat=True)
                )
            }
        if params.get("season"):
            season = Season.objects.filter(name=params["season"]).values_list("id", flat=True)
            return {"lists": list(season)}
        return None

    def object_shows(self, data) -> dict:
        """What one object shows: its competition."""
        return {"competitions": [data.get("competition")]}


def _whole(value) -> int | None:
    return int(value) if value and value.isascii() and value.isdigit() else None


class ReadOnly(ProblemsMixin, CachedReads, viewsets.ReadOnlyModelViewSet):
    pass


def _warnings(violations) -> list[dict]:
    lang = (get_language() or "sv")[:2]
    return [
        {"text": render(v, lang), "where": "", "clause": v.clause or "", "severity": "warning"}
        for v in violations
    ]


def _file(request):
    """The validated upload form: the file's bytes, its name, session and round. A
    ``checksum`` that is not the file's SHA-256 is refused (the file changed on the way)."""
    form = s.ResultFileInput(data=request.data)
    form.is_valid(raise_exception=True)
    f = form.validated_data["file"]
    data = f.read()
    given = form.validated_data.get("checksum")
    if given and given.lower() != hashlib.sha256(data).hexdigest():
        raise ValidationError(
            {"checksum": [_("Kontrollsumman stämmer inte med filen: skicka filen igen.")]}
        )
    return data, f.name, form.validated_data


def _upload_answer(outcome) -> Response:
    body = s.UploadSerializer(outcome.upload, context={"unchanged": outcome.unchanged}).data
    return Response(body, status=status.HTTP_200_OK if outcome.unchanged else 201)


UPLOAD = extend_schema(
    request={"multipart/form-data": s.ResultFileInput},
    responses={200: s.UploadSerializer, 201: s.UploadSerializer},
    parameters=[IDEMPOTENCY],
)


class SeasonViewSet(ReadOnly):
    """The seasons, newest first."""

    queryset = Season.objects.order_by("-start_year")
    serializer_class = s.SeasonSerializer
    filterset_class = filters.SeasonFilter

    def list_shows(self, params) -> dict:
        return {}  # the seasons' rows: on every page's own key

    def object_shows(self, data) -> dict:
        return {}


class CompetitionViewSet(ReadOnly):
    """DM Par (Open, Mixed, Veteran, Dam) and DM Lag of each season."""

    queryset = Competition.objects.select_related("season").order_by("-season__start_year", "id")
    serializer_class = s.CompetitionSerializer
    filterset_class = filters.CompetitionFilter

    def object_shows(self, data) -> dict:
        return {"competitions": [data["id"]]}

    @UPLOAD
    @action(
        detail=True,
        methods=["post"],
        url_path="final-results",
        parser_classes=[MultiPartParser, FormParser],
        serializer_class=s.ResultFileInput,
        filterset_class=None,
        pagination_class=None,
    )
    @idempotent
    def final_results(self, request, pk=None):
        """The final's results file (TK): DM Lag a round at a time (``round``), as each round
        ends; DM Par the whole final. The same file again changes nothing."""
        competition = self.get_object()
        scopes.require_heat(request, None, competition.pk)
        data, name, fields = _file(request)
        if competition.kind == Competition.Kind.TEAMS:
            outcome = upload_team_results(
                request.user,
                competition=TeamCompetition.objects.select_related("season").get(pk=competition.pk),
                data=data,
                filename=name,
                round=fields.get("round"),
            )
        else:
            outcome = upload_pair_final(
                request.user,
                PairCompetition.objects.select_related("season").get(pk=competition.pk),
                data=data,
                filename=name,
            )
        return _upload_answer(outcome)

    @extend_schema(responses={200: s.FinalNeedsSerializer})
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def outlook(self, request, pk=None):
        """What each team of the DM Lag final needs before each of its last two rounds
        (issue 21, ``portal.selectors.outlook``, ``ubf.rules.outlook.final_outlook``): per
        team the title and a medal (DM order, R-TEAM-4) and an SM semifinal place (full order,
        R-TEAM-SEMI-1), each ``certain``, ``possible`` or ``out``, with the fewest VP from its
        remaining match(es) that make it possible (``needs_vp``) or certain (``secures_vp``),
        and the sentence in the request's language. Outside the last two rounds (or for DM
        Par) ``teams`` is empty and ``before_round`` null."""
        competition = self.get_object()
        shows(request, competitions=[competition.pk])
        needs = None
        if competition.kind == Competition.Kind.TEAMS:
            needs = competition_needs(
                TeamCompetition.objects.select_related("season").get(pk=competition.pk)
            )
        language = get_language()
        return Response(
            {
                "competition": competition.pk,
                "before_round": needs.before_round if needs else None,
                "rounds_left": needs.rounds_left if needs else 0,
                "teams": [
                    t.as_dict(lambda m: render(m, language)) for t in (needs.teams if needs else ())
                ],
            }
        )


class HeatViewSet(ReadOnly):
    """Qualifier heats, pairs and teams."""

    queryset = (
        Heat.objects.select_related("pairheat", "teamheat")
        .prefetch_related("pairheat__clubs", "teamheat__clubs")
        .order_by("first_date", "id")
    )
    serializer_class = s.HeatSerializer
    filterset_class = filters.HeatFilter

    @UPLOAD
    @action(
        detail=True,
        methods=["post"],
        parser_classes=[MultiPartParser, FormParser],
        serializer_class=s.ResultFileInput,
        filterset_class=None,
        pagination_class=None,
    )
    @idempotent
    def results(self, request, pk=None):
        """A heat's results file from its scoring program: pairs (PBN, USEBIO; ``session`` 1
        or 2 for a heat of two sessions) or teams (PBN, USEBIO, CSV; optionally one
        ``round``). Checked completely; nothing is saved on any error. The same file again
        changes nothing and answers the upload it repeats."""
        heat = self.get_object()
        scopes.require_heat(request, heat.pk)
        data, name, fields = _file(request)
        if heat.kind == Heat.Kind.TEAMS:
            outcome = upload_team_results(
                request.user,
                heat=TeamHeat.objects.select_related("competition__season").get(pk=heat.pk),
                data=data,
                filename=name,
                round=fields.get("round"),
            )
        else:
            outcome = upload_pair_heat(
                request.user,
                PairHeat.objects.select_related("competition__season").get(pk=heat.pk),
                data=data,
                filename=name,
                session=fields.get("session"),
            )
        return _upload_answer(outcome)


class TeamViewSet(
    ProblemsMixin, CachedReads, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet
):
    """DM Lag teams with their rosters. Address, phone and e-mail only to TK and the team."""

    queryset = (
        seats.with_seats(Team.objects.select_related("captain"))
        .prefetch_related(Prefetch("roster", queryset=RosterEntry.objects.select_related("player")))
        .order_by("competition", "heat", "number", "name")
    )
    serializer_class = s.TeamSerializer
    filterset_class = filters.TeamFilter

    @extend_schema(
        request=s.TeamEntryInput,
        responses={201: s.TeamSerializer},
        parameters=[IDEMPOTENCY],
    )
    @idempotent
    def create(self, request, *args, **kwargs):
        """Enter a team in a heat (``teams.services.entries.enter_team``)."""
        form = s.TeamEntryInput(data=request.data)
        form.is_valid(raise_exception=True)
        v = form.validated_data
        heat = get_object_or_404(
            TeamHeat.objects.select_related("competition__season"), pk=v["heat"]
        )
        scopes.require_heat(request, heat.pk)
        outcome = enter_team(
            request.user,
            heat,
            name=v["name"],
            captain_mid=v["captain_mid"],
            address=v["address"],
            phone=v["phone"],
            email=v["email"],
            player_mids=v["player_mids"],
            reason=v["reason"],
        )
        return Response(self._team(outcome.team), status=status.HTTP_201_CREATED)

    def _team(self, team) -> dict:
        return s.TeamSerializer(
            self.get_queryset().get(pk=team.pk), context=self.get_serializer_context()
        ).data

    @extend_schema(
        request=s.RosterInput,
        responses={200: s.TeamSerializer},
        parameters=[IDEMPOTENCY],
    )
    @action(
        detail=True,
        methods=["post"],
        serializer_class=s.RosterInput,
        filterset_class=None,
        pagination_class=None,
    )
    @idempotent
    def roster(self, request, pk=None):
        """Add or remove roster players (``teams.services.entries.update_roster``)."""
        team = get_object_or_404(Team.objects.select_related("competition__season"), pk=pk)
        scopes.require_team(request, team)
        form = s.RosterInput(data=request.data)
        form.is_valid(raise_exception=True)
        v = form.validated_data
        update_roster(request.user, team, v["add_mids"], v["remove_mids"], reason=v["reason"])
        return Response(self._team(team))


class MatchViewSet(ReadOnly):
    """DM Lag matches; one match with its boards."""

    queryset = Match.objects.select_related("home", "away").order_by(
        "competition", "stage", "heat", "round", "id"
    )
    serializer_class = s.MatchSerializer
    filterset_class = filters.MatchFilter

    def get_serializer_class(self):
        return s.MatchDetailSerializer if self.action == "retrieve" else s.MatchSerializer

    def get_queryset(self):
        qs = super().get_queryset()
        return qs.prefetch_related("board_results") if self.action == "retrieve" else qs

    @extend_schema(
        request=s.LineupInput,
        responses={200: s.LineupResult},
        parameters=[IDEMPOTENCY],
    )
    @action(
        detail=True,
        methods=["post"],
        serializer_class=s.LineupInput,
        filterset_class=None,
        pagination_class=None,
    )
    @idempotent
    def lineups(self, request, pk=None):
        """Who played each half for one team (``teams.services.entries.record_lineup``)."""
        match = self.get_object()
        scopes.require_match(request, match)
        form = s.LineupInput(data=request.data)
        form.is_valid(raise_exception=True)
        v = form.validated_data
        team = get_object_or_404(Team, pk=v["team"])
        outcome = record_lineup(
            request.user,
            match,
            team,
            half1_mids=v["half1_mids"],
            half2_mids=v["half2_mids"],
            reason=v["reason"],
        )
        halves: dict[str, list[str]] = {}
        for line in outcome.lineups:
            halves.setdefault(str(line.half), []).append(line.player.mid)
        return Response(
            {
                "match": match.pk,
                "team": team.pk,
                "halves": {k: sorted(v) for k, v in halves.items()},
                "warnings": _warnings(outcome.warnings),
            }
        )


class StandingViewSet(ReadOnly):
    """Standings as the recompute stored them (heats and finals, pairs and teams). The list
    says which there are (one item per heat and per final, filtered by ``competition``,
    ``heat`` or ``scope``) with the link (``url``) to each one's rows, so that no answer holds
    a whole national season's standings (issue 21: 1.1 MB); ``standings/<id>/`` has the rows."""

    queryset = StandingSnapshot.objects.order_by("competition", "scope", "heat", "id")
    serializer_class = s.StandingSerializer
    filterset_class = filters.StandingFilter

    def get_serializer_class(self):
        return s.StandingSerializer if self.action == "retrieve" else s.StandingSummarySerializer

    def get_queryset(self):
        qs = super().get_queryset()
        return qs if self.action == "retrieve" else qs.defer("data")


class AllocationViewSet(ReadOnly):
    """The allocation of final places over the venues, with its explanation in the request's
    language (R-ALLOC-*, R-TEAM-ADV-1) and the replacement chain's steps (R-REPL-*)."""

    queryset = AllocationRun.objects.order_by("competition")
    serializer_class = s.AllocationSerializer
    filterset_class = filters.AllocationFilter


TEAMS = Q(competition__discipline=Competition.Discipline.TEAMS)


def _seats(kind: str):
    """One final's seats (``clubs.FinalSeat``) with their holders and their offers."""
    competitions = TEAMS if kind == Competition.Kind.TEAMS else ~TEAMS
    return (
        FinalSeat.objects.filter(competitions)
        .select_related(*seats.HOLDER_NAMES)
        .prefetch_related(
            Prefetch("offers", queryset=SeatOffer.objects.select_related(*seats.ENTRY_NAMES))
        )
        .order_by("competition", "id")
    )


class PairSeatViewSet(ReadOnly):
    """DM Par final seats: who holds each, why, what it replaces, the offers made for it.
    ``?held=true`` gives the final's seat holders."""

    queryset = _seats(Competition.Kind.PAIRS)
    serializer_class = s.SeatSerializer
    filterset_class = filters.SeatFilter


class TeamSeatViewSet(ReadOnly):
    """DM Lag final seats, as for pairs."""

    queryset = _seats(Competition.Kind.TEAMS)
    serializer_class = s.SeatSerializer
    filterset_class = filters.SeatFilter


class PairEntryViewSet(ProblemsMixin, viewsets.GenericViewSet):
    """Enter a pair in a heat (``pairs.services.entries.enter_pair``)."""

    serializer_class = s.PairEntryInput
    queryset = PairHeat.objects.none()

    @extend_schema(
        request=s.PairEntryInput,
        responses={201: s.PairEntryResult},
        parameters=[IDEMPOTENCY],
    )
    @idempotent
    def create(self, request):
        form = s.PairEntryInput(data=request.data)
        form.is_valid(raise_exception=True)
        v = form.validated_data
        heat = get_object_or_404(
            PairHeat.objects.select_related("competition__season"), pk=v["heat"]
        )
        scopes.require_heat(request, heat.pk)
        outcome = enter_pair(
            request.user,
            heat,
            v["mid1"],
            v["mid2"],
            pair_number=v.get("pair_number") or None,
            session=v["session"],
            reason=v["reason"],
        )
        e = outcome.entry
        return Response(
            {
                "id": e.pk,
                "heat": heat.pk,
                "pair_number": e.pair_number,
                "players": [{"mid": p.mid, "name": p.full_name} for p in (e.player1, e.player2)],
                "status": e.status,
                "warnings": _warnings(outcome.warnings),
            },
            status=status.HTTP_201_CREATED,
        )


def _answer_view(offers, scope_of):
    class AnswerViewSet(ProblemsMixin, viewsets.GenericViewSet):
        queryset = offers
        serializer_class = s.OfferAnswerInput

        @extend_schema(
            request=s.OfferAnswerInput,
            responses={200: s.OfferAnswerResult},
            parameters=[IDEMPOTENCY],
        )
        @action(detail=True, methods=["post"])
        @idempotent
        def answer(self, request, pk=None):
            """Record the answer to the offer of a final seat (R-REPL-5)."""
            offer = self.get_object()
            scope_of(request, offer)
            form = s.OfferAnswerInput(data=request.data)
            form.is_valid(raise_exception=True)
            v = form.validated_data
            offer = answer_offer(request.user, offer, v["answer"], reason=v["reason"])
            return Response(
                {"id": offer.pk, "answer": offer.answer, "answered_at": offer.answered_at}
            )

    return AnswerViewSet


def _pair_scope(request, offer) -> None:
    pair = offer.entry.pairentry
    scopes.require_heat(request, pair.heat_id, pair.competition_id)


PAIR_OFFERS = SeatOffer.objects.exclude(seat__competition__discipline=Competition.Discipline.TEAMS)
TEAM_OFFERS = SeatOffer.objects.filter(seat__competition__discipline=Competition.Discipline.TEAMS)
PairOfferViewSet = _answer_view(PAIR_OFFERS, _pair_scope)
PairOfferViewSet.__name__ = PairOfferViewSet.__qualname__ = "PairOfferViewSet"
TeamOfferViewSet = _answer_view(
    TEAM_OFFERS, lambda request, offer: scopes.require_team(request, offer.entry.team)
)
TeamOfferViewSet.__name__ = TeamOfferViewSet.__qualname__ = "TeamOfferViewSet"


class CalendarView(ProblemsMixin, CachedReads, ListAPIView):
    """Every heat and final of a season in date order (``?season=2016-2017``; the current
    season by default), as on /kalender/."""

    serializer_class = s.CalendarEventSerializer
    queryset = Season.objects.none()  # the events are a selector's list, not a queryset

    @extend_schema(
        parameters=[OpenApiParameter("season", OpenApiTypes.STR, description="2016-2017")],
        responses={200: s.CalendarEventSerializer(many=True)},
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return []
        name = self.request.query_params.get("season")
        season = season_named(name)
        if season is None and name:
            raise Http404
        shows(self.request, lists=[season and season.pk])
        return season_events(season)

    def list_shows(self, params) -> dict:
        return {}  # declared with the season it found (get_queryset)
