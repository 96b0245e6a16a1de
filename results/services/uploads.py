"""Result uploads: a club's file in, validated completely, then saved atomically; the
recompute is scheduled on commit.

Identity: pairs are matched by their number in the heat and, when the file carries them, by
the players' MIDs; teams by their number in the heat (or in the final). Never by names alone.
Nothing is saved unless everything checks out. An identical re-upload changes nothing; a
corrected one replaces the earlier results in one transaction, and both files stay in the
history (the earlier one marked superseded).

Bad input costs no more than a clear refusal (issue 14): the importers bound every number
before converting it, and whatever error is still left in reading or checking a file
(:func:`_read`) becomes an :class:`UploadRejected` with "Filen kunde inte läsas: …", logged with
its traceback, never a server error. The file is written to media last, after its rows, and
deleted again when the transaction does not commit (:func:`_saving`), so a refused or failed
upload leaves no file behind; a row the database still refuses (``DataError``) is a refusal too.
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import TypeVar

from django.core.files.base import ContentFile
from django.db import DataError, transaction
from django.db.models import Q
from simple_history.utils import bulk_update_with_history

from clubs import clock, public_cache, seats, windows
from clubs.i18n import render, with_clause
from clubs.locks import lock_competition
from clubs.models import Representation
from clubs.permissions import can_manage_pair_heat, can_manage_team_heat, is_tk
from clubs.recompute import expect_recompute, request_recompute
from clubs.selectors import normalise_mid
from clubs.services.base import require
from pairs.models import PairCompetition, PairHeat
from pairs.selectors import final_seat_holders
from results.importers import (
    ImportFailed,
    ImportProblem,
    compute_pair_scores,
    parse_upload,
    team_match_summary,
    validate_pairs,
    validate_teams,
)
from results.importers.bounds import MAX_SESSION_BOARDS, Limits
from results.importers.detect import DEFAULT_MAX_BYTES, check_name, detect_format
from results.importers.model import problem, shown
from results.models import (
    PairFinalResult,
    PairFinalTraveller,
    PairResult,
    PairTraveller,
    ResultUpload,
    pair_key,
)
from results.recompute import ask_again_if_pending
from teams.models import BoardResult, Match, RosterEntry, Team, TeamCompetition, TeamHeat
from ubf.rules.eligibility import check_session_entry
from ubf.rules.i18n import Message, gettext_noop
from ubf.rules.people import UBF
from ubf.rules.vp import victory_points
from ubf.rules.windows import BEFORE, RESULTS_UPLOAD, Window

CENT = Decimal("0.01")
log = logging.getLogger(__name__)
T = TypeVar("T")


class UploadRejected(Exception):
    """The file was refused; ``problems`` lists every reason (Swedish first). Nothing saved."""

    def __init__(self, problems: list[ImportProblem]):
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


@dataclass
class UploadOutcome:
    upload: ResultUpload
    unchanged: bool = False
    warnings: list[dict] = field(default_factory=list)


def problem_dicts(problems, language: str = "sv") -> list[dict]:
    """Problems as stored on a ResultUpload and shown on the upload page, rendered in
    ``language`` from the catalogue (docs/translation.md): ``text`` the message, ``where`` the
    line, ``clause``; ``shown`` is the text as a page shows it after ``where``, with the
    clause once (``clubs.i18n.with_clause``: not again when the message names it)."""
    return [_problem_dict(p, render(p, language), language) for p in problems]


def _problem_dict(p, text: str, language: str) -> dict:
    return {
        "text": text,
        "shown": with_clause(text, p.clause or ""),
        "where": render(p.location, language) if p.location else "",
        "clause": p.clause or "",
        "severity": str(p.severity),
    }


def _replace_accepted(
    competition_id: int, accepted, data: bytes, filename: str, *, results=(), **fields
) -> tuple[ResultUpload, list[ResultUpload]]:
    """Store a file in place of the ``accepted`` uploads it corrects; inside the caller's
    transaction.

    Locks the competition's row and then the heat's (``clubs.locks``, the one lock order of
    every upload, recompute and TK decision), so that uploads and recomputes of one
    competition run one after the other. The earlier
    uploads are marked superseded and the result rows they carried (``results``: related
    names) are deleted; their raw files stay in the history. Returns the new upload and the
    superseded ones, newest first."""
    heat = fields.get("heat")
    lock_competition(competition_id, heat_ids=[heat.pk] if heat is not None else ())
    previous = list(accepted)
    for old in previous:
        for name in results:
            getattr(old, name).all().delete()
        old.status = ResultUpload.Status.SUPERSEDED
        old.save(update_fields=["status"])
    upload = _store(
        data,
        filename,
        competition_id=competition_id,
        supersedes=previous[0] if previous else None,
        **fields,
    )
    return upload, previous


def _unchanged(current: ResultUpload) -> UploadOutcome:
    """The file is the accepted one: nothing is saved, but a recompute still pending (its task
    lost while the broker was down) is asked for again."""
    heat_ids = [current.heat_id] if current.heat_id else None
    with transaction.atomic():
        ask_again_if_pending(current.competition_id, heat_ids)
    return UploadOutcome(current, unchanged=True, warnings=current.warnings)


def _cents(value) -> Decimal:
    """An exact Fraction as a Decimal rounded to hundredths (0 when unknown)."""
    if value is None:
        return Decimal(0)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(CENT, ROUND_HALF_UP)


def _checksum(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _unreadable(exc: BaseException, template: str) -> UploadRejected:
    """The refusal for an error the importers did not foresee: its kind and first words, no
    more (the traceback goes to the log)."""
    detail = shown(f"{type(exc).__name__}: {exc}".rstrip(": "), 120)
    return UploadRejected([problem(template, params={"error": detail}, code="unreadable")])


def _read(function: Callable[..., T], *args, **kwargs) -> T:
    """Run a pure importer step (parse, validate, compute) on an uploaded file: its
    ``ImportFailed`` is the refusal it describes, and any other error in it (an arithmetic
    error, a case no check foresaw) is logged with its traceback and refused as "Filen kunde
    inte läsas: …", never a server error. Nothing has been written yet when it runs."""
    try:
        return function(*args, **kwargs)
    except ImportFailed as exc:
        raise UploadRejected(exc.problems) from exc
    except Exception as exc:
        log.exception("result file: %s failed", getattr(function, "__name__", function))
        raise _unreadable(exc, _UNREADABLE) from exc


