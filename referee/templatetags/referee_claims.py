"""``{% claim_summary claim %}``: a straf claim as the referee reads it, with the teams' and players' names."""

from typing import Any

from django import template

from referee.findings import OFFENCE_NAMES
from referee.hand_problems import text_with_names
from referee.offence_texts import OFFENCE_DESCRIPTIONS
from referee.selectors import claim_people

register = template.Library()


@register.inclusion_tag("referee/_claim_summary.html")
def claim_summary(claim: Any) -> dict[str, Any]:
    """The claim with who said "af" and who is accused, by name (one query for the seats)."""
    return {"claim": claim, "people": claim_people(claim=claim)}


@register.filter
def offence_name(code: str | None) -> str:
    """``{{ claim.offence|offence_name }}``: an offence code as people read it, in the active language ("going on
    by too many strokes", never ``go_on_too_many``); ``""`` for none."""
    if not code:
        return ""
    name = OFFENCE_NAMES.get(code) or OFFENCE_DESCRIPTIONS.get(code)
    return str(name) if name is not None else str(code).replace("_", " ")


@register.filter
def side_team(side: str, match: Any) -> str:
    """``{{ claim.claimant_side|side_team:match }}``: the team's name for a side (never "home"/"away")."""
    return match.home.name if side == "home" else match.away.name


@register.filter
def other_side_team(side: str, match: Any) -> str:
    """The opposing team's name: ``{{ ruling.punished_side|other_side_team:match }}`` gets the points."""
    return match.away.name if side == "home" else match.home.name


@register.filter
def seat_short(seat: int, seat_names: dict[int, Any]) -> str:
    """``{{ p.seat|seat_short:seat_names }}``: the first name of the player in a record seat."""
    view = seat_names.get(seat)
    return view.short if view is not None else ""


@register.filter
def seat_label(seat: int, seat_names: dict[int, Any]) -> str:
    """``{{ trick.winner|seat_label:seat_names }}``: "Name (Team, role)" of the player in a record seat."""
    view = seat_names.get(seat)
    return view.label if view is not None else ""


@register.filter
def in_names(text: str, names: dict[str, Any] | None) -> str:
    """``{{ flag.evidence|in_names:names }}``: the engine's words with players and teams named (``names``:
    ``{"seats": {seat: name}, "teams": {record team: name}}``, from the view)."""
    if not names or not text:
        return text
    return text_with_names(str(text), names["seats"], names["teams"])
