"""The permission matrix of the appeals API (issue 22): every new write, by every role, on its own union's objects
and on another union's, allowed or denied as designed (appeals/permissions.py, clubs/permissions.py).

Allowed: the service did what was asked (2xx), or refused it by its rule (a 400 naming it: the away side's
appeal of the same result already with the committee). Denied: 403 for the anonymous public, 404 for a signed-in
user who is not entitled ("not yours" answers like "not there").

The world is tests/world.py's two unions, each with a 30-day appeal deadline (its approved match is 21 days
old), the away side's appeal of that result already lodged, and a fine in the register; built once for the module
in a transaction rolled back after it, each case in a savepoint of its own.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from appeals.models import Appeal
from appeals.services import appeal_lodge
from clubs.discipline import disciplinary_record_create
from clubs.models import DisciplinaryRecord
from tests.conftest import module_world
from tests.world import ROLES, Side, World, make_world, matrix_answer_check

world = module_world  # the ``world`` fixture here: the module's shared world (tests/conftest.py)


def _prepare(side: Side) -> None:
    side.union.appeal_deadline_days = 30
    side.union.save()
    side.approved.refresh_from_db()
    appeal_lodge(match=side.approved, team=side.away, user=side.away_captain, grounds="Table 2 was added up wrongly.")
    disciplinary_record_create(union=side.union, club=side.club, offence="late_arrival", occurred_on=date(2026, 3, 1),
                               reason="Started 20 minutes late", sanction="fine", fine_amount=Decimal("100"), by=None)


def _prepared_world() -> World:
    world = make_world()
    _prepare(world.a)
    _prepare(world.b)
    return world


@pytest.fixture(scope="module")
def world_build():
    return _prepared_world


def _endpoints(side: Side) -> dict[str, tuple[str, str, object]]:
    appeal = Appeal.objects.get(match=side.approved)
    fine = DisciplinaryRecord.objects.get(union=side.union)
    return {
        "appeal lodge": ("post", "/api/appeals/", {"match": side.approved.pk, "grounds": "The score is wrong."}),
        "appeal decide": ("post", f"/api/appeals/{appeal.pk}/decide/", {"decision": "dismissed",
                                                                        "reasons": "The sheets add up."}),
        "appeal settings": ("patch", f"/api/appeal-settings/{side.union.pk}/", {"appeal_deadline_days": 10}),
        "discipline record": ("post", "/api/discipline/", {
            "union": side.union.pk, "team": side.home.pk, "offence": "walk_out", "occurred_on": "2026-03-02",
            "reason": "Left before time", "sanction": "warning"}),
        "fine paid": ("post", f"/api/discipline/{fine.pk}/paid/", {"paid": True}),
    }


ALLOWED: dict[str, dict[str, int]] = {
    # The home captain and the home club's secretary appeal for the home side; the away side's appeal of the same
    # result is already with the committee, which the service says (400).
    "appeal lodge": {"captain": 201, "secretary": 201, "away_captain": 400},
    "appeal decide": {"official": 200},
    "appeal settings": {"official": 200},
    "discipline record": {"official": 201},
    "fine paid": {"official": 200},
}
ENDPOINTS = list(ALLOWED)


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("role", ROLES)
def test_own_union(endpoint: str, role: str, world: World):
    matrix_answer_check(world, role, endpoint, _endpoints(world.a)[endpoint], allowed=ALLOWED)


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("role", ROLES)
def test_other_union_answers_like_not_there(endpoint: str, role: str, world: World):
    matrix_answer_check(world, role, endpoint, _endpoints(world.b)[endpoint], allowed=None)
