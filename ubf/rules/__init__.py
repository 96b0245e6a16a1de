"""The UBF DM regulations (Tävlingsbestämmelser 2016-2017) as pure functions.

Nothing in this package imports Django. Inputs are plain data (dataclasses, mappings);
seasonal numbers come from :class:`ubf.rules.season.SeasonRules`. Every public function's
docstring names the clause IDs it applies (``R-ALLOC-3``, ...; docs/rulebook.md lists every
clause with the functions that apply it and the tests that prove it), so ``grep R-ALLOC-3``
finds the code that applies that clause.
"""
