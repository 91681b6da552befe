"""Administration for unions, clubs, players and teams (history kept by django-simple-history)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from clubs.models import (
    AppealsCommitteeMember,
    Board,
    Club,
    ClubSecretary,
    DisciplinaryRecord,
    Player,
    Team,
    TeamMembership,
    Transfer,
    Union,
    UnionOfficial,
)


class UnionOfficialInline(admin.TabularInline):
    model = UnionOfficial
    extra = 0
    autocomplete_fields = ["user"]


class AppealsCommitteeMemberInline(admin.TabularInline):
    model = AppealsCommitteeMember
    extra = 0
    autocomplete_fields = ["user"]
    verbose_name = "appeals committee member"


@admin.register(Union)
class UnionAdmin(SimpleHistoryAdmin):
    list_display = ["name", "short_name", "points_win", "points_draw", "points_loss", "knockout_extra_time_minutes"]
    search_fields = ["name", "short_name"]
    inlines = [UnionOfficialInline, AppealsCommitteeMemberInline]
    fieldsets = [
        (None, {"fields": ["name", "short_name", "board"]}),
        ("League points and tiebreaks", {"fields": ["points_win", "points_draw", "points_loss", "tiebreak_order"]}),
        ("Match clock (SAKBOC 1.2, 1.3, 1.15, 12.3)", {
            "fields": ["toss_minutes_before", "half_minutes", "interval_minutes", "last_period_minutes",
                       "grace_minutes"],
        }),
        ("Interpretations (DOMAIN.md)", {
            "fields": ["deal_after_going_on", "straf_four_points", "unfinished_boem",
                       "knockout_extra_time_minutes", "referee_judges_unrecorded_offences", "roem_counts",
                       "straf_named_offence"],
        }),
        ("Appeals and discipline", {
            "fields": ["appeal_deadline_days", "appeal_decision_days", "appeals_committee_name",
                       "discipline_register_public"],
        }),
        ("Security (POPIA s19)", {"fields": ["two_step_required"]}),
    ]


class ClubSecretaryInline(admin.TabularInline):
    model = ClubSecretary
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Board)
class BoardAdmin(SimpleHistoryAdmin):
    """The Board (SAKBOC) above the unions; its organiser (the ``Union`` row holding its championships, officials,
    referees' panel and readings of the rules) is made with it by ``clubs.services.board_ensure``."""

    list_display = ["name", "short_name", "organiser"]
    readonly_fields = ["organiser"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(SimpleHistoryAdmin):
    list_display = ["name", "union", "represents"]
    list_filter = ["union"]
    search_fields = ["name"]
    inlines = [ClubSecretaryInline]


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["registration_number", "national_number", "last_name", "first_name", "club", "union", "active"]
    list_filter = ["union", "active"]
    search_fields = ["registration_number", "national_number", "last_name", "first_name"]
    list_select_related = ["club", "union"]
    autocomplete_fields = ["club", "user"]


class TeamMembershipInline(admin.TabularInline):
    model = TeamMembership
    extra = 0
    autocomplete_fields = ["player"]
    readonly_fields = ["competition", "joined_at"]


@admin.register(Team)
class TeamAdmin(SimpleHistoryAdmin):
    list_display = ["name", "club", "competition", "captain"]
    list_filter = ["competition"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club", "competition", "captain"]
    autocomplete_fields = ["club", "captain"]
    inlines = [TeamMembershipInline]

    def save_formset(self, request, form, formset, change):  # keep the membership's competition in step
        instances = formset.save(commit=False)
        for instance in instances:
            if isinstance(instance, TeamMembership):
                instance.competition_id = form.instance.competition_id
            instance.save()
        for obj in formset.deleted_objects:
            obj.delete()
        formset.save_m2m()


@admin.register(UnionOfficial)
class UnionOfficialAdmin(admin.ModelAdmin):
    list_display = ["user", "union", "created_at"]
    list_filter = ["union"]


@admin.register(ClubSecretary)
class ClubSecretaryAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "created_at"]
    list_filter = ["club__union"]


@admin.register(DisciplinaryRecord)
class DisciplinaryRecordAdmin(SimpleHistoryAdmin):
    list_display = ["occurred_on", "union", "offence", "player", "team", "club", "sanction", "fine_amount", "fine_paid",
                    "suspension_match_nights"]
    list_filter = ["union", "offence", "sanction", "fine_paid"]
    search_fields = ["reason", "player__last_name", "team__name", "club__name"]
    raw_id_fields = ["player", "team", "club", "recorded_by"]
    list_select_related = ["union", "player", "team", "club"]
@admin.register(Transfer)
class TransferAdmin(SimpleHistoryAdmin):
    """Transfers are recorded by the union's officials (``matches.seasons.transfers.player_transfer``); read-only
    here."""

    list_display = ["player", "from_club", "to_club", "transferred_on", "recorded_by"]
    list_filter = ["to_club__union"]
    search_fields = ["player__last_name", "player__registration_number"]
    readonly_fields = ["player", "from_club", "to_club", "transferred_on", "note", "left_squads", "recorded_at",
                       "recorded_by"]

    def has_add_permission(self, request) -> bool:
        return False
