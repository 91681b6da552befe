"""Reads for appeals and referee consistency (issue 22).

:func:`referee_statistics`: for each referee of a union in a season, the rulings they made, how many upheld the
straf (their upheld rate), how often they decided otherwise than the rules engine's verdict (with the written
reasons), and the appeals against their rulings and how many the appeals committee upheld. A ruling amended on
appeal counts with the referee's own decision (``Appeal.ruling_before``), not the committee's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet

from appeals.models import Appeal
from clubs.models import Union, UnionReferee
from clubs.selectors import person_name
from matches.models import Competition, Match
from referee.models import Ruling

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class Overrule:
    """A ruling that went against the engine's verdict, with the referee's written reason."""

    match: str
    match_id: int
    table: int
    decision: StrOrPromise
    engine_decision: StrOrPromise
    reason: str


@dataclass
class RefereeStatistics:
    """One referee's season. ``upheld_rate`` and ``appeal_upheld_rate`` are percentages (``None``: nothing to rate)."""

    referee_id: int
    name: str
    rulings: int = 0
    upheld: int = 0
    checked: int = 0
    overruled: int = 0
    appeals: int = 0
    appeals_upheld: int = 0
    overrules: list[Overrule] = field(default_factory=list)

    @property
    def upheld_rate(self) -> int | None:
        return round(100 * self.upheld / self.rulings) if self.rulings else None

    @property
    def appeal_upheld_rate(self) -> int | None:
        return round(100 * self.appeals_upheld / self.appeals) if self.appeals else None


def union_seasons(*, union: Union) -> list[str]:
    """The union's seasons, newest first (one query)."""
    return list(Competition.objects.filter(union=union).order_by("-season").values_list("season", flat=True)
                .distinct())


def referee_statistics(*, union: Union, season: str, referee: Any = None) -> list[RefereeStatistics]:
    """Every referee on ``union``'s list (and anyone else who ruled in its matches) for ``season``, by name; only
    ``referee`` when given. Three queries."""
    found = (Ruling.objects.filter(claim__match__competition__union=union, claim__match__competition__season=season)
             .select_related("referee", "claim__table", "claim__match__home", "claim__match__away")
             .order_by("recorded_at"))
    listed = UnionReferee.objects.filter(union=union).select_related("user")
    if referee is not None:
        found, listed = found.filter(referee=referee), listed.filter(user=referee)
    rulings = list(found)
    appeals = list(Appeal.objects.filter(ruling__in=[r.pk for r in rulings]).values_list(
        "ruling_id", "status", "ruling_before"))
    before = {ruling_id: data for ruling_id, status, data in appeals if status == Appeal.Status.UPHELD and data}
    stats: dict[int, RefereeStatistics] = {
        link.user_id: RefereeStatistics(referee_id=link.user_id, name=person_name(link.user)) for link in listed}
    by_ruling: dict[int, RefereeStatistics] = {}
    for ruling in rulings:
        line = stats.setdefault(ruling.referee_id,
                                RefereeStatistics(referee_id=ruling.referee_id, name=person_name(ruling.referee)))
        by_ruling[ruling.pk] = line
        decision = before.get(ruling.pk, {}).get("decision", ruling.decision)
        reason = before.get(ruling.pk, {}).get("overrule_reason", ruling.overrule_reason)
        line.rulings += 1
        line.upheld += decision == Ruling.Decision.UPHELD
        if ruling.engine_decision:
            line.checked += 1
            if ruling.engine_decision != decision:
                line.overruled += 1
                match = ruling.claim.match
                line.overrules.append(Overrule(
                    match=f"{match.home.name} v {match.away.name}", match_id=match.pk,
                    table=ruling.claim.table.number, decision=Ruling.Decision(decision).label,
                    engine_decision=Ruling.Decision(ruling.engine_decision).label, reason=reason))
    for ruling_id, status, _data in appeals:
        line = by_ruling[ruling_id]
        line.appeals += 1
        line.appeals_upheld += status == Appeal.Status.UPHELD
    return sorted(stats.values(), key=lambda s: s.name.lower())


def statistics_chart(*, rows: list[RefereeStatistics]) -> dict[str, Any]:
    """A grouped horizontal bar chart of the rows, for a server-rendered SVG (templates/appeals/_chart.svg.html):
    per referee, bars for rulings, engine overruled and appeals upheld. Sizes in SVG user units."""
    series = [("rulings", "Rulings", "#0f6b3a"), ("overruled", "Engine overruled", "#a4431b"),
              ("appeals_upheld", "Upheld on appeal", "#3558a6")]
    top = max([1, *(getattr(r, key) for r in rows for key, _label, _colour in series)])
    label_width, bar_area, bar, gap = 130, 240, 12, 10
    groups, y = [], 34
    for row in rows:
        bars = []
        for index, (key, label, colour) in enumerate(series):
            value = getattr(row, key)
            bars.append({"y": y + index * bar, "width": max(value / top * bar_area, 1 if value else 0),
                         "value": value, "label": label, "colour": colour, "text_x": label_width + 4
                         + value / top * bar_area + 4, "text_y": y + index * bar + bar - 2})
        groups.append({"name": row.name if len(row.name) <= 18 else row.name[:17] + "…", "full_name": row.name,
                       "y": y + len(series) * bar / 2 + 4, "bars": bars})
        y += len(series) * bar + gap
    return {"groups": groups, "height": y + 4, "width": label_width + bar_area + 40, "label_width": label_width,
            "series": [{"label": label, "colour": colour, "x": 4 + i * 130} for i, (_k, label, colour)
                       in enumerate(series)]}


def appeals_for_match(*, match: Match) -> QuerySet[Appeal]:
    return match.appeals.select_related("team", "ruling__claim__table").order_by("-lodged_at")


def open_appeals(appeals: QuerySet[Appeal]) -> QuerySet[Appeal]:
    return appeals.filter(status__in=Appeal.OPEN_STATUSES)


def appeal_list_rows(appeals: QuerySet[Appeal]) -> QuerySet[Appeal]:
    """With what the lists show, in one query."""
    return appeals.select_related("match__home", "match__away", "match__competition", "team",
                                  "ruling__claim__table").order_by("decide_by", "id")


def rulings_appealable(*, match: Match) -> QuerySet[Ruling]:
    """The match's rulings a side may appeal, with their tables and claims (one query)."""
    return Ruling.objects.filter(claim__match=match).select_related("claim__table", "referee").order_by(
        "claim__table__number", "recorded_at")
