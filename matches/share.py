"""What a match report or a standings page says when it is shared (issue 38): the WhatsApp text and the preview.

* :func:`match_share_text` / :func:`standings_share_text`: the ready text of a "Share on WhatsApp" link (the
  teams and the score, or the top of the table, and the page's address on the site's public address,
  ``plumbing.sharing``).
* :func:`match_preview` / :func:`standings_preview`: the page's OpenGraph image (PNG, 1200×630,
  ``plumbing.share_image``), drawn once per version of the page and then served from the cache: the match
  report's version is its ``live_version`` and its competition's pages token, the standings' their standings
  token (``matches.page_versions``), the same parts the pages themselves are kept under
  (``plumbing.page_cache``). A new version draws a new picture at the same address.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from matches.models import Competition, Match
from matches.night.live import match_live
from matches.page_versions import competition_pages_token
from matches.results import selectors as result_selectors
from matches.results.standings import standings_page_token
from plumbing.page_cache import kept
from plumbing.share_image import TreeGoings, match_preview_png, table_preview_png
from plumbing.sharing import absolute_url

BRAND = "klawerjas-league"
TOP_ROWS = 3
"""Teams the standings' WhatsApp text names (the picture shows six)."""


def match_score(match: Match) -> str | None:
    """``"7–3"`` once the match has a score (a result, provisional or approved, or a night under way), else None."""
    if match.result_status == Match.ResultStatus.NONE and match.phase == Match.Phase.SCHEDULED:
        return None
    return f"{match.home_score}–{match.away_score}"


def match_share_text(match: Match) -> str:
    """The WhatsApp text of a match report: ``"Home 7–3 Away (Competition) https://…/matches/7/"``, or before
    play ``"Home v Away, Sat 6 Dec 19:30 (Competition) https://…"``. ``match`` with home, away and competition."""
    url = absolute_url(reverse("matches:match", args=[match.pk]))
    score = match_score(match)
    if score is None:
        return _("%(home)s v %(away)s, %(when)s (%(competition)s) %(url)s") % {
            "home": match.home, "away": match.away, "competition": match.competition, "url": url,
            "when": date_format(localtime(match.scheduled_start), "D j M, H:i")}
    return _("%(home)s %(score)s %(away)s (%(competition)s) %(url)s") % {
        "home": match.home, "away": match.away, "score": score, "competition": match.competition, "url": url}


def _standings_rows(competition: Competition) -> tuple[list[dict], bool]:
    """The rows a shared standings page leads with: the latest published table, else the live one (provisional)."""
    snapshot = result_selectors.standings_snapshot_latest(competition=competition)
    if snapshot is not None:
        return list(snapshot.rows), False
    return result_selectors.standings_rows(competition_id=competition.pk), True


def standings_share_text(competition: Competition, rows: list[dict]) -> str:
    """The WhatsApp text of a standings page: ``"Competition standings: 1. A 12 pts, 2. B 9 pts, 3. C 6 pts
    https://…/competitions/3/standings/"`` (the first three ``rows``, dicts of ``StandingsSnapshot.rows``)."""
    url = absolute_url(reverse("matches:standings", args=[competition.pk]))
    top = ", ".join(_("%(position)s. %(team)s %(points)s pts") % {
        "position": row["position"], "team": row["team_name"], "points": row["league_points"]}
        for row in rows[:TOP_ROWS])
    if not top:
        return _("%(competition)s standings %(url)s") % {"competition": competition, "url": url}
    return _("%(competition)s standings: %(top)s %(url)s") % {"competition": competition, "top": top, "url": url}


def _match_png(match_id: int) -> bytes | None:
    state = match_live(match_id=match_id)
    if state is None:
        return None
    match = state.match
    tables = [(_("Table %(number)s") % {"number": table.number},
               [TreeGoings(left=tuple(b.drawing.left), right=tuple(b.drawing.right)) for b in table.boems])
              for table in state.tables]
    caption = f"{match.competition} · {date_format(localtime(match.scheduled_start), 'j F Y')}"
    return match_preview_png(brand=BRAND, caption=caption, home=str(match.home), away=str(match.away),
                             score=(match_score(match) or "v").replace("–", " – "), tables=tables,
                             legend=_("Boem trees: %(home)s on the left (yellow), %(away)s on the right (orange)") % {
                                 "home": match.home, "away": match.away})


def match_preview(*, match_id: int, live_version: int, competition_id: int) -> tuple[bytes | None, str]:
    """The match report's preview image and its version (``"<live version>-<pages token>-<language>"``, for the
    ETag): drawn once per version (:func:`plumbing.page_cache.kept`). ``None`` when there is no such match."""
    version = f"{live_version}-{competition_pages_token(competition_id=competition_id)}-{translation.get_language()}"
    png = kept(f"share-png:match:{match_id}:{version}", lambda: _match_png(match_id) or b"")
    return png or None, version


def _standings_png(competition: Competition) -> bytes:
    rows, provisional = _standings_rows(competition)
    caption = _("%(competition)s · standings") % {"competition": competition}
    if provisional:
        caption += " · " + _("provisional")
    heading = (_("Pos"), _("Team"), _("Played"), _("Pts"))
    body = [(str(r["position"]), str(r["team_name"]), str(r["played"]), str(r["league_points"])) for r in rows]
    return table_preview_png(brand=BRAND, caption=caption, heading=heading, rows=body)


def standings_preview(*, competition: Competition) -> tuple[bytes, str]:
    """The standings page's preview image and its version (the standings token and the language), drawn once per
    version (:func:`plumbing.page_cache.kept`)."""
    version = f"{standings_page_token(competition_id=competition.pk)}-{translation.get_language()}"
    return kept(f"share-png:standings:{competition.pk}:{version}", lambda: _standings_png(competition)), version
