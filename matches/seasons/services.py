"""Seasons: a union closes a season into its archive and starts the next one from it.

**What a season is.** A union's competitions carry their season as a label (``Competition.season``, e.g.
``"2026"``), which every page, download and API answer already shows; a season is the union's competitions
with one label. :class:`~matches.models.Season` adds what the label cannot hold: closed or open, who closed it
and when, and the season it was started from. We kept the label rather than replace it with a foreign key:
the label is what people read and filter on (``/api/competitions/?season=2026``), and a key would have meant
rewriting every place that creates or shows a competition, for no rule the label cannot keep. A season with
competitions but no row yet is open; the row is written when the season is first closed or started.

**Closing** (:func:`season_close`): only when every competition of the season has its fixtures and every
fixture is approved, a cup's final with a winner (else refused, naming what is left). The leagues' final
standings are frozen as published snapshots (``matches.results.services.standings_publish``; the last published one
when no result was approved since), and the champions (every team in first place of the final standings) and
cup winners (the final's winner) go into :class:`~matches.models.SeasonHonour`, the public archive at
``/seasons/``. A closed season takes no new competition and no new fixture
(``matches.competitions.services.season_open_check``).

**Starting the next season** (:func:`season_start`) from a closed one: its competitions are copied under the new
label with entries closed and no fixtures; each team is carried over as a *draft* (``Team.draft``) with its
squad (the players still active and registered with the club; the others are listed as left out) and its
captain. The clubs' secretaries confirm each draft (:func:`team_draft_confirm`, SAKBOC 1.5: a full team is 8
registered players) or change it (the squad pages) or withdraw it (``matches.competitions.entries.team_withdraw``); the
fixtures wait until no team of the competition is a draft (``matches.competitions.services.fixtures_draft_check``).

Services are atomic and keyword-only; a broken rule raises ``ValidationError`` with the reason; ``by`` is the
history user. Clubs carry over by themselves: they belong to the union, not to a season.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, Max, Prefetch, QuerySet, Value, When
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from clubs.models import FULL_TEAM_PLAYERS, Team, TeamMembership, Union
from clubs.services import history_reason_fit, save_with_history
from matches.competitions import services as competition_services
from matches.competitions.fixtures import knockout_bracket
from matches.models import Competition, Match, Season, SeasonHonour, StandingsSnapshot
from matches.results import services as result_services
from matches.results.standings import standings_page_token_renew, standings_read

#: Fixtures named when a season cannot close yet, per competition; the rest are counted.
FIXTURES_NAMED = 3
_LEAGUES_FIRST = Case(When(kind=Competition.Kind.LEAGUE, then=Value(0)), default=Value(1))


# --- Reads ---------------------------------------------------------------------------------------------------


def season_competitions(*, union: Union, name: str) -> QuerySet[Competition]:
    """The union's competitions of season ``name``: leagues first, then cups, by name."""
    return Competition.objects.filter(union=union, season=name).order_by(_LEAGUES_FIRST, "name")



@dataclass(frozen=True)
class SeasonLine:
    """A season on the official's seasons page: its label, its row (``None`` while open and never closed), its
    competitions, and whether a season was started from it."""

    name: str
    season: Season | None
    competitions: list[Competition]
    next_started: bool = False

    @property
    def is_closed(self) -> bool:
        return self.season is not None and self.season.is_closed


def union_seasons(*, union: Union) -> list[SeasonLine]:
    """The union's seasons, newest label first: every label its competitions carry and every season row. Three
    queries."""
    rows = {s.name: s for s in Season.objects.filter(union=union)}
    started_from = set(Season.objects.filter(union=union, started_from__isnull=False)
                       .values_list("started_from_id", flat=True))
    by_name: dict[str, list[Competition]] = {name: [] for name in rows}
    for competition in Competition.objects.filter(union=union).order_by(_LEAGUES_FIRST, "name"):
        by_name.setdefault(competition.season, []).append(competition)
    return [SeasonLine(name=name, season=rows.get(name), competitions=by_name[name],
                       next_started=name in rows and rows[name].pk in started_from)
            for name in sorted(by_name, reverse=True)]


