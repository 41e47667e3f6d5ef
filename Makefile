# The two commands a newcomer needs: `make demo` and `make test`.
# Both create .venv and install what they need, so a fresh clone is enough.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: demo test lint typecheck pytest venv clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $@

demo: venv
	$(BIN)/companion run --simulate

lint: venv
	$(BIN)/ruff check companion tests
	$(BIN)/ruff format --check companion tests

typecheck: venv
	$(BIN)/mypy --strict companion/games

pytest: venv
	$(BIN)/python -m pytest -q

test: lint typecheck pytest

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
