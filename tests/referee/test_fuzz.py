"""Bad input (issue 8): hand records mutated by hypothesis are refused with a message that names where, never
with a crash, and a refused upload leaves the referee's records as they were.

The strategies start from the documented examples (``docs/examples/*.json``) and damage them the ways a
hand-typed or half-saved file is damaged: a field dropped, duplicated or of the wrong type, a card that is not
a card, a seat out of range, a huge number, unicode, junk nested deep, JSON text cut short or nested past any
sane depth. Whatever comes out:

* ``engine.parse_record`` and ``engine.adjudicate`` return, or raise ``HandRecordError`` (a ``ValueError``
  whose ``problems`` each start with where: ``"events[7].card: 'XZ' is not a card"``), never anything else
  (docs/hand-record.md);
* the referee console's upload answers 400 with the engine's first problem on the page (SAKBOC 1.10: the
  referee decides from a record that is readable), and no row of the referee's models (claims, hands, rulings,
  queries, their history) is added or changed;
* ``manage.py adjudicate`` exits 2 and prints the problems (docs/engine.md).

Example counts are modest (``FUZZ_EXAMPLES`` scales them for a longer hunt: ``FUZZ_EXAMPLES=20`` is 20 times).
"""

from __future__ import annotations

import copy
import html
import io
import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import HandRecordError
from referee.hand_problems import record_problems_in_words

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "docs" / "examples"
EXAMPLES = {p.name: json.loads(p.read_text()) for p in sorted(EXAMPLES_DIR.glob("*.json"))}
SCALE = int(os.environ.get("FUZZ_EXAMPLES", "1"))
HUGE = "<a number of 5000 digits>"  # a placeholder in a document; _dumps writes the digits in the text


def fuzz_settings(n: int):
    return settings(max_examples=n * SCALE, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


# --- strategies -------------------------------------------------------------------------------------------

_scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([-1, 4, 5, 33, 2**31, 2**63, -(2**63), 10**300]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["", "XZ", "10H", "AS ", "as", "ＡＳ", "\u0000", "\ud800", "Ωμέγα", "🂡", "7C\n", "null"]),
)
# junk: scalars, or lists and objects of junk, a few levels deep
_junk = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12,
)
_bad_cards = st.one_of(
    st.sampled_from(["XZ", "1S", "AX", "A", "ASS", "", "ts", "T♠", "10D", "JJ", "KS"]),
    st.text(min_size=0, max_size=3),
)


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (keys and indices) into a JSON document, the root's children first."""
    out = []
    if isinstance(doc, dict):
        items = list(doc.items())
    elif isinstance(doc, list):
        items = list(enumerate(doc))
    else:
        return out
    for key, value in items:
        out.append((*prefix, key))
        out.extend(_paths(value, (*prefix, key)))
    return out


def _parent(doc: Any, path: tuple) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


@st.composite
def mutated_records(draw) -> dict:
    """A documented example with one to three mutations at paths anywhere in it."""
    doc = copy.deepcopy(EXAMPLES[draw(st.sampled_from(sorted(EXAMPLES)))])
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = _parent(doc, path), path[-1]
        op = draw(st.sampled_from(["drop", "duplicate", "retype", "card", "seat", "huge", "unicode", "nest"]))
        if op == "drop":
            del parent[key]
        elif op == "duplicate":
            if isinstance(parent, list):
                parent.insert(key, copy.deepcopy(parent[key]))
            else:  # another field gets this field's value
                parent[draw(st.sampled_from(sorted(map(str, parent))))] = copy.deepcopy(parent[key])
        elif op == "retype":
            parent[key] = draw(_junk)
        elif op == "card":
            parent[key] = draw(_bad_cards)
        elif op == "seat":
            parent[key] = draw(st.sampled_from([-1, 4, 7, 255, "0", 0.5, True, None]))
        elif op == "huge":
            parent[key] = draw(st.sampled_from([10**100, -(10**100), 2**64, 1e308, -1e308, 10**4000, HUGE]))
        elif op == "unicode":
            parent[key] = draw(st.text(min_size=1, max_size=20))
        else:
            depth = draw(st.integers(1, 60))
            junk: Any = draw(_junk)
            for _ in range(depth):
                junk = [junk] if depth % 2 else {"x": junk}
            parent[key] = junk
    return doc


