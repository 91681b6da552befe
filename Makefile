# klawerjas-league: `make demo` to see it, `make test` to test it. Needs only Python 3.12+.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# A development checkout: DEBUG on with a development key unless the environment says otherwise.
export DJANGO_SETTINGS_MODULE := klawerjas_league.settings

.PHONY: demo test ci lint typecheck bench worker beat clean help

help:
	@echo "make demo   - install, migrate, play the demo season (once) and serve http://$(HOST):$(PORT)/"
	@echo "make test   - install the test tools and run the whole suite"
	@echo "make lint   - ruff check;  make typecheck - mypy --strict engine"
	@echo "make bench  - run the benchmarks in bench/ and print their numbers"

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
	$(PY) manage.py demo_season $(DEMO_ARGS)
	@echo ""
	@echo "Serving the demo season (Ctrl-C to stop):"
	@echo "  home             http://$(HOST):$(PORT)/"
	@echo "  competitions     http://$(HOST):$(PORT)/competitions/"
	@echo "  administration   http://$(HOST):$(PORT)/admin/"
	@echo "  API docs         http://$(HOST):$(PORT)/api/docs/"
	@echo "  referee console  http://$(HOST):$(PORT)/referee/"
	@echo "Sign in as official, captain or referee, password klawerjas-demo (the accounts are listed above)."
	$(PY) manage.py runserver $(HOST):$(PORT)

test: $(VENV)/.installed-dev
	@scripts/ensure-chromium
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .

typecheck: $(VENV)/.installed-dev
	$(PY) -m mypy --strict engine

bench: $(VENV)/.installed-dev
	@for script in bench/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

worker: $(VENV)/.installed-runtime
	$(VENV)/bin/celery -A klawerjas_league worker -l info

beat: $(VENV)/.installed-runtime
	$(VENV)/bin/celery -A klawerjas_league beat -l info

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache
