"""The union's discipline register and its appeal settings (issue 22): services (writes) and selectors (reads).

Offences away from the cards (late arrival, misconduct, a walk-out) are recorded against a player, a team or a
club with a sanction: a warning, a fine (amount in rand, paid or not), or a suspension of a player for a number of
match nights (``matches.night.suspensions`` refuses a suspended player on a team sheet and as a substitute). The
register
is public or private as the union sets it. Units decide such matters (SAKBOC 1.12).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import AppealsCommitteeMember, DisciplinaryRecord, Union, UnionOfficial
from clubs.services import save_with_history


@transaction.atomic
def disciplinary_record_create(
    *, union: Union, offence: str, occurred_on: date, reason: str, sanction: str, by: Any,
    player: Any = None, team: Any = None, club: Any = None, fine_amount: Decimal | None = None,
    fine_paid: bool = False, suspension_match_nights: int | None = None, starts_on: date | None = None,
) -> DisciplinaryRecord:
    """Record an offence against one player, team or club of ``union`` with its sanction.

    A suspension starts on ``starts_on`` (default: today) and covers the next ``suspension_match_nights`` match
    nights of the player's teams.

    :raises ValidationError: keyed by field: not exactly one subject, a subject of another union, a fine without
        an amount, a suspension without match nights or not of a player, an amount or nights for another sanction,
        an empty reason.
    """
    record = DisciplinaryRecord(
        union=union, player=player, team=team, club=club, offence=offence, occurred_on=occurred_on,
        reason=reason.strip(), sanction=sanction, fine_amount=fine_amount, fine_paid=fine_paid,
        suspension_match_nights=suspension_match_nights, recorded_by=by,
        starts_on=(starts_on or timezone.localdate()) if sanction == DisciplinaryRecord.Sanction.SUSPENSION
        else None,
    )
    save_with_history(record, by=by, reason="recorded in the discipline register")
    return record


@transaction.atomic
def disciplinary_fine_paid_set(*, record: DisciplinaryRecord, paid: bool, by: Any) -> DisciplinaryRecord:
    """Mark a fine paid (or not paid after all); history keeps who and when.

    :raises ValidationError: the record is not a fine.
    """
    record = DisciplinaryRecord.objects.select_for_update().get(pk=record.pk)
    record.fine_paid = paid
    save_with_history(record, by=by, reason="fine paid" if paid else "fine marked unpaid")
    return record


@transaction.atomic
def union_appeal_settings_update(
    *, union: Union, by: Any, appeal_deadline_days: int, appeal_decision_days: int, appeals_committee_name: str,
    discipline_register_public: bool, committee: list[Any],
) -> Union:
    """Set the union's appeal deadline, decision time, committee (its name and its officials) and whether its
    discipline register is public.

    :raises ValidationError: keyed by field: days below 1, an empty name, a committee member who is not an
        official of the union.
    """
    union = Union.objects.select_for_update().get(pk=union.pk)
    union.appeal_deadline_days, union.appeal_decision_days = appeal_deadline_days, appeal_decision_days
    union.appeals_committee_name = appeals_committee_name.strip()
    union.discipline_register_public = discipline_register_public
    save_with_history(union, by=by, reason="appeal and discipline settings changed")
    wanted = {user.pk: user for user in committee}
    officials = set(UnionOfficial.objects.filter(union=union, user_id__in=wanted).values_list("user_id", flat=True))
    outsiders = [user for pk, user in wanted.items() if pk not in officials]
    if outsiders:
        names = ", ".join(u.get_full_name() or u.get_username() for u in outsiders)
        raise ValidationError(
            {
                "committee": _("Only officials of %(union)s sit on its appeals committee: %(names)s is not one.")
                % {"union": union, "names": names}
            }
        )
    AppealsCommitteeMember.objects.filter(union=union).exclude(user_id__in=wanted).delete()
    present = set(AppealsCommitteeMember.objects.filter(union=union).values_list("user_id", flat=True))
    for pk in wanted:
        if pk not in present:
            AppealsCommitteeMember.objects.create(union=union, user_id=pk)
    return union


def discipline_register(*, union: Union) -> QuerySet[DisciplinaryRecord]:
    """The union's register, newest offence first, with its subjects (one query)."""
    return (DisciplinaryRecord.objects.filter(union=union)
            .select_related("player", "team", "club", "recorded_by").order_by("-occurred_on", "-id"))
