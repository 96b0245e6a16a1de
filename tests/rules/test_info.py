"""Information shown on event pages (R-PAIR-SYS-1, R-TEAM-SYS-1)."""

import pytest

from ubf.rules.info import system_rules


@pytest.mark.parametrize(
    ("kind", "stage", "category"),
    [
        ("pairs", "kval", "C"),  # R-PAIR-SYS-1: C in every DM pairs stage
        ("pairs", "final", "C"),
        ("pairs", "sm", "B"),  # B in the SM pair finals
        ("teams", "kval", "B"),  # R-TEAM-SYS-1: B in all DM stages
        ("teams", "final", "B"),
        ("teams", "sm", "A"),  # A in SM semifinal and final
    ],
)
def test_system_category_by_kind_and_stage(kind, stage, category):
    info = system_rules(kind, stage)
    assert info.category == category
    assert info.text_sv.startswith(f"{category}-system")
    assert "Dubbelt och redubbelt alerteras aldrig" in info.text_sv


def test_r_pair_sys_1_and_r_team_sys_1_name_their_clause():
    assert system_rules("pairs", "kval").clause == "R-PAIR-SYS-1"
    assert system_rules("teams", "final").clause == "R-TEAM-SYS-1"
    with pytest.raises(ValueError):
        system_rules("individual", "kval")