def closed_seasons() -> QuerySet[Season]:
    """Every union's closed seasons, newest first, with their honours: the public archive's index."""
    return (Season.objects.filter(status=Season.Status.CLOSED).select_related("union")
            .prefetch_related(Prefetch("honours", queryset=SeasonHonour.objects.select_related("competition")
                                       .order_by("kind", "competition__name", "team_name")))
            .order_by("union__name", "-closed_at", "-name"))


@dataclass
class ArchiveEntry:
    """One competition of a closed season in its archive: its honours and final standings (a league) or final (a
    cup)."""

    competition: Competition
    honours: list[SeasonHonour] = field(default_factory=list)
    standings: StandingsSnapshot | None = None
    final: Match | None = None


def season_archive(*, season: Season) -> list[ArchiveEntry]:
    """A closed season's archive, a league's entry first: champions and final table, cup winners and final. Two
    queries."""
    entries = {c.pk: ArchiveEntry(competition=c) for c in season_competitions(union=season.union, name=season.name)}
    for honour in (season.honours.select_related("standings", "final__home", "final__away", "competition")
                   .order_by("team_name")):
        entry = entries.setdefault(honour.competition_id, ArchiveEntry(competition=honour.competition))
        entry.honours.append(honour)
        entry.standings = entry.standings or honour.standings
        entry.final = entry.final or honour.final
    return list(entries.values())


# --- Closing a season ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HonourPlan:
    """What closing gives a competition: its champions (a league's first place in ``rows``, the live standings
    as they stand) or cup winner (``final``'s winner)."""

    competition: Competition
    kind: str
    teams: list[Team]
    rows: list[Any] = field(default_factory=list)
    final: Match | None = None


@dataclass(frozen=True)
class SeasonClosePlan:
    """A season ready to close: its competitions and what each one's honours will be."""

    union: Union
    name: str
    honours: list[HonourPlan]


def _fixture_words(match: Match) -> str:
    when = timezone.localtime(match.scheduled_start)
    round_words = match.round_name or _("round %(number)s") % {"number": match.round_number}
    return _("%(home)s v %(away)s (%(round)s, %(when)s, %(status)s)") % {
        "home": match.home.name, "away": match.away.name, "round": round_words,
        "when": date_format(when, "d F Y"), "status": match.status_label.lower()}


def cup_final(competition: Competition, matches: list[Match]) -> Match | None:
    """The cup's final: the one tie of the bracket's last round (``matches.competitions.fixtures.knockout_bracket``),
    or, for
    fixtures scheduled one by one without ties, the one match of the last round played."""
    teams = competition_services.cup_teams(competition)
    if len(teams) >= 2 and any(m.tie_number for m in matches):
        last = len(knockout_bracket(teams))
        return next((m for m in matches if m.round_number == last and m.tie_number == 1), None)
    last_round = max(m.round_number for m in matches)
    in_last = [m for m in matches if m.round_number == last_round]
    return in_last[0] if len(in_last) == 1 else None