_UNREADABLE = gettext_noop(
    "Filen kunde inte läsas: %(error)s. Exportera filen på nytt från resultatprogrammet och "
    "ladda upp den igen; hör av dig till TK om felet kvarstår."
)
_UNSTORABLE = gettext_noop(
    "Filen kunde inte sparas: %(error)s. Inget sparades. Kontrollera filen i "
    "resultatprogrammet; hör av dig till TK om felet kvarstår."
)


def _parse(data: bytes, filename: str, kind: str, limits: Limits | None = None):
    """The file read (its name's type, then its content), bounded by what the upload's target
    can hold (``limits``, issue 25: a file over them is refused before any arithmetic)."""
    _read(check_name, filename)  # an upload's type limit; parse_upload itself reads by content
    return _read(parse_upload, data, filename, kind, max_bytes=DEFAULT_MAX_BYTES, limits=limits)


@contextmanager
def _saving() -> Iterator[list]:
    """One transaction for an upload's rows and its file. :func:`_store` writes the file last
    and notes it in the list this yields; when the block does not commit (an error, a row the
    database refuses), the file is deleted again, so no orphan stays in media. A ``DataError``
    (a value the database cannot hold) is refused as "Filen kunde inte sparas: …".

    The upload services run outside any transaction (the views, the demo's loader per file),
    so this block's commit is the real one."""
    written: list = []
    try:
        with transaction.atomic():
            yield written
    except BaseException as exc:
        for stored in written:
            stored.storage.delete(stored.name)
        if isinstance(exc, DataError):
            log.exception("result file: the database refused its rows")
            raise _unreadable(exc, _UNSTORABLE) from exc
        raise


def _errors_or_warnings(problems: list[ImportProblem]) -> list[ImportProblem]:
    errors = [p for p in problems if p.is_error]
    if errors:
        raise UploadRejected(errors)
    return problems


_SUFFIXES = {"pbn": ".pbn", "usebio": ".xml", "csv": ".csv"}


def _original_name(filename: str) -> str:
    """The uploader's file name as the history and the notes show it: printable characters
    (no NUL, which PostgreSQL refuses in text), at most 200."""
    return "".join(c for c in filename if c.isprintable())[:200] or "-"


def _store(data: bytes, filename: str, *, user, checksum: str, warnings, **target) -> ResultUpload:
    """The upload's row; its file is written by :func:`_keep_file` once its rows are in."""
    fmt = detect_format(data, filename)
    upload = ResultUpload(
        original_name=_original_name(filename),
        format=fmt,
        checksum=checksum,
        size=len(data),
        uploaded_by=user if getattr(user, "is_authenticated", False) else None,
        status=ResultUpload.Status.ACCEPTED,
        warnings=problem_dicts(warnings),
        **target,
    )
    # The stored name is ours (the checksum and the format), never the uploader's: a name of
    # no valid characters ("€", "..") would fail in the storage, a long one be cut.
    upload.file.name = upload.file.field.generate_filename(
        upload, f"{checksum[:16]}{_SUFFIXES.get(fmt, '.txt')}"
    )
    upload.save()
    return upload


def _keep_file(upload: ResultUpload, data: bytes, written: list) -> None:
    """Write the upload's file, after its rows (inside :func:`_saving`, which deletes it again
    if the transaction does not commit)."""
    name = upload.file.name
    upload.file.save(name.rsplit("/", 1)[-1], ContentFile(data), save=False)
    written.append(upload.file)
    if upload.file.name != name:  # the storage chose another name (one was taken)
        ResultUpload.objects.filter(pk=upload.pk).update(file=upload.file.name)


# --------------------------------------------------------------------------------------------
# The pipeline: every upload, one order (issue 20)
# --------------------------------------------------------------------------------------------


class _Target:
    """What one kind of upload (a pairs heat, the pairs final, a team heat or final) adds to
    the pipeline (:func:`_upload`): each hook is one step's part that differs by target.

    The builder (``upload_pair_heat`` ...) checks who may upload and when, then fills in:
    ``kind`` ("pairs"/"teams", the parser), ``competition_id``, ``current`` (the accepted
    upload an identical file would repeat), ``replaced`` (the accepted uploads a new file
    supersedes), ``results`` (their result rows, deleted), ``fields`` (the upload's own:
    heat, session, round), ``limits`` (what the target can hold, :mod:`results.importers.
    bounds`) and ``recompute`` (the heats to recompute: ids, "final", or none)."""

    kind: str
    competition_id: int
    current: ResultUpload | None
    replaced: object  # a queryset of ResultUpload
    results: tuple[str, ...] = ()
    fields: dict
    limits: Limits | None = None
    recompute: list

    def before_parse(self, checksum: str) -> None:
        """Refusals that need only the file's checksum (a session's twin)."""

    def validate(self, event) -> list[ImportProblem]:
        """The format's own checks (:mod:`results.importers.validate`)."""
        raise NotImplementedError

    def identify(self, event, problems: list[ImportProblem]) -> None:
        """Match the file's pairs or teams to the target's (never by names alone), append
        what does not match to ``problems`` and keep what :meth:`store` writes."""
        raise NotImplementedError

    def store(self, upload: ResultUpload, previous: list[ResultUpload]) -> None:
        """Write the result rows of the stored ``upload`` (inside its transaction, under the
        competition's lock); ``previous``: the uploads it superseded."""
        raise NotImplementedError


