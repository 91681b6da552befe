"""An appeal in a phone-sized Chromium (issue 22): the away captain appeals the referee's ruling; an appeal of an
older result is refused with its deadline shown; the union's appeals committee upholds the appeal with written
reasons; the result and the standings change; the referee's statistics count the appeal.

Screenshots of every step go to artifacts/screenshots/test_captain_appeal_upheld_by_committee/.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from appeals.models import Appeal
from matches.models import Match
from matches.results.standings import standings_recompute
from referee.models import Ruling
from tests.appeals.nights import night
from tests.e2e.conftest import page_fits
from tests.factories import MatchFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "klawerjas-e2e"


def _standings_row(page, team_name: str) -> list[str]:
    row = page.locator("table.standings tbody tr", has_text=team_name).first
    return [cell.strip() for cell in row.locator("td").all_inner_texts()]


def test_captain_appeal_upheld_by_committee(page, screenshot, sign_in):
    n = night(password=PASSWORD)
    match = n.match
    home, away = match.home, match.away
    # An older night the away side won, approved 10 days ago: past the union's 7-day deadline for appeals.
    old = MatchFactory(competition=match.competition, home=home, away=away, referee=n.referee,
                       scheduled_start=timezone.now().replace(microsecond=0) - timedelta(days=10),
                       phase=Match.Phase.FINISHED, result_status=Match.ResultStatus.APPROVED,
                       home_score=20, away_score=24, winner=away, approved_at=timezone.now() - timedelta(days=9))
    standings_recompute(competition_id=match.competition_id)

    # The standings before: one win each (2 league points each).
    page.goto(f"/competitions/{match.competition_id}/standings/")
    assert _standings_row(page, home.name)[-1] == "2" and _standings_row(page, away.name)[-1] == "2"

    # The away captain appeals the referee's ruling from the match page.
    sign_in(page, "away_captain", PASSWORD)
    page.goto(f"/matches/{match.pk}/")
    page.click("text=Appeal a ruling or the result")
    page.wait_for_selector("h1:has-text('Appeal')")
    deadline = page.inner_text(".appeal-deadline")
    assert "7 days" in deadline
    page.check(f"input[name=ruling][value='{n.ruling.pk}']")
    page.fill("textarea[name=grounds]", "Our byspeler was scratching his ear, not signalling: no signs were made.")
    page_fits(page, "lodge-form", screenshot)
    page.click("button:has-text('Lodge the appeal')")
    page.wait_for_selector("text=Your appeal is lodged")
    assert "Waiting for the appeals committee" in page.inner_text("main")
    page_fits(page, "lodged", screenshot)
    appeal = Appeal.objects.get()
    assert appeal.ruling_id == n.ruling.pk and appeal.team_id == away.pk

    # An appeal of the older result is refused, and the page says when the deadline was.
    page.goto(f"/appeals/matches/{old.pk}/lodge/")
    page.fill("textarea[name=grounds]", "Table 3's sheet was added up wrongly.")
    page.click("button:has-text('Lodge the appeal')")
    error = page.inner_text(".messages, .errorlist")
    old_deadline = timezone.localdate(old.scheduled_start) + timedelta(days=7)
    assert "deadline" in error and f"{old_deadline.day} {old_deadline:%B %Y}" in error, error
    assert Appeal.objects.count() == 1
    page_fits(page, "late-refused", screenshot)

    # The appeals committee (the union's official) hears it and upholds it with written reasons.
    page.context.clear_cookies()
    sign_in(page, "official", PASSWORD)
    page.goto("/appeals/")
    page.click(f"text={home.name} v {away.name}")
    page.wait_for_selector("text=Grounds")
    assert "scratching his ear" in page.inner_text("main")
    page.check("input[name=decision][value=upheld]")
    page.fill("textarea[name=reasons]", "Two witnesses saw no signal; the referee did not see the hand either.")
    page_fits(page, "hearing", screenshot)
    page.click("button:has-text('Decide')")
    # A confirmation step says what will change before anything is written.
    page.wait_for_selector("text=Confirm the decision")
    assert "0–2" in page.inner_text("main")
    page_fits(page, "confirm-decision", screenshot)
    page.click("button:has-text('Uphold the appeal')")
    page.wait_for_selector("text=Appeal upheld")
    page_fits(page, "decided", screenshot)

    ruling = Ruling.objects.get(pk=n.ruling.pk)
    assert ruling.decision == Ruling.Decision.REJECTED  # amended: the punisher is punished (Notes §VII)
    match.refresh_from_db()
    assert (match.home_score, match.away_score) == (0, 2) and match.winner_id == away.pk
    assert match.result_status == Match.ResultStatus.APPROVED
    assert match.history.filter(history_change_reason__icontains="appeal").exists()

    # The result and the standings changed.
    page.goto(f"/matches/{match.pk}/")
    assert "0–2" in page.inner_text("main") or "0 – 2" in page.inner_text("main")
    page.goto(f"/competitions/{match.competition_id}/standings/")
    assert _standings_row(page, away.name)[-1] == "4" and _standings_row(page, home.name)[-1] == "0"
    assert _standings_row(page, away.name)[0] == "1"
    screenshot("standings-after")

    # The referee's own statistics count the appeal against their ruling, and that it was upheld.
    page.context.clear_cookies()
    sign_in(page, "referee", PASSWORD)
    page.goto("/referee-statistics/")
    stats = page.locator("table.referee-stats tbody tr", has_text="Yusuf Isaacs")
    cells = stats.locator("td").all_inner_texts()
    headers = page.locator("table.referee-stats thead th").all_inner_texts()
    row = dict(zip([h.strip() for h in headers][1:], [c.strip() for c in cells], strict=True))
    assert row["Rulings"] == "1", row
    assert row["Appeals against"] == "1" and row["Upheld on appeal"] == "1", row
    page_fits(page, "referee-statistics", screenshot)
