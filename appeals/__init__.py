"""Appeals, the discipline register and referee consistency (issue 22)."""
