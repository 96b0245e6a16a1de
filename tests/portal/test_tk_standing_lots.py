"""Lots inside a table (R-TEAM-TIE-1, with the lot clause R-ALLOC-5's way of drawing): a tie at a
team heat's cut line shows in TK's queue as soon as the recompute finds it, TK draws it here
(seed, witnesses) or enters the lot drawn in the hall, the real recompute then orders the table
by it, and the heat page says "lott dragen" and how. A tie that changes nothing is not queued.

The figures, by hand. Two approved heats: "Stor" with 6 teams (no ties: the lower-numbered team
always wins) and "Liten" with Alfa, Beta, Gamma, Delta. 10 teams, a final of 8: Stor's share
8 × 6/10 = 4.8, Liten's 8 × 4/10 = 3.2 → 5 and 3 seats (R-ALLOC-3). Liten's matches (16
boards): Alfa–Beta 30–30 and Gamma–Delta 30–30; Alfa and Beta each beat Gamma and Delta 40–20.
Alfa and Beta: same VP, IMPs 110/70 each, 30–30 against each other, no board results: a lot
for places 1–2, both above the cut (3 seats): it changes nothing. Gamma and Delta: same VP,
70/110 each, 30–30 against each other: a lot for places 3–4, across the cut: who goes to the
final depends on it."""

from __future__ import annotations

import itertools

import pytest

from clubs import clock
from clubs.models import Decision
from results.models import AllocationRun, Lot, StandingSnapshot
from results.services.lots import standing_ties, team_heat_standing
from results.services.recompute import recompute_team_competition
from teams.models import Match
from tests.factories import (
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
)
from tests.portal.test_tk_decisions import section
from ubf.rules.draw import seeded_draw

pytestmark = pytest.mark.django_db


