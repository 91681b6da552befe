"""Administration of drives: the drive's settings, entries, nights, rounds with their tables and byes, and
deals (history kept by django-simple-history: who changed a deal's line, and when)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from drives.models import Drive, DriveBye, DriveDeal, DriveEntry, DriveNight, DriveRound, DriveTable


class DriveEntryInline(admin.TabularInline):
    model = DriveEntry
    extra = 0
    autocomplete_fields = ["player", "partner"]


@admin.register(Drive)
class DriveAdmin(SimpleHistoryAdmin):
    list_display = ["name", "season", "club", "ruleset", "deals_per_round", "rounds_per_night", "ranking"]
    list_filter = ["ruleset", "season"]
    search_fields = ["name", "club__name"]
    inlines = [DriveEntryInline]


@admin.register(DriveNight)
class DriveNightAdmin(SimpleHistoryAdmin):
    list_display = ["drive", "number", "date"]
    list_filter = ["drive"]


class DriveTableInline(admin.TabularInline):
    model = DriveTable
    extra = 0
    fields = ["number", "seat0", "seat1", "seat2", "seat3", "deals_played", "points0", "points1", "finished"]
    readonly_fields = fields  # type: ignore[assignment]  # the stubs type ``fields`` wider than ``readonly_fields``


class DriveByeInline(admin.TabularInline):
    model = DriveBye
    extra = 0
    readonly_fields = ["player"]


@admin.register(DriveRound)
class DriveRoundAdmin(admin.ModelAdmin):
    list_display = ["night", "number", "seed", "repeats_night", "repeats_season"]
    readonly_fields = ["seed", "repeats_night", "repeats_season"]
    inlines = [DriveTableInline, DriveByeInline]


@admin.register(DriveDeal)
class DriveDealAdmin(SimpleHistoryAdmin):
    """Deals are entered at the table (the engine checks them); here they are read, with their history."""

    list_display = ["table", "number", "makers_side", "card_points0", "card_points1", "roem0", "roem1", "made",
                    "points0", "points1"]
    list_select_related = ["table__round__night__drive"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
