"""Personal information under POPIA: notices, consent, a person's export, erasure and retention (issue 35)."""
