"""DM Par rules that other modules and outside checks share: R-PAIR-2."""

from __future__ import annotations

from .season import DEFAULT_RULES, SeasonRules


def sm_cap_out_of_district(sm_places: int, rules: SeasonRules = DEFAULT_RULES) -> int:
    """R-PAIR-2: how many of UBF's ``sm_places`` SM places out-of-district pairs may take.

    Read from ``rules.sm_cap_table`` (lowest number of places, cap), 2016-2017:
    1 → 0; 2–3 → 1; 4–6 → 2; 7–10 → 3; 11–14 → 4; 15 or more → 5. No places → 0.
    """
    cap = 0
    for lowest, table_cap in sorted(rules.sm_cap_table):
        if sm_places >= lowest:
            cap = table_cap
        else:
            break
    return cap
