"""Printable result lists as PDF (issue 12: "a PDF where people expect one"): a heat's results
(pairs and teams), the DM Par final and the DM Lag final, each written from the very object
its HTML page renders (portal.selectors.heats / portal.selectors.lag), never from a second
computation. The words are the page's own gettext strings (Swedish source, English with
``?lang=en``) and the figures go through the same filters as the page (``7,47`` in Swedish).

Written with reportlab (pure Python) on A4 in the standard Helvetica, which covers Latin-1
(å ä ö é …); the few characters outside it that the pages use ("–", "−", „ “) are replaced by
their Latin-1 neighbours (:func:`latin1`), so no font file is needed on the server.
"""

from __future__ import annotations

from io import BytesIO
from xml.sax.saxutils import escape

from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from clubs.i18n import render
from clubs.templatetags.formats_i18n import day, day_short, day_time, num
from portal.templatetags.standings_i18n import tie_lines

#: Characters the pages use that Latin-1 (the standard PDF fonts) lacks, and what stands in.
_LATIN1 = str.maketrans(
    {
        "–": "-",
        "—": "-",
        "−": "-",
        "„": '"',
        "“": '"',
        "”": '"',
        "‘": "'",
        "’": "'",
        "…": "...",
        "→": "->",
        "∞": "inf",
        "\u00a0": " ",
    }
)


def latin1(text) -> str:
    """The text in characters Helvetica has: the known stand-ins, then "?" for anything else."""
    text = str(text if text is not None else "").translate(_LATIN1)
    return text.encode("latin-1", "replace").decode("latin-1")


_STYLES = getSampleStyleSheet()
_TITLE = _STYLES["Title"]
_H2 = _STYLES["Heading2"]
_BODY = _STYLES["BodyText"]
_SMALL = _STYLES["BodyText"].clone("small", fontSize=8, leading=10)
_CELL = _STYLES["BodyText"].clone("cell", fontSize=8.5, leading=10.5)
_CELL_B = _CELL.clone("cell_b", fontName="Helvetica-Bold")


def _p(text, style=_BODY) -> Paragraph:
    return Paragraph(escape(latin1(text)), style)


def _b(text, style=_BODY) -> Paragraph:
    return Paragraph(f"<b>{escape(latin1(text))}</b>", style)


def _table(header: list[str], rows: list[list], *, marked: list[bool], numeric: set[int]):
    """A ranking table: a bold header row, rows marked (qualified, seat, champion) in bold
    on a light green band, figure columns right-aligned."""
    data = [[_p(h, _CELL_B) for h in header]]
    for row, mark in zip(rows, marked):
        style = _CELL_B if mark else _CELL
        data.append([c if isinstance(c, Paragraph) else _p(c, style) for c in row])
    table = Table(data, colWidths=_widths(len(header), numeric), repeatRows=1, hAlign="LEFT")
    commands = [
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.lightgrey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    for col in numeric:
        commands.append(("ALIGN", (col, 0), (col, -1), "RIGHT"))
    for i, mark in enumerate(marked, start=1):
        if mark:
            commands.append(("BACKGROUND", (0, i), (-1, i), colors.HexColor("#e3f4e6")))
    table.setStyle(TableStyle(commands))
    return table


#: The printable width of an A4 page inside the 15 mm margins.
_WIDTH = A4[0] - 30 * mm


def _widths(columns: int, numeric: set[int]) -> list[float]:
    """The rank column narrow, figure columns 17 mm, the text columns share what is left."""
    fixed = {c: (12 if c == 0 else 17) * mm for c in numeric}
    text = [c for c in range(columns) if c not in fixed]
    share = (_WIDTH - sum(fixed.values())) / max(1, len(text))
    return [fixed.get(c, share) for c in range(columns)]


def _right(text, bold: bool = False) -> Paragraph:
    style = (_CELL_B if bold else _CELL).clone("right", alignment=2)
    return _p(text, style)


def _document(title: str, story: list) -> bytes:
    out = BytesIO()
    doc = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=15 * mm,
        title=latin1(title),
        author="Upplands Bridgeförbund",
    )
    doc.build(story)
    return out.getvalue()


