"""The console says an offence from its code, in the reader's language (issue 19; referee/offence_texts.py)."""

from django.utils import translation

from engine.offences import Offence
from engine.ruleset import ROTTERDAM
from referee.hand_check import deal_pattern_choices, offence_choices
from referee.offence_texts import OFFENCE_DESCRIPTIONS


def test_every_offence_has_a_text_equal_to_the_engines_english():
    with translation.override("en"):
        assert {code: str(text) for code, text in OFFENCE_DESCRIPTIONS.items()} == {
            offence.value: offence.info.description for offence in Offence
        }


def test_the_offence_and_deal_pattern_choices_are_said_in_the_active_language():
    choices = dict(offence_choices())
    with translation.override("en"):
        assert str(choices["versak"]).startswith("revoke (versak): did not follow the suit led, nor trump (")
        english = [str(label) for _, label in deal_pattern_choices()]
    with translation.override("af"):
        afrikaans = str(choices["versak"])
        assert afrikaans != str(OFFENCE_DESCRIPTIONS["versak"]) and "versak" in afrikaans
        assert "SAKBOC" in afrikaans  # the rule cited stays as it is
        assert [str(label) for _, label in deal_pattern_choices()] != english
        assert all(str(label) != Offence(code).info.description for code, label in offence_choices(ROTTERDAM))
