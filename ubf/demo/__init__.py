"""The demo season (2016-2017) that ``manage.py load_demo`` loads: a deterministic, invented but
realistic picture of UBF's district championships (clubs, players, pair and team heats).

Also here, because only the demo, the tests and the benchmarks use them (issue 20): the
simulated results (:mod:`ubf.demo.simulate`) and the writers of PBN, USEBIO and "CSV för lag"
files (:mod:`ubf.demo.writers`), pure Python both. The season itself is
:mod:`ubf.demo.season` (imported from there, not from this package, so that the two load
without Django: ``tests/fixtures/results/make_fixtures.py`` is a plain script)."""