def pdf_response(content: bytes, name: str) -> HttpResponse:
    """``application/pdf``, shown in the browser (inline) under a readable file name."""
    response = HttpResponse(content, content_type="application/pdf")
    filename = f"{slugify(name) or 'resultat'}.pdf"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


# ---------------------------------------------------------------------------------------------
# Heats (pairs and teams share one builder, as they share one page)
# ---------------------------------------------------------------------------------------------


def _heat_dates(page) -> str:
    heat = page.heat
    if page.sessions and page.sessions.sessions:
        return f" {_('och')} ".join(day(d) for _n, d in page.sessions.sessions)
    if heat.last_date and heat.last_date != heat.first_date:
        return f"{day(heat.first_date)}-{day(heat.last_date)}"
    return day(heat.first_date)


def _status(rv) -> str:
    """The "Finalen" cell, as templates/portal/_heat_status.html says it."""
    if rv.seat and rv.words and rv.words.provisional:  # issue 21: never read as decided
        state = _("Inom finalplatserna: %(state)s") % {"state": rv.words.text}
        return f"{state}: {rv.seat.reason_text()}"
    if rv.seat:
        return f"{_('I finalen')}: {rv.seat.reason_text()}"
    if rv.gave_up:
        return f"{_('lämnade sin plats')}: {rv.gave_up.reason_text()}"
    if rv.reserve:
        text = _("Reserv %(n)s") % {"n": rv.reserve.position}
        if rv.reserve.asked:
            text += f" ({_('har tillfrågats')})"
        return text
    return ""


def _standing_lot_text(tie) -> str:
    """A tie settled by lot, as templates/portal/_standing_lots.html says it."""
    text = _("Lika i tabellen: %(among)s (plats %(first)s–%(last)s, %(clause)s).") % {
        "among": ", ".join(tie.names),
        "first": tie.first,
        "last": tie.last,
        "clause": tie.clause,
    }
    lot = tie.lot
    if lot is None:
        return f"{text} {_('lott ej dragen')}: {_('Ordningen är preliminär tills TK drar lotten.')}"
    who = lot.drawn_by or "TK"
    if lot.drawn_by_hand:
        how = _("dragen i hallen, registrerad av %(who)s %(when)s.") % {
            "who": who,
            "when": day_time(lot.drawn_at),
        }
    else:
        how = _(
            "dragen här av %(who)s %(when)s med seed %(seed)s (vittnen: %(witnesses)s); vem som "
            "helst kan göra om dragningen från det."
        ) % {
            "who": who,
            "when": day_time(lot.drawn_at),
            "seed": lot.seed,
            "witnesses": lot.witnesses,
        }
    return f"{text} {_('lott dragen')}: {how}"


def _tie_paragraphs(page) -> list:
    """How each tie of the table was broken (R-PAIR-TIE-1, R-TEAM-TIE-1): the criteria applied
    to each tied row, and the lots, drawn or not, as the page says them."""
    lines = []
    for rv in page.table:
        applied = tie_lines(rv.row)
        if applied:
            rank = rv.row.get("rank")
            lines.append(
                f"{rank if rank is not None else '-'}. {rv.row.get('name', '')}: "
                + "; ".join(applied)
            )
    lots = [_standing_lot_text(tie) for tie in page.standing_lots]
    if not lines and not lots:
        return []
    story = [Spacer(1, 2 * mm), _p(_("Lika resultat"), _H2)]
    story += [_p(line, _SMALL) for line in lines + lots]
    return story


