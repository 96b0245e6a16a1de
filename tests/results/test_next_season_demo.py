"""Issue 23's proof on the demo: 2017-2018 made from the demo season 2016-2017 (``load_demo``)
once its finals are over has last season's champions as direct qualifiers (R-DIRECT-1 Mixed,
R-TEAM-DIRECT-1) and keeps a venue's lot precedence (R-ALLOC-5). The demo stops before its
finals are played, so the finals' final standings are written here by hand: Mixed won by the
first pair of the demo's first Mixed heat, DM Lag by the demo's first finalist team. The dates
are the demo's calendar (SPEC R-PAIR-CAL-1), moved by hand to the same weekday of 2017/2018."""

from __future__ import annotations

from datetime import date
from io import StringIO

import pytest
from django.core.management import call_command

from clubs.models import Membership, Player, ReigningChampion, Season
from pairs.models import PairCompetition, PairEntry
from results.models import Lot, StandingSnapshot
from results.services.lots import lot_precedence
from teams.models import Team, TeamCompetition

pytestmark = pytest.mark.django_db


def test_2017_2018_from_the_demo_season(tk):
    call_command("load_demo", "--no-results", stdout=StringIO())
    season = Season.objects.get(name="2016-2017")
    mixed = PairCompetition.objects.get(season=season, discipline="mixed")
    entry = PairEntry.objects.filter(heat__competition=mixed).order_by("pk").first()
    StandingSnapshot.objects.update_or_create(
        scope=StandingSnapshot.Scope.PAIR_FINAL,
        competition=mixed,
        heat=None,
        defaults={
            "provisional": False,
            "data": {
                "rows": [
                    {
                        "player_ids": [entry.player1_id, entry.player2_id],
                        "name": "Mixed champions",
                        "title": True,
                    }
                ]
            },
        },
    )
    teams = TeamCompetition.objects.get(season=season)
    winner = Team.objects.filter(competition=teams).order_by("pk").first()
    StandingSnapshot.objects.update_or_create(
        scope=StandingSnapshot.Scope.TEAM_FINAL,
        competition=teams,
        heat=None,
        defaults={"provisional": False, "data": [{"team_id": winner.pk, "dm_rank": 1}]},
    )
    heat_names = list(mixed.heats.order_by("pk").values_list("name", flat=True)[:2])
    Lot.objects.create(
        kind="pairs",
        season=season,
        competition=mixed,
        among=heat_names,
        winners=heat_names[1:],
        losers=heat_names[:1],
        seats=1,
        seed="demo",
    )

    out = StringIO()
    call_command("next_season", "2016-2017", "--apply", stdout=out)
    # The demo has DM Par Dam (direct final), Mixed, Veteran, Open and DM Lag.
    assert out.getvalue().strip().splitlines()[-1] == (
        "next season 2017-2018: 5 competitions, 2 direct qualifiers"
    )
    new = Season.objects.get(name="2017-2018")
    finals = dict(
        PairCompetition.objects.filter(season=new).values_list("discipline", "final_date")
    )
    # Sun 2 Oct 2016 → Sun 1 Oct 2017; Sat 26 Nov 2016 → Sat 25 Nov 2017;
    # Sun 12 Feb 2017 → Sun 11 Feb 2018; Sat 22 Apr 2017 → Sat 21 Apr 2018.
    assert finals == {
        "dam": date(2017, 10, 1),
        "mixed": date(2017, 11, 25),
        "veteran": date(2018, 2, 11),
        "open": date(2018, 4, 21),
    }
    champions = {c.competition.discipline: c for c in ReigningChampion.objects.all()}
    assert set(champions) == {"mixed", "teams"}
    assert sorted(champions["mixed"].mids) == sorted([entry.player1.mid, entry.player2.mid])
    assert sorted(champions["teams"].mids) == sorted(
        winner.roster.values_list("player__mid", flat=True)
    )
    assert champions["teams"].name == winner.name
    # R-ALLOC-5: the venue that lost the lot holds precedence in 2017-2018 too.
    assert lot_precedence("pairs", new, heat_names) == heat_names[:1]
    # R-GEN-2: every member in the register, unpaid.
    members = Player.objects.filter(in_register=True).count()
    assert Membership.objects.filter(season=new, paid_on__isnull=True).count() == members
    assert not Membership.objects.filter(season=new, paid_on__isnull=False).exists()
    assert Season.objects.get(name="2016-2017").is_finished
