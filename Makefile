# klawerjas-league: `make demo` to see it, `make test` to test it. Needs only Python 3.12+.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# A development checkout: DEBUG on with a development key unless the environment says otherwise.
export DJANGO_SETTINGS_MODULE := klawerjas_league.settings

.PHONY: demo test ci lint typecheck bench docs test-engine-system worker beat clean help

help:
	@echo "make demo   - install, migrate, play the demo season (once) and serve http://$(HOST):$(PORT)/"
	@echo "make test   - install the test tools and run the whole suite"
	@echo "make lint   - ruff check, the import contracts and make typecheck"
	@echo "make typecheck - mypy over the apps (Django and DRF stubs), and --strict engine; APPS=\"clubs ...\" picks"
	@echo "make bench  - run the benchmarks in bench/ and print their numbers"
	@echo "make docs   - build the documentation site (docs/, mkdocs.yml) into site/ with --strict"

$(PY):
	@interp=$$(scripts/find-python) || exit 1; echo "Using $$interp"; "$$interp" -m venv $(VENV)
	@$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed-runtime: requirements.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	@touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $@ $(VENV)/.installed-runtime

demo: $(VENV)/.installed-runtime
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_season --site http://$(HOST):$(PORT) $(DEMO_ARGS)
	@echo ""
	@echo "Serving the demo season (Ctrl-C to stop):"
	@echo "  home             http://$(HOST):$(PORT)/"
	@echo "  competitions     http://$(HOST):$(PORT)/competitions/"
	@echo "  administration   http://$(HOST):$(PORT)/admin/"
	@echo "  API docs         http://$(HOST):$(PORT)/api/docs/"
	@echo "  referee console  http://$(HOST):$(PORT)/referee/"
	@echo "Sign in as official, captain or referee, password klawerjas-demo (the accounts are listed above)."
	$(PY) manage.py runserver $(HOST):$(PORT)

# Two processes (pytest-xdist), each taking the next test when it is free and stealing from the other at the end
# (worksteal: with --dist loadfile some modules were never run, with no error), each with a test database of its
# own (pytest-django's _gw0/_gw1 suffix) and, for the integration tests, a Celery worker of its own: the suite takes
# about half the time on two cores. `make test PYTEST_XDIST=` runs it in one process, as .ci/run does.
PYTEST_XDIST ?= -n 2 --dist worksteal
test: $(VENV)/.installed-dev
	@scripts/ensure-chromium
	@scripts/ensure-redis-server
	@scripts/ensure-gettext
	@scripts/ensure-age
	@scripts/ensure-pdf-tools
	@scripts/ensure-nginx
	@scripts/ensure-fonts-dejavu
	$(PY) -m pytest $(PYTEST_XDIST) $(PYTEST_ARGS)

# ruff, then the layer contracts of pyproject.toml (import-linter; docs/architecture.md): a broken one fails;
# then the types (typecheck).
lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports --no-cache
	@$(MAKE) --no-print-directory typecheck

# mypy with the Django and DRF plugins (pyproject.toml [tool.mypy]: strict on the engine and the plumbing) over
# APPS, those of them that exist (tests/ and bench/ are not checked); then the engine alone under --strict.
# Imported packages not in APPS are read, their errors not shown: `make typecheck APPS="clubs referee"`.
MYPY_PACKAGES := engine plumbing clubs matches referee accounts tables appeals records drives office privacy demo \
	klawerjas_league
APPS ?= $(MYPY_PACKAGES)

typecheck: $(VENV)/.installed-dev
	$(PY) -m mypy --follow-imports=silent $$(for p in $(APPS); do test -d $$p && echo $$p; done)
	$(PY) -m mypy --strict engine

# The documentation site: MkDocs with the Material theme, from docs/ and mkdocs.yml, into site/. --strict fails on
# a broken link or anchor and on a page missing from the nav; nothing is fetched from the network.
docs: $(VENV)/.installed-dev
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

# Every script in bench/ (the files with a __main__ block; the others are the load benchmarks' shared modules).
bench: $(VENV)/.installed-dev
	@for script in $$(grep -l '__main__' bench/*.py); do echo "== $$script"; $(PY) $$script || exit 1; done

# The engine is standard-library Python 3.11+: run its tests on the machine's system python3 too (Debian's
# CPython is the fastest interpreter here; see docs/develop/benchmarks.md). Uses a venv of its own with the test tools.
SYSTEM_PYTHON ?= /usr/bin/python3
test-engine-system:
	@if ! $(SYSTEM_PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then \
		echo "no system Python 3.11+ at $(SYSTEM_PYTHON): engine run on it not checked"; exit 0; fi; \
	test -x .venv-system/bin/python || $(SYSTEM_PYTHON) -m venv .venv-system; \
	.venv-system/bin/python -m pip install --quiet pytest==9.2.0 hypothesis==6.170.15 jsonschema==4.26.0 && \
	.venv-system/bin/python -m pytest -q --noconftest -p no:django -p no:cacheprovider -o addopts="-ra --strict-markers" tests/engine

worker: $(VENV)/.installed-runtime
	$(VENV)/bin/celery -A klawerjas_league worker -l info

beat: $(VENV)/.installed-runtime
	$(VENV)/bin/celery -A klawerjas_league beat -l info

clean:
	rm -rf $(VENV) .venv-system db.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache
