"""TK's work queue (/tk/): what waits for a TK decision in the season, grouped and sorted by
the last day it can wait, each with its facts, its clause and a link to where it is decided;
for TK only, and in a fixed number of queries."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs import clock
from clubs.models import FinalSeat, HeatStatus, SeatOffer
from clubs.services.seats import give_up_seat
from results.services.recompute import recompute_pair_competition
from teams.models import Dispensation
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    MatchFactory,
    PairCompetitionFactory,
    PairEntryFactory,
    PairHeatFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    member,
)
from tests.results.test_recompute_pairs import heat_with_results

pytestmark = pytest.mark.django_db


@pytest.fixture
def tk(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def section(html: str, key: str) -> str:
    return html.split(f'id="{key}"')[1].split("</section>")[0]


def test_anonymous_goes_to_login_and_a_club_official_is_refused(client):
    assert client.get("/tk/").status_code == 302
    client.force_login(ClubOfficialFactory().user)
    assert client.get("/tk/").status_code == 403


def test_applied_heats_are_listed_by_their_day_of_play_with_the_organiser(tk):
    season = SeasonFactory()
    comp = PairCompetitionFactory(season=season)
    PairHeatFactory(
        competition=comp,
        name="Sent kval",
        first_date=date(2017, 3, 1),
        status=HeatStatus.APPLIED,
        clubs=[ClubFactory(name="BK Fyris")],
    )
    PairHeatFactory(
        competition=comp, name="Tidigt kval", first_date=date(2017, 1, 14), status="applied"
    )
    PairHeatFactory(competition=comp, name="Godkänt kval", status=HeatStatus.APPROVED)
    with clock.frozen("2017-01-20"):
        html = section(tk.get("/tk/").content.decode(), "heats")
    assert html.index("Tidigt kval") < html.index("Sent kval")
    assert "Godkänt kval" not in html
    assert "Arrangör: BK Fyris" in html and "R-PAIR-KVAL-1" in html
    assert "sista dag 14 jan 2017 (passerad)" in html  # the early heat's day has gone by
    assert "sista dag 1 mar 2017" in html and "1 mar 2017 (passerad)" not in html


def test_a_requested_dispensation_and_a_pending_seat_offer_wait_for_tk(tk):
    season = SeasonFactory()
    team = TeamFactory(name="Fyris 1", players=4)
    player = member(season=season, first_name="Anna", last_name="Berg")
    Dispensation.objects.create(
        kind=Dispensation.Kind.EXTRA_PLAYER,
        team=team,
        player=player,
        occasion="rond 3",
        occasion_date=date(2017, 3, 4),
    )
    Dispensation.objects.create(
        kind=Dispensation.Kind.EXTRA_PLAYER, team=team, status=Dispensation.Status.GRANTED
    )
    comp = PairCompetitionFactory(season=season)
    heat = PairHeatFactory(competition=comp, name="Kval Enköping")
    holder, asked = PairEntryFactory(heat=heat), PairEntryFactory(heat=heat)
    seat = FinalSeat.objects.create(
        competition=comp, holder=holder, source=FinalSeat.Source.ALLOCATION
    )
    SeatOffer.objects.create(seat=seat, entry=asked, offered_at=timezone.now())
    html = tk.get("/tk/").content.decode()
    disp = section(html, "dispensations")
    assert disp.count("list-group-item") == 1  # the granted one is decided
    assert "Fyris 1" in disp and "Spelare: Anna Berg" in disp and "Tillfälle: rond 3" in disp
    assert "R-TEAM-5" in disp and "sista dag 4 mar 2017" in disp
    offers = section(html, "offers")
    assert asked.player1.full_name in offers and "Kvalheat: Kval Enköping" in offers
    assert "R-REPL-5" in offers
    assert f"/admin/clubs/seatoffer/{SeatOffer.objects.get().pk}/change/" in offers
    assert "Inget väntar." in section(html, "heat_changes")


def test_the_queue_does_not_grow_in_queries_with_its_length(tk):
    season = SeasonFactory()
    comp = PairCompetitionFactory(season=season)

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert tk.get("/tk/").status_code == 200
        return len(ctx.captured_queries)

    PairHeatFactory(competition=comp, status=HeatStatus.APPLIED)
    TeamFactory(players=1)
    one = count()
    for _ in range(5):
        PairHeatFactory(competition=comp, status=HeatStatus.APPLIED)
        Dispensation.objects.create(kind="extra_player", team=TeamFactory(players=1))
        MatchFactory(status="played", played_on=date(2016, 11, 5))
    assert count() == one
    # R-TEAM-4: each played match without a line-up is one item on TK's list
    assert section(tk.get("/tk/").content.decode(), "lineups").count("list-group-item") == 5


def test_the_queue_in_english(tk):
    season = SeasonFactory()
    PairHeatFactory(competition=PairCompetitionFactory(season=season), status="applied")
    html = tk.get("/tk/?lang=en").content.decode()
    # The heat and, the heats' registration deadline (2016-12-01) passed with none approved,
    # the direct-final decision (R-PAIR-DF-1).
    assert "2 items wait for TK." in html and "Qualifier heats to approve" in html
    assert "Direct final to decide" in html and "Nothing waits." in html


def test_r_pair_df_1_a_direct_final_to_decide_is_an_item_once_registration_has_closed(tk):
    season = SeasonFactory()
    mixed = PairCompetitionFactory(season=season, discipline="mixed")  # registration 2016-12-01
    with clock.frozen("2016-11-30"):
        assert "Inget väntar." in section(tk.get("/tk/").content.decode(), "direct_finals")
    with clock.frozen("2016-12-02"):
        items = section(tk.get("/tk/").content.decode(), "direct_finals")
    assert str(mixed) in items and "sista dag 31 mar 2017" in items and "R-PAIR-DF-1" in items
    assert f"/tk/direktfinal/#tavling-{mixed.pk}" in items


# ---------------------------------------------------------------------------------------------
# Decisions taken from the queue, through the services
# ---------------------------------------------------------------------------------------------


def decide(client, action, pk, decision, reason=""):
    return client.post(
        "/tk/beslut/",
        {"action": action, "pk": pk, "decision": decision, "reason": reason},
        follow=True,
    )


def test_tk_approves_an_applied_heat_from_the_queue(tk):
    from clubs.models import Decision

    heat = PairHeatFactory(
        competition=PairCompetitionFactory(season=SeasonFactory()),
        name="Kval Fyris",
        status=HeatStatus.APPLIED,
    )
    with clock.frozen("2016-11-20"):
        page = decide(tk, "pair_heat", heat.pk, "yes").content.decode()
    heat.refresh_from_db()
    assert heat.status == HeatStatus.APPROVED
    assert Decision.objects.filter(object_id=heat.pk, action__contains="approved").exists()
    assert "Kval Fyris" in page and "godkänt." in page
    assert "Kval Fyris" not in section(page, "heats")  # no longer waits


def test_rejecting_without_a_reason_is_refused_and_changes_nothing(tk):
    heat = PairHeatFactory(
        competition=PairCompetitionFactory(season=SeasonFactory()),
        status=HeatStatus.APPLIED,
    )
    with clock.frozen("2016-11-20"):
        page = decide(tk, "pair_heat", heat.pk, "no").content.decode()
    heat.refresh_from_db()
    assert heat.status == HeatStatus.APPLIED
    assert "R-GEN-3" in page
    with clock.frozen("2016-11-20"):
        decide(tk, "pair_heat", heat.pk, "no", reason="Krockar med DM-finalen")
    heat.refresh_from_db()
    assert heat.status == HeatStatus.REJECTED


def test_tk_grants_a_seventh_player_from_the_queue(tk):
    from teams.models import RosterEntry

    season = SeasonFactory()
    team = TeamFactory(players=6)
    player = member(season=season, first_name="Anna", last_name="Berg")
    disp = Dispensation.objects.create(
        kind=Dispensation.Kind.EXTRA_PLAYER,
        team=team,
        player=player,
        occasion="rond 3",
        occasion_date=date(2016, 11, 6),
    )
    with clock.frozen("2016-11-01"):
        decide(tk, "dispensation", disp.pk, "yes", reason="Sjukdom i laget")
    disp.refresh_from_db()
    assert disp.status == Dispensation.Status.GRANTED
    assert RosterEntry.objects.filter(team=team, player=player, is_extra=True).exists()


def test_tk_records_a_declined_seat_offer_from_the_queue_and_the_chain_moves_on(
    tk, django_capture_on_commit_callbacks
):
    """One heat of 30 pairs: a 28-pair final, the heat's first 28 seated (R-ALLOC-1). Its
    winners give their seat up; the real recompute offers it to the 29th (R-REPL-1), whose no
    TK records from the queue; the recompute then asks the 30th, and the queue says so."""
    comp = PairCompetitionFactory(season=SeasonFactory())
    _heat, entries = heat_with_results(comp, 30)
    recompute_pair_competition(comp.id)
    seat = FinalSeat.objects.get(holder=entries[0])
    with clock.frozen("2017-03-30"), django_capture_on_commit_callbacks(execute=True):
        give_up_seat(UserFactory(is_superuser=True), seat, reason="Återbud")
    offer = SeatOffer.objects.get(answer=SeatOffer.Answer.PENDING)
    assert offer.entry == entries[28]
    with clock.frozen("2017-04-01"), django_capture_on_commit_callbacks(execute=True):
        page = decide(tk, "seat_offer", offer.pk, "no").content.decode()
    assert str(entries[28]) in page
    assert "alert-success" in page and "svaret registrerat: tackade nej." in page
    offer.refresh_from_db()
    assert offer.answer == SeatOffer.Answer.DECLINED
    with clock.frozen("2017-04-01"):
        offers = section(tk.get("/tk/").content.decode(), "offers")
    assert str(entries[29]) in offers and str(entries[28]) not in offers


def test_only_tk_decides(client):
    heat = PairHeatFactory(
        competition=PairCompetitionFactory(season=SeasonFactory()), status=HeatStatus.APPLIED
    )
    club_official = ClubOfficialFactory(club=heat.clubs.first()).user
    client.force_login(club_official)
    assert decide(client, "pair_heat", heat.pk, "yes").status_code == 403
    heat.refresh_from_db()
    assert heat.status == HeatStatus.APPLIED
