"""The union registry's API (issue 33): import a registry file, export the registry, download the template.

* ``POST /api/unions/{id}/registry/import/`` (multipart: ``file``, optional ``create_clubs``, ``dry_run``) →
  200 with the report when written (or a clean dry run); 400 with the report when rows are refused (nothing
  written), or with ``{"file": [...]}`` when the file itself is bad.
* ``GET /api/unions/{id}/registry/export/?file_format=xlsx|csv`` → the registry as a file.
* ``GET /api/unions/{id}/registry/template/?file_format=xlsx|csv`` → the headers alone.

Officials of the union only: ``clubs.permissions.union_for_official`` answers 404 for another union as for none.
Thin adapters: the serializer parses, ``office.registry`` acts.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.permissions import union_for_official
from office.registry import (
    MAX_FILE_BYTES,
    RegistryFileError,
    registry_export,
    registry_file_name,
    registry_import,
    registry_template,
)
from plumbing.api import ServiceErrorsMixin, request_body
from plumbing.spreadsheets import SheetFormat

CONTENT_TYPES = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "csv": "text/csv; charset=utf-8",
}


class RegistryImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="The registry: .xlsx, or .csv (UTF-8 or Windows-1252; , or ;), at most "
                                           "5 MB and 5,000 rows. Headers in English or Afrikaans: Registration "
                                           "number/Registrasienommer, First name/Voornaam, Surname/Van, Club/Klub, "
                                           "optional E-mail/E-pos and Phone/Telefoon.")
    create_clubs = serializers.BooleanField(default=False, help_text="Create the clubs the union lacks.")
    dry_run = serializers.BooleanField(default=False, help_text="Check every row and write nothing.")


class RegistryRowSerializer(serializers.Serializer):
    row_number = serializers.IntegerField(help_text="The spreadsheet's row number (the header is row 1).")
    registration_number = serializers.CharField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    club = serializers.CharField()
    status = serializers.ChoiceField(choices=["created", "updated", "unchanged", "refused"])
    reasons = serializers.ListField(child=serializers.CharField(), help_text="Why the row is refused.")
    changes = serializers.ListField(child=serializers.CharField(), help_text="The fields an update changes.")
    club_created = serializers.BooleanField(help_text="The row's club is created with it.")


class RegistryCountsSerializer(serializers.Serializer):
    created = serializers.IntegerField()
    updated = serializers.IntegerField()
    unchanged = serializers.IntegerField()
    refused = serializers.IntegerField()


class RegistryReportSerializer(serializers.Serializer):
    written = serializers.BooleanField(help_text="Whether the rows were written (all or nothing).")
    counts = RegistryCountsSerializer()
    clubs_created = serializers.ListField(child=serializers.CharField())
    rows = RegistryRowSerializer(many=True)
    file = serializers.ListField(child=serializers.CharField(), required=False,
                                 help_text="On a 400: why nothing was written.")


class RegistryFileErrorSerializer(serializers.Serializer):
    file = serializers.ListField(child=serializers.CharField(), help_text="Why the file cannot be imported.")


class FileFormatSerializer(serializers.Serializer):
    file_format = serializers.ChoiceField(choices=["xlsx", "csv"], default="xlsx")


FILE_FORMAT = OpenApiParameter("file_format", str, enum=["xlsx", "csv"], default="xlsx",
                               description="An Excel workbook, or CSV (UTF-8 with a byte-order mark).")
FILE_RESPONSES = {
    (200, CONTENT_TYPES["xlsx"]): OpenApiTypes.BINARY,
    (200, "text/csv"): OpenApiTypes.BINARY,
    400: OpenApiResponse(description="An unknown file_format."),
    404: OpenApiResponse(description="No such union, or not yours."),
}


def file_format(request: Request) -> SheetFormat:
    """The ``file_format`` query parameter. :raises ValidationError: neither ``xlsx`` nor ``csv`` (400)."""
    serializer = FileFormatSerializer(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data["file_format"]


def file_response(content: bytes, *, fmt: str, file_name: str) -> HttpResponse:
    """A download of ``content``."""
    response = HttpResponse(content, content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{file_name}"'
    return response


class RegistryImportView(ServiceErrorsMixin, APIView):
    """Import a registry file into the union, all or nothing (officials of the union)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={"multipart/form-data": RegistryImportSerializer},
        responses={200: RegistryReportSerializer,
                   400: OpenApiResponse(RegistryReportSerializer,
                                        description="Rows are refused (the report, nothing written), or the file "
                                                    "itself is bad (only ``file`` with the reason)."),
                   404: OpenApiResponse(description="No such union, or not yours.")},
    )
    def post(self, request: Request, union_id: str) -> Response:
        union = union_for_official(user=request.user, union_id=int(union_id))
        data = request_body(RegistryImportSerializer, request)
        upload = data["file"]
        if upload.size > MAX_FILE_BYTES:
            return Response({"file": [_("The file is over 5 MB: the most a registry file may be is 5 MB.")]},
                            status=status.HTTP_400_BAD_REQUEST)
        try:
            report = registry_import(union=union, content=upload.read(), file_name=upload.name or "",
                                     create_clubs=data["create_clubs"], dry_run=data["dry_run"], by=request.user)
        except RegistryFileError as error:
            return Response({"file": [str(error)]}, status=status.HTTP_400_BAD_REQUEST)
        body = report.as_dict()
        refused = len(report.refused)
        if refused:
            body["file"] = [ngettext(
                "%(count)d row is refused: fix it in the file and upload it again; nothing has been written.",
                "%(count)d rows are refused: fix them in the file and upload it again; nothing has been written.",
                refused) % {"count": refused}]
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return Response(body)


class RegistryExportView(APIView):
    """The union's registry as a file, in the import's columns (officials of the union)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=[FILE_FORMAT], responses=FILE_RESPONSES)
    def get(self, request: Request, union_id: str) -> HttpResponse:
        union = union_for_official(user=request.user, union_id=int(union_id))
        fmt = file_format(request)
        return file_response(registry_export(union=union, fmt=fmt), fmt=fmt,
                             file_name=registry_file_name(union=union, fmt=fmt))


class RegistryTemplateView(APIView):
    """An empty registry file with the import's headers (officials of the union)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=[FILE_FORMAT], responses=FILE_RESPONSES)
    def get(self, request: Request, union_id: str) -> HttpResponse:
        union = union_for_official(user=request.user, union_id=int(union_id))
        fmt = file_format(request)
        return file_response(registry_template(fmt=fmt), fmt=fmt,
                             file_name=registry_file_name(union=union, fmt=fmt, template=True))
