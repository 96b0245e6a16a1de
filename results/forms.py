from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.i18n import render
from results.importers.detect import DEFAULT_MAX_BYTES, too_large


def _not_too_large(file) -> None:
    """A file over the limit is refused by its size, before anything reads it."""
    large = too_large(file.size, DEFAULT_MAX_BYTES)
    if large is not None:
        raise ValidationError(render(large), code="too-large")


def _file_help() -> str:
    # Filled in when the form is shown, in the reader's language (a lazy msgid with "%" at
    # import time would be Swedish for good).
    return gettext("PBN från Ruter, USEBIO (XML) eller CSV för lag. Högst %(mb)s MB.") % {
        "mb": DEFAULT_MAX_BYTES // (1024 * 1024)
    }


class ResultFileForm(forms.Form):
    """A results file, nothing else: the pairs final (a pairs heat: :class:`PairHeatFileForm`)."""

    file = forms.FileField(
        label=_("Resultatfil"), help_text=lazy(_file_help, str)(), validators=[_not_too_large]
    )


class TeamResultFileForm(ResultFileForm):
    """A team heat's or the team final's file, optionally of one round."""

    round = forms.IntegerField(
        label=_("Rond"),
        required=False,
        min_value=1,
        help_text=_("Bara för en enskild rond i lagfinalen; tomt = alla ronder i filen."),
    )


class PairHeatFileForm(forms.Form):
    """A pairs heat's file; for a heat of two sessions (R-PAIR-KVAL-6), which session it holds
    (or the whole heat, both sessions in one file). A heat of one session is not asked."""

    file = ResultFileForm.base_fields["file"]

    def __init__(self, *args, heat, **kwargs):
        super().__init__(*args, **kwargs)
        dates = heat.session_dates
        if len(dates) > 1:
            choices = [("", _("Hela heatet (båda speltillfällena i en fil)"))] + [
                (
                    str(n),
                    _("Speltillfälle %(session)s (%(date)s)")
                    % {"session": n, "date": date_format(d, "j F Y")},
                )
                for n, d in dates.items()
            ]
            self.fields["session"] = forms.TypedChoiceField(
                label=_("Speltillfälle"),
                choices=choices,
                coerce=int,
                empty_value=None,
                required=False,
                help_text=_(
                    "Heatet spelas vid två tillfällen. Ladda upp varje speltillfälles fil för "
                    "sig; heatets resultat är båda tillsammans och är preliminärt tills båda "
                    "är inlästa."
                ),
            )
