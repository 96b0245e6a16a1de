"""The "… and N more errors" line under a refused file's problems reads in the visitor's
language from the catalogue (results.views._more_line, one Swedish msgid with plural forms)."""

from results.views import _more_line


def test_more_errors_of_the_same_kind_in_swedish_and_english():
    assert _more_line(3, "sv", same_kind=True)["text"] == (
        "… och 3 fel till av samma slag. Rätta i resultatprogrammet och exportera filen igen."
    )
    assert _more_line(3, "en", same_kind=True)["text"] == (
        "… and 3 more errors of the same kind. Correct them in the scoring program and export "
        "the file again."
    )


def test_one_more_error_is_singular_in_english():
    assert _more_line(1, "en", same_kind=False)["text"] == (
        "… and 1 more error. Correct it in the scoring program and export the file again."
    )
    assert _more_line(1, "sv", same_kind=False)["text"] == (
        "… och 1 fel till. Rätta i resultatprogrammet och exportera filen igen."
    )
