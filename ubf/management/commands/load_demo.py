"""``manage.py load_demo``: load the 2016-2017 demo season (idempotent), upload its simulated
results (heats, then the final's first seven rounds; ``--no-results`` skips them) and print the
logins."""

import os
from datetime import date

from django.conf import settings
from django.core.management.base import BaseCommand

from clubs import clock
from clubs.models import DemoClock
from ubf.demo.results import load_demo_results
from ubf.demo.season import load_demo_season


class Command(BaseCommand):
    help = "Läser in demosäsongen 2016-2017 (idempotent) / loads the 2016-2017 demo season."

    def add_arguments(self, parser):
        parser.add_argument(
            "--no-results",
            action="store_true",
            help="Läs inte in några resultat / do not upload the simulated results.",
        )

    def handle(self, *args, **options):
        if settings.UBF_DEMO_DATE:
            # The demo runs as of DEMO_DATE (make demo sets it); TK may move it in the admin.
            DemoClock.objects.update_or_create(
                pk=1, defaults={"on": date.fromisoformat(settings.UBF_DEMO_DATE)}
            )
            self.stdout.write(f"Demodatum: {clock.today():%Y-%m-%d} (DEMO_DATE)")
        summary = load_demo_season()
        c = summary.counts
        created = sum(summary.created.values())
        updated = sum(summary.updated.values())
        out = self.stdout
        out.write(
            self.style.SUCCESS(
                f"Demosäsongen {summary.season} är inläst "
                f"({created} rader skapade, {updated} uppdaterade)."
            )
        )
        out.write(
            f"  Klubbar: {c['clubs']} ({c['ubf_clubs']} i UBF), spelare: {c['players']} "
            f"({c['unpaid']} utan betald medlemsavgift)"
        )
        out.write(
            f"  DM Par: {c['pair_competitions']} tävlingar, {c['pair_heats']} kvalheat, "
            f"{c['pair_entries']} par"
        )
        out.write(
            f"  DM Lag: {c['team_heats']} kvalheat, {c['teams']} lag ({c['final_teams']} i "
            f"finalen), {c['kval_matches'] + c['final_matches']} matcher "
            f"({c['kval_matches']} kval, {c['final_matches']} final)"
        )
        if not options.get("no_results"):
            out.write("Resultat (simulerade filer, inlästa som klubbarnas uppladdningar):")
            results = load_demo_results(log=out.write)
            out.write(
                f"  {results.imported} filer inlästa, {results.unchanged} oförändrade, "
                f"{results.kept} behållna, {results.rejected} avvisade."
            )
        port = os.environ.get("PORT", "8000")
        # Club officials and captains log in on the site; only TK (staff) also uses the admin.
        out.write(f"Logga in på http://127.0.0.1:{port}/konto/login/")
        for username, password, role in summary.logins:
            out.write(f"  {username} / {password}   ({role})")
        out.write(f"TK (personal) når även administrationen: {summary.admin_url(port)}")
        out.write("  (Lösenorden sätts bara när kontot skapas; en ny inläsning ändrar dem inte.)")
