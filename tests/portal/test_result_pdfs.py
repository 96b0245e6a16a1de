"""The printable result lists as PDF (issue 12: "a PDF where people expect one"): one beside
each heat page, the DM Par final page and the DM Lag final (``.../resultat.pdf``), read back
with pypdf as a person reads the printout. The figures come from the hand-built fixtures of
tests/portal/test_heat_pages.py and tests/portal/test_lag_pages.py, worked there by hand:

* pairs heat B (7 pairs): 4 final seats (27 · 7 / 42 = 4,50, R-ALLOC-3); pair 1 69,50 and
  pair 4 68,00 hold them, pair 5 (67,50) is reserve 1 (R-REPL-1);
* team heat A (8 teams of 30): 3 seats (9 · 8 / 30 = 2,40 and the largest fraction);
* DM Lag final A, B, C, D on 43,75 / 33,75 / 21,25 / 21,25 VP, C ahead of D on the IMP
  quotient 56/90 = 0,622 against 51/85 = 0,600 (R-TEAM-TIE-1);
* DM Par final: the R-PAIR-2 worked example (rank 1 SM place 1, rank 2 passed over, rank 3
  the champions and SM place 2).
"""

from __future__ import annotations

from io import BytesIO

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader

from clubs import clock
from portal.pdf import latin1
from results.services.uploads import upload_pair_final
from tests.factories import TeamHeatFactory
from tests.portal.test_heat_pages import lag_season, three_heats  # noqa: F401 (fixtures)
from tests.portal.test_lag_pages import ROUNDS, _final
from tests.results.test_pair_final import build_final, simulated_final

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair_heats(request):
    """tests/portal/test_heat_pages.py's heats A, B, C (4, 7, 31 pairs) and the champions."""
    return request.getfixturevalue("three_heats")


@pytest.fixture
def team_heats(request):
    """tests/portal/test_heat_pages.py's team heats A, B, C (8, 11, 11 teams)."""
    return request.getfixturevalue("lag_season")


@pytest.fixture(autouse=True)
def _in_the_season():
    cache.clear()
    with clock.frozen("2017-02-20 10:00"):
        yield


