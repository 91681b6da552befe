"""Public pages of the national level (issue 39): a union's home at its own address, ``/unions/<short name>/``
(its lists are ``matches.views.public.competition_list`` and ``matches.views.seasons.season_archive_list`` with
the union's short name), and the Board's page, ``/board/``. Kept whole under the national pages token
(``matches.page_versions.national_pages_token``; the Board's page adds its championships' own tokens)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from matches import national
from matches.page_versions import national_pages_token
from plumbing.page_cache import cached_page


def union_home(request: HttpRequest, short_name: str) -> HttpResponse:
    """``/unions/<short>/`` (any case): the union's current competitions with their fixtures, results and
    standings, its past seasons with their champions, its clubs. The Board's organiser goes to ``/board/``; an
    unknown short name is a 404."""
    union = national.union_by_short_name(short_name)
    if union.is_board:
        return redirect("matches:board-home")

    def render_page() -> HttpResponse:
        return render(request, "public/union_home.html", {"home": national.union_home(union=union), "union": union,
                                                          "board": national.the_board()})

    return cached_page(request, parts=("union-home", union.pk, national_pages_token()),
                       render=render_page)  # type: ignore[return-value]


def board_home(request: HttpRequest) -> HttpResponse:
    """``/board/``: the Board's championships, current and past (with the champion of each finished one), and its
    member unions (never the Board's own organiser record)."""
    part = national.national_part()
    if part.board is None:
        raise Http404("No Board.")
    championships = part.championships
    state = "|".join(f"{c.competition.pk}:{c.finished}:{','.join(c.champions)}" for c in championships)

    def render_page() -> HttpResponse:
        return render(request, "public/board_home.html", {
            "board": part.board, "unions": part.unions,
            "current": [c for c in championships if not c.finished],
            "past": [c for c in championships if c.finished]})

    return cached_page(request, parts=("board-home", national_pages_token(), state),
                       render=render_page)  # type: ignore[return-value]
