# Cardroom: `make run` starts the site, `make test` runs the tests. Both set themselves up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Daphne's timeouts (README, "Running on several machines"; `python -m cardroom.server` is daphne
# that stops gracefully, and deploy/systemd runs it with these): a request the application has
# not answered within HTTP_TIMEOUT seconds gets a 503; a websocket has 30 s to finish its
# handshake (a burst of arrivals waits its turn: games/live/arrivals.py); an idle socket is
# pinged every 20 s and closed when a ping goes unanswered for 30 s; on SIGTERM the sockets
# close a few at a time and the applications have 60 s in all to finish.
HTTP_TIMEOUT ?= 30
DAPHNE_FLAGS ?= --http-timeout $(HTTP_TIMEOUT) --websocket_connect_timeout 30 \
	--ping-interval 20 --ping-timeout 30 --application-close-timeout 60
# Development defaults for `make run`; production sets its own environment.
export DEBUG ?= 1

.PHONY: run test test-services test-fast test-browser lint format messages bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml setup.py games/analysis/_belote_dd.c | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml setup.py games/analysis/_belote_dd.c | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/python manage.py migrate --noinput
	@echo ""
	@echo "  Cardroom is starting at http://$(HOST):$(PORT)/"
	@echo "  Create an admin account with:  $(BIN)/python manage.py createsuperuser"
	@echo "  (the Django admin is at http://$(HOST):$(PORT)/admin/)"
	@echo ""
	$(BIN)/python -m cardroom.server $(DAPHNE_FLAGS) -b $(HOST) -p $(PORT) cardroom.asgi:application

# `make test` runs every test, on SQLite and the in-memory channel layer unless DATABASE_URL and
# REDIS_URL name others; `make test-services` only those that reach the database, the channel
# layer or the cache (marked `services`), and the browser tests of live play between several
# sockets: CI runs it again on PostgreSQL and Redis. In each, the tests other than browser tests
# run in TEST_WORKERS processes (pytest-xdist; 0 for this one), then the performance contracts
# (marked `contract`: query counts, reads shared or skipped) alone, then the browser tests in
# pytest processes of their own (Playwright's sync API keeps an event loop), TEST_WORKERS too.
TEST_WORKERS ?= 2
PYTEST := $(BIN)/python -m pytest
SPREAD := -n $(TEST_WORKERS) --dist worksteal

test: $(VENV)/.installed-dev
	$(PYTEST) tests --ignore=tests/browser -m "not contract" $(SPREAD)
	$(PYTEST) tests --ignore=tests/browser -m contract
	$(PYTEST) tests/browser $(SPREAD)

test-services: $(VENV)/.installed-dev
	$(PYTEST) tests --ignore=tests/browser -m "services and not contract" $(SPREAD)
	$(PYTEST) tests --ignore=tests/browser -m "services and contract"
	$(PYTEST) tests/browser -m services $(SPREAD)

test-fast: $(VENV)/.installed-dev
	$(BIN)/python -m pytest tests --ignore=tests/browser -x -q

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The translation catalogues (locale/): gather new strings, then compile after translating.
# Needs GNU gettext here; the compiled .mo files are committed, so running the site does not.
messages: $(VENV)/.installed-dev
	$(BIN)/python manage.py makemessages -l bg -l ru --no-obsolete -i ".venv/*" -i "tests/*"
	$(BIN)/python manage.py compilemessages -i ".venv"

clean:
	rm -rf $(VENV) staticfiles .pytest_cache test-db.sqlite3*
