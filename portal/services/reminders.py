"""Deadline reminders by e-mail: a schedule of offsets relative to events, each sent once.

:func:`send_due_reminders` runs daily (Celery beat, 07:00 Europe/Stockholm, see
``portal.tasks``). For every event of the current season it finds the *latest* step of the
event's schedule that has come (an earlier step missed while the job was not running is not
sent late on top of it) and, unless :class:`~portal.models.ReminderLog` already holds
(kind, object, offset), writes the log row and sends the e-mail in one transaction: a retry or a
second run the same day sends nothing more; a mail that fails to go is not logged and goes on
the next run.

Kinds and clauses:

* ``heat_registration_deadline`` (R-PAIR-KVAL-1, R-TEAM-REG-1): 14 and 3 days before the heat
  registration deadline, to the officials of every UBF club and TK.
* ``invitation_due`` (R-PAIR-KVAL-3): one week before the invitation is due (35 days before
  the heat with the default 28), to the arranging clubs, if not sent.
* ``invitation_overdue`` (R-PAIR-KVAL-3): the day after it was due (27 days before the heat),
  to TK and the clubs, if the invitation is missing, late or incomplete.
* ``team_entries_closing`` (R-TEAM-KVAL-2): 3 days before entries close, to the heat
  responsible; ``team_heat_too_few`` (R-TEAM-KVAL-2): the day after the close, if fewer than
  four teams entered, to TK, the heat responsible and the arranging clubs, with the other heats.
* ``unpaid_member`` (R-TEAM-RES-1): a fielded player without a paid membership: to the captain
  and TK on the day of the first offence and 7 days later; to TK the day after the 14-day
  deadline passed unpaid.
* ``protest_deadline`` (R-TEAM-RES-5): 7 days and 1 day before each protest deadline, to the
  captains of the DM final's teams and TK.
* ``sm_partner_declaration`` (R-PAIR-RES-4): 7 days and 1 day before a pairs final, to each
  finalist who played the qualifiers with several partners (partners taken from the heats'
  entries and notified reserves of this competition) and has not declared.
* ``direct_final_decision`` (R-PAIR-DF-1, R-TEAM-DF-1): 7 days before the qualifying period
  ends, to TK, if fewer than two clubs arrange approved heats and TK has not decided.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Model, Q
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from clubs import clock, seats, windows
from clubs.i18n import render
from clubs.models import (
    UBF_DISTRICT_CODE,
    ClubOfficial,
    Membership,
    Player,
    Season,
)
from clubs.permissions import TK_GROUP
from clubs.services.heats import direct_final_decided, direct_final_needed
from pairs.models import (
    PairCompetition,
    PairEntry,
    PairHeat,
    ReserveNotice,
    SmPartnerDeclaration,
)
from pairs.services import heats as pair_heats
from pairs.services.heats import invitation_problems
from portal.models import ReminderLog
from teams.models import Lineup, Team, TeamCompetition, TeamHeat
from teams.services import heats as team_heats
from teams.services.heats import team_heat_entry_check
from ubf.rules.eligibility import (
    check_unpaid_fielded,
    unpaid_deadline,
    unpaid_deadline_passed,
)
from ubf.rules.people import PlayerInfo
from ubf.rules.types import Discipline
from ubf.rules.windows import ENTRIES, HEAT_REGISTRATION, INVITATION

logger = logging.getLogger(__name__)

SUBJECT_PREFIX = "[UBF DM]"
#: The language the reminders are written in (recipients have no language of their own).
MAIL_LANGUAGE = settings.LANGUAGE_CODE

#: Days before the heat registration deadline on which clubs are reminded.
REGISTRATION_REMINDER_DAYS = (14, 3)
#: Days before the invitation is due (R-PAIR-KVAL-3) on which the club is reminded.
INVITATION_EARLY_DAYS = 7
#: Days before team entries close on which the heat responsible is reminded.
ENTRIES_CLOSING_DAYS = 3
#: Days after the first offence (R-TEAM-RES-1) on which the captain and TK are reminded.
UNPAID_REMINDER_DAYS = (0, 7)
#: Days before each protest deadline (R-TEAM-RES-5).
PROTEST_REMINDER_DAYS = (7, 1)
#: Days before a pairs final (R-PAIR-RES-4).
PARTNER_REMINDER_DAYS = (7, 1)
#: Days before the qualifying period ends (R-PAIR-DF-1, R-TEAM-DF-1).
DIRECT_FINAL_REMINDER_DAYS = (7,)

KINDS = (
    "heat_registration_deadline",
    "invitation_due",
    "invitation_overdue",
    "team_entries_closing",
    "team_heat_too_few",
    "unpaid_member",
    "protest_deadline",
    "sm_partner_declaration",
    "direct_final_decision",
)

ACTIVE = ("applied", "approved")


@dataclass(frozen=True)
class Step:
    """One offset of a schedule: sent from ``due`` up to ``until`` (inclusive; None = no end)."""

    label: str
    due: date
    until: date | None = None


def current_step(steps: Iterable[Step], today: date) -> Step | None:
    """The latest step that has come and not expired (None if none)."""
    open_steps = [s for s in steps if s.due <= today and (s.until is None or today <= s.until)]
    return max(open_steps, key=lambda s: s.due) if open_steps else None


@dataclass
class Reminder:
    kind: str
    obj: Model
    offset: str
    subject: str
    template: str
    context: dict
    to: list[str]
    bcc: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Recipients
# ---------------------------------------------------------------------------------------------


def emails(*groups: Iterable[str | None]) -> list[str]:
    """Addresses from several lists, blanks dropped, each once (case-insensitive)."""
    seen: set[str] = set()
    out: list[str] = []
    for group in groups:
        for address in group:
            address = (address or "").strip()
            if address and address.lower() not in seen:
                seen.add(address.lower())
                out.append(address)
    return out


def tk_emails() -> list[str]:
    """TK: active superusers and members of the group "TK"."""
    users = get_user_model().objects.filter(is_active=True)
    users = users.filter(Q(is_superuser=True) | Q(groups__name=TK_GROUP)).distinct()
    return emails(users.order_by("pk").values_list("email", flat=True))


def official_emails(*, clubs: Iterable | None = None, ubf_only: bool = False) -> list[str]:
    """The e-mail of every official of ``clubs`` (or of every UBF club with ``ubf_only``)."""
    officials = ClubOfficial.objects.filter(user__is_active=True)
    if clubs is not None:
        officials = officials.filter(club__in=list(clubs))
    if ubf_only:
        officials = officials.filter(club__district__code=UBF_DISTRICT_CODE)
    return emails(officials.order_by("club__name", "pk").values_list("user__email", flat=True))


def responsible_emails(heat: TeamHeat) -> list[str]:
    user_email = heat.responsible_user.email if heat.responsible_user_id else ""
    return emails([heat.responsible_email, user_email])


def captain_emails(team: Team) -> list[str]:
    user_email = team.captain_user.email if team.captain_user_id else ""
    return emails([team.email, user_email])


# ---------------------------------------------------------------------------------------------
# The schedule of each kind
# ---------------------------------------------------------------------------------------------


def _days(n: int) -> timedelta:
    return timedelta(days=n)


def _before(event: date, days: Iterable[int], *, prefix: str = "") -> list[Step]:
    return [Step(f"{prefix}-{d}d", event - _days(d), event) for d in days]


def _registration_deadline(season: Season, today: date) -> Iterator[Reminder]:
    """R-PAIR-KVAL-1, R-TEAM-REG-1."""
    competitions: list = list(
        PairCompetition.objects.filter(
            season=season, is_direct_final=False, heat_registration_deadline__isnull=False
        ).exclude(discipline=Discipline.DAM)
    )
    competitions += list(TeamCompetition.objects.filter(season=season, is_direct_final=False))
    tk = None
    for competition in competitions:
        window = windows.competition_windows(competition)[HEAT_REGISTRATION]
        deadline = window.closes
        step = current_step(_before(deadline, REGISTRATION_REMINDER_DAYS), today)
        if step is None:
            continue
        tk = tk if tk is not None else tk_emails()
        is_team = isinstance(competition, TeamCompetition)
        heats = list(competition.heats.filter(status__in=ACTIVE).prefetch_related("clubs"))
        yield Reminder(
            kind="heat_registration_deadline",
            obj=competition,
            offset=step.label,
            subject=_("Sista dag att anmäla kvalheat i %(competition)s: %(deadline)s")
            % {"competition": competition, "deadline": f"{deadline:%Y-%m-%d}"},
            template="heat_registration_deadline",
            context={
                "competition": competition,
                "deadline": deadline,
                "days_left": (deadline - today).days,
                "heats": heats,
                "is_team": is_team,
                "clause": window.clause,
            },
            to=tk,
            bcc=_besides(official_emails(ubf_only=True), tk),
        )


def _besides(addresses: Iterable[str], to: Iterable[str]) -> list[str]:
    """``addresses`` without those already in ``to`` (case-insensitive): the Bcc beside To."""
    taken = {a.lower() for a in to}
    return [a for a in addresses if a.lower() not in taken]


def _invitations(season: Season, today: date) -> Iterator[Reminder]:
    """R-PAIR-KVAL-3."""

    rules = season.rules()
    days = rules.invitation_days_before
    heats = (
        PairHeat.objects.filter(competition__season=season, status__in=ACTIVE)
        .select_related("competition__season")
        .prefetch_related("clubs")
        .order_by("first_date", "pk")
    )
    for heat in heats:
        due_by = windows.heat_windows(heat)[INVITATION].closes
        clubs = list(heat.clubs.all())
        if heat.invitation_sent_on is None:
            early = days + INVITATION_EARLY_DAYS
            step = current_step([Step(f"-{early}d", heat.first_date - _days(early), due_by)], today)
            if step is not None:
                yield Reminder(
                    kind="invitation_due",
                    obj=heat,
                    offset=step.label,
                    subject=_("Skicka inbjudan till %(heat)s senast %(date)s")
                    % {"heat": heat.name, "date": f"{due_by:%Y-%m-%d}"},
                    template="invitation_due",
                    context={"heat": heat, "due_by": due_by, "days_before": days, "clubs": clubs},
                    to=official_emails(clubs=clubs),
                )
        step = current_step([Step(f"-{days - 1}d", due_by + _days(1), heat.first_date)], today)
        if step is None:
            continue
        problems = invitation_problems(heat, today)
        if problems:
            yield Reminder(
                kind="invitation_overdue",
                obj=heat,
                offset=step.label,
                subject=_("Inbjudan till %(heat)s saknas eller är ofullständig")
                % {"heat": heat.name},
                template="invitation_overdue",
                context={
                    "heat": heat,
                    "due_by": due_by,
                    "days_before": days,
                    "clubs": clubs,
                    "problems": [render(p) for p in problems],
                },
                to=emails(tk_emails(), official_emails(clubs=clubs)),
            )


def _team_entries(season: Season, today: date) -> Iterator[Reminder]:
    """R-TEAM-KVAL-2."""

    rules = season.rules()
    heats = (
        TeamHeat.objects.filter(
            competition__season=season, status__in=ACTIVE, entries_close__isnull=False
        )
        .select_related("competition__season", "responsible_user")
        .order_by("entries_close", "pk")
    )
    for heat in heats:
        close = windows.heat_windows(heat)[ENTRIES].closes
        entered = heat.teams.filter(status=Team.Status.ENTERED).count()
        context = {
            "heat": heat,
            "close": close,
            "entered": entered,
            "minimum": rules.heat_min_teams,
        }
        step = current_step(_before(close, [ENTRIES_CLOSING_DAYS]), today)
        if step is not None:
            yield Reminder(
                kind="team_entries_closing",
                obj=heat,
                offset=step.label,
                subject=_("Anmälan till %(heat)s stänger %(date)s")
                % {"heat": heat.name, "date": f"{close:%Y-%m-%d}"},
                template="team_entries_closing",
                context=context,
                to=responsible_emails(heat),
            )
        step = current_step([Step("+1d", close + _days(1), heat.first_date)], today)
        if step is None:
            continue
        notices = team_heat_entry_check(heat, today)
        if notices:
            clubs = [o.club for o in heat.organisers.select_related("club")]
            yield Reminder(
                kind="team_heat_too_few",
                obj=heat,
                offset=step.label,
                subject=ngettext(
                    "För få lag i %(heat)s: %(entered)d anmält",
                    "För få lag i %(heat)s: %(entered)d anmälda",
                    entered,
                )
                % {"heat": heat.name, "entered": entered},
                template="team_heat_too_few",
                context={
                    **context,
                    "message": render(notices[0]),
                    "offer_heats": notices[0].data.get("offer_heats", []),
                },
                to=emails(tk_emails(), responsible_emails(heat), official_emails(clubs=clubs)),
            )


def _unpaid_members(season: Season, today: date) -> Iterator[Reminder]:
    """R-TEAM-RES-1: fielded players with no paid membership for the season, and the 14-day
    clock from the first match they played unpaid."""
    rules = season.rules()
    lineups = (
        Lineup.objects.filter(match__competition__season=season, match__played_on__isnull=False)
        .exclude(team__status=Team.Status.DISQUALIFIED)
        .select_related("team__captain_user", "player", "match")
        .order_by("match__played_on", "pk")
    )
    lineups = list(lineups)
    paid_on = dict(
        Membership.objects.filter(
            season=season, player_id__in={lu.player_id for lu in lineups}
        ).values_list("player_id", "paid_on")
    )
    offences: dict[tuple[int, int], dict] = {}
    for lu in lineups:
        paid = paid_on.get(lu.player_id)
        if paid is not None and paid <= lu.match.played_on:
            continue
        item = offences.setdefault(
            (lu.team_id, lu.player_id),
            {"team": lu.team, "player": lu.player, "first": lu.match.played_on, "matches": set()},
        )
        item["matches"].add(lu.match_id)

    tk = None
    for item in offences.values():
        team, player, first = item["team"], item["player"], item["first"]
        paid = paid_on.get(player.pk)
        deadline = unpaid_deadline(first, rules)
        steps = []
        if paid is None:
            steps += [Step(f"+{d}d", first + _days(d), deadline) for d in UNPAID_REMINDER_DAYS]
        passed = unpaid_deadline_passed(first, today, fee_received_on=paid, rules=rules)
        if passed:
            late = (deadline - first).days + 1
            steps.append(Step(f"+{late}d", deadline + _days(1), None))
        step = current_step(steps, today)
        if step is None:
            continue
        tk = tk if tk is not None else tk_emails()
        info = PlayerInfo(mid=player.mid, name=player.full_name, membership_paid=False)
        found = check_unpaid_fielded(
            info,
            first,
            today,
            matches_played=len(item["matches"]),
            fee_received_on=paid,
            rules=rules,
        )
        yield Reminder(
            kind="unpaid_member",
            obj=team,
            offset=f"{step.label}:p{player.pk}",
            subject=(
                _("%(team)s: tidsfristen för %(player)ss medlemsavgift har gått ut")
                % {"team": team.name, "player": player.full_name}
                if passed
                else _("%(team)s: %(player)s har spelat utan betald medlemsavgift")
                % {"team": team.name, "player": player.full_name}
            ),
            template="unpaid_member_deadline_passed" if passed else "unpaid_member",
            context={
                "team": team,
                "player": player,
                "first": first,
                "deadline": deadline,
                "matches": len(item["matches"]),
                "penalty_per_match": rules.unpaid_player_penalty_vp,
                "grace_days": rules.unpaid_fee_grace_days,
                "paid_on": paid,
                "repeat": step.due > first and not passed,
                "message": render(found[0]) if found else "",
            },
            to=tk if passed else emails(captain_emails(team), tk),
        )


def _protest_deadlines(season: Season, today: date) -> Iterator[Reminder]:
    """R-TEAM-RES-5: to the captains of the DM final's teams."""
    competition = TeamCompetition.objects.filter(season=season).first()
    if competition is None:
        return
    finalists = list(
        seats.holding(competition.teams.all())
        .exclude(status=Team.Status.WITHDRAWN)
        .select_related("captain_user")
        .order_by("final_seat_number", "name")
    )
    if not finalists:
        return
    for concerning, what in (
        ("sm_semifinal", gettext_noop("SM-semifinalplatser")),
        ("sm_final", gettext_noop("SM-finalplatser")),
    ):
        deadline = windows.protest_window(competition, concerning).closes
        step = current_step(_before(deadline, PROTEST_REMINDER_DAYS, prefix=concerning), today)
        if step is None:
            continue
        tk = tk_emails()
        captains = emails(*(captain_emails(t) for t in finalists))
        yield Reminder(
            kind="protest_deadline",
            obj=competition,
            offset=step.label,
            subject=_("Sista dag för protest mot otillåten spelare inför %(what)s: %(date)s")
            % {"what": _(what), "date": f"{deadline:%Y-%m-%d}"},
            template="protest_deadline",
            context={
                "competition": competition,
                "deadline": deadline,
                "what": what,
                "days_left": (deadline - today).days,
                "teams": finalists,
            },
            to=tk,
            bcc=_besides(captains, tk),
        )


