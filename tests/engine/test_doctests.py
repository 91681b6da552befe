"""Every example in the engine's docstrings runs, as written (python-chess's habit: the docs are tested).

Each module of ``engine/`` is imported and its docstrings' ``>>>`` examples are run with :mod:`doctest`; a
module that shows examples must show at least one that runs, and none may fail. Standard library only, so it
runs on the system Python with the rest of ``tests/engine`` (``make test-engine-system``).
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MODULES = sorted(path.stem for path in ENGINE.glob("*.py") if path.stem not in ("__init__", "__main__"))
WITH_EXAMPLES = sorted(stem for stem in MODULES if ">>> " in (ENGINE / f"{stem}.py").read_text(encoding="utf-8"))


def test_the_engine_shows_examples_in_its_docs() -> None:
    assert len(WITH_EXAMPLES) >= 11, WITH_EXAMPLES


@pytest.mark.parametrize("stem", MODULES)
def test_every_example_in_an_engine_module_runs(stem: str) -> None:
    module = importlib.import_module(f"engine.{stem}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"engine.{stem}: {result.failed} of {result.attempted} examples failed"
    if stem in WITH_EXAMPLES:
        assert result.attempted > 0, f"engine.{stem} shows examples but none ran"
