"""A match night written as one file (:mod:`matches.nightfile`): each core section, natural keys, never ids."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from clubs.models import (
    Player,
    Union,
)
from matches.models import (
    Award,
    Boem,
    BoemEntry,
    Match,
    MatchTable,
    Substitution,
    TeamSheet,
)
from matches.nightfile.format import _SECTIONS, FORMAT, VERSION, ExportRefs, _day, instant, night_checksums

_UNION_SETTINGS = [f.name for f in Union._meta.concrete_fields if f.name not in ("id", "name", "board", "is_board")]


def _team_name(match: Match, team_id: int | None) -> str | None:
    if team_id is None:
        return None
    return match.home.name if team_id == match.home_id else match.away.name


def _match_section(match: Match, refs: ExportRefs) -> dict[str, Any]:
    team = lambda team_id: _team_name(match, team_id)  # noqa: E731
    return {
        "round_number": match.round_number, "round_name": match.round_name, "tie_number": match.tie_number,
        "home": match.home.name, "away": match.away.name, "venue": match.venue,
        "scheduled_start": instant(match.scheduled_start),
        "referee": refs.user(match.referee), "marker": refs.user(match.marker),
        "phase": match.phase, "toss_winner": team(match.toss_winner_id), "tossed_at": instant(match.tossed_at),
        "first_half_started_at": instant(match.first_half_started_at),
        "interval_started_at": instant(match.interval_started_at),
        "second_half_started_at": instant(match.second_half_started_at),
        "grace_handled_at": instant(match.grace_handled_at),
        "extra_time_started_at": instant(match.extra_time_started_at),
        "extra_time_periods": match.extra_time_periods, "finished_at": instant(match.finished_at),
        "home_score": match.home_score, "away_score": match.away_score, "winner": team(match.winner_id),
        "result_status": match.result_status,
        "home_confirmed_by": refs.user(match.home_confirmed_by),
        "away_confirmed_by": refs.user(match.away_confirmed_by),
        "confirmed_at": instant(match.confirmed_at),
        "approved_by": refs.user(match.approved_by), "approved_at": instant(match.approved_at),
    }


def _team_sheets_section(match: Match, refs: ExportRefs) -> list[dict[str, Any]]:
    sheets = TeamSheet.objects.filter(match=match).select_related("team", "submitted_by").prefetch_related(
        "seats__player").order_by("team__name")
    return [{
        "team": sheet.team.name, "submitted_at": instant(sheet.submitted_at),
        "submitted_by": refs.user(sheet.submitted_by), "version": sheet.version,
        "seats": [{"table": s.table_number, "role": s.role, "player": refs.player(s.player),
                   "called_away_at": instant(s.called_away_at)}
                  for s in sorted(sheet.seats.all(), key=lambda s: (s.table_number, s.role))],
    } for sheet in sheets]


def _substitutions_section(match: Match, refs: ExportRefs) -> list[dict[str, Any]]:
    rows = Substitution.objects.filter(match=match).select_related("team", "player_out", "player_in", "made_by")
    return [{"team": s.team.name, "table": s.table_number, "role": s.role, "player_out": refs.player(s.player_out),
             "player_in": refs.player(s.player_in), "made_at": instant(s.made_at), "made_by": refs.user(s.made_by)}
            for s in sorted(rows, key=lambda s: (s.made_at, s.team.name, s.table_number, s.role))]


def _tables_section(match: Match, refs: ExportRefs) -> list[dict[str, Any]]:
    team = lambda team_id: _team_name(match, team_id)  # noqa: E731
    return [{"number": t.number, "status": t.status, "stop_reason": t.stop_reason, "stop_note": t.stop_note,
             "defaulting_team": team(t.defaulting_team_id), "stopped_at": instant(t.stopped_at),
             "stopped_by": refs.user(t.stopped_by), "unseated_team": team(t.unseated_team_id),
             "unseated_reported_at": instant(t.unseated_reported_at)}
            for t in MatchTable.objects.filter(match=match).select_related("stopped_by").order_by("number")]


def _entry_dict(match: Match, entry: BoemEntry, refs: ExportRefs, sequences: dict[int, int],
                boems: dict[int, int]) -> dict[str, Any]:
    return {
        "sequence": entry.sequence, "kind": entry.kind, "team": _team_name(match, entry.team_id),
        "strokes": entry.strokes, "points": entry.points, "points_claimed": entry.points_claimed,
        "claimed_by": refs.player(entry.claimed_by),
        "reverses": sequences.get(entry.reverses_id) if entry.reverses_id is not None else None,
        "note": entry.note, "recorded_at": instant(entry.recorded_at), "recorded_by": refs.user(entry.recorded_by),
        "confirmed_at": instant(entry.confirmed_at), "confirmed_by": refs.user(entry.confirmed_by),
        "confirmed_by_player": refs.player(entry.confirmed_by_player), "disputed_at": instant(entry.disputed_at),
        "disputed_by_player": refs.player(entry.disputed_by_player), "dispute_reason": entry.dispute_reason,
        "corrected_at": instant(entry.corrected_at), "corrected_by": refs.user(entry.corrected_by),
        "referee_reason": entry.referee_reason, "struck": entry.struck,
        "boem": boems.get(entry.boem_id) if entry.boem_id else None,
    }


def _boem_sheets_section(match: Match, refs: ExportRefs) -> list[dict[str, Any]]:
    sheets = []
    for table in MatchTable.objects.filter(match=match).order_by("number"):
        entries = list(BoemEntry.objects.filter(table=table).select_related(
            "claimed_by", "recorded_by", "confirmed_by", "confirmed_by_player", "disputed_by_player", "corrected_by",
        ).order_by("sequence"))
        boems = list(Boem.objects.filter(table=table).order_by("number"))
        sequences = {e.pk: e.sequence for e in entries}
        numbers = {b.pk: b.number for b in boems}
        sheets.append({
            "table": table.number,
            "entries": [_entry_dict(match, e, refs, sequences, numbers) for e in entries],
            "boems": [{"number": b.number, "status": b.status, "home_strokes": b.home_strokes,
                       "away_strokes": b.away_strokes, "winner": _team_name(match, b.winner_id), "points": b.points,
                       "ended_at": instant(b.ended_at)} for b in boems],
        })
    return sheets


def _awards_section(match: Match, refs: ExportRefs) -> list[dict[str, Any]]:
    rows = Award.objects.filter(match=match).select_related("player", "created_by")
    awards = [{"kind": a.kind, "team": _team_name(match, a.team_id), "points": a.points, "clause": a.clause,
               "half": a.half, "table": a.table_number, "player": refs.player(a.player), "note": a.note,
               "created_at": instant(a.created_at), "created_by": refs.user(a.created_by)} for a in rows]
    return sorted(awards, key=_award_key_sort)


def _award_key(award: dict[str, Any]) -> tuple[Any, ...]:
    return (award["kind"], award["team"], award["half"], award["table"], award["player"])


def _award_key_sort(award: dict[str, Any]) -> tuple[str, ...]:
    return tuple("" if v is None else str(v) for v in (award["created_at"], *_award_key(award)))


def _registry_section(match: Match, refs: ExportRefs) -> dict[str, Any]:
    competition = match.competition
    union = competition.union
    teams = [match.home, match.away]
    for team in teams:
        for membership in team.memberships.select_related("player__club", "player__user"):
            refs.player(membership.player)
    players = sorted(Player.objects.filter(union=union, registration_number__in=list(refs.players))
                     .select_related("club", "user"), key=lambda p: p.registration_number)
    for player in players:
        refs.user(player.user)
    officials = sorted(u.get_username() for u in union.officials.all())
    referees = sorted({link.user.get_username() for link in union.referee_links.select_related("user")} |
                      {u.get_username() for u in (match.referee, match.marker) if u is not None})
    for official_link in union.official_links.select_related("user"):
        refs.user(official_link.user)
    for referee_link in union.referee_links.select_related("user"):
        refs.user(referee_link.user)
    return {
        "union": {"name": union.name, **{name: getattr(union, name) for name in _UNION_SETTINGS}},
        "competition": {"name": competition.name, "season": competition.season, "kind": competition.kind,
                        "starts_on": _day(competition.starts_on)},
        "clubs": sorted({t.club.name for t in teams} | {p.club.name for p in players}),
        "teams": [{"name": t.name, "club": t.club.name, "seed": t.seed,
                   "captain": t.captain.registration_number if t.captain else None,
                   "squad": sorted(m.player.registration_number for m in t.memberships.select_related("player"))}
                  for t in teams],
        "players": [{"registration_number": p.registration_number, "first_name": p.first_name,
                     "last_name": p.last_name, "club": p.club.name, "active": p.active,
                     "account": p.user.get_username() if p.user else None} for p in players],
        "people": [{"username": name, "first_name": u.first_name, "last_name": u.last_name}
                   for name, u in sorted(refs.users.items())],
        "officials": officials, "referees": referees,
    }


def night_sections(match: Match) -> dict[str, Any]:
    """The night's sections as this installation holds them (the registry last: it carries everyone named)."""
    match = Match.objects.select_related("competition__union", "home__club", "away__club", "home__captain",
                                         "away__captain", "referee", "marker", "home_confirmed_by",
                                         "away_confirmed_by", "approved_by").get(pk=match.pk)
    refs = ExportRefs()
    sections: dict[str, Any] = {
        "match": _match_section(match, refs), "team_sheets": _team_sheets_section(match, refs),
        "substitutions": _substitutions_section(match, refs), "tables": _tables_section(match, refs),
        "boem_sheets": _boem_sheets_section(match, refs), "awards": _awards_section(match, refs),
    }
    for name, section in sorted(_SECTIONS.items()):
        sections[name] = section.export(match, refs)
    sections["registry"] = _registry_section(match, refs)
    return sections


