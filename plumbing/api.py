"""The API kit every app's REST API uses: ids in URLs and bodies, the request body, service errors as HTTP.

* :data:`ID_REGEX` / :data:`MAX_ID` / :func:`id_field`: an object id is 1 to 9 digits (1 .. 999 999 999), so a
  longer one answers 404 (in a URL) or 400 (in a body) before it reaches the database;
* :func:`id_parse` / :func:`id_or_404`: the one parser of an id typed in a URL or a query string;
* :func:`request_body`: the body checked by a serializer, or a 400 with field messages;
* :class:`ServiceErrorsMixin`: a service's ``ValidationError`` as 400 (409 when stale), ``PermissionDenied`` as 403.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.exceptions import APIException, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

#: Ids in URLs are 1 to 9 digits: anything longer answers 404 before it reaches the database.
ID_REGEX = "[0-9]{1,9}"
MAX_ID = 999_999_999
_ID = re.compile(ID_REGEX)


def id_parse(value: object) -> int | None:
    """An object id typed in a URL, a form or a query string: ``"42"`` → 42; ``None`` for anything that is not 1
    to 9 ASCII digits naming a positive id (empty, a word, ``"0"``, a negative, too long).

    >>> id_parse("42"), id_parse(" 42"), id_parse("0"), id_parse("1234567890"), id_parse(None)
    (42, None, None, None, None)
    """
    text = value if isinstance(value, str) else str(value) if isinstance(value, int) else ""
    if not _ID.fullmatch(text):
        return None
    number = int(text)
    return number if number >= 1 else None


def id_or_404(value: object) -> int:
    """:func:`id_parse`, answering 404 like an unknown id when ``value`` is not an id.

    :raises django.http.Http404: ``value`` is not 1 to 9 digits.
    """
    number = id_parse(value)
    if number is None:
        raise Http404("No such object.")
    return number


def id_field(**kwargs: Any) -> serializers.IntegerField:
    """An object id in a request body (1 .. 999 999 999)."""
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


class Conflict(APIException):
    """HTTP 409: the write was based on a version another client has changed since (reload, then retry)."""

    status_code = 409
    default_detail = "Changed by someone else: reload and try again."
    default_code = "stale"


class ServiceErrorsMixin:
    """Turn a service's Django ``ValidationError`` into a 400 (a 409 when its code is ``stale``: the client's
    ``version`` is out of date) and its ``PermissionDenied`` (a rule about who may act, e.g. approval by a
    union official) into a 403, with the service's message citing its clause; a value the database cannot
    hold (an overflowing number in a filter) is a 400 too, never a 500."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, DjangoValidationError) and getattr(exc, "code", None) == "stale":
            exc = Conflict({"detail": exc.messages})
        elif isinstance(exc, DjangoValidationError):
            detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
            exc = ValidationError(detail)
        elif isinstance(exc, DjangoPermissionDenied):
            exc = PermissionDenied(str(exc) or None)
        elif isinstance(exc, OverflowError | DataError):
            exc = ValidationError({"detail": [_("A value is out of range.")]})
        response: Response = super().handle_exception(exc)  # type: ignore[misc]
        return response


def request_body(serializer_class: type[serializers.Serializer[Any]], request: Request,
                 **kwargs: Any) -> dict[str, Any]:
    """The request's body checked by ``serializer_class`` (built with ``kwargs`` too): its ``validated_data``.

    :raises rest_framework.exceptions.ValidationError: the body does not fit (HTTP 400 with field messages).
    """
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    data: dict[str, Any] = serializer.validated_data
    return data
