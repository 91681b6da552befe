"""The API's JSON parser: DRF's, with a body nested too deep for Python's parser answered 400, not 500.

Security finding 6 (issue 35): about 100 KB of ``[[[[…]]]]`` made ``json.loads`` raise ``RecursionError`` inside
DRF's ``JSONParser`` on every endpoint, anonymous ones included, and each answered 500 (a traceback, an e-mail to
the admins). No request of ours nests more than a few levels, so such a body is bad input like any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class BoundedJSONParser(JSONParser):
    """:class:`rest_framework.parsers.JSONParser` that answers a body nested beyond Python's recursion limit with
    :class:`~rest_framework.exceptions.ParseError` (HTTP 400 "JSON parse error - nested too deep")."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deep.") from None
