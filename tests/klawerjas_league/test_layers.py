"""The layers of docs/architecture.md hold, and a change that breaks one fails: ``make lint`` runs import-linter
(``lint-imports``) on the contracts in pyproject.toml, and ``.ci/run`` runs ``make lint``.

Each broken case copies the project's packages and pyproject.toml to a temporary folder, adds one import that
breaks one contract, and runs import-linter there: it must fail and name that contract.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = tuple(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"])
RUN = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    """Run import-linter on ``tree`` (its pyproject.toml's contracts over its packages), no cache."""
    path = os.pathsep.join(p for p in (str(tree), os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [sys.executable, "-c", RUN, "--no-cache", "--config", str(tree / "pyproject.toml")],
        cwd=tree, env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True, timeout=300,
    )


def _python_only(folder: str, names: list[str]) -> set[str]:
    return {n for n in names if n == "__pycache__" or (not n.endswith(".py") and not Path(folder, n).is_dir())}


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=_python_only)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


#: Folders beside manage.py with an __init__.py that are not the product's code: the tests and the benchmarks.
NOT_PRODUCT = {"tests", "bench"}


def test_every_package_is_in_a_layer() -> None:
    """A new package (or a module of one) cannot slip past the contracts: every package beside manage.py is a root
    package of import-linter and sits in exactly one layer of the ``layers`` contract, which covers all its
    modules."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - NOT_PRODUCT
    layers = next(c for c in config["contracts"] if c["id"] == "layers")["layers"]
    layered = [name.strip() for layer in layers for name in layer.replace(":", "|").split("|")]
    assert packages == set(config["root_packages"])
    assert sorted(layered) == sorted(packages), "each package in exactly one layer"


def test_the_project_keeps_every_contract() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("engine/cards.py", "import django", "The engine is pure Python"),
        ("clubs/selectors.py", "from matches.models import Match", "clubs (the registry) imports neither"),
        ("clubs/services.py", "def _late():\n    from referee import models", "clubs (the registry) imports neither"),
        ("matches/selectors.py", "from referee.models import StrafClaim", "matches imports neither referee"),
        ("referee/selectors.py", "from tables import views", "The project's layers"),
        ("matches/night/clock.py", "def _late():\n    from matches import tasks", "No import circles"),
        ("plumbing/outbox.py", "from clubs.models import Union", "The plumbing imports no app"),
        ("plumbing/cache.py", "import klawerjas_league.urls", "The plumbing imports no app"),
        ("clubs/services.py", "from demo import season", "clubs (the registry) imports neither"),
        ("matches/night/clock.py", "from matches.results import standings", "matches by job"),
    ],
)
def test_an_import_that_breaks_a_contract_fails(copy: Path, module: str, line: str, contract: str) -> None:
    with (copy / module).open("a") as source:
        source.write(f"\n\n{line}\n")
    result = lint_imports(copy)
    assert result.returncode != 0, result.stdout
    broken = result.stdout[result.stdout.index("Broken contracts"):]
    assert contract in broken, result.stdout