def _upload(user, data: bytes, filename: str, target: _Target) -> UploadOutcome:
    """One upload, whatever its target: checksum → parse (bounded) → validate → lock → store →
    file → recompute. An identical file changes nothing; any refusal is an
    :class:`UploadRejected` before anything is written; the rows, the superseding and the file
    are one transaction (:func:`_saving`, the lock taken first in :func:`_replace_accepted`),
    and the recompute is asked for on its commit."""
    checksum = _checksum(data)
    current = target.current
    if current is not None and current.checksum == checksum:
        return _unchanged(current)
    target.before_parse(checksum)
    event = _parse(data, filename, target.kind, target.limits)
    problems = list(target.validate(event))
    target.identify(event, problems)
    warnings = _errors_or_warnings(problems)
    expect_recompute(target.competition_id)  # its rows make pages stale before the request
    with _saving() as written:
        upload, previous = _replace_accepted(
            target.competition_id,
            target.replaced,
            data,
            filename,
            results=target.results,
            user=user,
            checksum=checksum,
            warnings=warnings,
            **target.fields,
        )
        target.store(upload, previous)
        _keep_file(upload, data, written)
        request_recompute(target.competition_id, heat_ids=target.recompute)
    return UploadOutcome(upload, warnings=upload.warnings)


# --------------------------------------------------------------------------------------------
# Pairs
# --------------------------------------------------------------------------------------------


def _unknown_pairs_problem(unknown, heat_numbers: list[str]) -> ImportProblem:
    """One summary for every pair of the file that is not entered in the heat."""
    numbers = [p.number for p in unknown]
    shown = ", ".join(numbers[:10]) + (", …" if len(numbers) > 10 else "")
    directional = all(n.upper().endswith(("NS", "EW")) for n in numbers) and not any(
        n.upper().endswith(("NS", "EW")) for n in heat_numbers
    )
    hint = (
        gettext_noop(
            "Filen är en Mitchell med parnummer per riktning (1NS, 1EW …) men heatets par har "
            "nummer utan riktning: ge paren samma nummer i Ruter som i anmälningslistan."
        )
        if directional
        else gettext_noop(
            "Kontrollera att filen är från rätt heat och att parnumren i Ruter är desamma som i "
            "heatets anmälningslista."
        )
    )
    return problem(
        gettext_noop("%(count)s par i filen finns inte i heatet: %(pairs)s. %(hint)s"),
        params={"count": len(numbers), "pairs": shown, "hint": hint},
        line=unknown[0].line,
        element="par",
        code="unknown-pair",
    )


def _before_play(window: Window) -> None:
    """Results exist once play has begun: an upload before the window opens is refused, for
    TK too (there is nothing to decide: the file cannot be this heat's results yet)."""
    today = clock.today()
    if window.state(today) == BEFORE:
        v = windows.refusal(window, today)
        raise UploadRejected(
            [problem(v.template, params=v.params, code="before-play", clause=window.clause)]
        )


def _open_season(competition) -> None:
    """A finished season is read-only (issue 23): no result file is taken for it."""
    season = competition.season
    if season.is_finished:
        raise UploadRejected(
            [
                problem(
                    gettext_noop(
                        "Säsongen %(season)s är avslutad och kan inte ändras; den finns kvar i "
                        "arkivet."
                    ),
                    params={"season": season.name},
                    code="season-finished",
                    clause="R-GEN-3",
                )
            ]
        )


def _session_of(heat: PairHeat, session: int | None) -> int | None:
    """The session a pairs heat file is stored as (R-PAIR-KVAL-6): 1 or 2 for a file of one
    session of a two-session heat, ``None`` for a file of the whole heat. A heat of one session
    has no session 2; its session 1 is the whole heat. Refuses a session the heat does not
    have, and session 2 before its day."""
    if session is None:
        return None
    dates = heat.session_dates
    if session not in (1, 2):
        raise UploadRejected(
            [
                problem(
                    gettext_noop(
                        "Speltillfälle %(session)s finns inte: ett kvalheat har högst två "
                        "speltillfällen."
                    ),
                    params={"session": session},
                    code="no-such-session",
                    clause="R-PAIR-KVAL-6",
                )
            ]
        )
    if len(dates) == 1:
        if session == 1:
            return None
        raise UploadRejected(
            [
                problem(
                    gettext_noop(
                        "Heatet %(heat)s har bara ett speltillfälle (%(date)s), så det finns inget "
                        "speltillfälle 2. Ladda upp filen som hela heatets resultat."
                    ),
                    params={"heat": heat.name, "date": dates[1].isoformat()},
                    code="no-such-session",
                    clause="R-PAIR-KVAL-6",
                )
            ]
        )
    if clock.today() < dates[session]:
        raise UploadRejected(
            [
                problem(
                    gettext_noop(
                        "Speltillfälle %(session)s spelas %(date)s; dess resultat kan laddas upp "
                        "från den dagen."
                    ),
                    params={"session": session, "date": dates[session].isoformat()},
                    code="before-play",
                    clause="R-PAIR-KVAL-6",
                )
            ]
        )
    return session


