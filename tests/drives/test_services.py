"""A drive's services: entering players, drawing rounds, entering a table's deals (checked by engine.deals),
the night's result and the season ranking."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from drives import selectors, services
from drives.models import DriveDeal
from engine.deals import DealEntry
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db

NIGHT = dt.date(2026, 3, 4)


def _drive(players=8, **settings):
    club = ClubFactory()
    drive = services.drive_create(club=club, name="Woensdagdrive", season="2026", **settings)
    entered = [PlayerFactory(club=club) for _ in range(players)]
    for player in entered:
        services.drive_enter(drive=drive, player=player)
    return drive, entered


def _made(makers=0, points=(100, 62), roem=(0, 0)):
    return DealEntry(makers_team=makers, card_points=points, roem=roem)


def test_a_wrong_total_is_refused_citing_rotterdam_scoring_and_nothing_is_saved():
    drive, _ = _drive()
    table = services.round_draw(night=services.night_start(drive=drive, date=NIGHT), seed="s").tables.first()
    with pytest.raises(ValidationError) as caught:
        services.deal_record(table=table, entry=_made(points=(100, 60)))
    assert caught.value.message_dict["card_points"] == [
        "The card points add up to 160, not 162. (Rotterdam §Scoring)"]
    assert not DriveDeal.objects.exists()


def test_roem_not_in_tens_cites_bonus_points_and_a_nat_the_points_contradict_is_refused():
    drive, _ = _drive()
    table = services.round_draw(night=services.night_start(drive=drive, date=NIGHT), seed="s").tables.first()
    with pytest.raises(ValidationError) as caught:
        services.deal_record(table=table, entry=_made(roem=(25, 0)))
    assert "(Rotterdam §Bonus Points)" in caught.value.message_dict["roem"][0]
    with pytest.raises(ValidationError) as caught:
        services.deal_record(table=table, entry=DealEntry(makers_team=0, card_points=(120, 42), nat=True))
    assert caught.value.message_dict["nat"][0].startswith("Not nat: the makers' 120 is more than half of 162")


def test_a_nat_deal_scores_everything_to_the_opponents_and_the_boom_ends_after_16():
    drive, _ = _drive()
    table = services.round_draw(night=services.night_start(drive=drive, date=NIGHT), seed="s").tables.first()
    nat = services.deal_record(table=table, entry=DealEntry(makers_team=0, card_points=(70, 92), roem=(20, 0),
                                                            nat=True))
    assert (nat.made, nat.points0, nat.points1) == (False, 0, 182)  # Rotterdam §Scoring: roem of both to them
    for _ in range(15):
        services.deal_record(table=table, entry=_made())
    table.refresh_from_db()
    assert table.finished and table.deals_played == 16
    assert (table.points0, table.points1) == (15 * 100, 182 + 15 * 62)
    with pytest.raises(ValidationError) as caught:
        services.deal_record(table=table, entry=_made())
    assert "The game at this table is over: deal 17 is one too many" in caught.value.messages[0]


def test_correcting_a_deal_rescores_the_table():
    drive, _ = _drive()
    table = services.round_draw(night=services.night_start(drive=drive, date=NIGHT), seed="s").tables.first()
    services.deal_record(table=table, entry=_made())
    services.deal_record(table=table, entry=_made(makers=1, points=(62, 100)))
    services.deal_record(table=table, entry=_made(points=(62, 100), makers=1, roem=(0, 50)), number=1)
    table.refresh_from_db()
    assert (table.deals_played, table.points0, table.points1) == (2, 124, 250)
    with pytest.raises(ValidationError):
        services.deal_record(table=table, entry=_made(), number=4)


def test_klammern_drive_scores_in_match_points_with_contra():
    drive, _ = _drive(ruleset="klammern")
    table = services.round_draw(night=services.night_start(drive=drive, date=NIGHT), seed="s").tables.first()
    services.deal_record(table=table, entry=DealEntry(makers_team=0, card_points=(100, 62), multiplier=2))
    table.refresh_from_db()
    assert (table.points0, table.points1) == (10, 6)  # Klammern §Matches: 10 game points a match point
    rotterdam, _ = _drive()
    other = services.round_draw(night=services.night_start(drive=rotterdam, date=NIGHT), seed="s").tables.first()
    with pytest.raises(ValidationError) as caught:
        services.deal_record(table=other, entry=DealEntry(makers_team=0, card_points=(100, 62), multiplier=2))
    assert "multiplier" in caught.value.message_dict


def test_entries_are_the_unions_registered_players_once_each():
    drive, players = _drive(players=4)
    with pytest.raises(ValidationError) as caught:
        services.drive_enter(drive=drive, player=players[0])
    assert "already entered" in caught.value.message_dict["player"][0]
    with pytest.raises(ValidationError) as caught:
        services.drive_enter(drive=drive, player=PlayerFactory())
    assert "not registered with this union" in caught.value.message_dict["player"][0]


def test_a_night_of_rounds_byes_and_the_best_nights_ranking():
    drive, players = _drive(players=9, rounds_per_night=2, ranking="best", best_nights=1, bye_score="fixed",
                            bye_points=1000)
    for night_number in (1, 2):
        night = services.night_start(drive=drive, date=NIGHT + dt.timedelta(days=7 * night_number))
        for boom_number in (1, 2):
            boom = services.round_draw(night=night, seed=f"{night_number}-{boom_number}")
            assert boom.tables.count() == 2 and boom.byes.count() == 1
            with pytest.raises(ValidationError):
                services.round_draw(night=night)  # this boom is still being played
            for table in boom.tables.all():
                for _ in range(16):
                    services.deal_record(table=table, entry=_made(points=(90 + night_number, 72 - night_number)))
        with pytest.raises(ValidationError):
            services.round_draw(night=night)  # both bomen drawn
    lines = selectors.night_result(night)
    assert len(lines) == 9
    for line in lines:
        assert line.total == sum(points for points, _where in line.bomen)
        assert all(points in (16 * 92, 16 * 70, 1000) for points, _where in line.bomen)
    numbers, ranking = selectors.drive_ranking(drive)
    assert numbers == [1, 2]
    for line in ranking:
        counted = [score for _n, score, kept in line.ranked.nights if kept]
        assert len(counted) == 1 and counted[0] == max(score for _n, score, _k in line.ranked.nights)
    byes = [bye.player_id for night in drive.nights.all() for boom in night.rounds.all() for bye in boom.byes.all()]
    assert len(set(byes)) == 4  # four rounds, four different players sat out


def test_a_boom_entered_at_once_is_what_the_deals_entered_one_by_one_make():
    lines = [_made(), DealEntry(makers_team=1, card_points=(100, 62), roem=(0, 20), nat=True),
             DealEntry(makers_team=0, card_points=(162, 0), pit_team=0)]
    drive, _ = _drive()
    one, other = services.round_draw(night=services.night_start(drive=drive, date=NIGHT), seed="s").tables.all()
    for entry in lines:
        services.deal_record(table=one, entry=entry)
    services.deals_record(table=other, entries=lines)
    one.refresh_from_db()
    other.refresh_from_db()
    fields = ["number", "made", "points0", "points1", "roem0", "roem1", "pit_side", "nat"]
    assert list(one.deals.values_list(*fields)) == list(other.deals.values_list(*fields))
    assert (one.points0, one.points1) == (other.points0, other.points1) == (100 + 182 + 262, 62)
    with pytest.raises(ValidationError) as caught:
        services.deals_record(table=other, entries=[_made(), _made(points=(1, 1))])
    assert caught.value.message_dict["card_points"] == [
        "Deal 5: The card points add up to 2, not 162. (Rotterdam §Scoring)"]
    assert other.deals.count() == 3
