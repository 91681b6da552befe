"""Competitions and fixtures: a competition created, teams entered, fixture lists and cup rounds, fixtures
moved, calendars."""
