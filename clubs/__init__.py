"""Unions, clubs, players and teams."""
