"""Season configuration round-trips through JSON (how the Season model stores it)."""

import json
from decimal import Decimal

from ubf.rules.season import DEFAULT_RULES, SeasonRules


def test_defaults_are_2016_2017_values():
    # R-PAIR-3 (1957), R-TEAM-FEE-3 (junior: born 1991 or later), R-PAIR-FEE-1 (50 / 200 kr)
    assert DEFAULT_RULES.veteran_born_on_or_before == 1957
    assert DEFAULT_RULES.junior_born_on_or_after == 1991
    assert DEFAULT_RULES.pair_kval_fee_per_player == Decimal("50")
    assert DEFAULT_RULES.team_start_fee == Decimal("500")


def test_round_trip_through_json_keeps_every_value():
    data = json.loads(json.dumps(DEFAULT_RULES.to_mapping()))
    assert SeasonRules.from_mapping(data) == DEFAULT_RULES


def test_changed_value_survives_and_missing_keys_keep_defaults():
    rules = SeasonRules.from_mapping({"veteran_born_on_or_before": 1958, "start_year": 2017})
    assert rules.veteran_born_on_or_before == 1958
    assert rules.junior_born_on_or_after == 1992
    assert rules.team_start_fee == DEFAULT_RULES.team_start_fee
