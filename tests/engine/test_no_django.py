"""The engine is a library: importing it loads no Django module (STYLE.md rule 1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_engine_imports_no_django() -> None:
    code = (
        "import sys, engine, engine.cards, engine.ruleset, engine.play, engine.roem, engine.scoring, engine.simulate, "
        "engine.adjudicate, engine.makers, engine.replay, engine.verdict; "
        "print(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
