from django.shortcuts import render

from portal import pdf
from portal.caching import public_page, shows
from portal.selectors.heats import pair_final_page, pair_heat_page
from portal.selectors.par import competition_page, par_page
from portal.views.seasons import with_season
from ubf.rules.info import system_rules


@public_page
@with_season
def competitions(request, season):
    """/par/: DM Par of the current season (an earlier one with ``?season=2015-2016``): an
    overview per competition, each heat a row linked to its page, and the system category
    and alert rules of its stages (R-PAIR-SYS-1: C in every DM pairs stage)."""
    season, views = par_page(season)
    shows(
        request,
        competitions=[v.competition for v in views],
        seasons=[season and season.pk],
    )
    return render(
        request,
        "portal/par.html",
        {"season": season, "competitions": views, "system": system_rules("pairs", "final")},
    )


@public_page
def competition(request, competition_id: int):
    """/par/<id>/: one competition: the final's standings, its final places and why
    (R-ALLOC-*, R-PAIR-4), and its heats, each linked to its page."""
    page = competition_page(competition_id)
    shows(request, competitions=[page.competition])
    return render(request, "portal/par_competition.html", {"page": page})


@public_page
def heat(request, heat_id: int):
    """/par/kval/<id>/: a heat's results, who qualified from it and why, its reserves and the
    replacement chain (R-ALLOC-*, R-REPL-*)."""
    page = pair_heat_page(heat_id)
    shows(request, competitions=[page.competition])
    return render(request, "portal/heat.html", {"page": page})


@public_page
def final(request, competition_id: int):
    """/par/final/<id>/: the qualified pairs by heat, the final's ranking, champions,
    plaques, bonus and SM places (R-PAIR-MP-*, R-PAIR-2, R-PAIR-4)."""
    page = pair_final_page(competition_id)
    shows(request, competitions=[page.competition])
    return render(request, "portal/par_final.html", {"page": page})


@public_page
def heat_pdf(request, heat_id: int):
    """/par/kval/<id>/resultat.pdf: the heat's result list as a PDF, from the page's selector."""
    page = pair_heat_page(heat_id)
    shows(request, competitions=[page.competition])
    return pdf.pdf_response(pdf.heat_pdf(page), pdf.heat_filename(page))


@public_page
def final_pdf(request, competition_id: int):
    """/par/final/<id>/resultat.pdf: the final's result list (champions, plaques, SM places)."""
    page = pair_final_page(competition_id)
    shows(request, competitions=[page.competition])
    return pdf.pdf_response(pdf.pair_final_pdf(page), pdf.pair_final_filename(page))
