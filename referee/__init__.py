"""The referee's match-night console: straf claims, rulings and disputed hands."""