def season_close_plan(*, union: Union, name: str) -> SeasonClosePlan:
    """What closing season ``name`` would archive, or why it cannot close yet: for a page to ask for confirmation
    first, and for :func:`season_close`, which checks it again under lock.

    :raises ValidationError: a list of every reason: no competition in the season; the season already closed; per
        competition, no fixtures yet, fixtures not yet approved (the first 3 named, the rest counted), a cup's
        final not yet scheduled or without a winner.
    """
    competitions = list(season_competitions(union=union, name=name))
    if not competitions:
        raise ValidationError(_("%(union)s has no competition in season %(name)s.") % {"union": union, "name": name})
    closed = Season.objects.filter(union=union, name=name, status=Season.Status.CLOSED).first()
    if closed is not None:
        raise ValidationError(
            _("Season %(name)s was closed on %(value)s.")
            % {"name": name, "value": date_format(timezone.localtime(closed.closed_at), "d F Y")}
        )
    matches_of: dict[int, list[Match]] = {c.pk: [] for c in competitions}
    for match in (Match.objects.filter(competition__in=competitions).select_related("home", "away", "winner")
                  .order_by("scheduled_start", "id")):
        matches_of[match.competition_id].append(match)
    problems: list[str] = []
    honours: list[HonourPlan] = []
    for competition in competitions:
        matches = matches_of[competition.pk]
        if not matches:
            problems.append(f"{competition}: no fixtures yet.")
            continue
        waiting = [m for m in matches if m.result_status != Match.ResultStatus.APPROVED]
        if waiting:
            named = "; ".join(_fixture_words(m) for m in waiting[:FIXTURES_NAMED])
            more = f"; and {len(waiting) - FIXTURES_NAMED} more" if len(waiting) > FIXTURES_NAMED else ""
            problems.append(f"{competition}: {len(waiting)} of {len(matches)} fixtures not yet approved: "
                            f"{named}{more}.")
            continue
        if competition.is_knockout:
            final = cup_final(competition, matches)
            if final is None:
                problems.append(f"{competition}: the final is not scheduled yet.")
            elif final.winner is None:
                problems.append(f"{competition}: the final, {final.home.name} v {final.away.name}, has no winner "
                                "(a draw is settled by a toss and extra time, SAKBOC 1.12).")
            else:
                honours.append(HonourPlan(competition=competition, kind=SeasonHonour.Kind.CUP_WINNERS,
                                          teams=[final.winner], final=final))
            continue
        rows = standings_read(competition_id=competition.pk)
        leaders = {row.team_id for row in rows if row.position == 1}
        teams = list(Team.objects.filter(pk__in=leaders).select_related("club").order_by("name"))
        honours.append(HonourPlan(competition=competition, kind=SeasonHonour.Kind.CHAMPIONS, teams=teams,
                                  rows=rows))
    if problems:
        raise ValidationError(problems)
    return SeasonClosePlan(union=union, name=name, honours=honours)


def _final_standings(competition: Competition, *, by: Any, now: datetime) -> StandingsSnapshot:
    """The league's final standings: the last published snapshot when no result was approved after it, else
    published now under the title "Final standings" (the captains are told, as for any publication)."""
    last = competition.standings_snapshots.order_by("-published_at", "-id").first()
    latest = competition.matches.filter(result_status=Match.ResultStatus.APPROVED).aggregate(
        at=Max("approved_at"))["at"]
    if last is not None and (latest is None or latest <= last.published_at):
        return last
    title = "Final standings"
    if competition.standings_snapshots.filter(title=title).exists():
        title = f"Final standings, season closed {timezone.localdate(now):%d %B %Y}"
    return result_services.standings_publish(competition=competition, by=by, title=title, now=now)


@transaction.atomic
def season_close(*, union: Union, name: str, by: Any = None, now: datetime | None = None) -> Season:
    """Close the union's season ``name``: freeze each league's final standings, record its champions and each
    cup's winners (:class:`~matches.models.SeasonHonour`), and mark the season closed. Idempotent it is not: a
    closed season is refused.

    :returns: the closed :class:`~matches.models.Season`.
    :raises ValidationError: what :func:`season_close_plan` raises (every reason at once). Nothing is written.
    """
    now = now or timezone.now()
    Season.objects.get_or_create(union=union, name=name)
    season = Season.objects.select_for_update().get(union=union, name=name)
    plan = season_close_plan(union=union, name=name)
    for honour in plan.honours:
        standings = None
        if honour.kind == SeasonHonour.Kind.CHAMPIONS:
            standings = _final_standings(honour.competition, by=by, now=now)
            leaders = {row["team_id"] for row in standings.rows if row["position"] == 1}
            teams = list(Team.objects.filter(pk__in=leaders).select_related("club").order_by("name"))
        else:
            teams = honour.teams
        for team in teams:
            row = SeasonHonour(season=season, competition=honour.competition, kind=honour.kind, team=team,
                               team_name=team.name, club_name=team.club.name, standings=standings,
                               final=honour.final)
            row.full_clean()
            row.save()
        standings_page_token_renew(competition_id=honour.competition.pk)
    season.status, season.closed_at, season.closed_by = Season.Status.CLOSED, now, by
    save_with_history(season, by=by, reason="season closed")
    return season


