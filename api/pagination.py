from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination

#: The largest page number taken (beyond any list; keeps the number a 32-bit integer).
MAX_PAGE = 2**31 - 1


def _whole(request, name: str, low: int, high: int) -> int | None:
    """The query parameter ``name`` as a whole number from ``low`` to ``high``; None when it
    is not given; 400 (problem details) for anything else, an empty value included."""
    if name not in request.query_params:
        return None
    raw = request.query_params[name]
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise ValidationError(
            {name: [_("Ange ett heltal från %(low)s till %(high)s.") % {"low": low, "high": high}]}
        )
    return int(raw)


class Pages(PageNumberPagination):
    """``?page=2``, ``?page_size=100`` (1 to 500). A page or size that is not such a whole
    number is refused (400), as the schema says (issue 25: ``page=0`` and ``page=`` were a 404
    and a first page); a page beyond the last is 404."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500
    last_page_strings = ()

    def get_page_size(self, request):
        size = _whole(request, self.page_size_query_param, 1, self.max_page_size)
        return self.page_size if size is None else size

    def get_page_number(self, request, paginator):
        number = _whole(request, self.page_query_param, 1, MAX_PAGE)
        return 1 if number is None else number

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.page_query_param: {"minimum": 1, "maximum": MAX_PAGE},
            self.page_size_query_param: {"minimum": 1, "maximum": self.max_page_size},
        }
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters
