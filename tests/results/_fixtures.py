"""Shared helpers for the importer tests (no database needed)."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "results"
BROKEN = FIXTURES / "broken"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def broken(name: str) -> bytes:
    return (BROKEN / name).read_bytes()


def codes(problems) -> list[str]:
    return [p.code for p in problems]


def errors(problems):
    return [p for p in problems if p.is_error]
