"""A season run inside the site, in Chromium at 375 px, through pages only (issue 15):

an official opens a league for entries and puts referees on the union's list; two clubs' secretaries enter
teams; the official closes the entries, generates the fixtures and assigns a referee from the list (a
conflicted choice refused with its reason); after the match a captain disputes the result, the official
corrects the score with a reason and approves it; the standings are published once (a second publication is
refused); a cup's approved winner appears in the next round by itself.

The data is as long as the fields allow: club, team and competition names of 120 characters, a referee's
name of 301 (150 and 150), a dispute of 500. Every page of the walk must fit the phone: ``scrollWidth <= innerWidth``.
Screenshots go to artifacts/screenshots/test_a_season_run_through_its_pages/.
"""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.utils import timezone

from clubs.models import GROUP_CLUB_SECRETARIES, GROUP_UNION_OFFICIALS, ClubSecretary, UnionOfficial
from matches.models import Competition, Match, ResultDispute, StandingsSnapshot
from office.invitations import invitation_accept
from tests.e2e.conftest import page_fits
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, UnionFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "klawerjas-e2e"


def _long(word: str, length: int = 120) -> str:
    """A name exactly ``length`` long, words of ``word`` (one of them unbroken and long, as people type)."""
    text = f"{word}{'x' * 40} " + " ".join([word] * 40)
    return text[:length].strip()


def _as(page, sign_in, username: str) -> None:
    page.context.clear_cookies()
    sign_in(page, username, PASSWORD)


def _score(page, home: int, away: int, reason: str, *, then: str) -> None:
    """On the official's match page: enter or correct the score with a reason, and wait for ``then``."""
    page.fill("input[name=home_score]", str(home))
    page.fill("input[name=away_score]", str(away))
    page.fill("form:has(input[value=correct]) textarea[name=reason]", reason)  # not the reschedule form's
    page.click("form:has(input[value=correct]) button[type=submit]")
    page.wait_for_selector(f"text={then}")


def _user(username: str, first: str, last: str, group: str | None = None, **extra):
    user = UserFactory(username=username, first_name=first, last_name=last, password=PASSWORD, **extra)
    if group:
        user.groups.add(Group.objects.get(name=group))
    return user


