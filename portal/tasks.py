"""Celery tasks of the portal app: thin, they call a service."""

from __future__ import annotations

from datetime import date

from celery import shared_task

from portal.services.reminders import send_due_reminders as run


class RemindersFailed(Exception):
    """Some reminders could not be sent; the task is retried (sent ones are logged, and are
    not sent again)."""


@shared_task(
    name="portal.tasks.send_due_reminders",
    acks_late=True,
    autoretry_for=(RemindersFailed,),
    retry_backoff=True,
    max_retries=3,
)
def send_due_reminders(today: str | None = None) -> dict[str, int]:
    """Daily at 07:00 Europe/Stockholm (CELERY_BEAT_SCHEDULE): every reminder due today, each
    once. ``today`` (ISO date) runs the job as of another day."""

    summary = run(date.fromisoformat(today) if today else None)
    if summary.get("failed"):
        raise RemindersFailed(f"{summary['failed']} reminder(s) could not be sent: {summary}")
    return summary
