"""docs/examples/disputed-hand.json loads in the referee console and shows a straf being decided."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from matches.models import Boem, BoemEntry
from referee import services
from tests.factories import UserFactory, match_started

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "disputed-hand.json"


def test_the_disputed_example_is_uploaded_decided_and_ruled(client):
    referee = UserFactory(username="ref-example")
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_started(start=start, referee=referee, by=referee)
    # Seat 1 (the away telman; home sits at the even seats) says "af" against seat 2 (home byspeler): versak.
    claim = services.straf_claim_log(match=match, table_number=1, claimant_side="away", claimant_role="telman",
                                     accused_role="byspeler", offence="versak", moment="trick 2", by=referee)
    client.force_login(referee)
    with EXAMPLE.open("rb") as upload:
        response = client.post(f"/referee/claims/{claim.pk}/hand/upload/", {"home_seats": "even", "record": upload})
    assert response.status_code == 302 and response["Location"].endswith(f"/referee/claims/{claim.pk}/verdict/")
    verdict_page = client.get(response["Location"])
    assert verdict_page.status_code == 200 and "SAKBOC 3.3" in verdict_page.content.decode()

    claim.refresh_from_db()
    outcome = claim.disputed_hand.verdict["strafs"][0]
    assert (outcome["decision"], outcome["upheld"], outcome["punished_team"], outcome["points"]) == (
        "wrong-straf", False, 1, 2)  # trumping while holding the suit is legal (SAKBOC 3.3): Notes §VII
    assert services.engine_decision_of(services.engine_outcome(claim=claim)) == "rejected"

    services.ruling_record(claim=claim, decision="rejected", by=referee)
    boem = Boem.objects.get(table__match=match, table__number=1)
    # The wrong straf goes on the sheet and is reversed: the boem goes to the home side with 2 points (6.2).
    assert list(boem.entries.order_by("sequence").values_list("kind", "team_id")) == [
        (BoemEntry.Kind.STRAF, match.away_id), (BoemEntry.Kind.STRAF_REVERSED, match.home_id)]
    assert (boem.winner_id, boem.points) == (match.home_id, 2)