def _partners_by_player(competition: PairCompetition) -> dict[int, set[int]]:
    """Who played this competition's heats with whom: entries and notified reserves."""
    partners: dict[int, set[int]] = defaultdict(set)
    entries = PairEntry.objects.filter(heat__competition=competition).exclude(
        status=PairEntry.Status.WITHDRAWN
    )
    for a, b in entries.values_list("player1_id", "player2_id"):
        partners[a].add(b)
        partners[b].add(a)
    notices = ReserveNotice.objects.filter(entry__in=entries).select_related("entry")
    for notice in notices:
        pair = {notice.entry.player1_id, notice.entry.player2_id}
        for other in pair - {notice.replaced_player_id}:
            partners[other].add(notice.reserve_id)
            partners[notice.reserve_id].add(other)
    return partners


def _sm_partners(season: Season, today: date) -> Iterator[Reminder]:
    """R-PAIR-RES-4: finalists who played the qualifiers with several partners."""
    for competition in PairCompetition.objects.filter(season=season).order_by("final_date"):
        final = competition.final_date
        step = current_step(_before(final, PARTNER_REMINDER_DAYS), today)
        if step is None:
            continue
        held = seats.held(competition).select_related(
            "holder__pairentry__player1", "holder__pairentry__player2"
        )
        finalists = {}
        for seat in held:
            pair = seat.holder.pairentry
            finalists[pair.player1] = pair.player2
            finalists[pair.player2] = pair.player1
        if not finalists:
            continue
        declared = set(
            SmPartnerDeclaration.objects.filter(competition=competition).values_list(
                "player_id", flat=True
            )
        )
        partners = _partners_by_player(competition)
        wanted = {p for ps in partners.values() for p in ps}
        names = {p.pk: p for p in Player.objects.filter(pk__in=wanted)}
        tk = None
        for player, final_partner in sorted(finalists.items(), key=lambda kv: kv[0].mid):
            played_with = partners.get(player.pk, set())
            if player.pk in declared or len(played_with) < 2:
                continue
            if not player.email:
                tk = tk if tk is not None else tk_emails()
            yield Reminder(
                kind="sm_partner_declaration",
                obj=competition,
                offset=f"{step.label}:p{player.pk}",
                subject=_("Anmäl din partner till SM senast vid DM-finalens slut (%(date)s)")
                % {"date": f"{final:%Y-%m-%d}"},
                template="sm_partner_declaration",
                context={
                    "competition": competition,
                    "player": player,
                    "final": final,
                    "final_partner": final_partner,
                    "partners": sorted(
                        (names[p] for p in played_with if p in names), key=lambda p: p.mid
                    ),
                    "no_email": not player.email,
                },
                to=[player.email] if player.email else tk,
            )