@pytest.fixture
def tk(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run what waits for the commit (the real recompute) at the end of the block. The clock
    is not frozen around it: a recompute asked for "before" the last one would be skipped."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def play(comp, heat, home, away, imps_home, imps_away, rnd):
    Match.objects.create(
        competition=comp,
        heat=heat,
        stage="kval",
        round=rnd,
        home=home,
        away=away,
        boards=16,
        status="played",
        imps_home=imps_home,
        imps_away=imps_away,
    )


@pytest.fixture
def tied():
    comp = TeamCompetitionFactory(season=SeasonFactory())
    big = TeamHeatFactory(competition=comp, name="Stor")
    teams = [TeamFactory(heat=big, name=f"Stor {i}") for i in range(6)]
    for rnd, (a, b) in enumerate(itertools.combinations(range(6), 2), start=1):
        play(comp, big, teams[a], teams[b], 30 + (b - a) * 5, 30, rnd)
    small = TeamHeatFactory(competition=comp, name="Liten")
    a, b, c, d = (TeamFactory(heat=small, name=n) for n in ("Alfa", "Beta", "Gamma", "Delta"))
    play(comp, small, a, b, 30, 30, 1)
    play(comp, small, c, d, 30, 30, 1)
    play(comp, small, a, c, 40, 20, 2)
    play(comp, small, b, d, 40, 20, 2)
    play(comp, small, a, d, 40, 20, 3)
    play(comp, small, b, c, 40, 20, 3)
    recompute_team_competition(comp.id)
    return comp, small, (a, b, c, d)


def order(heat) -> list[str]:
    return [r["name"] for r in StandingSnapshot.objects.get(heat=heat).data]


def test_r_team_tie_1_the_tie_at_the_cut_is_queued_and_the_one_above_it_is_not(tied, tk):
    comp, small, (a, b, c, d) = tied
    seats = {v["label"]: v["seats"] for v in AllocationRun.objects.get().explanation["venues"]}
    assert seats == {"Stor": 5, "Liten": 3}
    ties = {
        tuple(sorted(t.names)): t for t in standing_ties(comp) if t.heat and t.heat.pk == small.pk
    }
    assert set(ties) == {("Alfa", "Beta"), ("Delta", "Gamma")}
    cut = ties[("Delta", "Gamma")]
    assert (cut.first, cut.last, cut.cuts, cut.matters) == (3, 4, [3], True)
    assert cut.lot is None and not cut.provisional
    assert ties[("Alfa", "Beta")].matters is False  # places 1–2, both above the cut
    with clock.frozen("2016-11-20"):
        lots = section(tk.get("/tk/").content.decode(), "lots")
    assert "Lika i tabellen" in lots and "plats 3–4" in lots and "Dra lott" in lots
    assert "Gamma" in lots and "Delta" in lots
    assert "Alfa" not in lots and "Beta" not in lots  # the tie that changes nothing
    page = tk.get(f"/lag/kval/{small.pk}/").content.decode()
    assert "lott ej dragen" in page and "lott dragen" not in page.replace("lott ej dragen", "")
    # Gamma or Delta holds Liten's third seat by the fixed seed: until TK draws, it reads
    # provisional here and in the API (the other seats are decided by the standings).
    assert "Inom finalplatserna: preliminärt, lott ej dragen" in page
    api = tk.get(f"/api/v1/final-seats/teams/?competition={comp.pk}").json()["results"]
    waiting = [s["holder"] for s in api if s["state_display"] == "preliminärt, lott ej dragen"]
    assert len(waiting) == 1 and waiting[0] in ("Gamma", "Delta")


def test_r_team_tie_1_tk_draws_the_lot_here_and_the_recompute_follows_it(tied, tk, commit):
    comp, small, (a, b, c, d) = tied
    among = ",".join(sorted([str(c.pk), str(d.pk)]))
    post = {"among": among, "standing": team_heat_standing(small.pk)}
    refused = tk.post(f"/tk/lott/{comp.pk}/", {**post, "witnesses": " "}, follow=True)
    assert "Ange vittnena" in refused.content.decode() and not Lot.objects.exists()
    with commit():
        done = tk.post(
            f"/tk/lott/{comp.pk}/", {**post, "witnesses": "Anna Berg, Bo Ek"}, follow=True
        )
    with clock.frozen("2016-11-20"):
        queue = section(tk.get("/tk/").content.decode(), "lots")
    lot = Lot.objects.get()
    assert lot.standing == team_heat_standing(small.pk) and lot.seed and lot.losers == []
    assert lot.witnesses == "Anna Berg, Bo Ek" and not lot.drawn_by_hand
    # anyone can replay the draw from the seed: the whole tied pair ordered
    assert lot.winners == seeded_draw(int(lot.seed))(sorted(lot.among), 2)
    assert "ordningen blev" in done.content.decode()
    names = {str(c.pk): "Gamma", str(d.pk): "Delta"}
    assert order(small)[2:] == [names[k] for k in lot.winners]  # the real recompute took it
    holders = {
        v["label"]: [h["name"] for h in v["holders"]]
        for v in AllocationRun.objects.get().explanation["venues"]
    }
    assert names[lot.winners[0]] in holders["Liten"]
    assert names[lot.winners[1]] not in holders["Liten"]
    assert "Lika i tabellen" not in queue  # drawn: no longer waiting
    assert Decision.objects.get(action="results.lot.drawn").clause == "R-TEAM-TIE-1"
    page = tk.get(f"/lag/kval/{small.pk}/").content.decode()
    assert "lott dragen" in page and f"med seed {lot.seed}" in page and "Anna Berg" in page
    assert "lott ej dragen" not in page and "I finalen: kvalificerat" in page
    # the same tie cannot be drawn twice
    again = tk.post(f"/tk/lott/{comp.pk}/", {**post, "witnesses": "X"}, follow=True)
    assert "ingen oavgjord lottning" in again.content.decode() and Lot.objects.count() == 1


def test_r_team_tie_1_a_lot_drawn_in_the_hall_overrides_the_fixed_seed(tied, tk, commit):
    comp, small, (a, b, c, d) = tied
    ids = {"Gamma": str(c.pk), "Delta": str(d.pk)}
    provisional = order(small)[2:]  # what the fixed seed gave, before any lot
    wanted = list(reversed(provisional))  # the hall drew the other order
    post = {
        "among": ",".join(sorted(ids.values())),
        "standing": team_heat_standing(small.pk),
        "explanation": "Dragen ur en hatt vid prisutdelningen, vittnen Anna Berg och Bo Ek",
    }
    bad = tk.post(f"/tk/lott/{comp.pk}/hand/", {**post, "winners": [ids["Gamma"]] * 2}, follow=True)
    assert "varje lottat lag en gång" in bad.content.decode() and not Lot.objects.exists()
    with commit():
        tk.post(f"/tk/lott/{comp.pk}/hand/", {**post, "winners": [ids[n] for n in wanted]})
    lot = Lot.objects.get()
    assert lot.drawn_by_hand and lot.seed == "" and lot.winners == [ids[n] for n in wanted]
    assert order(small)[2:] == wanted
    page = tk.get(f"/lag/kval/{small.pk}/").content.decode()
    assert "lott dragen" in page and "dragen i hallen" in page
    # a venue lot never reads a standing lot: the allocation recorded none of its own here
    assert not Lot.objects.filter(standing="").exists()