def test_a_season_run_through_its_pages(page, screenshot, sign_in):
    union = UnionFactory(name="Suid-Kaap Klawerjas Unie", short_name="SKKU")
    official = _user("official", "Olivia", "Abrahams", GROUP_UNION_OFFICIALS)
    UnionOfficial.objects.create(union=union, user=official)
    clubs, secretaries, captains = [], [], []
    for n, word in enumerate(("Athlone", "Bonteheuwel"), start=1):
        club = ClubFactory(union=union, name=_long(word))
        secretary = _user(f"secretary{n}", f"Sec{n}", word, GROUP_CLUB_SECRETARIES, email=f"sec{n}@example.org")
        ClubSecretary.objects.create(club=club, user=secretary)
        captain = _user(f"captain{n}", f"Cap{n}", word)
        PlayerFactory(club=club, union=union, first_name=f"Cap{n}", last_name=word, user=captain)
        for _ in range(8):
            PlayerFactory(club=club, union=union)
        clubs.append(club)
        secretaries.append(secretary)
        captains.append(captain)
    league_name = _long("Premier")

    # --- The official creates the league, opens entries and fills the list of referees --------------------
    _as(page, sign_in, "official")
    page.goto("/official/")
    page_fits(page, "official-dashboard", screenshot)
    page.click("text=New competition")
    page.fill("input[name=name]", league_name)
    page.fill("input[name=season]", "2027")
    page.select_option("select[name=kind]", "league")
    page.click("main button[type=submit]")
    page.wait_for_selector("text=Open its entries when clubs may enter teams")
    page.click("text=Open entries")
    page.wait_for_selector("text=Entries are open.")
    page_fits(page, "entries-open", screenshot)
    league = Competition.objects.get(name=league_name)
    assert league.entries_open

    page.click("main >> text=referees")
    page.fill("input[name=first_name]", "Yusuf" + "y" * 145)
    page.fill("input[name=last_name]", "Isaacs" + "s" * 144)
    page.fill("input[name=email]", "yusuf@example.org")
    page.click("form:has(input[name=email]) button[type=submit]")
    page.wait_for_selector("text=has been e-mailed an invitation to choose a password")
    # The referee accepts from the e-mail's link (the union office's walk does it in the browser).
    link = re.search(r"/invitations/(\S+)/", mail.outbox[-1].body).group(1)
    invitation_accept(token=link, username="yusuf", password="hand-of-trumps-9")
    page.fill("input[name=first_name]", "Sec1")
    page.fill("input[name=last_name]", "Athlone")
    page.fill("input[name=email]", "sec1@example.org")  # an account already: found by e-mail
    page.click("form:has(input[name=email]) button[type=submit]")
    page.wait_for_selector("text=Sec1 Athlone is on")
    page_fits(page, "union-referees", screenshot)
    referee = union.referee_links.get(user__email="yusuf@example.org").user
    assert len(referee.get_full_name()) == 301  # 150 + a space + 150

    # --- Two secretaries enter their teams ---------------------------------------------------------------
    team_names = [_long("Aces"), _long("Boere")]
    for n, captain_name in enumerate(("Cap1 Athlone", "Cap2 Bonteheuwel"), start=1):
        _as(page, sign_in, f"secretary{n}")
        page.goto("/secretary/")
        page_fits(page, f"secretary{n}-dashboard", screenshot)
        page.click("text=Enter a team")
        page.fill("input[name=name]", team_names[n - 1])
        boxes = page.locator("input[name=players]")
        assert boxes.count() == 9
        if n == 1:  # seven ticked: refused with the rule, nothing entered
            for i in range(7):
                boxes.nth(i).check()
            page.select_option("select[name=captain]", label=page.locator(
                "select[name=captain] option", has_text=captain_name).inner_text())
            page.click("main button[type=submit]")
            page.wait_for_selector("text=SAKBOC 1.5")
            page_fits(page, "entry-refused-seven-players", screenshot)
            assert not league.teams.exists()
        for i in range(9):
            boxes.nth(i).check()
        page.select_option("select[name=captain]", label=page.locator(
            "select[name=captain] option", has_text=captain_name).inner_text())
        page_fits(page, f"secretary{n}-entry-form", screenshot)
        page.click("main button[type=submit]")
        page.wait_for_selector("text=is entered in")
        page_fits(page, f"secretary{n}-entered", screenshot)
    assert sorted(league.teams.values_list("name", flat=True)) == sorted(team_names)

    # --- The official closes entries, makes the fixtures, assigns a referee from the list ------------------
    _as(page, sign_in, "official")
    page.goto(f"/official/competitions/{league.pk}/")
    assert page.locator("form:has(input[value=fixtures])").count() == 0  # not while entries are open
    page.click("text=Close entries")
    page.wait_for_selector("text=Entries to")
    page.fill("input[name=start]", "2027-02-03")
    page.click("form:has(input[value=fixtures]) button[type=submit]")
    page.wait_for_selector("text=2 fixtures scheduled")
    page_fits(page, "fixtures-made", screenshot)
    match = Match.objects.filter(competition=league).order_by("round_number").first()
    page.goto(f"/official/matches/{match.pk}/")
    conflicted = "Sec1 Athlone"
    page.select_option("select[name=referee]", label=conflicted)
    page.click("form:has(input[value=officials]) button[type=submit]")
    page.wait_for_selector(f"text=is secretary of {clubs[0].name}")
    page_fits(page, "conflicted-referee-refused", screenshot)
    match.refresh_from_db()
    assert match.referee is None
    page.select_option("select[name=referee]", label=referee.get_full_name())
    page.click("form:has(input[value=officials]) button[type=submit]")
    page.wait_for_selector("text=Referee and marker assigned")
    page_fits(page, "referee-assigned", screenshot)
    match.refresh_from_db()
    assert match.referee == referee

    # --- The night's paper result, a captain's dispute, the official's correction and approval -------------
    # The night has come (a result is entered from its night on): the walk jumps to the day after it.
    Match.objects.filter(pk=match.pk).update(scheduled_start=timezone.now() - timedelta(days=1))
    page.reload()
    _score(page, 30, 12, "Paper boem sheets from the night (the table phones were flat).",
           then="Score saved with your reason")
    away_captain = "captain2" if match.away.club == clubs[1] else "captain1"
    _as(page, sign_in, away_captain)
    page.goto(f"/captain/matches/{match.pk}/confirm/")
    page.click("text=Dispute it with a reason")
    page.fill("textarea[name=reason]", ("Table 3's last boem was 2 strokes, not 3: " + "recounted " * 50)[:499] + ".")
    page.click("main button[type=submit]")
    page.wait_for_selector("text=Your dispute is with the union's officials")
    page_fits(page, "captain-disputed", screenshot)
    dispute = ResultDispute.objects.get(match=match)
    assert dispute.is_open and len(dispute.reason) == 500

    _as(page, sign_in, "official")
    page.goto(f"/official/matches/{match.pk}/")
    page.click("form:has(input[value=approve]) button[type=submit]")  # refused: the dispute is open
    page.wait_for_selector("text=captain disputes this result")
    page_fits(page, "approval-refused-while-disputed", screenshot)
    _score(page, 28, 14, "Table 3 recounted with both captains: the last boem was 2 strokes.",
           then="Score set to 28-14 (was 30-12)")
    page.click("form:has(input[value=approve]) button[type=submit]")
    page.wait_for_selector("text=Result approved")
    page_fits(page, "corrected-and-approved", screenshot)
    match.refresh_from_db()
    assert (match.home_score, match.away_score, match.result_status) == (28, 14, Match.ResultStatus.APPROVED)
    assert match.history.filter(history_change_reason__startswith="Table 3 recounted").exists()

    # --- Standings published once; the same again is refused ----------------------------------------------
    page.goto(f"/official/competitions/{league.pk}/")
    page.fill("input[name=title]", "After round 1")
    page.click("text=Review and publish")
    page.wait_for_selector("text=Publish “After round 1”?")
    page_fits(page, "publish-confirmation", screenshot)
    page.click("text=Publish these standings")
    page.wait_for_selector("text=Standings published: After round 1")
    page.fill("input[name=title]", "After round 1, again")
    page.click("text=Review and publish")
    page.wait_for_selector("text=No result has been approved since")
    page_fits(page, "second-publication-refused", screenshot)
    assert list(StandingsSnapshot.objects.filter(competition=league).values_list("title", flat=True)) == [
        "After round 1"]

    # --- A cup: the approved winner goes into the next round by itself -------------------------------------
    cup = Competition.objects.create(union=union, name=_long("Beker"), season="2027", kind=Competition.Kind.KNOCKOUT)
    seeds = [TeamFactory(competition=cup, club=clubs[n % 2], name=f"Cup seed {n + 1} " + "q" * 100, seed=n + 1)
             for n in range(3)]
    page.goto(f"/official/competitions/{cup.pk}/")
    page.fill("input[name=start]", "2027-03-03")
    page.click("form:has(input[value=fixtures]) button[type=submit]")
    page.wait_for_selector("text=1 fixtures scheduled")
    tie = Match.objects.get(competition=cup)
    Match.objects.filter(pk=tie.pk).update(scheduled_start=timezone.now() - timedelta(days=1))  # played last night
    page.goto(f"/official/matches/{tie.pk}/")
    _score(page, 19, 24, "Paper sheet", then="Score saved")
    page.click("form:has(input[value=approve]) button[type=submit]")
    page.wait_for_selector("text=The winner goes into the next round")
    page.goto(f"/competitions/{cup.pk}/")
    page_fits(page, "cup-next-round", screenshot)
    final = Match.objects.get(competition=cup, round_number=2)
    assert (final.home, final.away, final.round_name) == (seeds[0], seeds[2], "Final, tie 1")
    assert page.locator(f"text={seeds[2].name}").count() >= 1

    # --- The same pages on a desk's screen (1280 px), for the record -----------------------------------------
    page.set_viewport_size({"width": 1280, "height": 900})
    for step, url in (("wide-official-competition", f"/official/competitions/{league.pk}/"),
                      ("wide-official-match", f"/official/matches/{match.pk}/"),
                      ("wide-union-referees", f"/official/unions/{union.pk}/referees/")):
        page.goto(url)
        page_fits(page, step, screenshot)
    _as(page, sign_in, "secretary1")
    page.goto("/secretary/")
    page_fits(page, "wide-secretary-dashboard", screenshot)
    _as(page, sign_in, away_captain)
    page.goto(f"/captain/matches/{match.pk}/dispute/")
    page_fits(page, "wide-dispute-page", screenshot)
