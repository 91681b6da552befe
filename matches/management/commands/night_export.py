"""``manage.py night_export --match ID [--output FILE]``: write a match night as one file (matches/nightfile/).

``--match`` is the match's number (``/matches/<number>/`` on the site) or ``"Home team v Away team"`` (the match
of those teams still to be finished, else the latest). Without ``--output`` the file goes to standard output.
Exit 0 when written; 2 when the match cannot be found or the file cannot be written (the reason on standard error).
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.models import Match
from matches.nightfile.export import night_export
from matches.nightfile.format import night_file_dumps


def match_named(text: str) -> Match:
    """The match ``text`` names: its number, or ``"Home v Away"``. :raises CommandError: none or several."""
    text = text.strip()
    if text.isdigit():
        match = Match.objects.filter(pk=int(text)).first()
        if match is None:
            raise CommandError(f"There is no match {text}.", returncode=2)
        return match
    home, sep, away = text.partition(" v ")
    if not sep:
        raise CommandError("Name the match by its number or as \"Home team v Away team\".", returncode=2)
    matches = list(Match.objects.filter(home__name=home.strip(), away__name=away.strip())
                   .select_related("competition").order_by("-scheduled_start"))
    if not matches:
        raise CommandError(f"There is no match {text}.", returncode=2)
    open_ = [m for m in matches if m.phase != Match.Phase.FINISHED]
    if len(open_) > 1:
        listed = "; ".join(f"{m.pk}: {m.competition}, round {m.round_number}" for m in open_)
        raise CommandError(f"Several matches are {text}; give the number of one ({listed}).", returncode=2)
    return open_[0] if open_ else matches[0]


class Command(BaseCommand):
    help = "Export a match night (team sheets, boem sheets, claims, rulings, the clock) as one JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--match", required=True, help="The match's number, or \"Home team v Away team\".")
        parser.add_argument("--output", "-o", help="The file to write (default: standard output).")

    def handle(self, *args: object, **options: str) -> None:
        match = match_named(options["match"])
        text = night_file_dumps(night_export(match=match))
        if not options.get("output"):
            self.stdout.write(text, ending="")
            return
        try:
            Path(options["output"]).write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot write {options['output']}: {error.strerror}.", returncode=2) from None
        self.stderr.write(f"Wrote {options['output']}: {match} ({len(text):,} bytes).")
