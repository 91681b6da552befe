"""The OpenAPI document's defaults for every operation (issue 38): a summary, and the refusals it can answer.

:class:`AutoSchema` (``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``) is drf-spectacular's, with two additions, so
that no operation needs to be decorated by hand:

* **A summary** for every operation without one of its own (``@extend_schema(summary=...)``): the first sentence
  of the action's docstring when it is short, else one made of the action and the resource ("List fixtures",
  "Team sheet: fixtures").
* **The refusals**, each with the error body's shape (two reusable components), beside the responses an
  operation documents itself (an explicit one wins; a refusal documented without a body, or with a free-form
  object, gets the shape):

  - ``400`` (:data:`VALIDATION_ERRORS`) for a write (``POST``, ``PUT``, ``PATCH``) and for a list with filters:
    DRF's ``ValidationError`` ``{"field": ["message", ...], "detail": [...]}``, also what
    ``clubs.api.ServiceErrorsMixin`` makes of a service's Django ``ValidationError`` (a field's messages, or
    ``detail``) and of a value out of range.
  - ``401`` and ``403`` (:data:`ERROR_DETAIL`, ``{"detail": "message"}``) where the operation needs someone
    signed in (a write under ``IsAuthenticatedOrReadOnly``, or any stricter permission): 403 for a refusal
    (``ServiceErrorsMixin`` turns a service's ``PermissionDenied`` into it, citing the rule); 401 for a missing or
    bad API token, only on views whose first authentication scheme names one (``WWW-Authenticate``), since DRF
    answers 403 for a missing session.
  - ``404`` (:data:`ERROR_DETAIL`) for an operation with path parameters: no such object, or not one the caller
    may see (one answer for both, STYLE.md rule 4).
  - ``429`` (:data:`ERROR_DETAIL`) for a throttled view (the table devices' sign-in).
"""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework import permissions

ERROR_DETAIL = "ErrorDetail"
VALIDATION_ERRORS = "ValidationErrors"

_COMPONENTS: dict[str, dict[str, Any]] = {
    ERROR_DETAIL: {
        "type": "object",
        "description": "A refusal: what was refused and why (the rule it enforces, where there is one).",
        "properties": {"detail": {"type": "string", "description": "The message, in the caller's language."}},
        "required": ["detail"],
    },
    VALIDATION_ERRORS: {
        "type": "object",
        "description": "Bad input: each field's messages under its name; messages about no one field under "
                       "`detail` (or `non_field_errors`). Nothing was saved.",
        "properties": {
            "detail": {"type": "array", "items": {"type": "string"}},
            "non_field_errors": {"type": "array", "items": {"type": "string"}},
        },
        "additionalProperties": {"description": "A field's messages (a list of strings; nested for a nested field)."},
    },
}

_REFUSALS = {
    "400": (VALIDATION_ERRORS, "Bad input: each field's messages (nothing was saved)."),
    "401": (ERROR_DETAIL, "No valid API token (sign in: POST /api/auth/token/)."),
    "403": (ERROR_DETAIL, "Not allowed: the rule that refuses it."),
    "404": (ERROR_DETAIL, "No such object, or not one you may see."),
    "409": (ERROR_DETAIL, "Changed since you read it: read it again (nothing was saved)."),
    "429": (ERROR_DETAIL, "Too many requests: try again later."),
}

_VERBS = {"list": "list", "retrieve": "read one", "create": "create", "update": "replace",
          "partial_update": "change", "destroy": "delete"}
_METHOD_VERBS = {"GET": "read", "POST": "send", "PUT": "replace", "PATCH": "change", "DELETE": "delete"}
_OPEN_READS = (permissions.AllowAny, permissions.IsAuthenticatedOrReadOnly)
_WRITES = ("POST", "PUT", "PATCH", "DELETE")
SUMMARY_MAX = 90


