"""klawerjas-league rules engine: SAKBOC Klawerjas as a pure-Python, standard-library-only library.

No Django (or any other framework) is imported here; a test proves it in a subprocess.
"""

from __future__ import annotations

from engine.cards import CardParseError, format_card, format_hand, parse_card, parse_cards, parse_hand

__all__ = ["CardParseError", "format_card", "format_hand", "parse_card", "parse_cards", "parse_hand"]