# --- Starting the next season --------------------------------------------------------------------------------


def season_next_name(name: str) -> str:
    """The label that follows ``name``: ``"2026"`` → ``"2027"``, ``"2026/27"`` → ``"2027/28"``,
    ``"2026-2027"`` → ``"2027-2028"``; ``""`` when there is no number to count on.

    >>> season_next_name("2026"), season_next_name("2026/27"), season_next_name("Winter")
    ('2027', '2027/28', '')
    """
    numbers = list(re.finditer(r"\d+", name))
    if not numbers:
        return ""
    out, last = [], 0
    for number in numbers:
        digits = number.group()
        out.append(name[last:number.start()] + str(int(digits) + 1).zfill(len(digits))[-len(digits):])
        last = number.end()
    return "".join(out) + name[last:]


def _renamed(text: str, old: str, new: str, max_length: int = 120) -> str:
    """A competition's or team's name with the old season's label replaced by the new one ("Cup 2026" →
    "Cup 2027"); unchanged when it does not carry the label, or when the new name would not fit its field."""
    renamed = text.replace(old, new) if old and old in text else text
    return renamed if len(renamed) <= max_length else text


@dataclass
class SeasonStart:
    """What :func:`season_start` carried over: the new season, its draft competitions and teams, and the players
    left out of the drafts (one sentence each)."""

    season: Season
    competitions: list[Competition]
    teams: list[Team]
    left_out: list[str]


@transaction.atomic
def season_start(*, season: Season, name: str, by: Any = None) -> SeasonStart:
    """Start the union's season ``name`` from the closed ``season``: each competition copied as a draft (entries
    closed, no fixtures), each team carried over as a draft with its captain and its squad's players still
    active and registered with the club (SAKBOC 1.5; the others are left out and listed), for the clubs'
    secretaries to confirm or change.

    :raises ValidationError: ``season`` is not closed; keyed ``name``: empty, too long, the same as ``season``'s,
        or a season the union already has (a row, or competitions with that label). Nothing is written then.
    """
    season = Season.objects.select_for_update().select_related("union").get(pk=season.pk)
    if not season.is_closed:
        raise ValidationError(
            _("Close season %(season)s first: the next season starts from a closed one.") % {"season": season.name}
        )
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("Name the new season, e.g. “2027”.")})
    name_max_length = Season._meta.get_field("name").max_length
    assert name_max_length is not None  # a CharField's
    if len(name) > name_max_length:
        raise ValidationError({"name": _("A season's name is at most 20 characters.")})
    union = season.union
    if name == season.name or Season.objects.filter(union=union, name=name).exists() or \
            Competition.objects.filter(union=union, season=name).exists():
        raise ValidationError({"name": _("%(union)s already has a season %(name)s.") % {"union": union, "name": name}})
    new_season = Season(union=union, name=name, started_from=season)
    save_with_history(new_season, by=by, reason=f"started from season {season.name}")
    competitions: list[Competition] = []
    teams: list[Team] = []
    memberships: list[TeamMembership] = []
    left_out: list[str] = []
    old_competitions = list(season_competitions(union=union, name=season.name))
    old_teams = (Team.objects.filter(competition__in=old_competitions).select_related("club", "captain")
                 .prefetch_related(Prefetch("memberships", queryset=TeamMembership.objects.select_related(
                     "player__club").order_by("id")))
                 .order_by("name"))
    teams_of: dict[int, list[Team]] = {}
    for team in old_teams:
        teams_of.setdefault(team.competition_id, []).append(team)
    for old in old_competitions:
        competition = Competition(union=union, name=_renamed(old.name, season.name, name), season=name, kind=old.kind,
                                  entries_open=False)
        save_with_history(competition, by=by, reason=f"carried over from {old}")
        competitions.append(competition)
        for old_team in teams_of.get(old.pk, []):
            carried = []
            for membership in old_team.memberships.all():
                player = membership.player
                if not player.active:
                    left_out.append(f"{player.full_name} ({old_team.name}): no longer active.")
                elif player.club_id != old_team.club_id:
                    left_out.append(f"{player.full_name} ({old_team.name}): now registered with {player.club.name}.")
                else:
                    carried.append(player)
            captain = old_team.captain if old_team.captain in carried else None
            team = Team(club=old_team.club, competition=competition, name=_renamed(old_team.name, season.name, name),
                        seed=old_team.seed, draft=True, carried_over_from=old_team, captain=captain)
            teams.append(team)
            memberships.extend(TeamMembership(team=team, player=p, competition=competition) for p in carried)
    reason = history_reason_fit(f"carried over from season {season.name} as a draft") or ""
    bulk_create_with_history(teams, Team, batch_size=500, default_user=by, default_change_reason=reason)
    for membership in memberships:
        membership.team_id = membership.team.pk
    bulk_create_with_history(memberships, TeamMembership, batch_size=1000, default_user=by,
                             default_change_reason=reason)
    return SeasonStart(season=new_season, competitions=competitions, teams=teams, left_out=left_out)