def _dumps(doc: Any) -> str:
    """JSON text of a document; ``HUGE`` becomes a number of more digits than Python's ``int()`` converts."""
    return json.dumps(doc).replace(json.dumps(HUGE), "9" * 5000)


@st.composite
def damaged_texts(draw) -> str:
    """JSON text of a mutated record, or of a valid one, damaged as text: cut short, nested past any depth,
    numbers of thousands of digits, a duplicated key, stray bytes."""
    doc = draw(st.one_of(mutated_records(), st.sampled_from(list(EXAMPLES.values()))))
    text = _dumps(doc)
    op = draw(st.sampled_from(["truncate", "deep", "digits", "dupkey", "garbage", "plain"]))
    if op == "truncate":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    if op == "deep":
        depth = draw(st.sampled_from([1000, 100_000]))
        return text[:-1] + ', "meta": ' + "[" * depth + "]" * depth + "}"
    if op == "digits":
        return text[:-1] + ', "cut": ' + "9" * draw(st.sampled_from([4301, 20_000])) + "}"
    if op == "dupkey":
        return text[:-1] + ', "dealer": "seven", "dealer": 9}'
    if op == "garbage":
        cut = draw(st.integers(0, len(text)))
        return text[:cut] + draw(st.text(min_size=1, max_size=8)) + text[cut:]
    return text


# --- the engine -------------------------------------------------------------------------------------------


def _engine_outcome(data: Any) -> HandRecordError | None:
    """Run parse_record and adjudicate; return the HandRecordError (or None if the record is valid).

    Anything but a HandRecordError propagates and fails the test.
    """
    try:
        rec = engine.parse_record(data)
    except HandRecordError as error:
        _assert_names_where(error)
        return error
    try:
        engine.adjudicate(rec)
        engine.adjudicate(data)
    except HandRecordError as error:  # e.g. an unknown ruleset, or plays before trumps are made (relatives)
        _assert_names_where(error)
        return error
    return None


def _assert_names_where(error: HandRecordError) -> None:
    assert isinstance(error, ValueError) and error.problems
    for problem in error.problems:
        where, sep, what = problem.partition(": ")
        assert sep and where and what, f"problem without a place: {problem!r}"


@fuzz_settings(150)
@given(mutated_records())
def test_the_engine_refuses_mutated_records_only_with_hand_record_error(doc):
    _engine_outcome(doc)


@fuzz_settings(100)
@given(damaged_texts())
def test_the_engine_refuses_damaged_json_text_only_with_hand_record_error(text):
    _engine_outcome(text)
    _engine_outcome(text.encode("utf-8", "surrogatepass"))


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,                                  # nesting past the recursion limit
    '{"cut": ' + "9" * 5000 + "}",                                  # more digits than int() converts
    '{"events": [{"type": ["play"], "seat": 0, "card": "KS"}]}',    # an unhashable event type
    b"\xff\xfe\x00",                                                # not UTF-8
    "",
])
def test_known_crashers_are_refused_with_a_place(text):
    error = _engine_outcome(text)
    assert isinstance(error, HandRecordError)


def test_every_documented_example_is_valid():
    """The strategies start from valid records: mutations, not the examples, make them bad."""
    assert len(EXAMPLES) >= 5
    for name, doc in EXAMPLES.items():
        assert _engine_outcome(doc) is None, name


# --- the referee console's upload and ``manage.py adjudicate`` -------------------------------------------


def _referee_rows() -> dict[str, tuple]:
    """Row counts and the newest row's id and (for records) contents of every referee model and its history."""
    from django.apps import apps

    rows = {}
    for model in apps.get_app_config("referee").get_models():
        qs = model.objects.order_by("-pk")
        last = qs.values().first()
        rows[model._meta.label] = (qs.count(), json.dumps(last, default=str, sort_keys=True))
    return rows


