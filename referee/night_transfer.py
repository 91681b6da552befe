"""The referee's part of a night file (matches/nightfile/): straf claims with their disputed hands and rulings.

``matches`` must not import ``referee``, so this section is plugged into the night file by
:func:`night_claims_register`, called from ``RefereeConfig.ready()``: the referee app, which may import both,
composes the file.

Section ``claims``: a list, in the order the claims were logged, of ``{"key", "table", "half", "claimant_side",
"claimant_role", "accused_role", "offence", "rules", "moment", "note", "logged_by", "logged_at", "hand", "ruling"}``.
``key`` is the claim's UUID (``StrafClaim.key``, the same in every installation); ``hand`` is the disputed hand
(the engine's hand record and verdict) or ``null``; ``ruling`` the referee's ruling with ``boem_entry``, the
sequence of the line it wrote on the table's sheet, or ``null`` while "af" waits for the referee. People are
usernames.

Import: a claim the server lacks is added (an open one stops its table's goings-on, SAKBOC 1.10, as at the hall);
a claim open here that the file has ruled gets its ruling (and hand); anything else that differs, or a claim here
that the file does not have, is a conflict naming the table and the time "af" was said. Who logged a claim (when
not the table's device), started its disputed hand and ruled on it is the match's referee or marker, as the
referee's pages require (:meth:`matches.nightfile.imports.NightImport.official_act_check`): anyone else refuses the
file, naming the claim and the person (issue 35).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.utils import timezone

from matches.models import Match
from matches.night import boem_sheet
from matches.nightfile.format import ExportRefs, NightFileError, NightSection, instant, night_section_register
from matches.nightfile.imports import NightImport
from referee.models import DisputedHand, Ruling, StrafClaim


def _claims_export(match: Match, refs: ExportRefs) -> list[dict[str, Any]]:
    claims = (StrafClaim.objects.filter(match=match)
              .select_related("table", "logged_by", "disputed_hand__created_by", "ruling__referee",
                              "ruling__boem_entry").order_by("logged_at", "key"))
    out = []
    for claim in claims:
        hand = getattr(claim, "disputed_hand", None)
        ruling = getattr(claim, "ruling", None)
        out.append({
            "key": str(claim.key), "table": claim.table.number, "half": claim.half,
            "claimant_side": claim.claimant_side, "claimant_role": claim.claimant_role,
            "accused_role": claim.accused_role, "offence": claim.offence, "rules": claim.rules,
            "moment": claim.moment, "note": claim.note, "logged_by": refs.user(claim.logged_by),
            "logged_at": instant(claim.logged_at),
            "hand": None if hand is None else {
                "record": hand.record, "home_seats": hand.home_seats, "status": hand.status, "source": hand.source,
                "verdict": hand.verdict, "created_by": refs.user(hand.created_by),
                "created_at": instant(hand.created_at), "adjudicated_at": instant(hand.adjudicated_at),
            },
            "ruling": None if ruling is None else {
                "decision": ruling.decision, "engine_decision": ruling.engine_decision,
                "overrule_reason": ruling.overrule_reason, "punished_side": ruling.punished_side,
                "points": ruling.points, "clause": ruling.clause, "claimed_points": ruling.claimed_points,
                "note": ruling.note, "boem_entry": ruling.boem_entry.sequence if ruling.boem_entry else None,
                "referee": refs.user(ruling.referee), "recorded_at": instant(ruling.recorded_at),
            },
        })
    return out


def _claim_where(context: NightImport, data: dict[str, Any]) -> str:
    at = context.instant(data["logged_at"], "claims.logged_at")
    said = timezone.localtime(at).strftime("%H:%M") if at else "?"
    return context.where(f"table {data['table']}", f"'af' logged at {said}")


def _hand_create(context: NightImport, claim: StrafClaim, data: dict[str, Any], where: str) -> None:
    context.official_act_check(data["created_by"], where, "hand entered by")
    hand = DisputedHand(claim=claim, record=data["record"], home_seats=data["home_seats"], status=data["status"],
                        source=data["source"], verdict=data["verdict"], created_by=context.user(data["created_by"]),
                        adjudicated_at=context.instant(data["adjudicated_at"], "claims.hand.adjudicated_at"))
    hand.full_clean(exclude=["claim"])
    hand._history_user = context.by  # type: ignore[attr-defined]
    hand.save()
    DisputedHand.objects.filter(pk=hand.pk).update(
        created_at=context.instant(data["created_at"], "claims.hand.created_at"))


def _ruling_create(context: NightImport, claim: StrafClaim, data: dict[str, Any], where: str) -> None:
    context.official_act_check(data["referee"], where, "ruled by")
    entry = context.line(claim.table.number, data["boem_entry"])
    if data["boem_entry"] is not None and entry is None:
        raise NightFileError(f"Section claims: a ruling wrote line {data['boem_entry']} at table {claim.table.number}, "
                             "which is not on the file's sheet.")
    ruling = Ruling(claim=claim, decision=data["decision"], engine_decision=data["engine_decision"],
                    overrule_reason=data["overrule_reason"], punished_side=data["punished_side"],
                    points=data["points"], clause=data["clause"], claimed_points=data["claimed_points"],
                    note=data["note"], boem_entry=entry, referee=context.user(data["referee"]))
    ruling.full_clean(exclude=["claim"])
    ruling._history_user = context.by  # type: ignore[attr-defined]
    ruling.save()
    Ruling.objects.filter(pk=ruling.pk).update(recorded_at=context.instant(data["recorded_at"], "claims.recorded_at"))


def _claims_merge(context: NightImport, claims: list[dict[str, Any]]) -> None:
    match = context.match
    assert match is not None  # the claims merge once the match is locked
    here = {c["key"]: c for c in context.before["claims"]}
    theirs = {c["key"]: c for c in claims}
    for key, mine in here.items():
        if key not in theirs:
            context.conflict(_claim_where(context, mine), "this straf claim is here and not in the file.")
    for key, data in theirs.items():
        where = _claim_where(context, data)
        try:
            uuid.UUID(key)
        except ValueError:
            raise NightFileError(f"Section claims: {key!r} is not a claim's key.") from None
        table = context.table(data["table"])
        if table is None:
            context.conflict(where, "the file has a straf claim at a table it does not list.")
            continue
        mine = here.get(key)
        if mine == data:
            continue
        if mine is None:
            context.official_act_check(data["logged_by"], where, "logged by")
            claim = StrafClaim(
                key=key, match=match, table=table, half=data["half"], claimant_side=data["claimant_side"],
                claimant_role=data["claimant_role"], accused_role=data["accused_role"], offence=data["offence"],
                rules=data["rules"], moment=data["moment"], note=data["note"],
                logged_by=context.user(data["logged_by"]),
            )
            claim.full_clean(exclude=["key"])
            claim._history_user = context.by  # type: ignore[attr-defined]
            claim.save()
            StrafClaim.objects.filter(pk=claim.pk).update(logged_at=context.instant(data["logged_at"], where))
            if data["hand"] is not None:
                _hand_create(context, claim, data["hand"], where)
            if data["ruling"] is not None:
                _ruling_create(context, claim, data["ruling"], where)
            else:
                boem_sheet.straf_claim_opened(match=match, table_number=table.number)
            state = data["ruling"]["decision"] if data["ruling"] else "open"
            team = match.home.name if data["claimant_side"] == "home" else match.away.name
            context.add(f"table {table.number}: straf claim ('af') by {team}'s {data['claimant_role']}, {state}")
            continue
        same_claim = {k: v for k, v in mine.items() if k not in ("hand", "ruling")} == \
            {k: v for k, v in data.items() if k not in ("hand", "ruling")}
        hand_ok = mine["hand"] is None or mine["hand"] == data["hand"]
        if not same_claim or not hand_ok or mine["ruling"] is not None:
            context.conflict(where, "the straf claim here differs from the file's (its offence, hand or ruling).")
            continue
        claim = StrafClaim.objects.select_related("table").get(key=key)
        if mine["hand"] is None and data["hand"] is not None:
            _hand_create(context, claim, data["hand"], where)
            context.add(f"table {table.number}: the disputed hand of a straf claim")
        if data["ruling"] is not None:
            _ruling_create(context, claim, data["ruling"], where)
            boem_sheet.straf_claim_closed(match=match, table_number=table.number)
            context.add(f"table {table.number}: ruling on a straf claim ({data['ruling']['decision']})")


def night_claims_register() -> None:
    """Put the ``claims`` section in every night file (``RefereeConfig.ready()``)."""
    night_section_register(NightSection(name="claims", export=_claims_export, merge=_claims_merge))
