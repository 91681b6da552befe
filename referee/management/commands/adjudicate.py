"""``python manage.py adjudicate FILE.json|-`` : adjudicate a hand record with the rules engine.

A thin wrapper around ``engine.cli.main`` (the engine's own command line, ``python -m engine adjudicate``):
prints the verdict for a person, or as JSON with ``--json``, and exits with the engine's status:

* 0: the hand is clean;
* 1: offences were found (each with its rule citation and evidence);
* 2: the file is not a valid hand record (every problem is listed, each naming where), or cannot be read.

``-`` reads the record from standard input::

    python manage.py adjudicate docs/examples/revoke.json
    cat hand.json | python manage.py adjudicate - --json
"""

from __future__ import annotations

import io
import sys

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Adjudicate a hand record (JSON file, or - for stdin). Exit status 0 clean, 1 offences, 2 bad record."
    stealth_options = ("stdin",)
    requires_system_checks: list[str] = []

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the hand-record JSON file (format klawerjas-hand, version 1), or - for stdin")
        parser.add_argument("--json", action="store_true", help="print the verdict as JSON")

    def handle(self, *args, **options) -> None:
        try:
            from engine import cli
        except ImportError as error:
            raise CommandError(
                f"the rules engine is not installed ({error}); it is merged from the `engine` branch"
            ) from error
        argv = ["adjudicate", options["file"]] + (["--json"] if options["json"] else [])
        out, err = io.StringIO(), io.StringIO()
        status = cli.main(argv, stdin=options.get("stdin") or sys.stdin, stdout=out, stderr=err)
        if out.getvalue():
            self.stdout.write(out.getvalue().rstrip("\n"))
        if err.getvalue():
            self.stderr.write(err.getvalue().rstrip("\n"))
        if status:
            raise SystemExit(status)
