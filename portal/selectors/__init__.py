"""Read code for the public pages: the snapshots a recompute stored, shaped for a template."""
