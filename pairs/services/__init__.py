"""DM Par use cases, one module per area (``pairs.services.heats``: heat registration, TK's
decisions, changes, invitations, direct final). Each service function checks permission first,
validates everything through ``ubf.rules``, then writes inside one transaction."""
