"""Rulings and appeals (R-RULING-1..3): the tournament director's ruling, the appeal to a
jury drawn by lot, and the appeal to the Lagkommission."""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from django.db import transaction

from clubs import seats
from clubs.decision_log import decision_log
from clubs.locks import lock_row
from clubs.recompute import request_recompute
from clubs.services.base import (
    error,
    raise_on_errors,
    record_decision,
    text_required,
)
from teams.models import (
    BoardResult,
    Match,
    Ruling,
    Team,
)
from teams.services.decisions.common import (
    _require_tk,
)
from ubf.rules.i18n import Message, gettext_noop
from ubf.rules.violations import Violation
from ubf.rules.vp import victory_points

_WRITE_UP = (
    ("hands", gettext_noop("kortsits")),
    ("auction", gettext_noop("budgivning")),
    ("play", gettext_noop("spelförlopp")),
    ("why_called", gettext_noop("varför tävlingsledaren tillkallades")),
    ("ruling", gettext_noop("tävlingsledarens domslut")),
    ("appeal_grounds", gettext_noop("anledning till överklagandet")),
    ("other_side_view", gettext_noop("andra sidans synpunkter")),
    ("involved", gettext_noop("namn på samtliga inblandade")),
)


def _td_names(td_names: str) -> list[str]:
    return [n.strip() for n in re.split(r",|;|\n| och | and ", td_names or "") if n.strip()]


def _ruling_stage_problem(ruling: Ruling, expected: str, step: str):
    if ruling.stage == expected:
        return []
    if ruling.stage == Ruling.Stage.FINAL:
        return [
            error(
                "R-RULING-3",
                gettext_noop(
                    "Lagkommissionens beslut är slutgiltigt; ärendet kan inte drivas vidare."
                ),
                stage=ruling.stage,
            )
        ]
    return [
        error(
            "R-RULING-3",
            gettext_noop("%(step)s kan inte göras nu: ärendet är i steget %(stage)s."),
            params={"step": step, "stage": ruling.get_stage_display()},
            stage=ruling.stage,
        )
    ]


def _ruling_at(user, ruling: Ruling, clause: str, expected: str, step: str):
    """TK only: the ruling, locked, and the problem if its case is not at stage ``expected``
    (``step``: what is being done, a Swedish msgid marked with gettext_noop)."""
    _require_tk(user, clause)
    ruling = lock_row(Ruling.objects.all(), ruling.pk, competition="match__competition_id")
    return ruling, _ruling_stage_problem(ruling, expected, step)


def _advance_ruling(
    user, ruling: Ruling, stage: str, action: str, reason: str, clause: str, **data
):
    """Move the case to ``stage``, save the ruling and record the step (R-RULING-1..3)."""
    ruling.stage = stage
    ruling.save()
    record_decision(
        action,
        ruling,
        user=user,
        reason=reason.strip(),
        clause=clause,
        season=ruling.match.competition.season,
        **data,
    )
    return ruling


def ruling_problems(
    match: Match,
    *,
    td_names: str,
    td_category: str,
    ruling: str,
    playing_td_teams: Sequence[Team] = (),
) -> list[Violation]:
    """R-RULING-1: what stops recording a ruling (see :func:`record_ruling`)."""
    problems = []
    if td_category not in Ruling.TdCategory.values:
        problems.append(
            error(
                "R-RULING-1",
                gettext_noop("Okänt slag av tävlingsledare: %(td_category)r."),
                params={"td_category": td_category},
            )
        )
    names = _td_names(td_names)
    if not names:
        problems.append(error("R-RULING-1", gettext_noop("Ange tävlingsledarens namn.")))
    if not (ruling and ruling.strip()):
        problems.append(error("R-RULING-1", gettext_noop("Skriv domslutet.")))
    teams = list(playing_td_teams)
    if td_category == Ruling.TdCategory.THREE_PLAYING:
        if len(names) < 3:
            problems.append(
                error(
                    "R-RULING-1",
                    gettext_noop(
                        "Spelande tävlingsledare dömer tre tillsammans; %(n_names)s namn angivna."
                    ),
                    params={"n_names": len(names)},
                )
            )
        if len({t.pk for t in teams}) != len(teams) or (teams and len(teams) < 3):
            problems.append(
                error(
                    "R-RULING-1",
                    gettext_noop("De tre spelande tävlingsledarna ska komma från olika lag."),
                )
            )
    if match.stage == Match.Stage.FINAL and td_category != Ruling.TdCategory.NON_PLAYING:
        problems.append(
            error(
                "R-RULING-1",
                gettext_noop(
                    "I DM-lagfinalen ska en icke-spelande licensierad tävlingsledare finnas i "
                    "lokalen och döma."
                ),
                td_category=td_category,
            )
        )
    return problems