def _listed(numbers) -> str:
    numbers = sorted(numbers, key=lambda n: (len(n), n))
    return ", ".join(numbers[:10]) + (", …" if len(numbers) > 10 else "")


def _session_pair_problems(session: int, played: set[str], other_played: set[str]) -> list:
    """R-PAIR-KVAL-6: no new pair at the second session: a pair of session 2 that did not play
    session 1 refuses the file being uploaded (whichever session it is), in one summary.
    R-PAIR-RES-1: a regular of each pair plays every session, so a pair of session 1 missing
    from session 2 is not ranked in the heat; that is a warning (the pair may have withdrawn)."""
    first, second = (played, other_played) if session == 1 else (other_played, played)
    problems = []
    new = {n for n in second if check_session_entry(n, 2, first)}
    if new:
        problems.append(
            problem(
                gettext_noop(
                    "%(count)s par i speltillfälle 2 spelade inte speltillfälle 1: %(pairs)s. Nya "
                    "par får inte tillkomma vid det andra speltillfället, inte ens utom tävlan. "
                    "Kontrollera att filerna är från rätt heat och speltillfälle och att parnumren "
                    "är desamma i båda."
                ),
                params={"count": len(new), "pairs": _listed(new)},
                code="new-pair-session-2",
                clause="R-PAIR-KVAL-6",
            )
        )
    missing = first - second
    if missing:
        problems.append(
            problem(
                gettext_noop(
                    "%(count)s par från speltillfälle 1 saknas i speltillfälle 2: %(pairs)s. De "
                    "har inte spelat båda speltillfällena och rankas inte i heatet."
                ),
                params={"count": len(missing), "pairs": _listed(missing)},
                warning=True,
                code="pair-missing-session-2",
                clause="R-PAIR-RES-1",
            )
        )
    return problems


#: How far our two sessions' sum may be from a file's cumulative figures (the file writes
#: them rounded, to one or two decimals) before TK is warned.
CUMULATIVE_MP_TOLERANCE = Decimal("0.1")
CUMULATIVE_PCT_TOLERANCE = Decimal("0.02")


def _cumulative_problem(cumulative, first: dict, second: dict) -> ImportProblem | None:
    """A session-2 file (Magic Contest) that carries the cumulative ``TotalScoreMP`` /
    ``TotalPercentage`` over both sessions, checked against our sum of the two session files:
    one warning naming the pairs that differ. ``cumulative``: the session-2 file's pairs;
    ``first``/``second``: pair number -> (total, matchpoints, maximum) per session."""
    differ = []
    for pair in sorted(cumulative, key=lambda p: (len(p.number), p.number)):
        if pair.number not in first or pair.number not in second:
            continue
        (t1, mp1, max1), (t2, mp2, max2) = first[pair.number], second[pair.number]
        total = t1 + t2
        pct = (
            ((mp1 + mp2) / (max1 + max2) * 100).quantize(CENT, ROUND_HALF_UP)
            if max1 + max2
            else None
        )
        bad_total = (
            pair.cumulative_total is not None
            and abs(pair.cumulative_total - total) > CUMULATIVE_MP_TOLERANCE
        )
        bad_pct = (
            pair.cumulative_percentage is not None
            and pct is not None
            and abs(pair.cumulative_percentage - pct) > CUMULATIVE_PCT_TOLERANCE
        )
        if bad_total or bad_pct:
            ours = f"{total:.2f}/{pct:.2f} %" if pct is not None else f"{total:.2f}"
            differ.append(
                f"{pair.number} ({ours} – {pair.cumulative_total}/{pair.cumulative_percentage} %)"
            )
    if not differ:
        return None
    return problem(
        gettext_noop(
            "Speltillfälle 1 och 2 tillsammans ger inte filens sammanlagda resultat "
            "(TotalScoreMP/TotalPercentage) för %(count)s par: %(pairs)s (vår summa – filens). "
            "Heatet räknas på speltillfällenas egna kolumner; kontrollera att filen för "
            "speltillfälle 1 är den som resultatprogrammet räknade med."
        ),
        params={"count": len(differ), "pairs": "; ".join(differ[:10])},
        warning=True,
        code="cumulative-mismatch",
        clause="R-PAIR-KVAL-6",
    )


def _stored_session(upload: ResultUpload) -> dict:
    """pair number -> (total, matchpoints, maximum) of a stored session upload."""
    return {
        r.entry.pair_number: (r.total, r.matchpoints, r.maximum)
        for r in upload.pair_results.select_related("entry")
    }


def _stored_event(upload: ResultUpload):
    """The event of a stored upload's file, parsed again (its cumulative columns are not kept
    as rows); ``None`` when the file cannot be read any more."""
    try:
        with upload.file.open("rb") as f:
            return parse_upload(f.read(), upload.original_name, "pairs")
    except (ImportFailed, OSError, ValueError):
        return None


