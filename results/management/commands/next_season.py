"""``manage.py next_season 2016-2017 [--apply]``: the season after the one named, made as TK's
page /tk/nasta-sasong/ makes it (``results.services.next_season``); without ``--apply`` it
shows the plan and saves nothing. The last line (../shared/CONTRACT.md "Season data"):
``next season 2017-2018: N competitions, N direct qualifiers``."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Season
from clubs.services.base import ServiceError
from results.services.next_season import create_next_season, plan_next_season


class Command(BaseCommand):
    help = "Skapa nästa säsong ur den angivna (t.ex. 2016-2017); --apply sparar."

    def add_arguments(self, parser):
        parser.add_argument("season", help="säsongen att utgå från, t.ex. 2016-2017")
        parser.add_argument("--apply", action="store_true", help="spara (annars bara plan)")

    def handle(self, *args, season, apply=False, **options):
        source = Season.objects.filter(name=season).first()
        if source is None:
            raise CommandError(f"Säsongen finns inte / no such season: {season}")
        try:
            if apply:
                _new, plan = create_next_season(None, source)
            else:
                plan = plan_next_season(source)
        except (ServiceError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        for value in plan.season_values:
            if value.moved:
                self.stdout.write(f"{value.key}: {value.old} → {value.new}")
        for cp in plan.competitions:
            self.stdout.write(str(cp.label))
            for value in cp.values:
                self.stdout.write(f"  {value.key}: {value.old} → {value.new}")
        for c in plan.champions:
            self.stdout.write(
                f"direktkvalificerade / direct qualifiers ({c.discipline}): {c.name} {', '.join(c.mids)}"
            )
        self.stdout.write(f"{'sparat' if apply else 'inget sparat (plan)'}")
        self.stdout.write(plan.summary())