@transaction.atomic
def record_ruling(
    user,
    match: Match,
    *,
    td_names: str,
    td_category: str,
    board_number: int | None,
    hands: str = "",
    auction: str = "",
    play: str = "",
    why_called: str = "",
    ruling: str,
    involved: str = "",
    playing_td_teams: Sequence[Team] = (),
) -> Ruling:
    """R-RULING-1: the first instance. The TD is a non-playing licensed TD; failing that three
    licensed playing TDs from different teams (three names, and the teams they play for in
    ``playing_td_teams``, which the jury may not be drawn from); failing that the district TD.
    At the DM team final a non-playing licensed TD must be present, so a ruling there by any
    other category is refused."""
    _require_tk(user, "R-RULING-1")
    problems = ruling_problems(
        match,
        td_names=td_names,
        td_category=td_category,
        ruling=ruling,
        playing_td_teams=playing_td_teams,
    )
    teams = list(playing_td_teams)
    names = _td_names(td_names)
    raise_on_errors(problems)
    obj = Ruling.objects.create(
        match=match,
        board_number=board_number,
        td_names=td_names.strip(),
        td_category=td_category,
        playing_td_team=teams[0] if teams else None,
        hands=hands,
        auction=auction,
        play=play,
        why_called=why_called,
        ruling=ruling.strip(),
        involved=involved,
        recorded_by=user,
    )
    record_decision(
        "teams.ruling.recorded",
        obj,
        user=user,
        reason=ruling.strip(),
        clause="R-RULING-1",
        season=match.competition.season,
        td_category=td_category,
        td_names=names,
        playing_td_team_ids=[t.pk for t in teams],
    )
    return obj


@transaction.atomic
def appeal_to_jury(
    user, ruling: Ruling, *, appeal_grounds: str, other_side_view: str, involved: str
) -> Ruling:
    """R-RULING-2: an appeal goes to the jury with the TD's full write-up: hands, auction,
    play, why the TD was called, the ruling, the grounds of appeal, the other side's view and
    the names of everyone involved, the TD included. Refused with the list of what is missing.
    """
    ruling, problems = _ruling_at(
        user,
        ruling,
        "R-RULING-2",
        Ruling.Stage.RULED,
        gettext_noop("Överklagande till juryn"),
    )
    values = {
        "hands": ruling.hands,
        "auction": ruling.auction,
        "play": ruling.play,
        "why_called": ruling.why_called,
        "ruling": ruling.ruling,
        "appeal_grounds": appeal_grounds,
        "other_side_view": other_side_view,
        "involved": involved,
    }
    missing: list = [what for key, what in _WRITE_UP if not (values[key] or "").strip()]
    lowered = (involved or "").lower()
    missing_tds = [n for n in _td_names(ruling.td_names) if n.lower() not in lowered]
    if (involved or "").strip() and missing_tds:
        missing.append(
            Message(
                gettext_noop("tävlingsledarens namn bland de inblandade (%(names)s)"),
                {"names": ", ".join(missing_tds)},
            )
        )
    if missing:
        problems.append(
            error(
                "R-RULING-2",
                gettext_noop("Överklagandet saknar: %(missing)s."),
                params={"missing": missing},
                missing=[getattr(m, "message_sv", m) for m in missing],
            )
        )
    raise_on_errors(problems)
    ruling.appeal_grounds = appeal_grounds.strip()
    ruling.other_side_view = other_side_view.strip()
    ruling.involved = involved.strip()
    return _advance_ruling(
        user, ruling, Ruling.Stage.APPEALED, "teams.ruling.appealed", appeal_grounds, "R-RULING-2"
    )


def _playing_td_team_ids(ruling: Ruling) -> set[int]:
    ids = {ruling.playing_td_team_id} if ruling.playing_td_team_id else set()
    for d in decision_log(ruling).filter(action="teams.ruling.recorded"):
        ids.update((d.data or {}).get("playing_td_team_ids", []))
    return ids