def heat_pdf(page) -> bytes:
    """A heat's result list: title, dates, venue and organisers, the ranking with who holds a
    seat from the heat marked, the heat's number of final seats and its reserves in order."""
    heat, teams = page.heat, page.kind == "teams"
    competition_label = _("DM Lag") if teams else page.competition.get_discipline_display()
    title = f"{heat.name} - {competition_label} {page.competition.season}"
    story = [_p(heat.name, _TITLE)]
    facts = [f"{competition_label} {page.competition.season}"]
    if page.organisers:
        facts.append(", ".join(page.organisers))
    if heat.venue:
        facts.append(heat.venue)
    facts.append(_heat_dates(page))
    story += [_p(" · ".join(facts)), Spacer(1, 3 * mm), _p(_("Resultat"), _H2)]
    if page.snapshot and page.snapshot.provisional:
        story.append(
            _p(f"{_('preliminär')}: {_('Resultatet är preliminärt: heatet är inte färdigspelat.')}")
        )
    if page.snapshot:
        story.append(_p(f"{_('Senast beräknad')} {day_time(page.snapshot.computed_at)}.", _SMALL))
    if not page.rows:
        story.append(_p(_("Inga resultat ännu.")))
        return _document(title, story)

    by_session = bool(not teams and page.sessions and page.sessions.by_session)
    if teams:
        header = ["#", _("Lag"), _("Matcher"), _("IMP-kvot"), _("VP"), _("Finalen")]
        numeric = {0, 2, 3, 4}
    else:
        header = ["#", _("Par")]
        if by_session:
            header += [_("Sp. %(session)s %%") % {"session": n} for n, _d in page.sessions.sessions]
            header.append(_("Totalt %%").replace("%%", "%"))  # the template's msgid
        else:
            header.append("%")
        header.append(_("Finalen"))
        numeric = set(range(0, len(header) - 1)) - {1}
    rows, marked = [], []
    for rv in page.table:
        r = rv.row
        rank = r.get("rank")
        name = r.get("name", "")
        if teams:
            if r.get("status_label"):
                name += f" ({_(r['status_label'])})"
            line = [
                _right(rank if rank is not None else "-"),
                name,
                _right(r.get("played", "")),
                _right(num(r.get("imp_quotient"), "3")),
                _right(num(r.get("vp"), "2"), bold=True),
            ]
        else:
            if r.get("incomplete"):
                name += f" ({_('ej båda speltillfällena')})"
            elif rank is None:
                name += f" ({_('utom tävlan')})"
            elif not r.get("qualifier"):
                name += f" ({_('deltar inte i kvalet')})"
            line = [_right(rank if rank is not None else "-"), name]
            if by_session:
                line += [
                    _right(num(s["percentage"]) if s else "-") for s in r.get("sessions") or ()
                ]
            line.append(_right(num(r.get("percentage")), bold=bool(rv.seat)))
        line.append(_status(rv))
        rows.append(line)
        marked.append(bool(rv.seat))
    story.append(_table(header, rows, marked=marked, numeric=numeric))
    story.append(
        _p(
            _(
                "„I finalen“: har en finalplats från heatet nu. „Reserv 1“, „Reserv 2“ …: i tur "
                "att tillfrågas om en plats blir ledig (R-REPL-1)."
            ),
            _SMALL,
        )
    )
    story += _tie_paragraphs(page)
    if page.run and page.venue:
        story += [Spacer(1, 3 * mm), _p(_("Finalplatserna"), _H2)]
        if page.run.provisional:
            story.append(
                _p(
                    _(
                        "Fördelningen är preliminär tills alla heat är färdigspelade; den kan "
                        "ändras."
                    )
                )
            )
        seats = page.venue.get("seats") or 0
        story.append(
            _b(
                ngettext(
                    "%(heat)s fick %(seats)s finalplats.",
                    "%(heat)s fick %(seats)s finalplatser.",
                    seats,
                )
                % {"heat": heat.name, "seats": seats}
            )
        )
    if page.reserves:
        story += [Spacer(1, 3 * mm), _p(_("Reserver i tur och ordning"), _H2)]
        for r in page.reserves:
            rank = r.rank if r.rank is not None else "-"
            text = f"{r.position}. {r.name} ({_('plats %(rank)s i heatet') % {'rank': rank}}"
            if r.asked:
                text += f", {_('har tillfrågats')}"
            story.append(_p(text + ")"))
    return _document(title, story)


def heat_filename(page) -> str:
    prefix = "dm-lag" if page.kind == "teams" else "dm-par"
    return f"{prefix} {page.heat.name} {page.competition.season} resultat"


# ---------------------------------------------------------------------------------------------
# The DM Par final
# ---------------------------------------------------------------------------------------------


