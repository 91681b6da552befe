"""The table phone's "af" offers only the offences of the competition's ruleset (``engine.offences.offences_for``
of ``matches.rules.competition_ruleset``), as the referee's console does; the service refuses any other (Notes §VII).

A competition played under Rotterdam's rules (a ruleset with its own straf list) shows the difference: its list has
``illegal_bid`` and no ``ondertroef`` (SAKBOC 3.4), the SAKBOC list the other way round."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from engine.offences import offences_for
from engine.ruleset import ROTTERDAM, SAKBOC_2004
from matches.models import Competition
from referee.models import StrafClaim
from tests.tables.conftest import telman
from tests.tables.test_table_pages import sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def rotterdam_union(playing):
    """The match's competition is played under the Rotterdam rules (``Competition.ruleset``, resolved by
    ``matches.rules.competition_ruleset``): the phone's page and API, and the service, see it."""
    Competition.objects.filter(pk=playing.competition_id).update(ruleset=ROTTERDAM.name)


def _options(html: str, name: str) -> list[str]:
    """The option values of the ``<select name=...>`` in ``html``."""
    start = html.index(f'name="{name}"')
    block = html[start:html.index("</select>", start)]
    return [part.split('"', 1)[0] for part in block.split('<option value="')[1:]]


def _table_api(link) -> APIClient:
    key = APIClient().post("/api/table/sign-in/", {"code": link.code}, format="json").json()["key"]
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {key}")
    return api


def test_the_af_page_offers_the_unions_sakboc_list(client, playing, links):
    sign_in(client, links[1])
    html = client.get(reverse("tables:af")).content.decode()
    assert _options(html, "offence") == ["", *(o.value for o in offences_for(SAKBOC_2004))]
    assert "ondertroef" in _options(html, "offence") and "illegal_bid" not in _options(html, "offence")


def test_the_af_page_offers_only_the_unions_offences(client, playing, links, rotterdam_union):
    sign_in(client, links[1])
    html = client.get(reverse("tables:af")).content.decode()
    assert _options(html, "offence") == ["", *(o.value for o in offences_for(ROTTERDAM))]
    assert "ondertroef" not in _options(html, "offence") and "illegal_bid" in _options(html, "offence")
    af = {"claimant": telman(playing, playing.home).pk, "accused": telman(playing, playing.away).pk}
    refused = client.post(reverse("tables:af"), {**af, "offence": "ondertroef"})
    assert refused.status_code == 400 and "ondertroef" in refused.context["form"].errors["offence"][0]
    assert not StrafClaim.objects.exists()
    assert client.post(reverse("tables:af"), {**af, "offence": "illegal_bid"}).status_code == 302
    assert StrafClaim.objects.get().offence == "illegal_bid"


def test_the_table_api_accepts_only_the_unions_offences(playing, links, rotterdam_union):
    api = _table_api(links[1])
    af = {"claimant": telman(playing, playing.home).pk, "accused": telman(playing, playing.away).pk}
    refused = api.post("/api/table/af/", {**af, "offence": "ondertroef"}, format="json")
    assert refused.status_code == 400 and "offence" in refused.json()
    assert not StrafClaim.objects.exists()
    named = api.post("/api/table/af/", {**af, "offence": "illegal_bid"}, format="json")
    assert named.status_code == 201 and named.json()["offence"] == "illegal_bid"