def jury_candidates(ruling: Ruling) -> list[Team]:
    """R-RULING-3: the teams of the stage that may sit on the jury: still in play, not in the
    match, not the team of a playing TD."""
    match = ruling.match
    if match.stage == Match.Stage.KVAL and match.heat_id:
        teams = Team.objects.filter(heat_id=match.heat_id)
    else:
        teams = seats.holding(Team.objects.filter(competition_id=match.competition_id))
    excluded = {match.home_id, match.away_id} | _playing_td_team_ids(ruling)
    return list(teams.filter(status=Team.Status.ENTERED).exclude(pk__in=excluded).order_by("pk"))


@transaction.atomic
def draw_jury(user, ruling: Ruling, *, size: int = 3, seed: str | None = None) -> Ruling:
    """R-RULING-3: the jury is drawn from the teams of the stage not involved in the match and
    not the team of a playing TD (:func:`jury_candidates`), with a recorded seed so the draw
    can be repeated."""
    ruling, problems = _ruling_at(
        user, ruling, "R-RULING-3", Ruling.Stage.APPEALED, gettext_noop("Juryn")
    )
    if ruling.jury_teams.exists():
        problems.append(error("R-RULING-3", gettext_noop("Juryn är redan lottad.")))
    candidates = jury_candidates(ruling)
    if size < 1 or len(candidates) < size:
        problems.append(
            error(
                "R-RULING-3",
                gettext_noop(
                    "Juryn ska ha %(size)s lag men bara %(n_candidates)s lag i etappen är inte "
                    "inblandade."
                ),
                candidates=len(candidates),
                params={"size": size, "n_candidates": len(candidates)},
            )
        )
    raise_on_errors(problems)
    seed = seed if seed is not None else secrets.token_hex(8)
    # Seeded from `secrets` (or TK's recorded seed), so the draw can be checked later.
    jury = random.Random(str(seed)).sample(candidates, size)  # noqa: S311
    ruling.jury_teams.set(jury)
    record_decision(
        "teams.ruling.jury_drawn",
        ruling,
        user=user,
        reason="Jury lottad bland lag som inte är inblandade (R-RULING-3).",
        clause="R-RULING-3",
        season=ruling.match.competition.season,
        seed=str(seed),
        candidates=[t.pk for t in candidates],
        jury=[t.pk for t in jury],
        jury_names=[t.name for t in jury],
    )
    return ruling


@transaction.atomic
def record_jury_decision(user, ruling: Ruling, *, decision: str) -> Ruling:
    """R-RULING-3: the jury's decision (second instance), after it was drawn."""
    ruling, problems = _ruling_at(
        user, ruling, "R-RULING-3", Ruling.Stage.APPEALED, gettext_noop("Juryns beslut")
    )
    if not problems and not ruling.jury_teams.exists():
        problems.append(error("R-RULING-3", gettext_noop("Juryn är inte lottad ännu.")))
    problems += text_required(decision, "R-RULING-3", gettext_noop("Skriv juryns beslut."))
    raise_on_errors(problems)
    ruling.jury_decision = decision.strip()
    return _advance_ruling(
        user, ruling, Ruling.Stage.JURY, "teams.ruling.jury_decided", decision, "R-RULING-3"
    )


@transaction.atomic
def appeal_to_lagkommission(user, ruling: Ruling, *, grounds: str) -> Ruling:
    """R-RULING-3: the jury's decision is appealed to SBF's Lagkommission (third instance)."""
    ruling, problems = _ruling_at(
        user,
        ruling,
        "R-RULING-3",
        Ruling.Stage.JURY,
        gettext_noop("Överklagande till Lagkommissionen"),
    )
    problems += text_required(grounds, "R-RULING-3", gettext_noop("Ange skälen för överklagandet."))
    raise_on_errors(problems)
    return _advance_ruling(
        user,
        ruling,
        Ruling.Stage.LAGKOMMISSION,
        "teams.ruling.appealed_lagkommission",
        grounds,
        "R-RULING-3",
    )


@transaction.atomic
def record_lagkommission_decision(user, ruling: Ruling, *, decision: str) -> Ruling:
    """R-RULING-3: SBF's Lagkommission decides; its decision is final and sets precedent."""
    ruling, problems = _ruling_at(
        user,
        ruling,
        "R-RULING-3",
        Ruling.Stage.LAGKOMMISSION,
        gettext_noop("Lagkommissionens beslut"),
    )
    problems += text_required(
        decision, "R-RULING-3", gettext_noop("Skriv Lagkommissionens beslut.")
    )
    raise_on_errors(problems)
    ruling.lagkommission_decision = decision.strip()
    return _advance_ruling(
        user,
        ruling,
        Ruling.Stage.FINAL,
        "teams.ruling.lagkommission_decided",
        decision,
        "R-RULING-3",
        final=True,
    )


