"""The demo season (2016-2017) that ``manage.py load_demo`` loads: a deterministic, invented but
realistic picture of UBF's district championships (clubs, players, pair and team heats).

Also here, because only the demo, the tests and the benchmarks use them (issue 20): the
simulated results (:mod:`ubf.demo.simulate`) and the writers of PBN, USEBIO and "CSV för lag"
files (:mod:`ubf.demo.writers`), pure Python both. The season's names are imported on first
use, so those two load without Django (``tests/fixtures/results/make_fixtures.py`` is a plain
script)."""

from __future__ import annotations

__all__ = ["DEMO_SEED", "DemoPlan", "DemoSummary", "build_plan", "load_demo_season"]


def __getattr__(name: str):
    if name in __all__:
        from . import season

        return getattr(season, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
