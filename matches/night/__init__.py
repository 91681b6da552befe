"""A match night: team sheets and the toss, the clock, tables and table links, boem sheets, deals, substitutions,
awards, suspensions checked, the live pages and the printable paper."""