def pdf_text(client, url: str, lang: str = "sv") -> str:
    """The PDF's text, spaces collapsed, after checking it is a PDF shown inline."""
    response = client.get(f"{url}?lang={lang}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith('inline; filename="')
    assert response.content.startswith(b"%PDF-")
    reader = PdfReader(BytesIO(response.content))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def pair(entry) -> str:
    # the page's "–" is written "-" in the PDF's Latin-1 font
    return f"{entry.player1.full_name} - {entry.player2.full_name}"


def test_latin1_keeps_swedish_letters_and_replaces_dashes():
    assert latin1("Åsa Öberg – Ärlig Éclair −2 „SM 1“") == 'Åsa Öberg - Ärlig Éclair -2 "SM 1"'
    assert latin1("∑") == "?"


def test_pair_heat_pdf_lists_the_ranking_in_swedish_figures_and_marks_the_qualified(
    client, pair_heats
):
    _comp, _a, (b, b_entries), _c, _dq = pair_heats
    text = pdf_text(client, f"/par/kval/{b.id}/resultat.pdf")
    assert text.startswith("B ")
    assert "Resultat" in text and "Finalen" in text
    assert f"1 {pair(b_entries[0])} 69,50 I finalen: Kvalplats 1 av 4 från B" in text
    assert f"4 {pair(b_entries[3])} 68,00 I finalen: Kvalplats 4 av 4 från B" in text
    assert f"5 {pair(b_entries[4])} 67,50 Reserv 1" in text
    assert "B fick 4 finalplatser." in text
    reserves = text.split("Reserver i tur och ordning")[1]
    assert f"1. {pair(b_entries[4])} (plats 5 i heatet)" in reserves
    assert f"3. {pair(b_entries[6])} (plats 7 i heatet)" in reserves
    assert "69.50" not in text

    english = pdf_text(client, f"/par/kval/{b.id}/resultat.pdf", "en")
    assert "Results" in english and "Reserve 1" in english
    assert "B got 4 final seats." in english
    assert "69.50" in english


def test_team_heat_pdf_marks_the_finalists(client, team_heats):
    _comp, [(a, a_teams), _b, _c] = team_heats
    text = pdf_text(client, f"/lag/kval/{a.id}/resultat.pdf")
    assert "DM Lag" in text and "Matcher" in text and "IMP-kvot" in text
    first = text.split(a_teams[0].name, 1)[1][:120]
    assert "I finalen: Kvalplats 1 av 3 från A" in first
    fourth = text.split(a_teams[3].name, 1)[1][:60]
    assert "Reserv 1" in fourth and "I finalen" not in fourth
    assert "A fick 3 finalplatser." in text
    english = pdf_text(client, f"/lag/kval/{a.id}/resultat.pdf", "en")
    assert "A got 3 final seats." in english and "# Team " in english
    assert "Lag" not in english.split("Results")[1]


@pytest.fixture
def lag_final():
    heat = TeamHeatFactory()
    teams, _matches = _final(heat, "ABCD", ROUNDS)
    return heat.competition, teams


def test_lag_final_pdf_has_the_standings_champions_and_swedish_figures(client, lag_final):
    comp, _teams = lag_final
    text = pdf_text(client, "/lag/final/resultat.pdf")
    assert text.startswith(f"DM Lag {comp.season}")
    assert "Efter rond 3." in text
    assert "DM-mästare: Lag A" in text
    # rank, team, matches, IMP won, IMP lost, quotient, (MP), VP
    for line in ("1 Lag A 3", "2 Lag B 3", "3 Lag C 3 56 90 0,622", "4 Lag D 3 51 85 0,600"):
        assert line in text, line
    order = [text.index(f"Lag {n} 3") for n in "ABCD"]
    assert order == sorted(order)
    assert "43,75" in text and "33,75" in text and "21,25" in text
    assert "43.75" not in text
    english = pdf_text(client, "/lag/final/resultat.pdf", "en")
    assert "After round 3." in english and "DM champions: Lag A" in english
    assert "0.622" in english and "43.75" in english


def test_pair_final_pdf_has_the_ranking_champions_and_sm_places(
    client, tk, django_capture_on_commit_callbacks
):
    from ubf.demo.writers import write_usebio_pairs

    event = simulated_final()
    comp = build_final(event, outside_ranks=(1, 2), sm_places=2)
    with clock.frozen("2017-04-22 18:00"), django_capture_on_commit_callbacks(execute=True):
        upload_pair_final(tk, comp, data=write_usebio_pairs(event), filename="final.xml")
    cache.clear()
    text = pdf_text(client, f"/par/final/{comp.id}/resultat.pdf")
    rows = {p.rank: p for p in event.pairs}
    first, second, third = (" - ".join(f"{pl.name} F" for pl in rows[n].players) for n in (1, 2, 3))
    assert text.startswith("Final: ")
    assert f"DM-mästare: {third}" in text
    pct = f"{rows[3].percentage:.2f}".replace(".", ",")
    assert f"3 {third} {pct} DM-mästare" in text
    sm = text.split("SM-platser", 1)[1]
    assert f"SM-plats 1: {first}" in sm and f"SM-plats 2: {third}" in sm
    assert f"{second} passeras:" in sm
    english = pdf_text(client, f"/par/final/{comp.id}/resultat.pdf", "en")
    assert f"DM champion: {third}" in english or f"DM champions: {third}" in english
    assert f"{rows[3].percentage:.2f}" in english


def test_pdfs_answer_head_404_and_read_a_fixed_number_of_queries(client, pair_heats, team_heats):
    comp, (a, _ae), _b, (c, _ce), _dq = pair_heats
    _lc, [(la, _lt), (lb, _lbt), _lc2] = team_heats
    counts = {}
    for url in (
        f"/par/kval/{a.id}/resultat.pdf",
        f"/par/kval/{c.id}/resultat.pdf",
        f"/lag/kval/{la.id}/resultat.pdf",
        f"/lag/kval/{lb.id}/resultat.pdf",
        f"/par/final/{comp.id}/resultat.pdf",
        "/lag/final/resultat.pdf",
    ):
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts[url] = len(queries)
        assert client.head(url).status_code == 200
    values = list(counts.values())
    assert values[0] == values[1]  # 4 pairs or 31
    assert values[2] == values[3]  # 8 teams or 11
    assert max(values) <= 8
    for url in (
        "/par/kval/999999/resultat.pdf",
        "/lag/kval/999999/resultat.pdf",
        "/par/final/999999/resultat.pdf",
    ):
        assert client.get(url).status_code == 404


def test_cached_pdf_keeps_its_type_and_file_name(client, pair_heats):
    _comp, (a, _ae), _b, _c, _dq = pair_heats
    first = client.get(f"/par/kval/{a.id}/resultat.pdf")
    again = client.get(f"/par/kval/{a.id}/resultat.pdf")  # from the public pages' cache
    assert again.content == first.content
    assert again["Content-Type"] == "application/pdf"
    assert again["Content-Disposition"] == first["Content-Disposition"]
    assert (
        first["Content-Disposition"] == f'inline; filename="dm-par-a-{_comp.season}-resultat.pdf"'
    )


def test_each_page_links_its_pdf_beside_skriv_ut(client, pair_heats, lag_final):
    comp, (a, _ae), _b, _c, _dq = pair_heats
    for page, pdf in (
        (f"/par/kval/{a.id}/", f"/par/kval/{a.id}/resultat.pdf"),
        (f"/par/final/{comp.id}/", f"/par/final/{comp.id}/resultat.pdf"),
        ("/lag/", "/lag/final/resultat.pdf"),
    ):
        body = client.get(page).content.decode()
        printing = body.split("data-print>", 1)[1][:400]
        assert f'href="{pdf}' in printing and ">PDF</a>" in printing, page
