from django import forms
from django.utils.translation import gettext_lazy as _

from results.importers.detect import DEFAULT_MAX_BYTES


class ResultFileForm(forms.Form):
    file = forms.FileField(
        label=_("Resultatfil"),
        help_text=_("PBN från Ruter, USEBIO (XML) eller CSV för lag. Högst %(mb)s MB.")
        % {"mb": DEFAULT_MAX_BYTES // (1024 * 1024)},
    )
    round = forms.IntegerField(
        label=_("Rond"),
        required=False,
        min_value=1,
        help_text=_("Bara för en enskild rond i lagfinalen; tomt = alla ronder i filen."),
    )
