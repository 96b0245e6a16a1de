"""Stored timestamps follow the project's one clock (clubs.clock, issue 11): in the demo an
upload, a decision, a request, a roster entry and a standing are dated on the demo's day and
the pages say so; in production they are the real time. Moving the demo clock back does not
stop a corrected file from being counted."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.decision_log import render_decision_log
from clubs.models import DemoClock
from clubs.services.base import record_decision
from pairs.models import PairHeatChangeRequest
from results.models import AllocationRun, PairResult, StandingSnapshot
from results.services.lots import lot_precedence
from results.services.recompute.pairs import recompute_pair_competition
from results.services.uploads import upload_pair_heat, upload_team_results
from teams.models import RosterEntry
from tests.factories import SeasonFactory, UserFactory
from tests.results.test_lots import lot, season
from tests.results.test_uploads import data, pair_heat_for, team_heat_for

pytestmark = pytest.mark.django_db
DEMO_DAY = date(2016, 11, 18)
HOWELL = "pairs_howell_usebio.xml"


@pytest.fixture
def demo(settings):
    settings.UBF_DEMO_DATE = DEMO_DAY.isoformat()


@pytest.fixture
def tk():
    return UserFactory(username="tk", is_superuser=True, is_staff=True)


def local_day(value):
    return timezone.localdate(value)


def played_pair_heat():
    """The Howell's heat, played on 12 Nov 2016 (before the demo's day, so it takes files)."""
    heat, _ = pair_heat_for(HOWELL)
    heat.first_date = date(2016, 11, 12)
    heat.save(update_fields=["first_date"])
    return heat


def test_demo_timestamps_are_on_the_demo_day(demo, tk, django_capture_on_commit_callbacks):
    heat = played_pair_heat()
    with django_capture_on_commit_callbacks(execute=True):  # the recompute, as after commit
        upload = upload_pair_heat(tk, heat, data=data(HOWELL), filename=HOWELL).upload
    decision = record_decision("test.clock", heat, user=tk, reason="Prov", clause="R-GEN-3")
    request = PairHeatChangeRequest.objects.create(heat=heat, kind="cancel", requested_by=tk)
    team_heat, teams, _ = team_heat_for("teams_usebio.xml", 24)
    entry = RosterEntry.objects.filter(team__in=teams.values()).first()
    snapshot = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
    run = AllocationRun.objects.get(competition=heat.competition)

    assert local_day(upload.uploaded_at) == DEMO_DAY
    assert local_day(decision.decided_at) == DEMO_DAY
    assert local_day(request.requested_at) == DEMO_DAY
    assert entry.added_on == DEMO_DAY
    assert local_day(snapshot.computed_at) == DEMO_DAY
    assert local_day(run.computed_at) == DEMO_DAY


def test_demo_pages_show_the_demo_day(demo, tk, client, django_capture_on_commit_callbacks):
    heat = played_pair_heat()
    upload_pair_heat(tk, heat, data=data(HOWELL), filename=HOWELL)
    record_decision("test.clock", heat, user=tk, reason="Prov", clause="R-GEN-3")
    team_heat, _, _ = team_heat_for("teams_usebio.xml", 24)
    with django_capture_on_commit_callbacks(execute=True):
        upload_team_results(tk, heat=team_heat, data=data("teams_usebio.xml"), filename="t.xml")

    client.force_login(tk)
    page = client.get(reverse("results:upload_pair_heat", args=[heat.id])).content.decode()
    assert "2016-11-18 " in page  # the file's "uppladdad" column
    assert "2026-" not in page and str(timezone.localdate().year) + "-" not in page
    assert render_decision_log(heat).startswith("<ul><li>2016-11-18 ")
    lag = client.get("/lag/").content.decode()
    assert "Senast beräknad 18 nov " in lag


def test_production_timestamps_are_the_real_time(settings, tk):
    settings.UBF_DEMO_DATE = DEMO_DAY.isoformat()
    settings.PRODUCTION = True
    DemoClock.objects.create(on=DEMO_DAY)  # even a stored demo date does not count there
    heat = played_pair_heat()
    before = timezone.now()
    upload = upload_pair_heat(tk, heat, data=data(HOWELL), filename=HOWELL).upload
    decision = record_decision("test.clock", heat, user=tk, reason="Prov", clause="R-GEN-3")
    request = PairHeatChangeRequest.objects.create(heat=heat, kind="cancel")
    after = timezone.now()
    for stamp in (upload.uploaded_at, decision.decided_at, request.requested_at):
        assert before <= stamp <= after
    assert local_day(upload.uploaded_at) != DEMO_DAY


def test_a_corrected_file_after_the_clock_went_back_is_still_counted(
    settings, tk, django_capture_on_commit_callbacks
):
    """Counted on 20 Nov; TK moves the demo clock back to 18 Nov and a corrected file comes
    in (uploaded "earlier" than the standing was computed). A recompute that was asked for
    other reasons (no heat named) must not keep the old standing: the heat's files changed."""
    settings.UBF_DEMO_DATE = "2016-11-20"
    heat = played_pair_heat()
    with django_capture_on_commit_callbacks(execute=True):
        upload_pair_heat(tk, heat, data=data(HOWELL), filename=HOWELL)
    old = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
    assert local_day(old.computed_at) == date(2016, 11, 20)
    last = old.data[-1]

    DemoClock.objects.create(on=DEMO_DAY)  # TK moves the clock back in the admin
    corrected = data(HOWELL).replace(b"<EVENT_DESCRIPTION>", b"<EVENT_DESCRIPTION>Corrected ")
    second = upload_pair_heat(tk, heat, data=corrected, filename="rattad.xml").upload
    assert second.uploaded_at < old.computed_at
    # the corrected file: the last pair now wins the heat (its own recompute not yet run)
    PairResult.objects.filter(upload=second, entry_id=last["entry_id"]).update(
        percentage=Decimal("99")
    )
    recompute_pair_competition(heat.competition_id, heat_ids=[])

    snap = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
    assert snap.data[0]["entry_id"] == last["entry_id"]
    assert local_day(snap.computed_at) == DEMO_DAY


def test_lot_precedence_keeps_the_recording_order_after_the_clock_went_back(settings):
    """R-ALLOC-5: a lot recorded after another one does not count as drawn before it, even
    when TK moved the demo clock back between the two (its drawn_at is then earlier)."""
    settings.UBF_DEMO_DATE = "2016-11-20"
    s2016 = SeasonFactory()
    first = lot("pairs", s2016, losers=["A"], winners=["B"])
    DemoClock.objects.create(on=DEMO_DAY)
    later = lot("pairs", s2016, losers=["C"], winners=["D"])
    assert later.drawn_at < first.drawn_at - timedelta(days=1)
    # precedence as it held when the first lot was drawn: nothing from the later lot
    assert lot_precedence("pairs", s2016, ["A", "C"], drawn_before=first.pk) == []
    assert lot_precedence("pairs", s2016, ["A", "C"], drawn_before=later.pk) == ["A"]
    assert lot_precedence("pairs", season(2017), ["A", "C"]) == ["A", "C"]  # oldest first
