"""``{% claim_summary claim %}``: a straf claim as the referee reads it, with the teams' and players' names."""

from typing import Any

from django import template

from referee.selectors import claim_people

register = template.Library()


@register.inclusion_tag("referee/_claim_summary.html")
def claim_summary(claim: Any) -> dict[str, Any]:
    """The claim with who said "af" and who is accused, by name (one query for the seats)."""
    return {"claim": claim, "people": claim_people(claim=claim)}
