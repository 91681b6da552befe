"""Admin for appeals, with their history (django-simple-history)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from appeals.models import Appeal


@admin.register(Appeal)
class AppealAdmin(SimpleHistoryAdmin):
    list_display = ("match", "team", "ruling", "status", "lodged_at", "decide_by", "decided_at")
    list_filter = ("status",)
    search_fields = ("grounds", "reasons", "team__name")
    raw_id_fields = ("match", "ruling", "team", "lodged_by", "decided_by")
    list_select_related = ("match__home", "match__away", "team")