def _direct_finals(season: Season, today: date) -> Iterator[Reminder]:
    """R-PAIR-DF-1, R-TEAM-DF-1: TK must decide by the end of the qualifying period."""

    competitions: list = list(
        PairCompetition.objects.filter(
            season=season, is_direct_final=False, qualifying_end__isnull=False
        )
    )
    competitions += list(TeamCompetition.objects.filter(season=season, is_direct_final=False))
    for competition in competitions:
        end = competition.qualifying_end
        step = current_step(_before(end, DIRECT_FINAL_REMINDER_DAYS), today)
        if step is None or direct_final_decided(competition):
            continue
        kind = (
            team_heats.TEAM_HEATS
            if isinstance(competition, TeamCompetition)
            else pair_heats.PAIR_HEATS
        )
        notice = direct_final_needed(kind, competition)
        if notice is None:
            continue
        yield Reminder(
            kind="direct_final_decision",
            obj=competition,
            offset=step.label,
            subject=_("%(competition)s: beslut om direktfinal senast %(date)s")
            % {"competition": competition, "date": f"{end:%Y-%m-%d}"},
            template="direct_final_decision",
            context={
                "competition": competition,
                "end": end,
                "notice": render(notice),
                "clause": notice.clause,
            },
            to=tk_emails(),
        )


