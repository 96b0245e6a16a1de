"""Information the regulations ask to be shown on each event's page; nothing is computed.

R-PAIR-SYS-1, R-TEAM-SYS-1: system category and alert rules per stage. R-TEAM-1: DM Lag is
also the district's qualifier for SM Lag, in two stages (kval, final), then SM semifinal and
final; match results are published continuously. R-PAIR-MP-4: pairs finals are barometers.
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import Message, gettext_noop, swedish

ALERT = gettext_noop(
    "Alert och stopp tillämpas i alla etapper. Dubbelt och redubbelt alerteras aldrig oavsett "
    "innebörd, och bud från fyrtrinnet och uppåt får inte alerteras."
)


@dataclass(frozen=True)
class SystemRules:
    category: str  # "A", "B" or "C"
    text: Message  # rendered with clubs.i18n.render
    clause: str

    @property
    def text_sv(self) -> str:
        return swedish(self.text.template, self.text.params)


def system_rules(kind: str, stage: str) -> SystemRules:
    """R-PAIR-SYS-1 (pairs: C in every DM stage, B in the SM pair finals) and R-TEAM-SYS-1
    (teams: B in every DM stage, A in SM semifinal and final).

    ``kind`` is "pairs" or "teams"; ``stage`` is "kval", "final" (DM) or "sm" (SM stages).
    """
    if kind == "pairs":
        category, clause = ("B" if stage == "sm" else "C"), "R-PAIR-SYS-1"
    elif kind == "teams":
        category, clause = ("A" if stage == "sm" else "B"), "R-TEAM-SYS-1"
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return SystemRules(
        category=category,
        text=Message(
            gettext_noop("%(category)s-system. %(alert)s"), {"category": category, "alert": ALERT}
        ),
        clause=clause,
    )


TEAM_STAGES = gettext_noop(
    "DM Lag är också distriktets kval till SM Lag: kval och final, därefter SM Lag semifinal "
    "(tio semifinaler med sex lag) och SM Lag final. Matchresultaten redovisas löpande."
)
