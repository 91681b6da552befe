"""Seasons (closed, archived, the next season started with its drafts) and transfers."""
