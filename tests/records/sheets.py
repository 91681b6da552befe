"""Records computed straight from the boem sheets' rows, apart from records/ (the tests compare the pages, the
selectors and the API with these): seats, substitutions, boems and straf lines, row by row."""

from __future__ import annotations

from collections import defaultdict

from matches.models import Boem, BoemEntry, Match, Seat, Substitution

FIGURES = ("nights", "tables", "boems_won", "boems_lost", "strokes_for", "strokes_against", "five_to_nils",
           "strafs_claimed", "wrong_strafs_claimed", "strafs_conceded", "wrong_strafs_against")


def seated(match: Match) -> dict[tuple[int, int, int], dict[str, int]]:
    """{(team, table, half): {"telman": id, "byspeler": id}} for halves 1 and 2: the seats as they stand are the
    second half's; the first half's are found by giving each substitute's seat back to the player who left."""
    second: dict[tuple[int, int], dict[str, int]] = defaultdict(dict)
    for seat in Seat.objects.filter(sheet__match=match).select_related("sheet"):
        second[(seat.sheet.team_id, seat.table_number)][seat.role] = seat.player_id
    first = {key: dict(value) for key, value in second.items()}
    for sub in Substitution.objects.filter(match=match).order_by("-made_at", "-id"):
        for (team, _table), roles in first.items():
            if team != sub.team_id:
                continue
            for role, player in roles.items():
                if player == sub.player_in_id:
                    roles[role] = sub.player_out_id
    out = {}
    for (team, table), roles in second.items():
        out[(team, table, 1)] = first[(team, table)]
        out[(team, table, 2)] = roles
    return out


def half_of(match: Match, instant) -> int:
    start = match.second_half_started_at
    return 1 if start is None or instant < start else 2


def player_figures(player_id: int, competition_id: int | None = None) -> dict[str, int]:
    """One player's figures over the approved match nights (of one competition, or all)."""
    matches = Match.objects.filter(result_status=Match.ResultStatus.APPROVED)
    if competition_id is not None:
        matches = matches.filter(competition_id=competition_id)

    def places(match: Match) -> set[tuple[int, int, int]]:
        return {(team, table, half) for (team, table, half), roles in seated(match).items()
                if player_id in roles.values() and len(roles) == 2}

    return _figures(matches, places, claimants={player_id})


def partnership_figures(telman_id: int, byspeler_id: int) -> dict[str, int]:
    """A partnership's figures over every approved match night; strafs claimed by either of them."""

    def places(match: Match) -> set[tuple[int, int, int]]:
        return {key for key, roles in seated(match).items()
                if roles.get("telman") == telman_id and roles.get("byspeler") == byspeler_id}

    return _figures(Match.objects.filter(result_status=Match.ResultStatus.APPROVED), places,
                    claimants={telman_id, byspeler_id})


def _figures(matches, places_of, *, claimants: set[int]) -> dict[str, int]:
    """The figures over ``matches`` at the places ``places_of(match)`` gives ((team, table, half); a night
    without one does not count), with the strafs claimed there by one of ``claimants``."""
    totals = dict.fromkeys(FIGURES, 0)
    for match in matches:
        places = places_of(match)
        if not places:
            continue
        totals["nights"] += 1
        totals["tables"] += len({(team, table) for team, table, _ in places})
        _add_tables(totals, match, places)
        for entry in _strafs(match):
            if (entry.team_id, entry.table.number, half_of(match, entry.recorded_at)) in places and \
                    entry.claimed_by_id in claimants:
                totals["wrong_strafs_claimed" if _wrong(entry) else "strafs_claimed"] += 1
    return totals


def _strafs(match: Match) -> list[BoemEntry]:
    return list(BoemEntry.objects.filter(table__match=match, kind=BoemEntry.Kind.STRAF, struck=False)
                .select_related("table"))


def _wrong(entry: BoemEntry) -> bool:
    return BoemEntry.objects.filter(reverses=entry, struck=False).exists()


def _add_tables(totals: dict[str, int], match: Match, places: set[tuple[int, int, int]]) -> None:
    """Add the boems and strafs at the tables and halves in ``places`` ((team, table, half))."""
    for boem in Boem.objects.filter(table__match=match).exclude(status=Boem.Status.IN_PROGRESS).select_related("table"):
        for team, table, half in places:
            if boem.table.number != table or half_of(match, boem.ended_at) != half:
                continue
            home = team == match.home_id
            mine, theirs = (boem.home_strokes, boem.away_strokes) if home else (boem.away_strokes, boem.home_strokes)
            totals["strokes_for"] += mine
            totals["strokes_against"] += theirs
            if boem.winner_id == team:
                totals["boems_won"] += 1
                totals["five_to_nils"] += boem.status == Boem.Status.COMPLETED and theirs == 0
            elif boem.winner_id is not None:
                totals["boems_lost"] += 1
    for entry in _strafs(match):
        half = half_of(match, entry.recorded_at)
        for team, table, place_half in places:
            if entry.table.number == table and half == place_half and entry.team_id != team:
                totals["wrong_strafs_against" if _wrong(entry) else "strafs_conceded"] += 1


def head_to_head_figures(team_id: int, opponent_id: int) -> dict[str, int]:
    """Won, drawn, lost and match points of ``team`` against ``opponent`` (approved results), and the boems."""
    out = {"won": 0, "drawn": 0, "lost": 0, "for": 0, "against": 0, "boems_won": 0, "boems_lost": 0}
    for match in Match.objects.filter(result_status=Match.ResultStatus.APPROVED, home_id__in=[team_id, opponent_id],
                                      away_id__in=[team_id, opponent_id]):
        home = match.home_id == team_id
        mine, theirs = (match.home_score, match.away_score) if home else (match.away_score, match.home_score)
        out["for"] += mine
        out["against"] += theirs
        out["won" if mine > theirs else "lost" if mine < theirs else "drawn"] += 1
        for boem in Boem.objects.filter(table__match=match, winner__isnull=False):
            out["boems_won" if boem.winner_id == team_id else "boems_lost"] += 1
    return out
