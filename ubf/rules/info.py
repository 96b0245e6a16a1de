"""Information the regulations ask to be shown on each event's page; nothing is computed.

R-PAIR-SYS-1, R-TEAM-SYS-1: system category and alert rules per stage. R-TEAM-1: DM Lag is
also the district's qualifier for SM Lag, in two stages (kval, final), then SM semifinal and
final; match results are published continuously. R-PAIR-MP-4: pairs finals are barometers.
"""

from __future__ import annotations

from dataclasses import dataclass

ALERT_SV = (
    "Alert och stopp tillämpas i alla etapper. Dubbelt och redubbelt alerteras aldrig oavsett "
    "innebörd, och bud från fyrtrinnet och uppåt får inte alerteras."
)
ALERT_EN = (
    "Alert and stop apply in every stage. Double and redouble are never alerted whatever they "
    "mean, and bids from the four level up must not be alerted."
)


@dataclass(frozen=True)
class SystemRules:
    category: str  # "A", "B" or "C"
    text_sv: str
    text_en: str
    clause: str


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
        text_sv=f"{category}-system. {ALERT_SV}",
        text_en=f"{category} system. {ALERT_EN}",
        clause=clause,
    )


TEAM_STAGES_SV = (
    "DM Lag är också distriktets kval till SM Lag: kval och final, därefter SM Lag semifinal "
    "(tio semifinaler med sex lag) och SM Lag final. Matchresultaten redovisas löpande."
)
TEAM_STAGES_EN = (
    "DM Lag is also the district's qualifier for SM Lag: qualifying heats and final, then the SM "
    "Lag semifinal (ten semifinals of six teams) and the SM Lag final. Match results are "
    "published continuously."
)
