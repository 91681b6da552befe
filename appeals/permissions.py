"""Who may act on appeals, the discipline register and the referees' statistics (one access helper per resource,
clubs/permissions.py's habit: "not yours" answers exactly like "not there", 404).

* **the appeals committee** of a union: the officials named on it (``clubs.models.AppealsCommitteeMember``), or,
  while none are named, every official of the union. It hears and decides the union's appeals.
* **a captain** (or their club's secretary) lodges an appeal for their side of a match, and reads it.
* **the referee** of the match reads the appeals against it.
* **union officials** keep the discipline register and read every referee's statistics; a referee reads their
  own. The public reads a register the union has made public.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from appeals.models import Appeal
from clubs import permissions as registry
from clubs.models import AppealsCommitteeMember, DisciplinaryRecord, Union, UnionReferee


def _not_found(what: str) -> Http404:
    return Http404(f"No {what} matches the given query.")


def unions_for_committee(user: Any) -> QuerySet[Union]:
    """Unions whose appeals ``user`` hears: those whose committee names them, and those with no committee named
    that they are an official of (a superuser: every union)."""
    officials_of = registry.unions_for_official(user)
    if user.is_authenticated and user.is_superuser:
        return officials_of
    named = AppealsCommitteeMember.objects.filter(union=OuterRef("pk"))
    return officials_of.filter(Q(appeals_committee_links__user=user) | ~Exists(named)).distinct()


def is_on_committee(*, user: Any, union_id: int) -> bool:
    """Whether ``user`` hears ``union_id``'s appeals (see :func:`unions_for_committee`)."""
    return unions_for_committee(user).filter(pk=union_id).exists()


def appeals_for_committee(user: Any) -> QuerySet[Appeal]:
    return Appeal.objects.filter(match__competition__union__in=unions_for_committee(user))


def appeals_for_captain(user: Any) -> QuerySet[Appeal]:
    """Appeals by or against the sides ``user`` manages (captain, or secretary of the club)."""
    teams = registry.teams_for_captain(user)
    return Appeal.objects.filter(Q(match__home__in=teams) | Q(match__away__in=teams)).distinct()


def appeals_for_viewer(user: Any) -> QuerySet[Appeal]:
    """Every appeal ``user`` may read: the committee's, both sides' captains', the match's referee's."""
    if not user.is_authenticated:
        return Appeal.objects.none()
    return Appeal.objects.filter(
        Q(pk__in=appeals_for_committee(user).values("pk")) | Q(pk__in=appeals_for_captain(user).values("pk"))
        | Q(match__referee=user) | Q(match__marker=user)
    )


def appeal_for_viewer(*, user: Any, appeal_id: int) -> Appeal:
    """:raises Http404: no such appeal, or not the user's to read (the same answer)."""
    appeal = (appeals_for_viewer(user).select_related("match__competition__union", "match__home", "match__away",
                                                       "team", "ruling__claim__table", "lodged_by", "decided_by")
              .filter(pk=appeal_id).first())
    if appeal is None:
        raise _not_found("appeal")
    return appeal


def appeal_for_committee(*, user: Any, appeal_id: int) -> Appeal:
    """The appeal if ``user`` hears its union's appeals. :raises Http404: otherwise, or no such appeal."""
    appeal = (appeals_for_committee(user).select_related("match__competition__union", "match__home", "match__away",
                                                         "team", "ruling__claim__table")
              .filter(pk=appeal_id).first())
    if appeal is None:
        raise _not_found("appeal")
    return appeal


def union_for_committee(*, user: Any, union_id: int) -> Union:
    """:raises Http404: no such union, or ``user`` does not hear its appeals."""
    union = unions_for_committee(user).filter(pk=union_id).first()
    if union is None:
        raise _not_found("union")
    return union


def union_register_for_reader(*, user: Any, union_id: int) -> tuple[Union, bool]:
    """The union whose discipline register ``user`` may read, and whether they keep it (an official).

    :raises Http404: no such union, or its register is private and ``user`` is not its official.
    """
    union = Union.objects.filter(pk=union_id).first()
    if union is None:
        raise _not_found("union")
    keeper = registry.unions_for_official(user).filter(pk=union_id).exists()
    if not keeper and not union.discipline_register_public:
        raise _not_found("union")
    return union, keeper


def disciplinary_record_for_official(*, user: Any, record_id: int) -> DisciplinaryRecord:
    """:raises Http404: no such record, or not of a union ``user`` is an official of."""
    record = (DisciplinaryRecord.objects.select_related("union", "player", "team", "club")
              .filter(pk=record_id, union__in=registry.unions_for_official(user)).first())
    if record is None:
        raise _not_found("record")
    return record


def unions_for_statistics(user: Any) -> QuerySet[Union]:
    """Unions whose referees' statistics ``user`` reads in full (their officials')."""
    return registry.unions_for_official(user)


def union_statistics_scope(*, user: Any, union_id: int) -> tuple[Union, Any]:
    """The union and whose statistics ``user`` may read there: ``None`` for every referee (an official), else the
    user alone (a referee on the union's list).

    :raises Http404: no such union, or neither its official nor one of its referees.
    """
    union = Union.objects.filter(pk=union_id).first()
    if union is None or not user.is_authenticated:
        raise _not_found("union")
    if registry.unions_for_official(user).filter(pk=union_id).exists():
        return union, None
    if UnionReferee.objects.filter(union=union, user=user).exists():
        return union, user
    raise _not_found("union")
