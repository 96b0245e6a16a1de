"""The demo season (2016-2017) that ``manage.py load_demo`` loads: a deterministic, invented but
realistic picture of UBF's district championships (clubs, players, pair and team heats)."""

from .season import DEMO_SEED, DemoPlan, DemoSummary, build_plan, load_demo_season

__all__ = ["DEMO_SEED", "DemoPlan", "DemoSummary", "build_plan", "load_demo_season"]
