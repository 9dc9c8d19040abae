"""Date formats where Django's own for a language are missing or not what its speakers write
(``FORMAT_MODULE_PATH``): one package per language, holding only the formats it changes."""

from django.utils.translation import pgettext_lazy

#: The month names a date uses (Django's "alt. month", the ``E`` of a date format), listed here
#: so that the catalogues keep them: Bulgarian writes them in lower case ("3 декември 2026 г.").
MONTHS_IN_A_DATE = (
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