def upload_pair_heat(
    user, heat: PairHeat, *, data: bytes, filename: str, session: int | None = None
) -> UploadOutcome:
    """A pairs heat file (PBN or USEBIO) from the heat's organiser or TK, from its first
    session on (``clubs.windows``).

    ``session``: for a heat of two sessions (R-PAIR-KVAL-6), the session the file holds (1 or
    2); ``None`` is a file of the whole heat (a heat of one session always is). A corrected
    file replaces the accepted file of the same heat and session, and a whole-heat file; a
    whole-heat file replaces every accepted file of the heat. The two session files together
    are the heat's result (``results.services.recompute.pairs.combine_sessions``): a pair of
    session 2 must have played session 1 (R-PAIR-KVAL-6, refused in one summary), a pair
    missing from one session is not ranked (R-PAIR-RES-1, a warning), and a session-2 file
    with cumulative totals (Magic Contest) is checked against our sum (a warning)."""
    require(can_manage_pair_heat(user, heat))
    _open_season(heat.competition)
    filename = _original_name(filename)
    _before_play(windows.heat_windows(heat)[RESULTS_UPLOAD])
    session = _session_of(heat, session)
    return _upload(user, data, filename, _PairHeat(heat, session))


class _PairHeat(_Target):
    """A pairs heat's file, of the whole heat or of one session (R-PAIR-KVAL-6): pairs by
    their number in the heat and, where the file has them, the players' MIDs."""

    kind = "pairs"
    results = ("pair_results", "travellers")

    def __init__(self, heat: PairHeat, session: int | None):
        self.heat, self.session = heat, session
        self.competition_id = heat.competition_id
        self.accepted = heat.uploads.filter(status=ResultUpload.Status.ACCEPTED)
        mine = (
            self.accepted.filter(session__isnull=True)
            if session is None
            else self.accepted.filter(session=session)
        )
        self.current = mine.first()
        self.replaced = self.accepted
        if session is not None:
            self.replaced = self.accepted.filter(Q(session=session) | Q(session__isnull=True))
        self.fields = {"heat": heat, "session": session}
        self.recompute = [heat.id]
        self.entries = {
            e.pair_number: e
            for e in heat.entries.select_related("player1", "player2").exclude(pair_number="")
        }
        sessions = 1 if session is not None else len(heat.session_dates)
        self.limits = Limits.for_pairs(len(self.entries), MAX_SESSION_BOARDS * sessions)

    def before_parse(self, checksum: str) -> None:
        session = self.session
        if session is None:
            return
        twin = self.accepted.filter(session=3 - session, checksum=checksum).first()
        if twin is not None:
            raise UploadRejected(
                [
                    problem(
                        gettext_noop(
                            "Filen är densamma som den inlästa filen för speltillfälle %(other)s "
                            "(%(name)s). Ladda upp filen för speltillfälle %(session)s."
                        ),
                        params={
                            "other": 3 - session,
                            "name": twin.original_name,
                            "session": session,
                        },
                        code="same-file-both-sessions",
                        clause="R-PAIR-KVAL-6",
                    )
                ]
            )

    def validate(self, event) -> list[ImportProblem]:
        return _read(validate_pairs, event)

    def identify(self, event, problems: list[ImportProblem]) -> None:
        entries, session, accepted = self.entries, self.session, self.accepted
        by_number: dict[str, object] = {}
        unknown_pairs = [pair for pair in event.pairs if pair.number not in entries]
        if unknown_pairs:
            problems.append(_unknown_pairs_problem(unknown_pairs, list(entries)))
        for pair in event.pairs:
            entry = entries.get(pair.number)
            where = f"par {pair.number}"
            if entry is None:
                continue
            mids = {normalise_mid(p.mid) for p in pair.players if p.mid}
            expected = {entry.player1.mid, entry.player2.mid}
            if mids and not mids <= expected:
                unknown = ", ".join(sorted(mids - expected))
                problems.append(
                    problem(
                        gettext_noop(
                            "Par %(number)s: MID %(unknown)s hör inte till det anmälda paret (%(mid1)s, "
                            "%(mid2)s)."
                        ),
                        params={
                            "number": pair.number,
                            "unknown": unknown,
                            "mid1": entry.player1.mid,
                            "mid2": entry.player2.mid,
                        },
                        line=pair.line,
                        element=where,
                        code="unknown-mid",
                    )
                )
            by_number[pair.number] = entry
        scores = _read(compute_pair_scores, event)
        mine = {
            n: (_cents(s.total), _cents(s.raw_total), _cents(s.maximum))
            for n, s in scores.items()
            if n in by_number
        }
        if session is not None:
            other = accepted.filter(session=3 - session).first()
            if other is not None and not unknown_pairs:
                theirs = _stored_session(other)
                problems += _session_pair_problems(session, set(mine), set(theirs))
                file2 = event if session == 2 else _stored_event(other)
                if file2 is not None and any(p.cumulative_total is not None for p in file2.pairs):
                    first, second = (mine, theirs) if session == 1 else (theirs, mine)
                    mismatch = _read(_cumulative_problem, file2.pairs, first, second)
                    if mismatch is not None:
                        problems.append(mismatch)
            whole = list(accepted.filter(session__isnull=True))
            if whole:
                problems.append(
                    problem(
                        gettext_noop(
                            "Filen ersätter den inlästa filen för hela heatet (%(name)s). Ladda upp det "
                            "andra speltillfällets fil också; till dess är heatets ställning preliminär."
                        ),
                        params={"name": whole[0].original_name},
                        warning=True,
                        code="replaces-whole-heat",
                        clause="R-PAIR-KVAL-6",
                    )
                )
        self.event, self.by_number, self.scores, self.mine = event, by_number, scores, mine

    def store(self, upload: ResultUpload, previous: list[ResultUpload]) -> None:
        by_number, scores, mine = self.by_number, self.scores, self.mine
        PairResult.objects.bulk_create(
            [
                PairResult(
                    upload=upload,
                    heat=self.heat,
                    entry=entry,
                    total=mine[number][0],
                    percentage=_cents(scores[number].percentage),
                    boards_played=scores[number].boards_played,
                    matchpoints=mine[number][1],
                    maximum=mine[number][2],
                )
                for number, entry in by_number.items()
                if number in scores
            ]
        )
        travellers = []
        for board in self.event.boards:
            for line in board.lines:
                if line.mp_ns is None or line.mp_ew is None:
                    continue
                travellers.append(
                    PairTraveller(
                        upload=upload,
                        board_number=board.number,
                        ns=by_number[line.ns],
                        ew=by_number[line.ew],
                        contract=(line.contract or "")[:8],
                        declarer=(line.declarer or "")[:1],
                        tricks=line.tricks,
                        score_ns=line.score_ns,
                        mp_ns=line.mp_ns,
                        mp_ew=line.mp_ew,
                        adjusted=(line.adjusted or "")[:12],
                    )
                )
        PairTraveller.objects.bulk_create(travellers, batch_size=2000)