def _pair_prize(r: dict) -> str:
    parts = []
    if r.get("title"):
        parts.append(_("DM-mästare"))
    if r.get("plaque_label"):
        parts.append(render(r["plaque_label"]))
    if r.get("bonus_per_player"):
        parts.append(f"(+{num(r['bonus_per_player'])} {_('bonus/spelare')}, R-PAIR-MP-2)")
    return " ".join(parts)


def pair_final_pdf(page) -> bytes:
    """The DM Par final: title, date and venue; the champions; the ranking with prize
    (title, plaques, bonus), SM place and masterpoints; the SM places in order. Before the
    final is played: the qualified pairs by heat."""
    c, f = page.competition, page.data
    heading = f"{_('Final')}: {c.get_discipline_display()} {c.season}"
    story = [_p(heading, _TITLE)]
    where = day(c.final_date)
    if c.final_venue:
        where += f", {c.final_venue}"
    story += [_p(where + "."), Spacer(1, 3 * mm)]
    rows = f.get("rows") or []
    if not rows:
        story.append(_p(_("Kvalificerade par"), _H2))
        for g in page.groups:
            label = g.heat.name if g.heat else _("Direktkvalificerade och direktanmälda")
            story.append(_b(label))
            for h in g.holders:
                pair = f"{h.registered[0].full_name} - {h.registered[1].full_name}"
                story.append(_p(f"{pair} ({h.seat.reason_text()})", _SMALL))
        if not page.groups:
            story.append(_p(_("Inga par har en finalplats ännu.")))
        story.append(Spacer(1, 3 * mm))
        story.append(_p(_("Finalen är inte spelad ännu.")))
        return _document(heading, story)

    story.append(_p(_("Resultat"), _H2))
    for r in page.champions:
        story.append(_b(_("DM-mästare: %(name)s") % {"name": r["name"]}))
    mp = not f.get("mp_table_missing")
    header = ["#", _("Par"), "%", _("Pris"), _("SM")] + ([_("MP")] if mp else [])
    table, marked = [], []
    for r in rows:
        name = r["name"]
        if r.get("out_of_district"):
            name += f" ({_('utom distriktet')})"
        elif not r.get("ubf_pair"):
            name += f" ({_('ej UBF-par')})"
        sm = ""
        if r.get("sm_place"):
            sm = _("SM-plats %(n)s") % {"n": r["sm_place"]}
        elif r.get("sm_passed_over"):
            sm = _("passeras")
        line = [_right(r.get("rank")), name, _right(num(r.get("percentage"))), _pair_prize(r), sm]
        if mp:
            line.append(_right(num(r.get("masterpoints"))))
        table.append(line)
        marked.append(bool(r.get("title")))
    story.append(_table(header, table, marked=marked, numeric={0, 2} | ({5} if mp else set())))
    if not mp:
        story.append(
            _p(
                _(
                    "Mästarpoängtabellen för säsongen saknas; mästarpoängen visas när TK har "
                    "lagt in den."
                ),
                _SMALL,
            )
        )
    story += [Spacer(1, 3 * mm), _p(_("SM-platser"), _H2)]
    if f.get("sm_places"):
        for r in page.sm_rows:
            story.append(_p(f"{_('SM-plats %(n)s') % {'n': r['sm_place']}}: {r['name']}"))
        for r in page.passed_over:
            story.append(
                _p(f"{_('%(name)s passeras:') % {'name': r['name']}} {render(r['sm_reason'])}")
            )
    else:
        story.append(_p(_("Antalet SM-platser är inte angivet ännu.")))
    return _document(heading, story)


def pair_final_filename(page) -> str:
    c = page.competition
    return f"dm-par {c.discipline} final {c.season} resultat"


# ---------------------------------------------------------------------------------------------
# The DM Lag final
# ---------------------------------------------------------------------------------------------


