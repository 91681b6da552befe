"""Admin for the referee's records, with their history (django-simple-history)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from referee.models import DisputedHand, Query, Ruling, StrafClaim


@admin.register(StrafClaim)
class StrafClaimAdmin(SimpleHistoryAdmin):
    list_display = ("match", "table", "half", "claimant_side", "claimant_role", "accused_role", "offence", "logged_at")
    list_filter = ("offence", "half")
    raw_id_fields = ("match", "table", "logged_by")


@admin.register(DisputedHand)
class DisputedHandAdmin(SimpleHistoryAdmin):
    list_display = ("claim", "status", "source", "created_at", "adjudicated_at")
    raw_id_fields = ("claim", "created_by")


@admin.register(Ruling)
class RulingAdmin(SimpleHistoryAdmin):
    list_display = ("claim", "decision", "engine_decision", "points", "clause", "referee", "recorded_at")
    list_filter = ("decision",)
    raw_id_fields = ("claim", "referee", "boem_entry")


@admin.register(Query)
class QueryAdmin(SimpleHistoryAdmin):
    list_display = ("match", "table", "raised_by_side", "raised_by", "noted_at")
    raw_id_fields = ("match", "table", "ruling", "noted_by")