@pytest.fixture
def upload_claim(db):
    """A straf claim at table 1 of a started match night, and its referee (as tests/referee/conftest.py)."""
    from referee import services
    from tests.factories import UserFactory, match_started

    referee = UserFactory(username="fuzz-referee")
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_started(start=start, referee=referee, by=referee)
    claim = services.straf_claim_log(match=match, table_number=1, claimant_side="home", claimant_role="telman",
                                     accused_role="telman", offence="versak", by=referee)
    return referee, claim


@fuzz_settings(30)
@given(text=st.one_of(damaged_texts(), mutated_records().map(_dumps)))
def test_a_bad_upload_answers_400_with_the_problem_and_changes_nothing(client, upload_claim, text):
    referee, claim = upload_claim
    client.force_login(referee)
    error = _engine_outcome(text)
    before = _referee_rows()
    with transaction.atomic():  # a record the engine accepts may be taken: roll it back for the next example
        response = client.post(
            reverse("referee:hand_upload", args=[claim.pk]),
            {"home_seats": "even",
             "record": SimpleUploadedFile("hand.json", text.encode("utf-8", "surrogatepass"), "application/json")},
        )
        if error is not None:
            assert response.status_code == 400, response.status_code
            page = response.content.decode()
            try:
                record = json.loads(text.encode("utf-8", "surrogatepass"))  # as the page reads the file
            except (ValueError, RecursionError):
                record = None
            in_words = record_problems_in_words(error.problems[:1], record=record, home_seats="even",
                                                match=claim.match)[0]
            shown = [html.escape(in_words), "The file is not JSON", "is not a hand record",
                     "The submitted file is empty"]  # the engine's problem in words, or the service's or form's word
            assert 'id="upload-errors"' in page and any(message in page for message in shown), page[-3000:]
            assert _referee_rows() == before
        else:
            assert response.status_code in (302, 400)
            if response.status_code == 400:
                assert _referee_rows() == before
        transaction.set_rollback(True)
    assert _referee_rows() == before


@fuzz_settings(30)
@given(text=st.one_of(damaged_texts(), mutated_records().map(_dumps)))
def test_manage_py_adjudicate_exits_2_with_the_problems(db, text):
    error = _engine_outcome(text)
    before = _referee_rows()
    out, err = io.StringIO(), io.StringIO()
    status = 0
    try:
        call_command("adjudicate", "-", stdin=io.StringIO(text), stdout=out, stderr=err)
    except SystemExit as exit_:
        status = exit_.code
    if error is not None:
        assert status == 2 and "not a valid hand record" in err.getvalue()
        assert error.problems[0] in err.getvalue()
    else:
        assert status in (0, 1) and out.getvalue()
    assert _referee_rows() == before


# --- the API: a rejected write changes nothing -------------------------------------------------------------
#
# tests/klawerjas_league/test_schemathesis.py proves no request answers 500. Here every write operation (POST, PATCH,
# DELETE; not the token exchange, whose failed sign-ins django-axes records on purpose) gets bodies and ids
# from schemathesis, valid and invalid (positive and negative generation), as the anonymous public (403) and
# as a superuser (400, 404, 409 from the serializers and the services). Whenever the answer is a 4xx, every
# league table (row counts and a checksum of every row in primary-key order) is as it was: each write is one
# transaction (docs/league.md), so a refused one leaves nothing behind. Accepted writes are rolled back.

import hashlib  # noqa: E402

import schemathesis  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402

from klawerjas_league.wsgi import application  # noqa: E402
from tests.klawerjas_league.test_schemathesis import seeded  # noqa: E402, F401  (the fixture: a world and a superuser's token)


