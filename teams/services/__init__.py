"""DM Lag use cases, one module per area (``heats``: heat registration, TK's decisions, changes,
entries at close, moving a team, direct final; the other modules cover entries and TK's other
decisions). Each service function checks permission first, validates everything through
``ubf.rules``, then writes inside one transaction."""
