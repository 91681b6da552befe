"""Web pages for competitions, split by audience (Tabbycat's habit): the public, union officials, club
secretaries and captains.

Public (no sign-in): competitions, fixtures (a knock-out cup's bracket with its byes), results (provisional
until approved), a match report with each table's boem sheet drawn as boem trees, standings (the latest
published snapshot with how each tie was broken, and the live provisional table), CSV and PDF downloads.

Officials: a dashboard of their unions' competitions; create a competition; generate its fixtures; assign a
match's referee and marker; approve results; publish standings. Club secretaries enter teams. Captains (and
their clubs' secretaries): a dashboard of their teams and coming matches, the team sheet, a half-time
substitution, confirming or disputing the result. Each view scopes with one access helper
from matches/permissions.py or clubs/permissions.py (404 for "not yours") and calls one service; a rule
broken comes back as the service's message, citing its clause, on the same page.

One module per audience: :mod:`~matches.views.public`, :mod:`~matches.views.official`,
:mod:`~matches.views.secretary`, :mod:`~matches.views.captain`; the seasons' pages (:mod:`~matches.views.seasons`),
the printable paper (:mod:`~matches.views.paper`) and the share previews (:mod:`~matches.views.share`) beside them.
"""