#: The stages at which an instance has decided (the TD, the jury, the Lagkommission): a score
#: follows a decision, never a pending appeal.
_DECIDED = (Ruling.Stage.RULED, Ruling.Stage.JURY, Ruling.Stage.FINAL)


def _imps(value, what) -> tuple[Decimal | None, list[Violation]]:
    try:
        imps = Decimal(str(value).strip().replace(",", "."))
    except (InvalidOperation, ValueError):
        imps = None
    if imps is None or not imps.is_finite() or imps < 0 or imps != imps.quantize(Decimal("0.01")):
        return None, [
            error(
                "R-RULING-1",
                gettext_noop("%(what)s: ange IMP som ett tal ≥ 0 med högst två decimaler."),
                params={"what": what},
            )
        ]
    return imps.quantize(Decimal("0.01")), []


@transaction.atomic
def adjust_score(user, ruling: Ruling, *, imps_home, imps_away, reason: str) -> Ruling:
    """R-RULING-1..3: the decision of the instance that last decided (the TD, the jury, the
    Lagkommission) changes the score. A ruling on a board replaces that board's IMPs and the
    match's IMPs change by the difference; a ruling on the match replaces the match's IMPs.
    The VP follow from the WBF scale (R-VP-1, :func:`ubf.rules.vp.victory_points`) and the
    standings are recomputed. Refused while an appeal is pending, for a match not played, or
    for a board the match has no result for."""
    ruling, problems = _ruling_at(
        user, ruling, "R-RULING-3", Ruling.Stage.RULED, gettext_noop("Ändrat resultat")
    )
    if ruling.stage in _DECIDED:
        problems = []
    problems += text_required(reason, "R-RULING-1", gettext_noop("Ange skälet till ändringen."))
    home, bad_home = _imps(imps_home, gettext_noop("IMP hemma"))
    away, bad_away = _imps(imps_away, gettext_noop("IMP borta"))
    problems += bad_home + bad_away
    match = lock_row(Match.objects.select_related("competition__season"), ruling.match_id)
    if match.status != Match.Status.PLAYED or match.imps_home is None or match.imps_away is None:
        problems.append(
            error(
                "R-RULING-1",
                gettext_noop("Matchen %(match)s har inget spelat resultat att ändra."),
                params={"match": str(match)},
            )
        )
    board = None
    if ruling.board_number and not problems:
        board = BoardResult.objects.filter(match=match, board_number=ruling.board_number).first()
        if board is None:
            problems.append(
                error(
                    "R-RULING-1",
                    gettext_noop("Matchen har inget resultat för bricka %(board)s."),
                    params={"board": ruling.board_number},
                )
            )
    raise_on_errors(problems)
    before = {
        "imps_home": str(match.imps_home),
        "imps_away": str(match.imps_away),
        "vp_home": str(match.vp_home),
        "vp_away": str(match.vp_away),
    }
    if board is not None:
        before["board_imps"] = [str(board.imps_home), str(board.imps_away)]
        match.imps_home += home - board.imps_home
        match.imps_away += away - board.imps_away
        board.imps_home, board.imps_away = home, away
        board.save(update_fields=["imps_home", "imps_away"])
    else:
        match.imps_home, match.imps_away = home, away
    match.vp_home, match.vp_away = victory_points(match.imps_home, match.imps_away, match.boards)
    match.save(update_fields=["imps_home", "imps_away", "vp_home", "vp_away"])
    record_decision(
        "teams.ruling.score_adjusted",
        ruling,
        user=user,
        reason=reason.strip(),
        clause="R-RULING-1" if ruling.stage == Ruling.Stage.RULED else "R-RULING-3",
        season=match.competition.season,
        stage=ruling.stage,
        board=ruling.board_number,
        board_imps=[str(home), str(away)] if board is not None else None,
        before=before,
        after={
            "imps_home": str(match.imps_home),
            "imps_away": str(match.imps_away),
            "vp_home": str(match.vp_home),
            "vp_away": str(match.vp_away),
        },
    )
    request_recompute(match.competition_id)
    return ruling
