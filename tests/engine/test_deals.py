"""A makers game's deal as a table enters it: checked and scored (engine.deals; issue 24)."""

import pytest

from engine.deals import DealEntry, DealEntryError, check_deal, play_deals
from engine.ruleset import KLAMMERN, ROTTERDAM, SAKBOC_2004, WIKIPEDIA_KLAVERJAS


def test_a_made_deal_scores_each_side_its_own():
    score = check_deal(DealEntry(makers_team=0, card_points=(100, 62), roem=(20, 0)), ROTTERDAM)
    assert score.made and score.points == (120, 62) and score.match_points == (120, 62)


def test_nat_gives_everything_to_the_opponents_roem_of_both_included():
    # Rotterdam §Scoring: 81 of 162 is not more than half; the defenders take 162 and both sides' roem.
    score = check_deal(DealEntry(makers_team=1, card_points=(81, 81), roem=(20, 20), nat=True), ROTTERDAM)
    assert not score.made and score.points == (202, 0)


def test_roem_counts_towards_making_it():
    score = check_deal(DealEntry(makers_team=0, card_points=(75, 87), roem=(50, 0)), ROTTERDAM)
    assert score.made and score.points == (125, 87)


@pytest.mark.parametrize("cards", [(100, 60), (100, 72), (0, 0)])
def test_points_that_do_not_add_up_to_162_are_refused_citing_the_section(cards):
    with pytest.raises(DealEntryError) as caught:
        check_deal(DealEntry(makers_team=0, card_points=cards), ROTTERDAM)
    err = caught.value
    assert err.code == "deal.points_total"
    assert err.params == {"total": sum(cards), "expected": 162}
    assert err.rules == ("Rotterdam §Scoring",)
    assert "Rotterdam §Scoring" in str(err)


def test_pit_adds_100_and_needs_the_other_side_at_nothing():
    score = check_deal(DealEntry(makers_team=0, card_points=(162, 0), pit_team=0), ROTTERDAM)
    assert score.points == (262, 0) and score.roem == (100, 0)
    with pytest.raises(DealEntryError) as caught:
        check_deal(DealEntry(makers_team=0, card_points=(152, 10), pit_team=0), ROTTERDAM)
    assert caught.value.code == "deal.pit_points"


def test_a_nat_the_points_contradict_and_a_made_claim_that_is_nat_are_refused():
    with pytest.raises(DealEntryError) as caught:
        check_deal(DealEntry(makers_team=0, card_points=(90, 72), nat=True), ROTTERDAM)
    assert caught.value.code == "deal.nat_contradicted" and caught.value.params == {"makers": 90, "everything": 162}
    with pytest.raises(DealEntryError) as caught:
        check_deal(DealEntry(makers_team=0, card_points=(70, 92), nat=False), ROTTERDAM)
    assert caught.value.code == "deal.made_contradicted"


def test_roem_not_in_tens_and_doubling_without_contra_are_refused():
    with pytest.raises(DealEntryError) as caught:
        check_deal(DealEntry(makers_team=0, card_points=(100, 62), roem=(25, 0)), ROTTERDAM)
    assert caught.value.code == "deal.roem_unit" and caught.value.rules == ("Rotterdam §Bonus Points",)
    with pytest.raises(DealEntryError) as caught:
        check_deal(DealEntry(makers_team=0, card_points=(100, 62), multiplier=2), ROTTERDAM)
    assert caught.value.code == "deal.doubling"


def test_klammern_small_points_doubled_and_match_points():
    score = check_deal(DealEntry(makers_team=0, card_points=(60, 102), multiplier=2), KLAMMERN)
    assert not score.made and score.small_points == (0, 4)
    assert score.points == (0, 162) and score.match_points == (0, 16)


def test_klammern_march_decides_the_match():
    made = play_deals([DealEntry(makers_team=1, card_points=(0, 162), pit_team=1, march_team=1)], KLAMMERN)
    assert made.game_over and made.winner_team == 1
    failed = check_deal(DealEntry(makers_team=1, card_points=(10, 152), march_team=1), KLAMMERN)
    assert failed.march_made is False and failed.match_over and failed.match_winner_team == 0
    with pytest.raises(DealEntryError) as caught:
        check_deal(DealEntry(makers_team=0, card_points=(100, 62), march_team=0), ROTTERDAM)
    assert caught.value.code == "deal.march"


def test_a_rotterdam_boom_is_16_deals_and_nothing_after():
    line = DealEntry(makers_team=0, card_points=(100, 62))
    total = play_deals([line] * 16, ROTTERDAM)
    assert total.deals == 16 and total.points == (1600, 992) and total.game_over and total.winner_team == 0
    with pytest.raises(DealEntryError) as caught:
        play_deals([line] * 17, ROTTERDAM)
    assert caught.value.code == "deal.after_match" and caught.value.params["deal"] == 17
    assert play_deals([line] * 12, ROTTERDAM, deals=12).game_over


def test_the_wikipedia_game_runs_to_1001_and_a_bad_line_names_its_deal():
    line = DealEntry(makers_team=0, card_points=(162, 0), pit_team=0)  # no pit bonus in the variant
    total = play_deals([line] * 7, WIKIPEDIA_KLAVERJAS)
    assert total.points == (1134, 0) and total.game_over and total.deals == 7
    with pytest.raises(DealEntryError) as caught:
        play_deals([line, DealEntry(makers_team=0, card_points=(1, 1))], WIKIPEDIA_KLAVERJAS)
    assert caught.value.params["deal"] == 2


def test_sakboc_is_not_scored_deal_by_deal():
    with pytest.raises(ValueError):
        check_deal(DealEntry(makers_team=0, card_points=(100, 46)), SAKBOC_2004)
