"""Played match nights with a referee's ruling on them, for the appeals tests (services, API, browser).

``played_night`` plays a league match through the services, clock and all, with one "af" at table 1 ruled by the
referee, then ends it, has the referee confirm the result and the official approve it: a match a captain can appeal.
The straf is the only line on the sheets, so the ruling alone decides the match: upheld for the home side, home
win 2-0; reversed (the punisher punished, Notes §VII), away win 0-2.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from clubs.models import GROUP_CAPTAINS, GROUP_REFEREES, GROUP_UNION_OFFICIALS, UnionOfficial, UnionReferee
from matches.models import Competition, Match
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.results import services as result_services
from matches.results.standings import standings_recompute
from referee import services as referee_services
from referee.models import Ruling, StrafClaim
from tests.factories import TeamFactory, UserFactory, match_with_sheets
from tests.people import in_group


@dataclass
class Night:
    """A played, approved match and its people."""

    match: Match
    ruling: Ruling
    official: object
    referee: object
    home_captain: object
    away_captain: object


def people(competition: Competition, *, password: str = "klawerjas-test", prefix: str = "") -> dict:
    """An official of the competition's union and a referee on its list (created once per union)."""
    union = competition.union
    official = in_group(UserFactory(username=f"{prefix}official", first_name="Fatima", last_name="Abrahams",
                                     password=password), GROUP_UNION_OFFICIALS)
    UnionOfficial.objects.get_or_create(union=union, user=official)
    referee = in_group(UserFactory(username=f"{prefix}referee", first_name="Yusuf", last_name="Isaacs",
                                    password=password), GROUP_REFEREES)
    UnionReferee.objects.get_or_create(union=union, user=referee)
    return {"official": official, "referee": referee}


def captain_user(team, *, username: str, password: str = "klawerjas-test", **names):
    """Give ``team``'s captain (its first squad player) a signed-in user in the Captains group."""
    user = in_group(UserFactory(username=username, password=password, **names), GROUP_CAPTAINS)
    team.captain.user = user
    team.captain.save()
    return user


def played_night(*, competition: Competition, home=None, away=None, official, referee, start: datetime,
                 decision: str = Ruling.Decision.UPHELD) -> tuple[Match, Ruling]:
    """Play ``home`` v ``away`` from ``start`` through the services: "af" by the home telman at table 1 for
    signs (the referee's judgement, DOMAIN.md interpretation 5), ruled ``decision``; time; the referee confirms,
    ``official`` approves; the standings are recomputed."""
    home = home or TeamFactory(competition=competition)
    away = away or TeamFactory(competition=competition)
    match = match_with_sheets(competition=competition, home=home, away=away, referee=referee, scheduled_start=start)
    night_services.match_toss_record(match=match, winner=match.home, by=referee, now=start - timedelta(minutes=4))
    night_clock.match_start(match=match, by=referee, now=start)
    claim = referee_services.straf_claim_log(match=match, table_number=1, claimant_side="home",
                                             claimant_role="byspeler", accused_role="byspeler", offence="signs",
                                             moment="hand 3", by=referee)
    StrafClaim.objects.filter(pk=claim.pk).update(logged_at=start + timedelta(minutes=30))
    claim.refresh_from_db()
    ruling = referee_services.ruling_record(claim=claim, decision=decision, by=referee,
                                            now=start + timedelta(minutes=31))
    night_clock.match_interval_call(match=match, by=referee, now=start + timedelta(minutes=76))
    night_clock.match_resume(match=match, by=referee, now=start + timedelta(minutes=87))
    night_clock.match_end(match=match, by=referee, now=start + timedelta(minutes=163))
    match.refresh_from_db()
    result_services.result_confirm(match=match, user=referee, now=start + timedelta(minutes=170))
    result_services.result_approve(match=match, user=official, now=start + timedelta(days=1))
    standings_recompute(competition_id=competition.pk)
    match.refresh_from_db()
    ruling.refresh_from_db()
    return match, ruling


def night(*, days_ago: float = 2, competition: Competition | None = None, prefix: str = "",
          password: str = "klawerjas-test") -> Night:
    """A fresh union with one played, approved match ``days_ago`` days ago, ruled for the home side."""
    from tests.factories import CompetitionFactory

    competition = competition or CompetitionFactory()
    crew = people(competition, password=password, prefix=prefix)
    start = timezone.now().replace(microsecond=0) - timedelta(days=days_ago)
    match, ruling = played_night(competition=competition, start=start, **crew)
    home_captain = captain_user(match.home, username=f"{prefix}home_captain", password=password)
    away_captain = captain_user(match.away, username=f"{prefix}away_captain", password=password)
    return Night(match=match, ruling=ruling, home_captain=home_captain, away_captain=away_captain, **crew)
