"""Every model of the project reads as words, not "WalkOver object (1)" (issue 13, item 2):
the admin, the decision log and the TK queue show objects by their __str__."""

import pytest
from django.apps import apps
from django.db import models

from teams.models import Match, Penalty, WalkOver
from tests.factories import MatchFactory, TeamFactory

APPS = ("clubs", "pairs", "teams", "results", "portal")


def test_every_model_has_its_own_str():
    missing = [
        m._meta.label
        for m in apps.get_models()
        if m._meta.app_label in APPS
        and not m.__name__.startswith("Historical")
        and m.__str__ is models.Model.__str__
    ]
    assert missing == []


@pytest.mark.django_db
def test_a_walkover_and_a_penalty_read_as_what_they_are():
    home = TeamFactory(name="Fyris 1")
    match = MatchFactory(home=home, away=TeamFactory(heat=home.heat, name="Tierp"), round=3)
    wo = WalkOver.objects.create(match=match, offender=match.away)
    penalty = Penalty.objects.create(team=match.home, match=match, vp="5.00")
    assert str(wo) == "W.O. kval r3: Fyris 1 – Tierp (Tierp)"
    assert str(penalty) == "−5.00 VP: Fyris 1 (R-TEAM-RES-1)"
    assert "object (" not in str(wo) + str(penalty) + str(Match.objects.get())
