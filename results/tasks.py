"""Celery tasks: thin, take ids, call a service."""

from celery import shared_task


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=3)
def recompute_team_competition(team_competition_id: int, heat_ids: list | None = None) -> None:
    from results.services.recompute import recompute_team_competition as run

    run(team_competition_id, heat_ids)


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=True, max_retries=3)
def recompute_pair_competition(pair_competition_id: int, heat_ids: list | None = None) -> None:
    from results.services.recompute import recompute_pair_competition as run

    run(pair_competition_id, heat_ids)
