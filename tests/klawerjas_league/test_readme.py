"""The README is a door (STYLE.md, layout): at most 200 lines, the two commands, where to read on, and why each
library in requirements.txt was chosen. The rest is the documentation site under docs/ (``make docs``, which CI runs
with ``mkdocs build --strict``: a broken link or anchor there fails it)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()

#: How the README's table names a requirement whose package name it does not spell out.
NAMED_AS = {"djangorestframework": "Django REST framework", "drf-spectacular-sidecar": "sidecar"}


def _section(title: str) -> str:
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:] if end == -1 else README[start:end]


def test_the_readme_is_at_most_200_lines_and_names_the_two_commands_ci_runs():
    assert len(README.splitlines()) <= 200
    assert "make demo" in README and "make test" in README and "make docs" in README
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test " in ci and "\nmake docs\n" in ci  # the README's test command is what CI runs


def test_the_readme_says_why_each_runtime_library_was_chosen():
    table = _section("Why these libraries").lower()
    names = [re.split(r"[\[=<>]", line)[0].strip() for line in (ROOT / "requirements.txt").read_text().splitlines()
             if line.strip() and not line.startswith(("#", "-r"))]
    assert "django" in [name.lower() for name in names]
    missing = [name for name in names if NAMED_AS.get(name, name).lower() not in table]
    assert missing == []


def test_the_readmes_links_lead_to_pages_of_the_documentation_site():
    mkdocs = (ROOT / "mkdocs.yml").read_text()
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [target for target in targets if not target.startswith("http")]
    assert len(local) > 20
    for target in local:
        assert (ROOT / target).is_file(), target
        assert target.startswith("docs/") and target.removeprefix("docs/") in mkdocs, target  # in the site's nav
