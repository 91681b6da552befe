"""The demo: a whole union's league season played by the rules engine's bots (:mod:`demo.season`), a club
drive (:mod:`demo.drive`), and the command that makes both (``manage.py demo_season``)."""
