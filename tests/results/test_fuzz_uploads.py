"""Property tests (hypothesis): mutated real files and generated ones through parse → validate
→ store (issue 14). Each file is either refused with problems (Swedish text) or imported,
within a time bound, never with another exception; on a refusal the database and the media
folder are unchanged. ``benchmarks/fuzz_uploads.py`` runs many more and prints the figures."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from results.importers import (
    ImportFailed,
    ParsedPairEvent,
    compute_pair_scores,
    parse_upload,
    team_match_summary,
    validate_pairs,
    validate_teams,
)
from results.services.uploads import UploadRejected, upload_pair_heat, upload_team_results
from tests.results._mutations import (
    CSV_TOKENS,
    FILES,
    FIXTURES,
    INFLATED,
    KINDS,
    generated_csv,
    mutate,
)
from tests.results.test_uploads import counts, pair_heat_for, team_heat_for
from tests.results.test_uploads_badinput import media_files

#: CPU seconds one file may take through parse and validate (the attack took 38 s).
PARSE_SECONDS = 1.0

mutation = st.tuples(
    st.sampled_from(KINDS), st.integers(0, 1 << 30), st.integers(0, len(INFLATED) * 97)
)
mutated_file = st.tuples(st.sampled_from(FILES), st.lists(mutation, min_size=1, max_size=3))
csv_rows = st.lists(
    st.lists(st.sampled_from(CSV_TOKENS) | st.text(max_size=12), min_size=5, max_size=8).map(
        lambda cells: cells if len(cells) % 3 else ["board", *cells]
    ),
    min_size=1,
    max_size=8,
)


def read(data: bytes, name: str, kind: str) -> list:
    """Parse, validate and compute as the service does; the problems of a refusal (or [])."""
    start = time.process_time()
    try:
        event = parse_upload(data, name, kind)
        if isinstance(event, ParsedPairEvent):
            problems = validate_pairs(event)
            compute_pair_scores(event)
        else:
            problems = validate_teams(event, expected_boards=None)
            team_match_summary(event, boards_per_match=None)
    except ImportFailed as exc:
        problems = exc.problems
        assert problems and all(p.message_sv for p in problems)
    assert time.process_time() - start < PARSE_SECONDS, name
    return [p for p in problems if p.is_error]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(mutated_file)
@example((("pairs_ruter_mitchell.pbn", "pairs"), [("inflate", 6, 0)]))  # a number: 1e999999
@example((("teams.csv", "teams"), [("negate", 40, 0)]))
@example((("pairs_howell_usebio.xml", "pairs"), [("inflate", 100, 3)]))  # 5,000 digits
def test_mutated_real_files_are_read_or_refused_never_crash(case):
    (name, kind), mutations = case
    read(mutate((FIXTURES / name).read_bytes(), mutations), name, kind)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(csv_rows)
def test_generated_csv_files_are_read_or_refused_never_crash(rows):
    read(generated_csv(rows), "lag.csv", "teams")


@pytest.fixture
def heats(db):
    """The heats the fixture files belong to: two pairs heats and a team heat (the team files
    share their teams; the PBN one has 16 boards a match, so the 24-board heat refuses it)."""
    mitchell, _ = pair_heat_for("pairs_ruter_mitchell.pbn")
    howell, _ = pair_heat_for("pairs_howell_usebio.xml")
    teams, _, _ = team_heat_for("teams_usebio.xml", 24)
    return {"mitchell": mitchell, "howell": howell, "teams": teams}


def store(user, heats, name: str, kind: str, data: bytes):
    if kind == "pairs":
        heat = heats["howell"] if name.endswith(".xml") else heats["mitchell"]
        return upload_pair_heat(user, heat, data=data, filename=name.rsplit("/", 1)[-1])
    return upload_team_results(
        user, heat=heats["teams"], data=data, filename=name.rsplit("/", 1)[-1]
    )


@pytest.mark.django_db
@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(mutated_file)
@example((("pairs_ruter_mitchell.pbn", "pairs"), [("inflate", 6, 0)]))
@example((("teams.csv", "teams"), [("negate", 40, 0)]))
def test_mutated_files_through_the_service_refuse_cleanly_or_import(tk, heats, case):
    (name, kind), mutations = case
    data = mutate((FIXTURES / name).read_bytes(), mutations)
    before, media = counts(), media_files()
    start = time.process_time()
    try:
        outcome = store(tk, heats, name, kind, data)
    except UploadRejected as exc:
        assert exc.problems and all(p.message_sv for p in exc.problems)
        assert counts() == before and media_files() == media
    else:
        assert outcome.upload.pk and outcome.upload.status == "accepted"
        assert outcome.upload.file.name in media_files()
    assert time.process_time() - start < 2 * PARSE_SECONDS