def lag_final_pdf(page) -> bytes:
    """The DM Lag final (the block /lag/ shows): days and venue, the round it stands after,
    the standings (rank, team, matches, IMP, IMP quotient, MP, VP) with the DM champions
    marked once the final is played, the DM order (title, plaques) and the players' plaques."""
    c = page.competition
    heading = f"{_('DM Lag')} {page.season or ''}".strip()
    story = [_p(heading, _TITLE)]
    if c is None:
        story.append(_p(_("DM Lag har inte lagts upp för säsongen ännu.")))
        return _document(heading, story)
    story.append(
        _p(f"{_('Final')}: {day_short(c.final_day1)}-{day(c.final_day2)}, {c.final_venue}")
    )
    snapshot = page.final_snapshot if page.final_shown else None
    if snapshot is None:
        story.append(Spacer(1, 3 * mm))
        for n, team in enumerate(page.final_teams, start=1):
            story.append(_p(f"{n}. {team.name}"))
        story.append(_p(_("Finalen är inte spelad ännu.")))
        return _document(heading, story)
    rows = snapshot.data or []
    line = _("Efter rond %(n)s.") % {"n": snapshot.rounds_played}
    if snapshot.provisional:
        line = f"{_('preliminär')}. {line}"
    story += [
        _p(f"{line} {_('Senast beräknad')} {day_time(snapshot.computed_at)}.", _SMALL),
        Spacer(1, 2 * mm),
    ]
    played = page.final_started and not page.final_live
    champion = next((r for r in rows if r.get("dm_rank") == 1), None) if played else None
    if champion:
        story.append(_b(_("DM-mästare: %(name)s") % {"name": champion["name"]}))
    header = ["#", _("Lag"), _("Matcher"), _("IMP +"), _("IMP −"), _("IMP-kvot"), _("MP"), _("VP")]
    table, marked = [], []
    for r in rows:
        name = r["name"]
        notes = []
        if r.get("dm_eligible") is False:
            notes.append(_("endast SM"))
        if r.get("sm_choice"):
            notes.append(f"SM {r['sm_choice']}")
        if r.get("status_label"):
            notes.append(_(r["status_label"]))
        if notes:
            name += f" ({', '.join(notes)})"
        vp = num(r.get("vp"), "2")
        if r.get("penalty") and r["penalty"] != "0.00":
            vp += f" (-{num(r['penalty'], '2')})"
        table.append(
            [
                _right(r.get("rank")),
                name,
                _right(r.get("played")),
                _right(num(r.get("imps_won"))),
                _right(num(r.get("imps_lost"))),
                _right(num(r.get("imp_quotient"), "3")),
                _right(num(r.get("masterpoints") or "", "-2")),
                _right(vp, bold=True),
            ]
        )
        marked.append(champion is not None and r is champion)
    story.append(_table(header, table, marked=marked, numeric={0, 2, 3, 4, 5, 6, 7}))
    story.append(
        _p(
            _(
                "VP: vinstpoäng (R-TEAM-VP-1). IMP-kvot: vunna IMP delat med förlorade IMP "
                "(R-TEAM-TIE-1). MP: mästarpoäng i silver (R-TEAM-MP-1)."
            ),
            _SMALL,
        )
    )
    if page.orders:
        story += [Spacer(1, 3 * mm), _p(_("DM-ordning och SM-ordning (R-TEAM-4)"), _H2)]
        orders = [
            [
                _right(position),
                dm["name"] if dm else "",
                (full["name"] if full else "")
                + (
                    " (" + _("endast SM") + ")" if full and full.get("dm_eligible") is False else ""
                ),
            ]
            for position, dm, full in page.orders
        ]
        story.append(
            _table(
                [
                    _("Plats"),
                    _("DM-ordning (titel, plaketter)"),
                    _("Fullständig ordning (SM-semifinal)"),
                ],
                orders,
                marked=[False] * len(orders),
                numeric={0},
            )
        )
    plaques = [
        (r["name"], p) for r in rows for p in r.get("bonus_players") or () if p.get("plaque")
    ]
    if plaques:
        story += [Spacer(1, 3 * mm), _p(_("plakett").capitalize(), _H2)]
        for team, p in plaques:
            text = f"{team}: {p['name']}"
            if p.get("bonus"):
                text += f" - {_('bonus %(points)s silverpoäng') % {'points': num(p['bonus'])}}"
            story.append(_p(text))
    return _document(heading, story)


def lag_final_filename(page) -> str:
    return f"dm-lag final {page.season or ''} resultat"
