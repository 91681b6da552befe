"""A match night as one file (issue 18; :mod:`matches.nightfile`): export and import, for union officials.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from matches import permissions
from plumbing.api import ID_REGEX, ServiceErrorsMixin, id_or_404, request_body

# --- A match night as one file (issue 18; matches/nightfile/) -----------------------------------------


class NightImportSerializer(serializers.Serializer):
    night = serializers.JSONField(
        help_text="The night file, as GET /api/nights/{id}/ or manage.py night_export wrote "
            "it (format klawerjas-night, version 1, with its checksums)."
    )
    dry_run = serializers.BooleanField(default=False, help_text="Say what would be added; write nothing.")


class NightConflictSerializer(serializers.Serializer):
    where = serializers.CharField(help_text="The match, table and line, e.g. '… table 2, line 7'.")
    message = serializers.CharField()


class NightReportSerializer(serializers.Serializer):
    title = serializers.CharField(help_text="The match the file is of.")
    match = serializers.IntegerField(
        allow_null=True, help_text="The match's id here (null in a dry run that would create it)."
    )
    imported = serializers.BooleanField(help_text="Something was written.")
    nothing_new = serializers.BooleanField(
        help_text="This installation already holds everything in the file."
    )
    added = serializers.ListField(
        child=serializers.CharField(), help_text="What was (or would be) added, in words."
    )
    conflicts = NightConflictSerializer(
        many=True, help_text="Why the file is refused (409); nothing was written."
    )


class NightViewSet(ServiceErrorsMixin, viewsets.ViewSet):
    """A match night as one file, for a night played on a laptop at the hall with no internet (union officials, of
    their own unions' matches).

    ``GET /api/nights/{match id}/``: the night file (team sheets, substitutions, tables, boem sheets, awards, the
    clock and result, straf claims and rulings, with SHA-256 checksums per section and over the whole).
    ``POST /api/nights/``: import one (``dry_run`` to see what it adds): 200 with what was added or
    ``nothing_new``; 400 for a file that is not an intact night file (checksums); 409 when it conflicts with what
    is here, naming the match, table and line (nothing written); 404 for another union's night.
    """

    permission_classes = [IsAuthenticated]
    lookup_value_regex = ID_REGEX

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT},
                   description=_("The night file of a match (format klawerjas-night, version 1)."))
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        from matches.nightfile.export import night_export

        match = permissions.match_for_official(user=request.user, match_id=id_or_404(pk))
        return Response(night_export(match=match))

    @extend_schema(request=NightImportSerializer,
                   responses={200: NightReportSerializer, 400: OpenApiTypes.OBJECT, 409: NightReportSerializer})
    def create(self, request: Request) -> Response:
        from matches.nightfile.format import NightConflict, NightFileError, night_file_read, night_file_union
        from matches.nightfile.imports import night_import

        data = request_body(NightImportSerializer, request)
        scope = permissions.unions_for_official(request.user)
        if not scope.exists():
            raise Http404
        try:
            document = night_file_read(data["night"])
            if not scope.filter(name=night_file_union(document)).exists():
                raise Http404  # another union's night answers like one that is not there
            report = night_import(data=document, by=request.user, union_scope=scope,
                                  dry_run=data["dry_run"])
        except NightConflict as conflict:
            return Response(NightReportSerializer(conflict.report.as_dict()).data, status=status.HTTP_409_CONFLICT)
        except NightFileError as error:
            raise ValidationError({"night": error.messages}) from None
        return Response(NightReportSerializer(report.as_dict()).data)