SCHEDULES = (
    _registration_deadline,
    _invitations,
    _team_entries,
    _unpaid_members,
    _protest_deadlines,
    _sm_partners,
    _direct_finals,
)


# ---------------------------------------------------------------------------------------------
# Sending
# ---------------------------------------------------------------------------------------------


def due_reminders(season: Season, today: date) -> Iterator[Reminder]:
    """Every reminder whose current step has come (sent or not)."""
    for schedule in SCHEDULES:
        yield from schedule(season, today)


def send_once(reminder: Reminder) -> str:
    """Log and send one reminder in one transaction. Returns ``"sent"``, ``"already"`` (logged
    before, by this or a parallel run), ``"no_recipients"`` (not logged: it goes once someone
    can receive it) or ``"failed"`` (not logged: it goes on the next run)."""
    key = {
        "kind": reminder.kind,
        "object_type": reminder.obj._meta.label_lower,
        "object_id": reminder.obj.pk,
        "offset": reminder.offset,
    }
    if ReminderLog.objects.filter(**key).exists():
        return "already"
    recipients = emails(reminder.to, reminder.bcc)
    if not recipients:
        return "no_recipients"
    subject = f"{SUBJECT_PREFIX} {reminder.subject}"[:200]
    with translation.override(MAIL_LANGUAGE):
        body = render_to_string(f"portal/email/{reminder.template}.txt", reminder.context)
    try:
        with transaction.atomic():
            ReminderLog.objects.create(**key, recipients=recipients, subject=subject)
            EmailMessage(
                subject,
                body,
                settings.DEFAULT_FROM_EMAIL,
                to=reminder.to,
                bcc=reminder.bcc,
            ).send()
    except IntegrityError:
        return "already"
    except Exception:  # the mail did not go: nothing is logged, the next run tries again
        logger.exception("Reminder %s could not be sent", key)
        return "failed"
    return "sent"


def send_due_reminders(today: date | None = None) -> dict[str, int]:
    """Send every reminder due today for the current season, each (kind, object, offset) once.
    Returns the number sent per kind, plus ``failed`` and ``no_recipients``."""
    today = today or clock.today()
    summary = dict.fromkeys(KINDS, 0)
    summary["failed"] = 0
    summary["no_recipients"] = 0
    season = Season.current()
    if season is None:
        return summary
    # The mails go in the site's language (Swedish): subjects and rendered rule messages are
    # built while it is active, whatever language the caller had.
    with translation.override(MAIL_LANGUAGE):
        for reminder in due_reminders(season, today):
            outcome = send_once(reminder)
            if outcome == "sent":
                summary[reminder.kind] += 1
            elif outcome in ("failed", "no_recipients"):
                summary[outcome] += 1
    return summary
