"""Use cases of the clubs and the season, one module per area (``reminders``: the daily deadline
reminders sent by e-mail, each once)."""
