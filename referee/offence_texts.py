"""The offences' descriptions as the referee console and the table's "af" form offer them, in the reader's
language (issue 19).

The engine describes each :class:`engine.offences.Offence` in English (``Offence.info.description``); the console
says it from the offence's code with these texts, the same English marked for translation, so the Afrikaans comes
from the catalogue and not from translating the engine's prose. ``tests/referee/test_offence_texts.py`` holds them
equal to the engine's English, offence by offence.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

#: Offence code -> its description (lazy: said in the active language when shown).
OFFENCE_DESCRIPTIONS: dict[str, Promise] = {
    "versak": _("revoke (versak): did not follow the suit led, nor trump"),
    "ondertroef": _("undertrump (ondertroef) while holding other cards"),
    "out_of_turn": _("played out of turn"),
    "wrong_cut": _("cut fewer than 2 or more than 31 cards"),
    "wrong_deal": _("dealt other than 3-3-2, 3-2-3 or 2-3-3"),
    "false_roem": _("roemed roemte not held"),
    "roem_not_with_first_card": _("roemed before playing the card, or after the first round"),
    "sturk_wrong_time": _("sturk roemed other than with the first of King/Queen of trumps played"),
    "overroem_not_higher": _("overroemed with roemte that does not outrank"),
    "overroem_without_sizing": _("overroemed equal roemte without sizing it first"),
    "illegal_sizing": _("sized roemte when not allowed"),
    "wrong_size_answer": _("named a card other than the highest of the roemte when sized"),
    "outright_roem_then_played": _("roemed good vyf-eenderse or four of a kind and then played a card"),
    "good_enough_wrongly": _('asked "good enough?" wrongly'),
    "go_on_not_allowed": _("went on when not allowed"),
    "go_on_too_many": _("went on by more strokes than allowed"),
    "three_strokes": _("pulled on 3 strokes"),
    "byspeler_punishes_counting": _("byspeler punished a counting offence (only the telman may)"),
    "wrong_straf": _("punished where there was no offence"),
    "illegal_bid": _("bid or passed out of turn, or bid what the round does not offer"),
    "illegal_double": _("doubled (Contra/Re) out of order or too late"),
    "signs": _("talking or signs to a partner"),
    "slacking": _("slacking cards (thrown in before the end of play)"),
    "tapping": _("failed to play in time (tapped out)"),
    "flipped_cards": _("own roemte-cards or tricks flipped open"),
    "played_closed": _("played on a card played closed"),
    "more_than_one_card": _("played more than 1 card at a time"),
    "played_before_trick_closed": _("played before the counter closed the trick"),
    "trump_card_picked_up": _("picked up the trump-card before the second trick closed"),
    "wrong_roemte_cards": _("opened wrong roemte-cards"),
    "overcalled_roemte_not_cancelled": _("overcalled roemte not cancelled in time"),
    "wrong_roem_term": _("roemed vyf-eenderse by another name"),
    "information_sought": _("sought information during play"),
    "wrong_score_given": _("gave an incorrect score when challenged"),
    "wrong_points_claimed": _("claimed other than 2 or 4 points"),
    "boem_cleaned": _("cleaned the boem too early"),
    "stroke_between_lines": _("started a stroke between lines"),
    "opponents_trick_picked_up": _("picked up the opponents' trick"),
    "telman_changed": _("changed the designated telman"),
    "unnecessary_knocking": _("unnecessary knocking on the table"),
    "points_without_af": _('claimed points without saying "af" or completing the boem'),
    "boem_not_erased": _("the strokes of a completed boem were not erased"),
    "roemte_not_closed": _("roemte not closed before the trump-card of the new hand was opened"),
    "sturk_cancelled": _("cancelled sturk once roemed"),
    "roem_combination_demanded": _("demanded that a roem combination be called one way"),
    "tricks_out_of_order": _("tricks not kept in the order picked up"),
    "first_trick_not_closed": _("looked at the first trick wrongly or did not close it in time"),
    "opponents_trick_seen": _("looked at the opponents' closed trick"),
    "discards_not_surrendered": _("did not surrender the discards after going on"),
    "stroke_wrong_side": _("went on the wrong side of the boem (the strokes go to the opponents)"),
    "points_for_opponents": _("called points for the opponents (the points and the cards go to them)"),
    "points_for_non_playing_team": _("called points for a team not playing (no points either side)"),
}
