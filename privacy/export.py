"""Everything the installation holds on one person, as JSON-able data (POPIA s23: a person's right of access).

:func:`person_export` gathers, for a registered player (and the account linked to them), every row that names
them, from an inventory of the models that point at ``clubs.Player`` or at the user model:

* ``player``: the registry row (union, club, registration number, national number, names, date of birth, e-mail,
  phone, active, public-name
  answer, erasure); ``history``: every django-simple-history row of it (when, what kind, who, why, the values);
* ``consents`` (privacy.Consent); ``team_memberships`` (clubs.TeamMembership) and ``teams_captained``
  (clubs.Team.captain); ``transfers`` (clubs.Transfer); ``inter_union_transfers`` (clubs.InterUnionTransfer: each
  step of a move between unions); ``disciplinary_records`` (clubs.DisciplinaryRecord:
  warnings, fines, suspensions);
* ``team_sheets``: each seat on a match's team sheet (matches.Seat: match, date, table, role, partner);
  ``substitutions`` (matches.Substitution, in or out); ``boem_entries`` the player claimed, confirmed or disputed
  (matches.BoemEntry); ``awards`` naming the player (matches.Award);
* ``straf_claims``: the referee app's claims made by or against the player's seat (referee.StrafClaim), each with
  its ruling (referee.Ruling); ``appeals`` of those rulings or lodged or decided by the account (appeals.Appeal);
* ``records``: the player's lines in the records (records.RecordLine: each table of each approved night);
* ``drives``: drive entries, drive tables and byes (drives.DriveEntry, DriveTable, DriveBye);
* ``invitations`` to the player or their address (office.Invitation); ``outbox_messages`` that send those
  invitations or name the address (klawerjas_league.OutboxMessage);
* ``account`` (when linked): username, e-mail, names, date joined, last sign-in, active, groups, roles (union
  official, referee, club secretary, appeals committee), two-step devices by name only, API tokens (when made and
  until when; never the token), the language chosen, sign-in attempts and sign-ins under the username
  (axes.AccessAttempt, AccessLog, AccessFailureLog), matches refereed or marked, rulings given, team sheets
  submitted, results confirmed and disputed (matches.Match, matches.ResultDispute).

Never included: password hashes, two-step secrets, token digests, session contents, other people's e-mail or
phone. Names of partners and opponents appear as the league's own pages show them.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db.models import Model, Q
from django.utils import timezone

from clubs.models import DisciplinaryRecord, InterUnionTransfer, Player, Team, TeamMembership, Transfer
from matches.models import Award, BoemEntry, Seat, Substitution
from privacy.models import Consent

#: Bumped when a section changes shape, so a reader of an old download knows what it holds.
EXPORT_FORMAT = 1


def _value(value: Any) -> Any:
    """A JSON-able value: datetimes and dates in ISO 8601 (UTC for datetimes), decimals as strings, rows as text."""
    if isinstance(value, dt.datetime):
        return timezone.localtime(value, dt.UTC).isoformat() if timezone.is_aware(value) else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Model):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _value(v) for k, v in value.items()}
    return value


def _row(**values: Any) -> dict[str, Any]:
    return {key: _value(value) for key, value in values.items()}


def _match(match: Any) -> str:
    return f"{match.home.name} v {match.away.name}"


def _player_row(player: Player) -> dict[str, Any]:
    return _row(union=player.union.name, club=player.club.name, registration_number=player.registration_number,
                national_number=player.national_number, date_of_birth=player.date_of_birth,
                first_name=player.first_name, last_name=player.last_name, email=player.email, phone=player.phone,
                active=player.active, full_name_public=player.full_name_public, account=(
                    player.user.username if player.user is not None else None),
                erased_at=player.erased_at, former_number=player.former_number)


def _history(player: Player) -> list[dict[str, Any]]:
    rows = Player.history.filter(id=player.pk).select_related("history_user", "club").order_by("history_date")
    return [_row(when=h.history_date, change={"+": "created", "~": "changed", "-": "deleted"}.get(h.history_type),
                 by=h.history_user.username if h.history_user_id else None, reason=h.history_change_reason or "",
                 first_name=h.first_name, last_name=h.last_name, email=h.email, phone=h.phone,
                 date_of_birth=h.date_of_birth, active=h.active,
                 club=h.club.name if h.club_id else None, registration_number=h.registration_number)
            for h in rows]


def _seats(player: Player) -> list[Seat]:
    return list(Seat.objects.filter(player=player).select_related(
        "sheet__match__home", "sheet__match__away", "sheet__match__competition", "sheet__team")
        .order_by("sheet__match__scheduled_start", "table_number"))


def _team_sheets(seats: list[Seat]) -> list[dict[str, Any]]:
    partners = {(s.sheet_id, s.table_number, s.role): s.player for s in Seat.objects.filter(
        sheet_id__in={s.sheet_id for s in seats}).select_related("player")}
    rows = []
    for seat in seats:
        other_role = Seat.Role.BYSPELER if seat.role == Seat.Role.TELMAN else Seat.Role.TELMAN
        partner = partners.get((seat.sheet_id, seat.table_number, other_role))
        match = seat.sheet.match
        rows.append(_row(match=_match(match), competition=match.competition.name, date=match.scheduled_start,
                         team=seat.sheet.team.name, table=seat.table_number, role=seat.get_role_display(),
                         partner=partner.full_name if partner else None, called_away_at=seat.called_away_at))
    return rows


def _straf_claims(seats: list[Seat]) -> tuple[list[dict[str, Any]], list[int]]:
    """Claims made by or against the player's seats, with their rulings; and the rulings' ids (for appeals)."""
    from referee.models import StrafClaim

    rows, ruling_ids = [], []
    for seat in seats:
        match = seat.sheet.match
        side = "home" if seat.sheet.team_id == match.home_id else "away"
        other = "away" if side == "home" else "home"
        mine = Q(claimant_side=side, claimant_role=seat.role)
        against = Q(claimant_side=other, accused_role=seat.role)
        claims = (StrafClaim.objects.filter(match=match, table__number=seat.table_number).filter(mine | against)
                  .select_related("ruling").order_by("logged_at"))
        for claim in claims:
            ruling = getattr(claim, "ruling", None)
            if ruling is not None:
                ruling_ids.append(ruling.pk)
            rows.append(_row(
                match=_match(match), date=match.scheduled_start, table=seat.table_number, half=claim.half,
                by_the_player=claim.claimant_side == side, offence=claim.offence, note=claim.note,
                logged_at=claim.logged_at,
                ruling=None if ruling is None else _row(decision=ruling.get_decision_display(),
                                                        points=ruling.points, clause=ruling.clause,
                                                        note=ruling.note, recorded_at=ruling.recorded_at)))
    return rows, ruling_ids


def _appeals(*, ruling_ids: list[int], user: Any) -> list[dict[str, Any]]:
    from appeals.models import Appeal

    which = Q(ruling_id__in=ruling_ids)
    if user is not None:
        which |= Q(lodged_by=user) | Q(decided_by=user)
    return [_row(match=_match(a.match), team=a.team.name, lodged_at=a.lodged_at, grounds=a.grounds,
                 status=a.get_status_display(), reasons=a.reasons, decided_at=a.decided_at)
            for a in Appeal.objects.filter(which).select_related("match__home", "match__away", "team").distinct()]


def _records(player: Player) -> list[dict[str, Any]]:
    from records.models import RecordLine

    lines = (RecordLine.objects.filter(player=player).select_related("match__home", "match__away", "partner")
             .order_by("match__scheduled_start", "table_number", "half"))
    return [_row(match=_match(line.match), date=line.match.scheduled_start, table=line.table_number,
                 half=line.half, role=line.get_role_display(), partner=line.partner.full_name,
                 boems_won=line.boems_won, boems_lost=line.boems_lost, strokes_for=line.strokes_for,
                 strokes_against=line.strokes_against, five_to_nils=line.five_to_nils,
                 strafs_claimed=line.strafs_claimed, wrong_strafs_claimed=line.wrong_strafs_claimed,
                 strafs_conceded=line.strafs_conceded) for line in lines]


def _drives(player: Player) -> list[dict[str, Any]]:
    from drives.models import DriveBye, DriveEntry, DriveTable

    rows = [_row(kind="entry", drive=e.drive.name, season=e.drive.season, when=e.entered_at,
                 partner=(e.partner.full_name if e.partner is not None and e.partner_id != player.pk
                          else e.player.full_name if e.player_id != player.pk else None))
            for e in DriveEntry.objects.filter(Q(player=player) | Q(partner=player)).select_related(
                "drive", "player", "partner")]
    seats = Q(seat0=player) | Q(seat1=player) | Q(seat2=player) | Q(seat3=player)
    rows += [_row(kind="table", drive=t.round.night.drive.name, night=t.round.night.number, date=t.round.night.date,
                  round=t.round.number, table=t.number, points=[t.points0, t.points1])
             for t in DriveTable.objects.filter(seats).select_related("round__night__drive")]
    rows += [_row(kind="bye", drive=b.round.night.drive.name, night=b.round.night.number, date=b.round.night.date,
                  round=b.round.number)
             for b in DriveBye.objects.filter(player=player).select_related("round__night__drive")]
    return rows


def _invitations_and_outbox(*, player: Player | None, user: Any) -> tuple[list[dict], list[dict]]:
    from office.invitations import INVITATION_SEND_TASK
    from office.models import Invitation
    from plumbing.models import OutboxMessage

    addresses = {a.lower() for a in ((player.email if player else ""), (user.email if user else "")) if a}
    which = Q(email__in=addresses)
    if player is not None:
        which |= Q(player=player)
    if user is not None:
        which |= Q(accepted_by=user)
    invitations = list(Invitation.objects.filter(which).select_related("union", "club").distinct())
    ids = {i.pk for i in invitations}
    messages = [m for m in OutboxMessage.objects.filter(task=INVITATION_SEND_TASK) if m.args
                and m.args[0] in ids]
    for address in addresses:
        messages += list(OutboxMessage.objects.filter(Q(args__icontains=address) | Q(key__icontains=address)))
    return (
        [_row(union=i.union.name, role=i.get_role_display(), club=i.club.name if i.club is not None else None,
              email=i.email, first_name=i.first_name, last_name=i.last_name, created_at=i.created_at, sent_at=i.sent_at,
              expires_at=i.expires_at, accepted_at=i.accepted_at, revoked_at=i.revoked_at) for i in invitations],
        [_row(task=m.task, args=m.args, created_at=m.created_at, done_at=m.done_at)
         for m in {m.pk: m for m in messages}.values()],
    )


def account_export(*, user: Any) -> dict[str, Any]:
    """The account's own data (POPIA s23): profile, groups, roles, two-step devices by name, API tokens' dates,
    language, sign-in attempts and the things done under it. Never a password hash, secret or token."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog
    from django_otp import devices_for_user
    from knox.models import AuthToken

    from matches.models import Match, ResultDispute, TeamSheet
    from plumbing.models import UserLanguage
    from referee.models import Ruling

    roles = ([_row(role="union official", of=link.union.name) for link in user.union_official_links.all()]
             + [_row(role="referee", of=link.union.name) for link in user.union_referee_links.all()]
             + [_row(role="club secretary", of=link.club.name) for link in user.club_secretary_links.all()]
             + [_row(role="appeals committee", of=link.union.name) for link in user.appeals_committee_links.all()])
    language = UserLanguage.objects.filter(user=user).values_list("language", flat=True).first()
    attempts = [_row(kind=kind, when=a.attempt_time, address=a.ip_address, browser=a.user_agent)
                for kind, model in (("attempt", AccessAttempt), ("sign-in", AccessLog), ("failure", AccessFailureLog))
                for a in model.objects.filter(username=user.username)]
    matches = Match.objects.filter(Q(referee=user) | Q(marker=user)).select_related("home", "away")
    return _row(
        username=user.username, email=user.email, first_name=user.first_name, last_name=user.last_name,
        date_joined=user.date_joined, last_login=user.last_login, active=user.is_active,
        groups=sorted(g.name for g in user.groups.all()), roles=roles,
        two_step_devices=[_row(name=d.name, kind=d._meta.verbose_name, confirmed=d.confirmed)
                          for d in devices_for_user(user, confirmed=None)],
        api_tokens=[_row(created=t.created, expiry=t.expiry) for t in AuthToken.objects.filter(user=user)],
        language=language, sign_in_attempts=attempts,
        matches_refereed=[_row(match=_match(m), date=m.scheduled_start,
                               role="referee" if m.referee_id == user.pk else "marker") for m in matches],
        rulings_given=[_row(match=_match(r.claim.match), decision=r.get_decision_display(), points=r.points,
                            recorded_at=r.recorded_at)
                       for r in Ruling.objects.filter(referee=user).select_related("claim__match__home",
                                                                                   "claim__match__away")],
        team_sheets_submitted=[_row(match=_match(s.match), team=s.team.name, submitted_at=s.submitted_at)
                               for s in TeamSheet.objects.filter(submitted_by=user).select_related(
                                   "match__home", "match__away", "team")],
        results_confirmed=[_row(match=_match(m), confirmed_at=m.confirmed_at) for m in Match.objects.filter(
            Q(home_confirmed_by=user) | Q(away_confirmed_by=user)).select_related("home", "away")],
        results_disputed=[_row(match=_match(d.match), team=d.team.name, reason=d.reason, raised_at=d.raised_at,
                               settled_at=d.settled_at)
                          for d in ResultDispute.objects.filter(raised_by=user).select_related(
                              "match__home", "match__away", "team")],
    )


