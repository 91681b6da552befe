"""Field checks for a registered player, shared by the model (so ``full_clean()`` in every service runs them), the
forms, the API and the registry import (``office.registry``): one rule, one message, wherever the value comes from.

Each validator takes the value and raises :class:`django.core.exceptions.ValidationError` (with a ``code``) when it
is not acceptable; an empty value is the field's ``blank`` to judge, not theirs.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext_lazy

#: A phone number's characters: digits with an optional leading "+", and spaces, dashes and brackets between.
PHONE_PATTERN = re.compile(r"^\+?[0-9 ()\-]+$")
PHONE_MIN_DIGITS = 9
PHONE_MAX_DIGITS = 15  # ITU-T E.164: at most 15 digits with the country code

#: An e-mail address: Django's ``EmailValidator``, the very instance ``models.EmailField`` runs (``Player.email``), so
#: the model, the forms and the import give one message. :raises ValidationError: code ``invalid``.
email_validate = validate_email


def name_validate(value: str) -> None:
    """A person's first name or surname: one line of printable text.

    ``"Jan-Hendrik"``, ``"van der Merwe"``, ``"Mariëtte"`` pass; ``"Jan\\nSmit"`` (a line break, as a spreadsheet
    cell with Alt+Enter gives) or a tab or other control character does not: the name would break the team sheet.

    :raises ValidationError: code ``name_line_break`` for a line break, ``name_control`` for another control
        character.
    """
    if any(ch in value for ch in "\r\n\u2028\u2029\x0b\x0c\x85"):
        raise ValidationError(gettext_lazy("A name must be on one line: remove the line break."),
                              code="name_line_break")
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        raise ValidationError(gettext_lazy("A name may not hold a tab or other control character."),
                              code="name_control")


def phone_validate(value: str) -> None:
    """A phone number as people write one: digits with an optional leading ``+``, and spaces, dashes and
    brackets; 9 to 15 digits (a South African number has 10 from 0, 11 from +27; E.164 allows at most 15).

    ``"082 555 0123"``, ``"+27 (82) 555-0123"`` pass; ``"082 555"``, ``"call me"``, ``"27+82"`` do not.

    :raises ValidationError: code ``phone_invalid``.
    """
    digits = sum(ch.isdigit() for ch in value)
    if not PHONE_PATTERN.match(value) or not PHONE_MIN_DIGITS <= digits <= PHONE_MAX_DIGITS:
        raise ValidationError(
            gettext_lazy("Enter a phone number of 9 to 15 digits, e.g. 082 555 0123 or +27 82 555 0123."),
            code="phone_invalid",
        )


def short_name_validate(value: str) -> None:
    """A union's short name: letters, digits and hyphens (``"SPKU"``, ``"WP-KU"``), for it names the union's pages
    at ``/unions/<short name>/`` (Board level).

    :raises ValidationError: code ``short_name_chars`` for anything else (a space, a slash, …).
    """
    if not value or not all(ch.isalnum() or ch == "-" for ch in value):
        raise ValidationError(gettext_lazy("A short name is letters, digits and hyphens only, e.g. SPKU: it names "
                                           "the union's pages (/unions/SPKU/)."), code="short_name_chars")
