"""DM Lag use cases, one module per area (``teams.services.heats``: heat registration, TK's
decisions, changes, entries at close, moving a team, direct final). Each service function checks
permission first, validates everything through ``ubf.rules``, then writes inside one
transaction."""
