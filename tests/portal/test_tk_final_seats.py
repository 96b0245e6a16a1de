"""TK's page of a final's seats, /tk/finalplatser/<competition>/ (R-REPL-3, R-REPL-5), as TK
sees it, through the real recompute: when the chain has nobody left to ask, TK gives the seat to
a pair of its choice or leaves it empty, with a reason; every offer shows to whom, when, the
answer and who recorded it; a refusal names its clause and changes nothing.

The season, by hand: heat A (silver, 10 pairs) and heat B (bronze, 6 pairs, the first 4
declared): 14 qualifying pairs, fewer than 28, so all 14 go on (R-ALLOC-1, R-PAIR-KVAL-5), 10
seats from A and 4 from B. When A's winners give their seat up, every qualifying pair already
holds a seat: nobody is left to ask (R-REPL-3). B's 5th and 6th pairs did not declare for the
qualifier, so the chain never asks them; TK may."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs import clock
from clubs.models import FinalSeat, SeatOffer
from clubs.services.seats import give_up_seat
from pairs.selectors import final_seat_holders
from results.services.recompute import recompute_pair_competition
from tests.factories import PairCompetitionFactory, TeamCompetitionFactory, official
from tests.portal.test_languages import _visible_text, _without_names, english_words, swedish_words
from tests.results.test_recompute_pairs import heat_with_results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _before_the_final():
    with clock.frozen("2017-02-20 10:00"):  # the pairs final is 22 Apr 2017
        yield


@pytest.fixture
def season(tk, decide):
    comp = PairCompetitionFactory(discipline="open")
    a, a_entries = heat_with_results(comp, 10)
    b, b_entries = heat_with_results(comp, 6, heat_type="bronze", declared=4)
    recompute_pair_competition(comp.id)
    seat = FinalSeat.objects.get(competition=comp, holder=a_entries[0])
    decide(give_up_seat, tk, seat, reason="Kan inte spela")
    return comp, seat, a_entries, b_entries, [a.name, b.name]


def url(comp) -> str:
    return reverse("portal:tk_final_seats", args=[comp.pk])


def post(client, comp, django_capture_on_commit_callbacks, **data):
    with django_capture_on_commit_callbacks(execute=True):  # the recompute, as after a commit
        return client.post(url(comp), data, follow=True)


def counts() -> dict[str, int]:
    return {m._meta.label: m._default_manager.count() for m in apps.get_models()}


def test_r_repl_3_nobody_left_tk_gives_the_seat_to_a_pair_of_its_choice(
    client, tk, season, django_capture_on_commit_callbacks
):
    comp, seat, _a, b_entries, _heats = season
    client.force_login(tk)
    page = client.get(url(comp)).content.decode()
    assert "Ingen kvar att fråga: TK avgör." in page and "R-REPL-3" in page
    chosen = b_entries[4]  # B's 5th: entered, not declared for the qualifier, no seat
    assert f'<option value="{chosen.pk}">' in page
    assert f'<option value="{b_entries[0].pk}">' not in page  # holds a seat already
    queue = client.get("/tk/").content.decode()
    assert f"{url(comp)}#plats-{seat.pk}" in queue  # the queue's R-REPL-3 group links it

    response = post(
        client,
        comp,
        django_capture_on_commit_callbacks,
        action="offer",
        seat=seat.pk,
        entry=chosen.pk,
        reason="Paret spelade heat B",
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Platsen är erbjuden" in page
    offer = SeatOffer.objects.get(seat=seat)
    assert (offer.entry_id, offer.answer, offer.recorded_by) == (chosen.pk, "pending", tk)
    assert "Erbjuden på TK:s beslut: Paret spelade heat B" in page  # why, on the seat's row

    response = post(
        client,
        comp,
        django_capture_on_commit_callbacks,
        action="answer",
        offer=offer.pk,
        seat=seat.pk,
        decision="yes",
    )
    assert "Svaret är registrerat" in response.content.decode()
    # The final is whole again: 14 pairs, B's 5th among them, on the public final page too.
    assert chosen.pk in {h.holder.pk for h in final_seat_holders(comp)}
    assert len(final_seat_holders(comp)) == 14
    final = client.get(reverse("portal:par_final", args=[comp.pk])).content.decode()
    assert chosen.player1.full_name in final
    seat.refresh_from_db()
    assert seat.state == FinalSeat.State.REPLACED


def test_r_repl_3_tk_leaves_the_seat_empty_with_a_reason(
    client, tk, season, django_capture_on_commit_callbacks
):
    comp, seat, _a, _b, _heats = season
    client.force_login(tk)
    response = post(
        client,
        comp,
        django_capture_on_commit_callbacks,
        action="leave_empty",
        seat=seat.pk,
        reason="Finalen spelas med 13 par",
    )
    page = response.content.decode()
    assert "Platsen lämnas tom på TK:s beslut (R-REPL-3)." in page
    assert "TK: lämnas tom (Finalen spelas med 13 par)." in page
    seat.refresh_from_db()
    assert seat.state == FinalSeat.State.EMPTY
    assert not SeatOffer.objects.filter(seat=seat).exists()
    assert len(final_seat_holders(comp)) == 13
    # Decided: the queue no longer lists it.
    assert f"#plats-{seat.pk}" not in client.get("/tk/").content.decode()


def test_r_repl_5_refusals_name_their_clause_and_change_nothing(client, tk, season):
    comp, seat, a_entries, b_entries, _heats = season
    client.force_login(tk)
    before = counts()
    no_reason = client.post(
        url(comp), {"action": "offer", "seat": seat.pk, "entry": b_entries[4].pk, "reason": " "}
    )
    assert no_reason.status_code == 400
    assert "Skriv en motivering" in no_reason.content.decode()
    seated = client.post(
        url(comp), {"action": "offer", "seat": seat.pk, "entry": a_entries[1].pk, "reason": "x"}
    )
    assert seated.status_code == 400
    assert "har redan en finalplats. (R-REPL-5)" in seated.content.decode()
    held = FinalSeat.objects.get(competition=comp, holder=a_entries[1])
    not_vacated = client.post(url(comp), {"action": "leave_empty", "seat": held.pk, "reason": "x"})
    assert not_vacated.status_code == 400
    assert "bara en lämnad plats kan erbjudas. (R-REPL-5)" in not_vacated.content.decode()
    unknown = client.post(url(comp), {"action": "offer", "seat": 0, "reason": "x"})
    assert unknown.status_code == 400
    assert counts() == before


def test_only_tk_decides_on_the_seats(client, season):
    comp, seat, _a, b_entries, _heats = season
    assert client.get(url(comp)).status_code == 302  # the login
    client.force_login(official(b_entries[4].heat.clubs.first()))
    before = counts()
    data = {"action": "leave_empty", "seat": seat.pk, "reason": "x"}
    assert client.post(url(comp), data).status_code == 403
    assert client.get(url(comp)).status_code == 403
    assert counts() == before


def test_the_page_in_both_languages(client, tk, season, django_capture_on_commit_callbacks):
    comp, seat, _a, b_entries, heats = season
    client.force_login(tk)
    post(
        client,
        comp,
        django_capture_on_commit_callbacks,
        action="offer",
        seat=seat.pk,
        entry=b_entries[4].pk,
        reason="Beslut",
    )
    names = heats + ["Beslut", "Kan inte spela"]
    sv = _without_names(_visible_text(client.get(url(comp)).content.decode()), names)
    en = _without_names(_visible_text(client.get(url(comp) + "?lang=en").content.decode()), names)
    assert english_words(sv) == []
    assert swedish_words(en) == []
    assert "Nobody left to ask" not in en  # an offer waits: the chain is not at its end


def test_the_team_final_has_the_same_page(client, tk):
    comp = TeamCompetitionFactory()
    client.force_login(tk)
    page = client.get(url(comp))
    assert page.status_code == 200
    assert "Finalen har inga platser ännu" in page.content.decode()


def test_the_page_does_not_grow_in_queries_with_the_final(client, tk):
    """A final of 8 seats and one of 28 (heats of 8 and 40 pairs), one seat given up in each:
    the same number of queries."""

    def queries(n: int) -> int:
        comp = PairCompetitionFactory(discipline=("mixed", "veteran")[n > 10])
        _heat, entries = heat_with_results(comp, n)
        recompute_pair_competition(comp.id)
        give_up_seat(tk, FinalSeat.objects.get(holder=entries[0]), reason="Återbud")
        recompute_pair_competition(comp.id)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url(comp)).status_code == 200
        return len(ctx.captured_queries)

    client.force_login(tk)
    assert queries(8) == queries(40)