def match_title(match: Match) -> str:
    """How the file and every message name a match: ``"Athlone Aces A v Bonteheuwel Boere (Premier League 2026,
    round 3, 4 Mar 2026)"``."""
    day = timezone.localtime(match.scheduled_start).strftime("%-d %b %Y")
    return f"{match.home.name} v {match.away.name} ({match.competition}, round {match.round_number}, {day})"


def night_export(*, match: Match, now: datetime | None = None) -> dict[str, Any]:
    """The night of ``match`` as a night document (see the module's docstring), with its checksums. Read-only.

    Export before the night (fixture, squads, referee, team sheets) to play it elsewhere, or after it (everything
    played) to bring it back. ``json.dumps`` of the result (:func:`night_file_dumps`) is the file.
    """
    document: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "exported_at": instant(now or timezone.now()),
        "title": match_title(match), "sections": night_sections(match),
    }
    document["checksums"] = night_checksums(document)
    return document


def night_file_name(match: Match) -> str:
    """The file's name: ``night-<home>-v-<away>-<date>.json`` in plain letters."""
    from django.utils.text import slugify

    day = timezone.localtime(match.scheduled_start).strftime("%Y-%m-%d")
    return f"night-{slugify(match.home.name)}-v-{slugify(match.away.name)}-{day}.json"


# --- Reading and verifying a file -----------------------------------------------------------------------------
