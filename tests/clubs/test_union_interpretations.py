"""A union edits DOMAIN.md interpretations 6 (a roem counts as called, Notes §VI, §VIII) and 7 ("af" need not name
the offence, SAKBOC 6.7) where it edits the others: the admin's "Interpretations" fieldset; the API shows them."""

import pytest
from django.urls import reverse

from clubs.services import union_settings_update
from tests.factories import UnionFactory

pytestmark = pytest.mark.django_db


def test_the_admin_edits_interpretations_6_and_7_with_the_others(admin_client):
    union = UnionFactory()
    page = admin_client.get(reverse("admin:clubs_union_change", args=[union.pk])).content.decode()
    fieldset = page[page.index("Interpretations (DOMAIN.md)"):]
    for field in ("straf_four_points", "roem_counts", "straf_named_offence"):
        assert f'name="{field}"' in fieldset
    assert '<option value="as-held">' in fieldset and '<option value="must-be-committed">' in fieldset
    assert "Interpretation 7 (SAKBOC 6.7)" in fieldset


def test_a_change_is_kept_in_the_unions_history_and_shown_by_the_api(client):
    union = UnionFactory()
    assert client.get(f"/api/unions/{union.pk}/").json()["roem_counts"] == "as-called"
    union_settings_update(union=union, roem_counts="as-held", straf_named_offence="must-be-committed",
                          reason="the union's reading")
    shown = client.get(f"/api/unions/{union.pk}/").json()
    assert (shown["roem_counts"], shown["straf_named_offence"]) == ("as-held", "must-be-committed")
    before = union.history.order_by("history_date")[0]
    assert (before.roem_counts, before.straf_named_offence) == ("as-called", "note")
