"""``manage.py requeue_pending [--minutes N]``: send again every recompute pending for longer
than N minutes (default ``UBF_REQUEUE_AFTER_SECONDS``), as the beat task does."""

from datetime import timedelta

from django.core.management.base import BaseCommand

from results.recompute import requeue_pending


class Command(BaseCommand):
    help = "Köar om varje omräkning som har väntat längre än N minuter."

    def add_arguments(self, parser):
        parser.add_argument("--minutes", type=float, default=None)

    def handle(self, *args, minutes=None, **options):
        older = None if minutes is None else timedelta(minutes=minutes)
        sent = requeue_pending(older)
        self.stdout.write(f"requeued: {len(sent)} {sent}")
