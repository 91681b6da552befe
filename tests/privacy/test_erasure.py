"""Erasure (POPIA s24, privacy/erasure.py): a player with a played season behind them becomes "Former player N"
in every table, their optional data and account go, and the league's results read exactly as before."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.forms.models import model_to_dict
from django_otp.plugins.otp_totp.models import TOTPDevice
from knox.models import AuthToken

from clubs.models import DisciplinaryRecord, Player
from matches.models import Boem, BoemEntry, Competition, PlayedHand
from matches.results.standings import standings_recompute
from office.models import Invitation, RegistryImport
from office.registry import registry_read
from plumbing.models import OutboxMessage
from privacy.erasure import ERASE_REASON, ErasureRefused, person_erase
from privacy.models import Consent, Erasure
from records.models import PartnershipLine
from records.services import records_recompute
from referee.models import Ruling
from tests.privacy.erase_season import erase_season  # noqa: F401 (the module's fixture)

pytestmark = pytest.mark.django_db


def _dump_hits(*needles: str) -> list[tuple[str, str, str]]:
    """Every (table, column, value) of the database whose text holds one of ``needles``: all tables, all
    columns, read raw (history tables, JSON and stored files included)."""
    hits = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f'SELECT * FROM "{table}"')
            columns = [c[0] for c in cursor.description]
            for row in cursor.fetchall():
                for column, value in zip(columns, row, strict=True):
                    if isinstance(value, (bytes, memoryview)):
                        value = bytes(value).decode("utf-8", "replace")
                    if isinstance(value, str) and any(n in value for n in needles):
                        hits.append((table, column, value[:120]))
    return hits


def _split_name_hits(first: str, last: str) -> list[str]:
    """Tables with a row whose first and last name columns are the old name's."""
    hits = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            columns = {c.name for c in connection.introspection.get_table_description(cursor, table)}
            if {"first_name", "last_name"} <= columns:
                cursor.execute(f'SELECT COUNT(*) FROM "{table}" WHERE first_name = %s AND last_name = %s',
                               [first, last])
                if cursor.fetchone()[0]:
                    hits.append(table)
    return hits


def _results() -> dict[str, object]:
    """The league's results as the services compute them now: standings, boem sheets, hands, records, rulings."""
    competition = Competition.objects.get()
    standings = [(line.team_id, line.position, line.played, line.won, line.drawn, line.lost, line.points_for,
                  line.points_against, line.league_points) for line in standings_recompute(
                      competition_id=competition.pk)]
    records_recompute(competition_id=competition.pk, full=True)
    lines = sorted(tuple(v for k, v in sorted(model_to_dict(line).items()) if k != "id")
                   for line in PartnershipLine.objects.all())
    entries = [tuple(sorted(model_to_dict(e, exclude=["note"]).items())) for e in BoemEntry.objects.order_by("pk")]
    boems = [tuple(sorted(model_to_dict(b).items())) for b in Boem.objects.order_by("pk")]
    hands = list(PlayedHand.objects.order_by("pk").values_list("pk", "strokes", "roem", "went_on", "straf_decision"))
    rulings = list(Ruling.objects.order_by("pk").values_list(
        "pk", "claim_id", "decision", "engine_decision", "punished_side", "points", "clause", "boem_entry_id"))
    return {"standings": standings, "records": lines, "entries": entries, "boems": boems, "hands": hands,
            "rulings": rulings}


def test_the_name_is_in_no_table_afterwards_and_results_are_identical(erase_season):  # noqa: F811
    season = erase_season
    assert _dump_hits(season.full_name), "the decorated season names the player somewhere"
    assert _split_name_hits(season.first_name, season.last_name)
    user_pk = season.player.user_id
    before = _results()

    erasure = person_erase(player=season.player, erased_by=None, how="command")

    assert _dump_hits(season.full_name, f"{season.last_name}, {season.first_name}", season.email,
                      season.user_email, "082 555 0123") == []
    assert _split_name_hits(season.first_name, season.last_name) == []
    assert _results() == before
    player = Player.objects.get(pk=season.player.pk)
    assert (player.first_name, player.last_name, player.full_name) == ("Former player", "1", "Former player 1")
    assert (player.email, player.phone, player.full_name_public, player.former_number) == ("", "", False, 1)
    assert player.erased_at is not None
    history = list(Player.history.filter(id=player.pk))
    assert len(history) >= 3 and {(h.first_name, h.last_name, h.email, h.phone) for h in history} == {
        ("Former player", "1", "", "")}
    assert history[0].history_change_reason == ERASE_REASON  # the newest row: says why, names no one
    # the erasure's own row: union, number, how, rows changed; no name anywhere in it
    assert (erasure.union_id, erasure.former_number, erasure.how, erasure.erased_by) == (
        player.union_id, 1, "command", None)
    assert erasure.rows_changed > 10
    assert season.full_name not in str(Erasure.objects.filter(pk=erasure.pk).values().get())
    # the account is closed and anonymised; what was only about the person is gone
    user = get_user_model().objects.get(pk=user_pk)
    assert (user.username, user.first_name, user.last_name, user.email, user.is_active) == (
        "former-player-cku-1", "", "", "", False)
    assert not user.has_usable_password()
    assert not TOTPDevice.objects.filter(user=user).exists() and not AuthToken.objects.filter(user=user).exists()
    assert not [s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(user_pk)]
    assert not AccessAttempt.objects.filter(username="captain").exists()
    assert not Invitation.objects.filter(player=player).exists()
    assert not Consent.objects.filter(player=player).exists()
    assert not OutboxMessage.objects.filter(task="office.invitation_email_send").exists()
    assert OutboxMessage.objects.get(task="clubs.ruling_email").args[3] == "Straf against Former player 1"
    # free text that copied the name now says "Former player 1", in the rows and in their history
    assert Ruling.objects.get(note__contains="claimed too late").note == (
        "Former player 1 claimed too late; Former player 1 agreed.")
    assert Ruling.history.filter(history_change_reason="note about Former player 1").exists()
    assert DisciplinaryRecord.objects.get(player=player).reason == "Former player 1 arrived after the toss."
    # the stored registry uploads: the person's row has the former name and no contacts; the others are as they were
    for upload in RegistryImport.objects.all():
        rows = registry_read(content=bytes(upload.content), file_name=upload.file_name)
        mine = [row for row in rows if row.registration_number == "CKU-0101"]
        assert [(r.first_name, r.last_name, r.email or "") for r in mine] == [("Former player", "1", "")], upload
        assert len(rows) == Player.objects.filter(union=player.union).count()
        assert {(r.first_name, r.last_name) for r in rows if r.registration_number == "CKU-0102"} == {
            (p.first_name, p.last_name) for p in Player.objects.filter(registration_number="CKU-0102")}
        assert upload.summary["rows"][0]["first_name"] == "Former player" and upload.summary["rows"][0]["email"] == ""


def test_a_second_erasure_is_refused_and_numbers_count_up(erase_season):  # noqa: F811
    person_erase(player=erase_season.player, erased_by=None, how="page")
    with pytest.raises(ErasureRefused) as refused:
        person_erase(player=Player.objects.get(pk=erase_season.player.pk), erased_by=None, how="page")
    assert "already erased" in " ".join(refused.value.messages)
    assert Erasure.objects.count() == 1
    other = Player.objects.filter(union=erase_season.player.union, erased_at__isnull=True).first()
    assert person_erase(player=other, erased_by=None, how="page").former_number == 2
    assert Player.objects.get(pk=other.pk).full_name == "Former player 2"