# --- Drafts -------------------------------------------------------------------------------------------------


def drafts_for(*, clubs: Any) -> list[Team]:
    """The draft teams of ``clubs`` (a queryset or list), with competition, captain, club and squad (two
    queries)."""
    return list(Team.objects.filter(club__in=clubs, draft=True)
                .select_related("club", "competition", "captain", "carried_over_from__competition")
                .prefetch_related(Prefetch("memberships", queryset=TeamMembership.objects.select_related(
                    "player").order_by("player__last_name", "player__first_name")))
                .order_by("competition__season", "competition__name", "name"))


def draft_problems(team: Team) -> list[str]:
    """What stands between a draft and its confirmation (SAKBOC 1.5), from its prefetched squad; empty when it
    can be confirmed."""
    problems = []
    players = [m.player for m in team.memberships.all()]
    for player in players:
        if not player.active:
            problems.append(f"{player.full_name} is no longer an active registered player: take them out.")
        elif player.club_id != team.club_id:
            problems.append(f"{player.full_name} is registered with another club: take them out.")
    playing = [p for p in players if p.active and p.club_id == team.club_id]
    if len(playing) < FULL_TEAM_PLAYERS:
        problems.append(f"SAKBOC 1.5: a full team is {FULL_TEAM_PLAYERS} registered players; the squad has "
                        f"{len(playing)}.")
    if team.captain_id is None or team.captain_id not in {p.pk for p in players}:
        problems.append("Name the captain, one of the squad.")
    return problems


@transaction.atomic
def team_draft_confirm(*, team: Team, by: Any = None) -> Team:
    """The club's secretary confirms a carried-over draft as the club's entry, as it now stands. Confirming a
    team already confirmed does nothing.

    :raises ValidationError: the competition's fixtures are made; the squad is not a full team of the club's
        active registered players (SAKBOC 1.5) or has no captain in it (every problem at once).
    """
    team = Team.objects.select_for_update().get(pk=team.pk)
    if not team.draft:
        return team
    if Match.objects.filter(competition_id=team.competition_id).exists():
        raise ValidationError(
            _("%(competition)s's fixtures are made: ask the union's official.") % {"competition": team.competition}
        )
    team = (Team.objects.select_related("club", "competition")
            .prefetch_related(Prefetch("memberships", queryset=TeamMembership.objects.select_related("player")))
            .get(pk=team.pk))
    problems = draft_problems(team)
    if problems:
        raise ValidationError(problems)
    team.draft = False
    save_with_history(team, by=by, reason="draft confirmed by the club")
    return team