def _shapeless(response: dict[str, Any]) -> bool:
    """Whether a documented response has no body, or only a free-form object (``OpenApiTypes.OBJECT``)."""
    content = response.get("content") or {}
    schemas = [media.get("schema") or {} for media in content.values()]
    return not schemas or all(set(schema) <= {"type", "additionalProperties"} for schema in schemas)


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's ``AutoSchema`` with a summary and the documented refusals for every operation (module)."""

    # --- Summary ---------------------------------------------------------------------------------------------

    def _resource(self) -> str:
        parts = [p for p in self.path.strip("/").split("/") if p and p != "api" and not p.startswith("{")]
        return parts[0].replace("-", " ") if parts else "api"

    def get_summary(self) -> str | None:
        """The explicit summary; else, for an action with one method, its docstring's first sentence when short;
        else ``"<Resource>: <what>"`` ("Fixtures: list", "Fixtures: team sheet", "Standings: read")."""
        explicit = super().get_summary()
        if explicit:
            return explicit
        action = getattr(self.view, "action", None)
        handler = getattr(self.view, action or self.method.lower(), None)
        methods = getattr(handler, "mapping", None) or {self.method.lower(): None}
        doc = (getattr(handler, "__doc__", None) or "").strip()
        if doc and len(methods) == 1:
            first = re.split(r"(?<=\.)\s|\n\s*\n", " ".join(doc.split()), maxsplit=1)[0].rstrip(".")
            if 3 <= len(first) <= SUMMARY_MAX and "``" not in first and first.count("(") == first.count(")"):
                return first
        resource = self._resource().capitalize()
        if action in _VERBS:
            return f"{resource}: {_VERBS[action]}"
        what = (action or re.sub(r"(?<!^)(?=[A-Z])", " ", type(self.view).__name__.removesuffix("View"))).lower()
        what = what.replace("_", " ")
        if len(methods) > 1 or not action:
            what = f"{_METHOD_VERBS.get(self.method, self.method.lower())} {what}"
        return f"{resource}: {what}"

    # --- Refusals --------------------------------------------------------------------------------------------

    def _signed_in_only(self) -> bool:
        try:
            checks = self.view.get_permissions()
        except Exception:  # noqa: BLE001 - a view whose permissions need a request: assume it guards
            return True
        if all(isinstance(check, permissions.AllowAny) for check in checks):
            return False
        if self.method in _WRITES:
            return True
        return not all(isinstance(check, _OPEN_READS) for check in checks)

    def _token_challenge(self) -> bool:
        try:
            authenticators = self.view.get_authenticators()
        except Exception:  # noqa: BLE001
            return False
        return bool(authenticators) and authenticators[0].authenticate_header(None) is not None  # type: ignore[arg-type]

    def refusal_codes(self) -> list[str]:
        """The 4xx codes this operation can answer (see the module), in order."""
        codes = []
        filters = getattr(self.view, "filterset_fields", None) or getattr(self.view, "filterset_class", None)
        if self.method in ("POST", "PUT", "PATCH") or (self._is_list_view() and filters):
            codes.append("400")
        if self._signed_in_only():
            if self._token_challenge():
                codes.append("401")
            codes.append("403")
        if "{" in self.path:
            codes.append("404")
        if getattr(self.view, "throttle_classes", None):
            codes.append("429")
        return codes

    def _error_ref(self, name: str) -> dict[str, str]:
        component = ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, object=name,
                                      schema=_COMPONENTS[name])
        self.registry.register_on_missing(component)
        return component.ref

    def _refusal(self, code: str) -> dict[str, Any]:
        name, description = _REFUSALS.get(code, (ERROR_DETAIL, "Refused."))
        return {"description": description, "content": {"application/json": {"schema": self._error_ref(name)}}}

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)  # type: ignore[arg-type]
        for code, response in list(responses.items()):
            if code.startswith("4") and _shapeless(response):
                responses[code] = self._refusal(code)
        for code in self.refusal_codes():
            responses.setdefault(code, self._refusal(code))
        return dict(sorted(responses.items()))