@pytest.fixture
def wsgi_keeps_the_connection():
    """Schemathesis calls the WSGI handler directly, which closes the database connection after each request
    (``close_old_connections``), losing the test's transaction on PostgreSQL; Django's test client disconnects
    the same handlers, and reconnects them after each of its requests, so this is per test, not per module."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)

write_schema = (
    schemathesis.openapi.from_wsgi("/api/schema/", application)
    .include(method=["POST", "PATCH", "PUT", "DELETE"])
    .exclude(path="/api/auth/token/")
)
write_schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
write_schema.config.phases.update(phases=["examples", "fuzzing"])  # not the coverage phase: ~40 cases each
LEAGUE_APPS = ("auth", "knox", "klawerjas_league", "clubs", "matches", "referee")


def league_snapshot() -> dict[str, tuple[int, str]]:
    """Each league table (users, groups, tokens, unions … rulings, their history and many-to-many tables):
    its row count and a SHA-256 of all its rows in primary-key order."""
    from django.apps import apps

    snapshot = {}
    for label in LEAGUE_APPS:
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            rows = list(model._base_manager.order_by("pk").values_list())
            digest = hashlib.sha256(repr(rows).encode()).hexdigest()
            snapshot[model._meta.db_table] = (len(rows), digest)
    return snapshot


REJECTED = {400, 401, 403, 404, 405, 409, 415}  # 401: a table device's endpoint without a table's key


_captain_token: list[str] = []  # the key world_snapshot made for union A's captain (knox keeps only its digest)


@pytest.fixture
def world_snapshot(seeded, db):  # noqa: F811
    """The seeded world's snapshot, with a token for union A's captain: every example starts from it (accepted
    writes are rolled back)."""
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    _captain_token.append(AuthToken.objects.create(user=get_user_model().objects.get(username="captain_A"))[1])
    return league_snapshot()


def _rejected_write_changes_nothing(case, before, headers=None) -> None:
    # schemathesis's WSGI transport asks for gzip but does not unpack it (a real client does): ask for plain text
    headers = {"Accept-Encoding": "identity", **(headers or {})}
    with transaction.atomic():
        response = case.call(headers=headers)
        status = response.status_code
        assert status < 500, f"{case.method} {case.formatted_path} -> {status}\n{case.body!r}\n{response.text[:800]}"
        if 400 <= status < 500:
            assert status in REJECTED, status
            assert response.text.strip(), "a refusal says why"
            assert league_snapshot() == before, (
                f"{case.method} {case.formatted_path} -> {status} changed the database\nbody={case.body!r}")
        transaction.set_rollback(True)  # an accepted write must not change the next example's world


API_SETTINGS = settings(max_examples=4, deadline=None, derandomize=True, database=None,
                        suppress_health_check=list(HealthCheck))


@write_schema.parametrize()
@API_SETTINGS
def test_a_rejected_anonymous_write_changes_nothing(case, world_snapshot, wsgi_keeps_the_connection):
    _rejected_write_changes_nothing(case, world_snapshot)


@write_schema.parametrize()
@API_SETTINGS
def test_a_rejected_signed_in_write_changes_nothing(case, seeded, world_snapshot,  # noqa: F811
                                                    wsgi_keeps_the_connection):
    _rejected_write_changes_nothing(case, world_snapshot, headers={"Authorization": f"Token {seeded}"})


# The schema's generator mostly picks ids that do not exist (404). Here the ids are the seeded world's own
# (both unions' players, teams, competitions and matches in every state), the bodies hypothesis's, so the
# requests reach the serializers' field checks and the services' rules (400, 403, 404, and 409 for a stale
# team-sheet version), as a superuser and as union A's captain (union B's objects are not theirs: 404).

WRITES = [  # (method, path with {kind} placeholders, body fields)
    ("post", "/api/players/", ["club", "registration_number", "first_name", "last_name"]),
    ("patch", "/api/players/{player}/", ["first_name", "last_name", "active"]),
    ("post", "/api/competitions/{competition}/teams/", ["club", "name", "players", "captain"]),
    ("delete", "/api/competitions/{competition}/teams/{team}/", []),
    ("post", "/api/competitions/{competition}/entries/", ["open"]),
    ("post", "/api/unions/{union}/referees/", ["user"]),
    ("delete", "/api/unions/{union}/referees/{user}/", []),
    ("post", "/api/fixtures/{match}/result/", ["home_score", "away_score", "reason"]),
    ("post", "/api/fixtures/{match}/dispute/", ["reason"]),
    ("post", "/api/teams/{team}/players/", ["player"]),
    ("delete", "/api/teams/{team}/players/{player}/", []),
    ("post", "/api/teams/{team}/captain/", ["player"]),
    ("post", "/api/fixtures/{match}/team-sheet/", ["team", "partnerships", "version"]),
    ("post", "/api/fixtures/{match}/substitutions/", ["team", "player_out", "player_in", "role"]),
    ("post", "/api/fixtures/{match}/confirm/", []),
    ("post", "/api/fixtures/{match}/approve/", ["reason"]),
    ("post", "/api/fixtures/{match}/officials/", ["referee", "marker"]),
    ("post", "/api/fixtures/", ["competition", "home", "away", "scheduled_start", "venue", "round_number"]),
    ("post", "/api/competitions/", ["union", "name", "season", "kind", "starts_on"]),
    ("post", "/api/competitions/{competition}/fixtures/", ["start", "kickoff", "days_between_rounds"]),
    ("post", "/api/competitions/{competition}/standings/", ["title", "as_of"]),
]
ID_KINDS = {"player": "clubs.Player", "player_out": "clubs.Player", "player_in": "clubs.Player",
            "telman": "clubs.Player", "byspeler": "clubs.Player", "team": "clubs.Team", "home": "clubs.Team",
            "away": "clubs.Team", "club": "clubs.Club", "union": "clubs.Union", "match": "matches.Match",
            "competition": "matches.Competition", "referee": "auth.User", "marker": "auth.User",
            "user": "auth.User", "captain": "clubs.Player"}
_plausible = st.sampled_from(["2026-02-04", "2026-02-04T19:30:00+02:00", "19:30", "league", "cup", "telman",
                              "byspeler", "A. Name", "2026", "R-001", 0, 1, 3, 4, 7, True, False, None, ""])


@st.composite
def world_writes(draw, ids: dict[str, list[int]]):
    """A write endpoint with real ids in its path, and a body of real ids, plausible values and junk."""
    method, template, fields = draw(st.sampled_from(WRITES))
    value_of = {kind: st.sampled_from(ids[ID_KINDS[kind]]) | st.integers(-1, 10**10) for kind in ID_KINDS}
    path = template
    for kind in ("player", "team", "match", "competition", "union", "user"):
        path = path.replace("{" + kind + "}", str(draw(value_of[kind].filter(lambda i: i >= 0))))
    body = {}
    for field in draw(st.lists(st.sampled_from(fields), unique=True)) if fields else []:
        if field == "partnerships":
            body[field] = draw(st.lists(st.fixed_dictionaries(
                {"table": st.integers(0, 5), "telman": value_of["telman"], "byspeler": value_of["byspeler"]},
                optional={"extra": _junk}) | _junk, max_size=5))
        elif field == "players":
            body[field] = draw(st.lists(value_of["player"], max_size=10) | _junk)
        elif field in ID_KINDS:
            body[field] = draw(value_of[field] | _junk)
        else:
            body[field] = draw(_plausible | _junk)
    return method, path, draw(st.sampled_from([body, body, body, draw(_junk)]))


@pytest.fixture
def world_ids(seeded, db):  # noqa: F811
    from django.apps import apps

    return {label: list(apps.get_model(label).objects.order_by("pk").values_list("pk", flat=True))
            for label in set(ID_KINDS.values())}


@fuzz_settings(40)
@given(data=st.data())
def test_bad_bodies_on_real_objects_are_refused_and_change_nothing(client, seeded, world_snapshot,  # noqa: F811
                                                                    world_ids, data):
    method, path, body = data.draw(world_writes(world_ids))
    key = data.draw(st.sampled_from([seeded, _captain_token[-1]]))
    headers = {"HTTP_AUTHORIZATION": f"Token {key}"}
    with transaction.atomic():
        response = getattr(client, method)(path, data=json.dumps(body, allow_nan=True),
                                           content_type="application/json", **headers)
        status = response.status_code
        assert status < 500, f"{method.upper()} {path} {body!r} -> {status}"
        if 400 <= status < 500:
            assert status in REJECTED and response.content.strip(), status
            assert league_snapshot() == world_snapshot, f"{method.upper()} {path} {body!r} -> {status} changed data"
        transaction.set_rollback(True)
