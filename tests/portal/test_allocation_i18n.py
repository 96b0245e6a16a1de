"""/lag/ shows how the final seats were allocated (R-ALLOC-3..5) and the replacement chain
(R-REPL-1, R-TEAM-REPL-1) in the reader's language: the lines and steps are stored as
templates with their figures and rendered when the page is shown (docs/translation.md). /par/
shows the final's plaques (stored as Swedish msgids) in the reader's language too."""

import html as html_lib
import re

import pytest

from results.models import Lot
from results.services.recompute import recompute_team_competition
from results.services.uploads import upload_pair_final
from teams.models import Team
from tests.factories import TeamCompetitionFactory, UserFactory, seat_in_final
from tests.results.test_allocation_teams import heat_with
from tests.results.test_pair_final import build_final, simulated_final
from ubf.demo.writers import write_usebio_pairs

pytestmark = pytest.mark.django_db


@pytest.fixture
def lag_with_lot_and_chain():
    """Three heats of 4 teams for an 8-team final: each share is 8 × 4 / 12 = 8/3 = 2.67, the
    whole parts give 6 seats and the 2 left need a lot between three equal heats
    (R-ALLOC-5). TK drew by hand: the second and third heat win. The winner of the second
    heat (3 seats) withdraws: its seat goes to the 4th team of that heat (R-REPL-1)."""
    comp = TeamCompetitionFactory()
    heats = [heat_with(comp, 4, prefix=f"M{i}") for i in range(3)]
    keys = ["+".join(str(o.club_id) for o in h.organisers.all()) for h, _teams in heats]
    Lot.objects.create(
        kind="teams",
        season=comp.season,
        competition=comp,
        among=keys,
        winners=keys[1:],
        losers=keys[:1],
        seats=2,
        drawn_by_hand=True,
    )
    second, second_teams = heats[1]
    seat_in_final(second_teams[0])
    Team.objects.filter(pk=second_teams[0].pk).update(status="withdrawn")
    recompute_team_competition(comp.id)
    label = {k: h.name for k, (h, _t) in zip(keys, heats, strict=True)}
    among = ", ".join(label[k] for k in sorted(keys))  # the rulebook lists the tie by key
    return {
        "among": among,
        "first": heats[0][0].name,
        "second": second.name,
        "third": heats[2][0].name,
        "loser": label[keys[0]],
        "winners": f"{label[keys[1]]}, {label[keys[2]]}",
        "withdrawn": second_teams[0].name,
        "ask": second_teams[3].name,
    }


def _page(client, lang):
    response = client.get(f"/lag/?lang={lang}")
    assert response.status_code == 200
    return html_lib.unescape(response.content.decode())


def test_lag_page_in_english_explains_the_seats_the_lot_and_the_chain(
    client, lag_with_lot_and_chain
):
    x = lag_with_lot_and_chain
    page = _page(client, "en")
    for sentence in [
        "8 seats are shared among 3 venues with 12 qualifying entries in all. "
        "Share = 8 × entries at the venue / 12.",
        "The whole parts give 6 seats; 2 seats left go one each to the largest fractional parts.",
        f"{x['first']}: 4 qualifying, share 2.67 (8/3) (whole 2, fraction 0.67 (2/3)): "
        "lost the lot for an extra seat → 2 seats.",
        f"{x['second']}: 4 qualifying, share 2.67 (8/3) (whole 2, fraction 0.67 (2/3)): "
        "one extra seat by lot → 3 seats.",
        f"Lot among {x['among']} (4 entries each) for 2 seat(s); drawn winners: "
        f"{x['winners']}; losers (precedence next time): {x['loser']}.",
        f"{x['withdrawn']} holds the seat.",
        f"{x['withdrawn']} gives up its final seat.",
        f"The nearest eliminated team at its own venue {x['second']}: {x['ask']}, rank 4 "
        f"({x['second']} got 3 seats).",
    ]:
        assert sentence in page
    assert "fördelningstal" not in page and "Lottning mellan" not in page
    assert "How the seats were allocated" in page


def test_lag_page_in_swedish_explains_the_seats_the_lot_and_the_chain(
    client, lag_with_lot_and_chain
):
    x = lag_with_lot_and_chain
    page = _page(client, "sv")
    for sentence in [
        "8 platser fördelas på 3 kvalplatser med sammanlagt 12 kvalande. "
        "Fördelningstal = 8 × kvalande på platsen / 12.",
        "Heltalsdelarna ger 6 platser; 2 platser kvar går en var till de största decimaldelarna.",
        f"{x['first']}: 4 kvalande, fördelningstal 2,67 (8/3) (heltal 2, decimaldel 0,67 "
        "(2/3)): förlorade lottningen om extra plats → 2 platser.",
        f"{x['third']}: 4 kvalande, fördelningstal 2,67 (8/3) (heltal 2, decimaldel 0,67 "
        "(2/3)): en extra plats genom lottning → 3 platser.",
        f"Lottning mellan {x['among']} (4 kvalande var) om 2 plats(er); lottade vinnare: "
        f"{x['winners']}; förlorare (får företräde nästa gång): {x['loser']}.",
        f"{x['withdrawn']} har platsen.",
        f"{x['withdrawn']} lämnar sin finalplats.",
        f"Närmast utslagna laget i den egna kvalgruppen {x['second']}: {x['ask']}, plats 4 "
        f"({x['second']} fick 3 platser).",
    ]:
        assert sentence in page
    assert "Så fördelades platserna" in page


@pytest.fixture
def tk():
    return UserFactory(username="tk", is_superuser=True, is_staff=True)


def test_par_final_plaques_read_gold_silver_bronze_in_english(
    client, tk, django_capture_on_commit_callbacks
):
    # R-PAIR-MP-2/3: the 1st-3rd UBF pairs get gold, silver and bronze plaques; the snapshot
    # keeps the Swedish msgids ("guld"), the page renders them in the reader's language.
    event = simulated_final()
    comp = build_final(event, sm_places=2)
    with django_capture_on_commit_callbacks(execute=True):  # the recompute runs on commit
        upload_pair_final(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    # the final's standings are on the competition's page (/par/ links it)
    assert f'href="/par/{comp.id}/"' in client.get("/par/").content.decode()
    en = _page_text(client, f"/par/{comp.id}/", "en")
    sv = _page_text(client, f"/par/{comp.id}/", "sv")
    for word in ("gold", "silver", "bronze"):
        assert re.search(rf"(?<!\w){word}(?!\w)", en), word
    assert not re.search(r"(?<!\w)(guld|brons)(?!\w)", en)
    for word in ("guld", "silver", "brons"):
        assert re.search(rf"(?<!\w){word}(?!\w)", sv), word


def _page_text(client, url, lang):
    response = client.get(url, {"lang": lang})
    assert response.status_code == 200
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))
