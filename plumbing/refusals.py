"""A service's refusal shown on a page: the apps' views share these two helpers (STYLE.md: bad input gives a clear
error on the same page, nothing saved lost)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import BaseForm
from django.http import HttpRequest


def refusal_show(request: HttpRequest, error: ValidationError | PermissionDenied) -> None:
    """Put each message of ``error`` at the top of the page (``django.contrib.messages``, level error).

    :param error: a service's ``ValidationError`` (its messages) or ``PermissionDenied`` (its text).
    """
    for message in getattr(error, "messages", None) or [str(error)]:
        messages.error(request, message)


def refusal_on_form(request: HttpRequest, form: BaseForm, error: ValidationError | PermissionDenied) -> None:
    """Put a service's refusal on ``form``'s fields where it names one, the rest at the top of the page.

    :param error: a ``ValidationError`` with a dict (field name → messages; names the form lacks, ``__all__``
        among them, go to the top) or any other refusal (all of it to the top, as :func:`refusal_show`).
    """
    if isinstance(error, ValidationError) and hasattr(error, "error_dict"):
        for field, field_messages in error.message_dict.items():
            for message in field_messages:
                if field in form.fields:
                    form.add_error(field, message)
                else:
                    messages.error(request, message)
        return
    refusal_show(request, error)
