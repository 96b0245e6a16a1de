"""Result-file importers: parse and validate club result files (pure Python).

Nothing here imports Django or app models; the Django service maps the parsed data onto
models (matching pairs by pair number within the heat plus MIDs when present, teams by id).

Typical use::

    from results.importers import parse_upload, validate_pairs, ImportFailed

    try:
        event = parse_upload(data, "heat3.pbn", "pairs")
    except ImportFailed as exc:
        show(exc.problems)            # Swedish first: p.message_sv, p.line, p.element
    else:
        problems = validate_pairs(event)   # ERROR refuses, WARNING is shown to TK
        percentages = compute_pair_totals(event)

Formats: PBN 2.1 as written by Ruter/Magic Contest (:mod:`.pbn`), USEBIO 1.2/1.3 XML
(:mod:`.usebio`) and "CSV för lag" (:mod:`.csv_teams`). See docs/result-formats.md.
"""

from .bounds import Limits
from .csv_teams import parse_csv_teams
from .detect import DEFAULT_MAX_BYTES, decode_text, detect_format, parse_upload
from .model import (
    ImportFailed,
    ImportProblem,
    ParsedBoard,
    ParsedMatch,
    ParsedPair,
    ParsedPairEvent,
    ParsedPlayer,
    ParsedTeam,
    ParsedTeamBoard,
    ParsedTeamEvent,
    Severity,
    TravellerLine,
)
from .pbn import parse_pbn_pairs, parse_pbn_teams
from .usebio import parse_usebio, parse_usebio_pairs, parse_usebio_teams
from .validate import (
    PairScore,
    compute_pair_scores,
    compute_pair_totals,
    team_match_summary,
    validate_pairs,
    validate_teams,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ImportFailed",
    "ImportProblem",
    "Limits",
    "PairScore",
    "ParsedBoard",
    "ParsedMatch",
    "ParsedPair",
    "ParsedPairEvent",
    "ParsedPlayer",
    "ParsedTeam",
    "ParsedTeamBoard",
    "ParsedTeamEvent",
    "Severity",
    "TravellerLine",
    "compute_pair_scores",
    "compute_pair_totals",
    "decode_text",
    "detect_format",
    "parse_csv_teams",
    "parse_pbn_pairs",
    "parse_pbn_teams",
    "parse_upload",
    "parse_usebio",
    "parse_usebio_pairs",
    "parse_usebio_teams",
    "team_match_summary",
    "validate_pairs",
    "validate_teams",
]
