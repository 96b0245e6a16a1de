"""A refusal names its clause once: "(R-GEN-3). (R-GEN-3)" was seen on pages (issue 13)."""

from clubs.i18n import render_with_clause
from clubs.services.base import error
from ubf.rules.i18n import gettext_noop


def test_the_clause_is_added_to_a_message_without_it():
    v = error("R-GEN-3", gettext_noop("Ange skälet."))
    assert render_with_clause(v, "sv") == "Ange skälet. (R-GEN-3)"


def test_a_message_that_already_ends_with_its_clause_keeps_it_once():
    v = error("R-GEN-3", gettext_noop("TK beslutar med motivering (R-GEN-3)."))
    assert render_with_clause(v, "sv") == "TK beslutar med motivering (R-GEN-3)."
