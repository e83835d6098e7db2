# The README's two commands: `make run` and `make test`. Both set everything up first.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck pytest soak bench clean catalogues cards web-screens

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# the bot on every platform configured; with none, a game in the terminal (the newcomer's
# demo: `uno-bot run` alone fails instead, for containers and services)
run: $(STAMP)
	$(BIN)/uno-bot run --demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

# pytest-xdist: the suite on JOBS workers (each its own PostgreSQL database and free ports);
# worksteal balances the long engine playouts against the many short tests
JOBS ?= 2
pytest: $(STAMP)
	$(BIN)/pytest -n $(JOBS) --dist worksteal

test: lint typecheck pytest

soak: $(STAMP)
	HYPOTHESIS_PROFILE=explore $(BIN)/pytest -n $(JOBS) --dist worksteal -m soak -q

$(VENV)/.bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $(VENV)/.bench

bench: $(VENV)/.bench
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.service
	$(BIN)/python -m bench.scale  # needs PostgreSQL: UNO_BENCH_POSTGRES
	$(BIN)/python -m bench.telegram
	$(BIN)/python -m bench.telegram_cpu
	$(BIN)/python -m bench.discord
	$(BIN)/python -m bench.web  # PostgreSQL part: UNO_BENCH_POSTGRES

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

# Re-extract the translatable strings (one catalogue per domain, see bot/ui/i18n.py) and merge
# them into every language; then translate the new entries of the Chinese catalogues.
catalogues: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -c TRANSLATORS: --project=uno-bot --add-location=file --sort-output -o locales/messages.pot bot/ adapters/terminal/
	$(BIN)/pybabel update -i locales/messages.pot -d locales -D messages --ignore-obsolete
	for d in telegram discord web; do \
	  if [ -d adapters/$$d ]; then \
	    $(BIN)/pybabel extract -F babel.cfg -c TRANSLATORS: --project=uno-bot --add-location=file --sort-output -o locales/$$d.pot adapters/$$d/ && \
	    for l in en zh_Hans zh_Hant; do \
	      if [ -f locales/$$l/LC_MESSAGES/$$d.po ]; then \
	        $(BIN)/pybabel update -i locales/$$d.pot -d locales -D $$d -l $$l --ignore-obsolete; \
	      else \
	        $(BIN)/pybabel init -i locales/$$d.pot -d locales -D $$d -l $$l; \
	      fi; \
	    done; \
	  fi; \
	done
	# no extraction date in the catalogues: it made every run a change of all of them
	sed -i '/^"POT-Creation-Date: /d' locales/*.pot locales/*/LC_MESSAGES/*.po

# Redraw docs/cards.png, the contact sheet of the card set (bot/ui/card_images.py), for review.
cards: $(STAMP)
	$(BIN)/python -c "from bot.ui import card_images as images; open('docs/cards.png', 'wb').write(images.contact_sheet())"

# Redraw docs/web-*.png, the web table on a phone in each language, light and dark (needs
# Chromium: apt-get install -y chromium fonts-noto-color-emoji fonts-noto-cjk).
web-screens: $(STAMP)
	$(BIN)/python -m tests.adapters.web.screens
