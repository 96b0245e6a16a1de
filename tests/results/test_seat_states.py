"""Issue 21: a held seat's words from its status and source (results.seat_states.held_words):
a provisional seat reads "preliminärt, X heat kvar" while X heats are to come (R-ALLOC-5),
never as a decided one; decided, replacement and final allocations "kvalificerat" (R-REPL-6,
R-ALLOC-3); the champions "direktkvalificerat" (R-DIRECT-1, R-TEAM-DIRECT-1)."""

import pytest
from django.utils import translation

from clubs.models import FinalSeat
from results.seat_states import SeatWords, held_words

Source, Status = FinalSeat.Source, FinalSeat.Status


@pytest.mark.parametrize(
    ("status", "source", "left", "state", "sv", "en"),
    [
        (
            Status.PROVISIONAL,
            Source.ALLOCATION,
            4,
            "provisional",
            "preliminärt, 4 heat kvar",
            "provisional, 4 heats to go",
        ),
        (
            Status.PROVISIONAL,
            Source.ALLOCATION,
            1,
            "provisional",
            "preliminärt, 1 heat kvar",
            "provisional, 1 heat to go",
        ),
        (Status.PROVISIONAL, Source.ALLOCATION, 0, "qualified", "kvalificerat", "qualified"),
        (Status.CONFIRMED, Source.ALLOCATION, 3, "qualified", "kvalificerat", "qualified"),
        (Status.CONFIRMED, Source.REPLACEMENT, 2, "qualified", "kvalificerat", "qualified"),
        (
            Status.PROVISIONAL,
            Source.DIRECT,
            4,
            "direct",
            "direktkvalificerat",
            "directly qualified",
        ),
    ],
)
def test_held_seat_in_words(status, source, left, state, sv, en):
    words = held_words(status, source, left)
    assert words.state == state
    with translation.override("sv"):
        assert str(words) == sv
    with translation.override("en"):
        assert str(words) == en


def test_offered_and_declined_in_words():
    with translation.override("sv"):
        assert str(SeatWords("offered")) == "tillfrågat som ersättare"
        assert str(SeatWords("declined")) == "tackat nej"
    with translation.override("en"):
        assert str(SeatWords("offered")) == "asked as a replacement"
        assert str(SeatWords("declined")) == "declined"
