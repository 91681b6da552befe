"""Competitions, fixtures, match nights, boem sheets, results and standings."""
