"""Consent to the optional uses of a player's data (POPIA s11): the one service, the checks, the registry."""

import pytest
from django.core.exceptions import ValidationError

from clubs import services as club_services
from clubs.models import Player
from privacy.models import Consent
from privacy.selectors import consents_current
from privacy.services import consent_record
from tests.factories import make_club, make_player, make_union, make_user

pytestmark = pytest.mark.django_db
