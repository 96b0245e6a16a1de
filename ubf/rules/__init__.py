"""The UBF DM regulations (Tävlingsbestämmelser 2016-2017) as pure functions.

Nothing in this package imports Django. Inputs are plain data (dataclasses, mappings);
seasonal numbers come from :class:`ubf.rules.season.SeasonRules`. Every public function's
docstring names the clause IDs of ``shared/SPEC.md`` it applies, so ``grep R-ALLOC-3``
finds the code that applies that clause.
"""
