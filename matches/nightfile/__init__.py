"""A whole match night as one file: exported from one installation, imported into another (issue 18).

The package: :mod:`~matches.nightfile.format` (the file, its checksums, the sections' registry, reading),
:mod:`~matches.nightfile.export`, :mod:`~matches.nightfile.import_checks` (who the file names) and
:mod:`~matches.nightfile.imports` (:func:`~matches.nightfile.imports.night_import`).

A union can run a night on a laptop at the hall (``make demo``'s embedded SQLite, no internet) and push it to its
server afterwards. The round trip:

1. the server exports the night before it is played (the union and its settings, the competition, both teams with
   their squads, the fixture, the referee, team sheets if any): :func:`night_export`;
2. the laptop imports it (``manage.py night_import``: on a fresh installation that creates the union, clubs, teams,
   players and accounts without passwords), the night is played there;
3. the laptop exports the night (team sheets, substitutions, tables, boem sheets, awards, the clock and result,
   and the referee's straf claims, disputed hands and rulings), and the server imports it: :func:`night_import`.

**The file** (format ``klawerjas-night``, version 1) is JSON: ``{"format", "version", "exported_at", "title",
"sections": {name: value}, "checksums": {"sections": {name: sha256}, "file": sha256}}``. Each section's checksum is
the SHA-256 of its canonical JSON (keys sorted, no spaces, UTF-8), the file's that of the canonical JSON of
everything but ``checksums``; both are verified before anything is read (:func:`night_file_read`). Instants are ISO
8601 in UTC with microseconds.

**Natural keys, never database ids**: a union, club, competition (with its season) and team by name; a player by
registration number (within the union); a person by username; a match by competition, round and the home and away
teams' names; a table by number; a boem-sheet line by (table, sequence), unique per table; a boem by (table,
number); a straf claim by its UUID (``StrafClaim.key``), its disputed hand and ruling with it.

**Import** (:func:`night_import`) runs in one transaction under the match's row lock. Whatever the server lacks is
added; whatever both hold must agree, or the file is refused naming the match, table and line
(:class:`NightConflict`): a line at the same place that says something else, a line here the file does not have,
a different toss or start, a different referee, a result approved here that the file would change. A field the
server has empty is filled from the file (the night goes on where the server left it). Every line goes on the sheet
through ``matches.night.boem_sheet`` (scored by the rules engine under *this* union's rules); after the import the
server's night is exported again and must be exactly the file's, section by section, or nothing is kept. The same
file twice adds nothing the second time ("nothing new"). An approval never travels: the result arrives at most
confirmed and the union's official approves it on the server.

**Who the file names is checked as the pages check them** (issue 35: a night file's checksums prove it intact, not
that its people may do what it says). Whatever the import adds passes the rules the pages apply, through the same
functions: the referee and marker :func:`matches.competitions.services.match_officials_check` (on this union's
list of referees, impartial, SAKBOC 1.10, 1.11); a result's captains
:func:`matches.results.services.result_confirmer_side` (each side's captain for that side); a team sheet
:func:`matches.night.services.team_sheet_check` and its submitter, a substitution
:func:`matches.night.services.substitute_check` and who made it :func:`clubs.permissions.team_managed_by` (the team's
captain or club secretary); a boem-sheet line's player the side's telman at that table (a straf's, a player seated
there), its confirming or disputing player the opposing telman (SAKBOC 6.8); what only the referee does (a line
written or corrected on a table's behalf, a table stopped, an award, a straf claim, its hand and ruling) the match's
referee or marker. Anyone else refuses the whole file (:class:`NightRefused`), each refusal naming the match, the
section or table and line, and the person; nothing is written.

**Sections of other apps.** ``matches`` must not import ``referee``; the referee app plugs its section (claims,
hands, rulings: referee/night_transfer.py) in with :func:`night_section_register` from its ``AppConfig.ready()``.

Device sign-ins, table links and the hands the demo's bots played stay where they were made: they mean nothing to
another installation.
"""
