"""``manage.py api_token create|revoke|list``: TK's API tokens from the shell.

manage.py api_token create --by tk --owner klubb --club 3 --name "Ruter Enköping"
manage.py api_token create --by tk --owner tk --final 12 --name "Finalen"
manage.py api_token revoke --by tk 7
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.management.base import BaseCommand, CommandError

from api.models import ApiToken
from api.services import create_token, revoke_token
from clubs.models import Club, Competition, Heat
from clubs.services.base import ServiceError


class Command(BaseCommand):
    help = "Skapa, återkalla eller lista API-nycklar (TK)."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="what", required=True)
        create = sub.add_parser("create")
        create.add_argument("--by", required=True, help="TK:s användarnamn")
        create.add_argument("--owner", required=True, help="nyckelns ägare (användarnamn)")
        create.add_argument("--name", required=True)
        create.add_argument("--club", type=int, help="klubbens id: klubbens heat")
        create.add_argument("--heat", type=int, help="heatets id")
        create.add_argument("--final", type=int, help="tävlingens id: dess final")
        revoke = sub.add_parser("revoke")
        revoke.add_argument("--by", required=True)
        revoke.add_argument("token", type=int)
        revoke.add_argument("--reason", default="")
        sub.add_parser("list")

    def handle(self, *args, what, **options):
        users = get_user_model().objects
        try:
            if what == "list":
                for t in ApiToken.objects.select_related("owner"):
                    state = f"återkallad {t.revoked_at:%Y-%m-%d}" if t.revoked_at else "aktiv"
                    self.stdout.write(f"{t.pk}\t{t.key_prefix}…\t{t.name}\t{t.owner}\t{state}")
                return
            by = users.get(username=options["by"])
            if what == "revoke":
                token = revoke_token(
                    by, ApiToken.objects.get(pk=options["token"]), reason=options["reason"]
                )
                self.stdout.write(f"{token.pk} återkallad")
                return
            token, key = create_token(
                by,
                owner=users.get(username=options["owner"]),
                name=options["name"],
                club=Club.objects.get(pk=options["club"]) if options["club"] else None,
                heat=Heat.objects.get(pk=options["heat"]) if options["heat"] else None,
                final_of=(
                    Competition.objects.get(pk=options["final"]) if options["final"] else None
                ),
            )
        except (ServiceError, PermissionDenied) as exc:
            raise CommandError(str(exc)) from exc
        except (ApiToken.DoesNotExist, Club.DoesNotExist, Heat.DoesNotExist) as exc:
            raise CommandError(str(exc)) from exc
        except (Competition.DoesNotExist, users.model.DoesNotExist) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"{token.pk}\t{key}")
