"""factory_boy factories for the league model, shared by every test suite (clubs, matches, referee, api, web).

``TeamFactory`` builds a full team: 8 registered players of its club in the squad (SAKBOC 1.5), the first
one captain. ``MatchFactory`` builds two such teams in one competition. ``match_with_sheets`` adds both
team sheets (tables 1-4: squad players 1+2, 3+4, ... as telman+byspeler). These factories write straight to
the database for set-up; tests of rules go through the services.
"""

from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs.models import Club, ClubSecretary, Player, Team, TeamMembership, Union, UnionOfficial
from matches.models import Competition, Match, Seat, TeamSheet


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("klawerjas-test")


class UnionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Union

    name = factory.Sequence(lambda n: f"Union {n}")
    short_name = factory.Sequence(lambda n: f"U{n}")


class UnionOfficialFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = UnionOfficial

    union = factory.SubFactory(UnionFactory)
    user = factory.SubFactory(UserFactory)


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    union = factory.SubFactory(UnionFactory)
    name = factory.Sequence(lambda n: f"Club {n}")


class ClubSecretaryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubSecretary

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    union = factory.SelfAttribute("club.union")
    registration_number = factory.Sequence(lambda n: f"R{n:05d}")
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    active = True


class CompetitionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Competition

    union = factory.SubFactory(UnionFactory)
    name = factory.Sequence(lambda n: f"League {n}")
    season = "2026"
    kind = Competition.Kind.LEAGUE


class TeamFactory(factory.django.DjangoModelFactory):
    """A team with ``squad`` (default 8, SAKBOC 1.5) registered players; the first is captain.

    ``TeamFactory(squad=10)`` gives a squad of 10 (8 plus 2 possible substitutes).
    """

    class Meta:
        model = Team
        skip_postgeneration_save = True

    competition = factory.SubFactory(CompetitionFactory)
    club = factory.SubFactory(ClubFactory, union=factory.SelfAttribute("..competition.union"))
    name = factory.Sequence(lambda n: f"Team {n}")

    @factory.post_generation
    def squad(self, create, extracted, **kwargs):
        if not create:
            return
        size = 8 if extracted is None else extracted
        players = [PlayerFactory(club=self.club, union=self.club.union) for _ in range(size)]
        TeamMembership.objects.bulk_create(
            TeamMembership(team=self, player=p, competition_id=self.competition_id) for p in players
        )
        if players:
            self.captain = players[0]
            self.save(update_fields=["captain"])


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    competition = factory.SubFactory(CompetitionFactory)
    home = factory.SubFactory(TeamFactory, competition=factory.SelfAttribute("..competition"))
    away = factory.SubFactory(TeamFactory, competition=factory.SelfAttribute("..competition"))
    venue = "Athlone Civic Centre"
    scheduled_start = factory.LazyFunction(lambda: timezone.now().replace(microsecond=0) + timedelta(days=1))
    referee = factory.SubFactory(UserFactory)


def squad(team: Team) -> list[Player]:
    """The team's squad players in membership order."""
    return [m.player for m in team.memberships.select_related("player").order_by("id")]


def sheet_for(match: Match, team: Team, *, tables: int = 4) -> TeamSheet:
    """Write a team sheet directly: table n gets squad players 2n-1 (telman) and 2n (byspeler)."""
    players = squad(team)
    sheet = TeamSheet.objects.create(match=match, team=team, submitted_at=timezone.now())
    for n in range(1, tables + 1):
        Seat.objects.create(sheet=sheet, table_number=n, role=Seat.Role.TELMAN, player=players[2 * n - 2])
        Seat.objects.create(sheet=sheet, table_number=n, role=Seat.Role.BYSPELER, player=players[2 * n - 1])
    return sheet


def match_with_sheets(**kwargs) -> Match:
    """A scheduled match with both team sheets (4 tables each)."""
    match = MatchFactory(**kwargs)
    sheet_for(match, match.home)
    sheet_for(match, match.away)
    return match


def match_started(*, start, by=None, **kwargs) -> Match:
    """A match with both team sheets (``match_with_sheets(**kwargs)``, scheduled at ``start``) whose first half
    started at ``start``, the toss 4 minutes before, through the services (SAKBOC 1.2, 1.3); read back afresh."""
    from matches.night import clock as night_clock
    from matches.night import services as night_services

    match = match_with_sheets(scheduled_start=start, **kwargs)
    night_services.match_toss_record(match=match, winner=match.home, by=by, now=start - timedelta(minutes=4))
    night_clock.match_start(match=match, by=by, now=start)
    match.refresh_from_db()
    return match