def upload_pair_final(
    user, competition: PairCompetition, *, data: bytes, filename: str
) -> UploadOutcome:
    """The DM pairs final (USEBIO, or PBN with a PlayerId column), from TK only.

    The final's pair numbers are not in the system, so each pair of the file is identified by
    its players' MIDs against the final's seat holders; a file without MIDs, or with a pair
    that holds no seat, is refused. Stores PairFinalResult and PairFinalTraveller rows (the
    travellers give R-PAIR-TIE-1 for SM places) and schedules the competition's recompute."""
    require(is_tk(user))
    _open_season(competition)
    filename = _original_name(filename)
    _before_play(windows.pair_final_upload_window(competition))
    return _upload(user, data, filename, _PairFinal(competition))


class _PairFinal(_Target):
    """The pairs final's file: pairs by their players' MIDs against the final's seat holders
    (``pairs.selectors.final_seat_holders``)."""

    kind = "pairs"
    results = ("pair_final_results", "pair_final_travellers")

    def __init__(self, competition: PairCompetition):
        self.competition = competition
        self.competition_id = competition.pk
        self.replaced = competition.uploads.filter(heat=None, status=ResultUpload.Status.ACCEPTED)
        self.current = self.replaced.first()
        self.fields = {}
        self.recompute = []
        self.holders = {h.key: h.playing for h in final_seat_holders(competition)}
        self.limits = Limits.for_pairs(
            len(self.holders), competition.final_max_boards, target=gettext_noop("finalen")
        )

    def validate(self, event) -> list[ImportProblem]:
        return _read(validate_pairs, event)

    def identify(self, event, problems: list[ImportProblem]) -> None:
        holders = self.holders
        key_of: dict[str, str] = {}  # pair number in the file -> key
        for pair in event.pairs:
            where = f"par {pair.number}"
            mids = [normalise_mid(p.mid) for p in pair.players if p.mid]
            if len(mids) != 2 or len(pair.players) != 2:
                problems.append(
                    problem(
                        gettext_noop(
                            "Par %(number)s: filen saknar spelarnas MID (medlemsnummer). Finalens par känns igen "
                            "på spelarnas MID, eftersom parnumren i finalen inte finns i systemet. Ladda upp "
                            "USEBIO-filen från Ruter, eller en PBN-fil med kolumnen PlayerId."
                        ),
                        params={"number": pair.number},
                        line=pair.line,
                        element=where,
                        code="missing-mid",
                    )
                )
                continue
            key = pair_key(*mids)
            if key not in holders:
                problems.append(
                    problem(
                        gettext_noop(
                            "Par %(number)s: paret med MID %(mids)s har ingen plats i finalen. Kontrollera MID "
                            "mot finallistan."
                        ),
                        params={"number": pair.number, "mids": ", ".join(sorted(mids))},
                        line=pair.line,
                        element=where,
                        code="unknown-pair",
                    )
                )
                continue
            if key in key_of.values():
                problems.append(
                    problem(
                        gettext_noop(
                            "Par %(number)s: paret med MID %(key)s finns två gånger i filen."
                        ),
                        params={"number": pair.number, "key": key},
                        line=pair.line,
                        element=where,
                        code="duplicate-pair",
                    )
                )
                continue
            key_of[pair.number] = key
        for key in holders:
            if key not in key_of.values() and not any(p.is_error for p in problems):
                p1, p2 = holders[key]
                problems.append(
                    problem(
                        gettext_noop(
                            "Paret %(player1)s – %(player2)s (%(key)s) har finalplats men finns inte i filen."
                        ),
                        params={"player1": p1.full_name, "player2": p2.full_name, "key": key},
                        warning=True,
                        code="missing-pair",
                    )
                )
        self.scores = _read(compute_pair_scores, event)
        self.event, self.key_of = event, key_of

    def store(self, upload: ResultUpload, previous: list[ResultUpload]) -> None:
        competition, holders, key_of, scores = (
            self.competition,
            self.holders,
            self.key_of,
            self.scores,
        )
        players = {p.mid: p for pair in holders.values() for p in pair}
        in_ubf = set(
            Representation.objects.filter(
                season_id=competition.season_id,
                player__in=list(players.values()),
                club__district__code=UBF,
            ).values_list("player__mid", flat=True)
        )
        results, stored = [], set()
        for number, key in key_of.items():
            score = scores.get(number)
            if score is None or key in stored:
                continue
            stored.add(key)
            p1, p2 = holders[key]
            pct = score.percentage
            results.append(
                PairFinalResult(
                    upload=upload,
                    competition=competition,
                    player1=p1,
                    player2=p2,
                    total=_cents(score.total),
                    percentage=_cents(pct),
                    boards_played=score.boards_played,
                    out_of_district=p1.mid not in in_ubf and p2.mid not in in_ubf,
                )
            )
        PairFinalResult.objects.bulk_create(results)
        PairFinalTraveller.objects.bulk_create(
            [
                PairFinalTraveller(
                    upload=upload,
                    board_number=board.number,
                    ns_key=key_of[line.ns],
                    ew_key=key_of[line.ew],
                    mp_ns=line.mp_ns,
                    mp_ew=line.mp_ew,
                )
                for board in self.event.boards
                for line in board.lines
                if line.mp_ns is not None
                and line.mp_ew is not None
                and line.ns in key_of
                and line.ew in key_of
            ],
            batch_size=2000,
        )