def person_export(*, player: Player | None, user: Any = None) -> dict[str, Any]:
    """Everything held on ``player`` and their linked account (or on ``user`` alone when no player is linked), as
    a dict of JSON-able values; the sections are listed in this module's docstring (POPIA s23, right of access).

    ``user`` defaults to ``player.user``. Reads only; a few dozen queries for a player with a season behind them.
    """
    if user is None and player is not None and player.user_id:
        user = player.user
    data: dict[str, Any] = {"format": EXPORT_FORMAT, "exported_at": _value(timezone.now())}
    if player is None:
        data["player"] = None
        data["account"] = account_export(user=user) if user is not None else None
        invitations, outbox = _invitations_and_outbox(player=None, user=user)
        data["invitations"], data["outbox_messages"] = invitations, outbox
        return data
    player = Player.objects.select_related("union", "club", "user").get(pk=player.pk)
    seats = _seats(player)
    claims, ruling_ids = _straf_claims(seats)
    invitations, outbox = _invitations_and_outbox(player=player, user=user)
    data.update(
        player=_player_row(player),
        history=_history(player),
        consents=[_row(kind=c.kind, given=c.given, recorded_at=c.recorded_at, source=c.source,
                       recorded_by=c.recorded_by.username if c.recorded_by is not None else None)
                  for c in Consent.objects.filter(player=player).select_related("recorded_by").order_by("recorded_at")],
        team_memberships=[_row(team=m.team.name, club=m.team.club.name, competition=m.competition.name,
                               season=m.competition.season, joined_at=m.joined_at)
                          for m in TeamMembership.objects.filter(player=player).select_related(
                              "team__club", "competition")],
        teams_captained=[_row(team=t.name, competition=t.competition.name, season=t.competition.season)
                         for t in Team.objects.filter(captain=player).select_related("competition")],
        transfers=[_row(from_club=t.from_club.name, to_club=t.to_club.name, transferred_on=t.transferred_on,
                        note=t.note) for t in Transfer.objects.filter(player=player).select_related(
                            "from_club", "to_club")],
        inter_union_transfers=[_row(from_club=t.from_club.name, from_union=t.from_club.union.name,
                                    to_club=t.to_club.name, to_union=t.to_club.union.name,
                                    status=t.get_status_display(), note=t.note, reason=t.reason,
                                    asked_at=t.asked_at, cleared_at=t.cleared_at, decided_at=t.decided_at)
                               for t in InterUnionTransfer.objects.filter(player=player).select_related(
                                   "from_club__union", "to_club__union").order_by("asked_at")],
        disciplinary_records=[_row(offence=d.get_offence_display(), occurred_on=d.occurred_on, reason=d.reason,
                                   sanction=d.get_sanction_display(), fine_amount=d.fine_amount,
                                   fine_paid=d.fine_paid, suspension_match_nights=d.suspension_match_nights,
                                   starts_on=d.starts_on, recorded_at=d.recorded_at)
                              for d in DisciplinaryRecord.objects.filter(player=player)],
        team_sheets=_team_sheets(seats),
        substitutions=[_row(match=_match(s.match), table=s.table_number, role=s.get_role_display(),
                            player_in=s.player_in.full_name, player_out=s.player_out.full_name, made_at=s.made_at)
                       for s in Substitution.objects.filter(Q(player_in=player) | Q(player_out=player))
                       .select_related("match__home", "match__away", "player_in", "player_out")],
        boem_entries=[_row(match=_match(e.table.match), table=e.table.number, kind=e.get_kind_display(),
                           points=e.points, strokes=e.strokes, recorded_at=e.recorded_at,
                           claimed=e.claimed_by_id == player.pk, confirmed=e.confirmed_by_player_id == player.pk,
                           disputed=e.disputed_by_player_id == player.pk, dispute_reason=e.dispute_reason)
                      for e in BoemEntry.objects.filter(Q(claimed_by=player) | Q(confirmed_by_player=player)
                                                        | Q(disputed_by_player=player))
                      .select_related("table__match__home", "table__match__away").order_by("recorded_at")],
        awards=[_row(match=_match(a.match), kind=a.get_kind_display(), points=a.points, clause=a.clause,
                     note=a.note, created_at=a.created_at)
                for a in Award.objects.filter(player=player).select_related("match__home", "match__away")],
        straf_claims=claims,
        appeals=_appeals(ruling_ids=ruling_ids, user=user),
        records=_records(player),
        drives=_drives(player),
        invitations=invitations,
        outbox_messages=outbox,
        account=account_export(user=user) if user is not None else None,
    )
    return data
