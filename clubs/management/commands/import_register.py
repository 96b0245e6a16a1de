"""``manage.py import_register PATH [--season 2016-2017] [--apply] [--clubs]``: the member
register (or, with ``--clubs``, the club list) read as TK's page reads it
(``clubs.services.register``); without ``--apply`` nothing is saved. The last line is the
preview's figures (../shared/CONTRACT.md "Season data"):
``register: N new, N changed, N unchanged, N missing, N problems``."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Season
from clubs.services import register as service
from clubs.services.base import ServiceError
from ubf.rules.register import RegisterUnreadable


class Command(BaseCommand):
    help = "Läs in medlemsregistret (CSV/XLSX) för en säsong; --apply sparar."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--season", help="t.ex. 2016-2017 (standard: aktuell säsong)")
        parser.add_argument(
            "--apply", action="store_true", help="spara (annars bara förhandsvisning)"
        )
        parser.add_argument(
            "--clubs",
            action="store_true",
            help="filen är en klubblista (Klubbnummer, Klubb, Distrikt)",
        )

    def handle(self, *args, path, season=None, apply=False, clubs=False, **options):
        file = Path(path)
        if not file.is_file():
            raise CommandError(f"Filen finns inte / no such file: {path}")
        data = file.read_bytes()
        try:
            if clubs:
                club_list = service.read_club_file(data, file.name)
                preview = (
                    service.apply_clubs(None, club_list)
                    if apply
                    else service.preview_clubs(club_list)
                )
                for p in preview.problems:
                    self.stdout.write(f"{p.message_sv} / {p.message_en}")
                self.stdout.write(preview.summary())
                return
            register = service.read_file(data, file.name)
        except RegisterUnreadable as exc:
            raise CommandError(
                "; ".join(f"{p.message_sv} / {p.message_en}" for p in exc.problems)
            ) from exc
        the_season = Season.objects.filter(name=season).first() if season else Season.current()
        if the_season is None:
            raise CommandError(f"Säsongen finns inte / no such season: {season or '(aktuell)'}")
        try:
            preview = (
                service.apply_register(None, the_season, register)
                if apply
                else service.preview_register(the_season, register)
            )
        except ServiceError as exc:
            raise CommandError("; ".join(exc.messages("sv"))) from exc
        for p in preview.problems:
            self.stdout.write(f"{p.message_sv} / {p.message_en}")
        for name, district in preview.unknown_clubs:
            self.stdout.write(f"ny klubb / new club: {name} ({district})")
        self.stdout.write(
            f"säsong {the_season.name}: {'sparat' if apply else 'inget sparat (förhandsvisning)'}"
        )
        self.stdout.write(preview.summary())