# --------------------------------------------------------------------------------------------
# Teams
# --------------------------------------------------------------------------------------------


def upload_team_results(
    user,
    *,
    data: bytes,
    filename: str,
    heat: TeamHeat | None = None,
    competition: TeamCompetition | None = None,
    round: int | None = None,
) -> UploadOutcome:
    """Results of a team heat (all or some of its matches) or of the final (``competition``),
    optionally one ``round``, from the heat responsible, an organiser or TK (final: TK)."""
    if (heat is None) == (competition is None):
        raise ValueError("give exactly one of heat or competition")
    filename = _original_name(filename)
    _open_season(heat.competition if heat is not None else competition)
    if heat is not None:
        require(can_manage_team_heat(user, heat))
        _before_play(windows.heat_windows(heat)[RESULTS_UPLOAD])
    else:
        require(is_tk(user))
        _before_play(windows.team_final_upload_window(competition))
    return _upload(user, data, filename, _TeamMatches(heat, competition, round))


class _TeamMatches(_Target):
    """A team heat's matches (``heat``) or the final's (``competition``), all or one
    ``round``: teams by their number in the heat (in the final), matches by the schedule."""

    kind = "teams"

    def __init__(self, heat: TeamHeat | None, competition: TeamCompetition | None, round):
        if heat is not None:
            competition = heat.competition
            scheduled = Match.objects.filter(heat=heat, stage=Match.Stage.KVAL)
            self.teams = {str(t.number): t for t in heat.teams.all() if t.number is not None}
            target = {"competition": competition, "heat": heat}
            self.expected_boards = heat.boards_per_match
        else:
            scheduled = Match.objects.filter(competition=competition, stage=Match.Stage.FINAL)
            self.teams = {
                str(t.final_seat_number): t
                for t in seats.holding(Team.objects.filter(competition=competition))
                if t.final_seat_number is not None
            }
            target = {"competition": competition, "heat": None}
            self.expected_boards = scheduled.values_list("boards", flat=True).first()
        # Issue 25: a file holds no more than twice the matches its teams can play in the
        # schedule's rounds (each team once a round; a USEBIO file may list a match from both
        # sides), whichever matches or round it is for; a match twice the heat's boards.
        rounds = max(scheduled.values_list("round", flat=True), default=0)
        if round is not None:
            scheduled = scheduled.filter(round=round)
        self.scheduled = list(scheduled.select_related("home", "away"))
        self.heat, self.round = heat, round
        self.competition_id = competition.pk
        self.replaced = ResultUpload.objects.filter(
            status=ResultUpload.Status.ACCEPTED, round=round, **target
        )
        self.current = self.replaced.first()
        self.fields = {"heat": heat, "round": round}
        self.recompute = [heat.id if heat else "final"]
        self.limits = Limits(
            pairs=2 * max(len(self.teams), 1),  # see Limits.for_pairs
            boards=2 * self.expected_boards if self.expected_boards else None,
            matches=2 * max(len(self.teams) // 2 * rounds, len(self.scheduled), 1),
            target=gettext_noop("heatet") if heat else gettext_noop("finalen"),
        )

    def validate(self, event) -> list[ImportProblem]:
        return _read(validate_teams, event, expected_boards=self.expected_boards)

    def identify(self, event, problems: list[ImportProblem]) -> None:
        teams, heat, round = self.teams, self.heat, self.round
        rosters = defaultdict(set)  # the file's teams' rosters, in one query
        for team_id, mid in RosterEntry.objects.filter(
            team__in=[teams[t.id] for t in event.teams if t.id in teams]
        ).values_list("team_id", "player__mid"):
            rosters[team_id].add(mid)
        for team in event.teams:
            if team.id not in teams:
                problems.append(
                    problem(
                        gettext_noop(
                            "Lag %(team)s (%(name)s) finns inte i %(where)s: lagen anges med sitt "
                            "lagnummer."
                        ),
                        params={
                            "team": team.id,
                            "name": team.name,
                            "where": gettext_noop("heatet") if heat else gettext_noop("finalen"),
                        },
                        element=f"lag {team.id}",
                        code="unknown-team",
                    )
                )
                continue
            roster = rosters[teams[team.id].id]
            unknown = sorted(
                m for m in (normalise_mid(p.mid) for p in team.players if p.mid) if m not in roster
            )
            if unknown:
                problems.append(
                    problem(
                        gettext_noop(
                            "Lag %(id)s (%(name)s): MID %(unknown)s finns inte i lagets spelartrupp."
                        ),
                        params={
                            "id": team.id,
                            "name": teams[team.id].name,
                            "unknown": ", ".join(unknown),
                        },
                        element=f"lag {team.id}",
                        code="unknown-mid",
                    )
                )
        by_pair = {(m.home_id, m.away_id): m for m in self.scheduled}
        updates: list[tuple[Match, dict, bool, tuple]] = []
        taken: dict[int, Message] = {}  # scheduled match -> the file's match that names it
        for summary in _read(team_match_summary, event, boards_per_match=self.expected_boards):
            where = f"rond {summary['round']}: {summary['home']}–{summary['away']}"
            match_name = Message(
                gettext_noop("rond %(round)s: %(home)s–%(away)s"),
                {"round": summary["round"], "home": summary["home"], "away": summary["away"]},
            )
            home, away = teams.get(str(summary["home"])), teams.get(str(summary["away"]))
            if home is None or away is None:
                missing = [
                    str(x)
                    for x, t in ((summary["home"], home), (summary["away"], away))
                    if t is None
                ]
                problems.append(
                    problem(
                        gettext_noop("Match %(match)s: okänt lag %(missing)s."),
                        params={"match": match_name, "missing": ", ".join(missing)},
                        element=where,
                        code="unknown-team",
                    )
                )
                continue
            match = by_pair.get((home.id, away.id))
            swapped = False
            if match is None and (away.id, home.id) in by_pair:
                match, swapped = by_pair[(away.id, home.id)], True
            if match is None:
                problems.append(
                    problem(
                        gettext_noop(
                            "Match %(match)s (%(home)s–%(away)s) finns inte i spelschemat för rond "
                            "%(round)s."
                        )
                        if round
                        else gettext_noop(
                            "Match %(match)s (%(home)s–%(away)s) finns inte i spelschemat."
                        ),
                        params={
                            "match": match_name,
                            "home": home.name,
                            "away": away.name,
                            "round": round,
                        },
                        element=where,
                        code="unknown-match",
                    )
                )
                continue
            if match.id in taken:  # the schedule's one match of these teams, named twice
                problems.append(
                    problem(
                        gettext_noop(
                            "Match %(match)s: spelschemats match mellan lagen finns redan i filen "
                            "som %(first)s."
                        ),
                        params={"match": match_name, "first": taken[match.id]},
                        element=where,
                        code="duplicate-match",
                    )
                )
                continue
            taken[match.id] = match_name
            updates.append((match, summary, swapped, _read(_match_points, summary, swapped, match)))
        self.updates = updates

    def store(self, upload: ResultUpload, previous: list[ResultUpload]) -> None:
        # The matches, their history, their boards and the upload's links in one query each,
        # not a few per match: a round's push is answered while the hall polls the web
        # workers. Bulk writes send no signal: the public pages' versions are bumped here.
        matches, boards = [], []
        for match, summary, swapped, points in self.updates:
            match.imps_home, match.imps_away, match.vp_home, match.vp_away = points
            match.status = Match.Status.PLAYED
            matches.append(match)
            boards += _board_rows(match, summary, swapped)
        bulk_update_with_history(
            matches,
            Match,
            ["imps_home", "imps_away", "vp_home", "vp_away", "status"],
            default_user=upload.uploaded_by,
        )
        public_cache.changed(competitions=[self.competition_id])
        BoardResult.objects.filter(match__in=matches).delete()
        BoardResult.objects.bulk_create(boards)
        upload.matches.add(*matches)
        touched = {m.id for m in matches}
        for old in previous:
            # Matches the earlier file had and the corrected one does not: back to unplayed.
            for match in old.matches.exclude(id__in=touched):
                match.board_results.all().delete()
                match.status = Match.Status.SCHEDULED
                match.imps_home = match.imps_away = match.vp_home = match.vp_away = None
                match.save()
            old.matches.clear()


def _match_points(summary: dict, swapped: bool, match: Match) -> tuple:
    """(IMPs home, IMPs away, VP home, VP away) of a match as scheduled (the file's teams may
    be the other way round), computed before anything is written (R-TEAM-VP-1)."""
    imps_home, imps_away = Decimal(summary["imps_home"]), Decimal(summary["imps_away"])
    if swapped:
        imps_home, imps_away = imps_away, imps_home
    return (imps_home, imps_away, *victory_points(imps_home, imps_away, match.boards))


def _board_rows(match: Match, summary: dict, swapped: bool) -> list[BoardResult]:
    """The match's boards from the file, as scheduled (home NS in room 1)."""

    def side(a, b):
        return (b, a) if swapped else (a, b)

    rows = []
    for b in summary["boards"]:
        if b["imps_home"] is None:
            continue
        ih, ia = side(b["imps_home"], b["imps_away"])
        ph, pa = side(b["points_home"] or 0, b["points_away"] or 0)
        r1, r2 = b["score_ns_room1"], b["score_ns_room2"]
        # The rooms are named after the home team's seat: swapped teams swap the rooms.
        room1 = (b.get("contract_room1") or "", b.get("declarer_room1") or "")
        room2 = (b.get("contract_room2") or "", b.get("declarer_room2") or "")
        if swapped:
            room1, room2 = room2, room1
        rows.append(
            BoardResult(
                match=match,
                board_number=b["number"],
                score_ns_room1=r2 if swapped and r2 is not None else r1,
                score_ns_room2=r1 if swapped and r1 is not None else r2,
                contract_room1=room1[0],
                declarer_room1=room1[1],
                contract_room2=room2[0],
                declarer_room2=room2[1],
                imps_home=ih,
                imps_away=ia,
                points_home=int(ph),
                points_away=int(pa),
            )
        )
    return rows
