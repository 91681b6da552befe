"""The union registry's pages (issue 33), for the union's officials (``clubs.permissions.union_for_official``: 404
for another union as for none):

* ``office:registry`` — the union's players, the upload form, the template and export downloads;
* ``office:registry-preview`` — what an uploaded file would do, row by row, and its confirmation (all or nothing);
* ``office:registry-export`` / ``office:registry-template`` — the downloads.

Thin adapters: the form parses, ``office.registry`` reads, checks and writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from clubs.models import Player
from clubs.permissions import union_for_official
from office.models import RegistryImport
from office.registry import (
    FIELD_LABELS,
    RegistryFileError,
    registry_export,
    registry_file_name,
    registry_import,
    registry_preview,
    registry_template,
)
from office.registry_forms import RegistryUploadForm
from plumbing.spreadsheets import SheetFormat

if TYPE_CHECKING:
    from django.contrib.auth.models import User

CONTENT_TYPES = {
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "csv": "text/csv; charset=utf-8",
}
STATUS_LABELS = {"created": gettext_lazy("Created"), "updated": gettext_lazy("Updated"),
                 "unchanged": gettext_lazy("Unchanged"), "refused": gettext_lazy("Refused")}


def refused_message(count: int) -> str:
    """"N rows are refused: fix them in the file and upload it again; nothing has been written."""
    return ngettext(
        "%(count)d row is refused: fix it in the file and upload it again; nothing has been written.",
        "%(count)d rows are refused: fix them in the file and upload it again; nothing has been written.",
        count) % {"count": count}


def counts_message(counts: dict[str, int]) -> str:
    """"40 created, 0 updated, 0 unchanged"."""
    return _("%(created)d created, %(updated)d updated, %(unchanged)d unchanged") % counts


@login_required
@require_http_methods(["GET", "POST"])
def registry(request: HttpRequest, union_id: str) -> HttpResponse:
    """The union's registered players (50 a page, by surname), and the upload of a registry file: a good file is
    kept (``RegistryImport``) and previewed; a file too big, unreadable or without the required columns is an
    error on the form, and nothing is kept."""
    union = union_for_official(user=request.user, union_id=int(union_id))
    form = RegistryUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        report = registry_preview(union=union, rows=data["rows"], create_clubs=data["create_clubs"])
        upload = RegistryImport.objects.create(
            union=union, file_name=(data["file"].name or "")[:200], content=data["content"],
            create_clubs=data["create_clubs"], uploaded_by=cast("User", request.user),  # login_required: signed in
            summary=report.as_dict())
        return redirect("office:registry-preview", union_id=union.pk, pk=upload.pk)
    players = Player.objects.filter(union=union).select_related("club").order_by("last_name", "first_name", "pk")
    page = Paginator(players, 50).get_page(request.GET.get("page"))
    return render(request, "office/registry.html", {"union": union, "page": page, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def registry_preview_page(request: HttpRequest, union_id: str, pk: str) -> HttpResponse:
    """An uploaded file's rows with what importing them does; when no row is refused, its confirmation (POST),
    which reads and checks the stored file again and writes all or nothing, once."""
    union = union_for_official(user=request.user, union_id=int(union_id))
    upload = RegistryImport.objects.filter(union=union, pk=int(pk)).first()
    if upload is None:
        raise Http404("No such registry import.")
    if request.method == "POST":
        return registry_confirm(request, union=union, pk=upload.pk)
    summary = upload.summary or {}
    rows = [{**row, "status_label": STATUS_LABELS.get(row["status"], row["status"]),
             "change_labels": [str(FIELD_LABELS.get(name, name)) for name in row.get("changes", [])]}
            for row in summary.get("rows", [])]
    counts = summary.get("counts", {})
    refused = counts.get("refused", 0)
    return render(request, "office/registry_preview.html", {
        "union": union, "upload": upload, "rows": rows, "counts": counts, "refused": refused,
        "refused_message": refused_message(refused) if refused else "",
        "clubs_created": summary.get("clubs_created", []),
    })


def registry_confirm(request: HttpRequest, *, union, pk: int) -> HttpResponse:
    """Write the stored file, all or nothing, once (the import row is locked while it is written)."""
    with transaction.atomic():
        upload = RegistryImport.objects.select_for_update().get(pk=pk)
        if upload.applied_at is not None:
            messages.error(request, _("This file has already been imported; upload it again to import it again."))
            return redirect("office:registry-preview", union_id=union.pk, pk=upload.pk)
        try:
            report = registry_import(union=union, content=bytes(upload.content), file_name=upload.file_name,
                                     create_clubs=upload.create_clubs, by=request.user)
        except RegistryFileError as error:
            messages.error(request, str(error))
            return redirect("office:registry", union_id=union.pk)
        upload.summary = report.as_dict()
        if report.written:
            upload.applied_at = timezone.now()
        upload.save(update_fields=["summary", "applied_at"])
    if not report.written:
        messages.error(request, refused_message(len(report.refused)))
        return redirect("office:registry-preview", union_id=union.pk, pk=upload.pk)
    messages.success(request, counts_message(report.counts))
    return redirect("office:registry", union_id=union.pk)


@login_required
@require_GET
def registry_download(request: HttpRequest, union_id: str, fmt: SheetFormat) -> HttpResponse:
    """The union's registry as ``.xlsx`` or ``.csv`` (the import's columns)."""
    union = union_for_official(user=request.user, union_id=int(union_id))
    response = HttpResponse(registry_export(union=union, fmt=fmt), content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{registry_file_name(union=union, fmt=fmt)}"'
    return response


@login_required
@require_GET
def registry_template_download(request: HttpRequest, union_id: str, fmt: SheetFormat) -> HttpResponse:
    """An empty registry file with the import's headers."""
    union = union_for_official(user=request.user, union_id=int(union_id))
    response = HttpResponse(registry_template(fmt=fmt), content_type=CONTENT_TYPES[fmt])
    file_name = registry_file_name(union=union, fmt=fmt, template=True)
    response["Content-Disposition"] = f'attachment; filename="{file_name}"'
    return response

