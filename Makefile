# Two commands on a fresh machine: `make run` and `make test`. Each makes .venv/ itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CONSTRAINTS := .ci/constraints.txt

.PHONY: run test lint bench clean screens constraints

$(STAMP): pyproject.toml $(CONSTRAINTS)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c $(CONSTRAINTS) -e '.[dev]'
	touch $(STAMP)

# The newest versions pyproject.toml allows, installed into a scratch venv and pinned.
constraints:
	rm -rf .venv-constraints
	$(PYTHON) -m venv .venv-constraints
	.venv-constraints/bin/pip install --quiet -e '.[dev]'
	{ sed -n '1,2p' $(CONSTRAINTS); .venv-constraints/bin/pip freeze --exclude-editable; } > $(CONSTRAINTS).new
	mv $(CONSTRAINTS).new $(CONSTRAINTS)
	rm -rf .venv-constraints

run: $(STAMP)
	$(BIN)/companion run

test: $(STAMP) lint
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check companion vision hardware ui benchmarks tests
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# The README's screens, rendered headless by `companion snapshot` (see docs/ui.md).
SHOTS := docs/screens
OBS := docs/observations
screens: $(STAMP)
	mkdir -p $(SHOTS)
	$(BIN)/companion snapshot home $(SHOTS)/home.png
	$(BIN)/companion snapshot table $(SHOTS)/table-21x.png --state $(OBS)/21x.jsonl --at 25
	$(BIN)/companion snapshot call $(SHOTS)/call.png --state $(OBS)/21x.jsonl --at 30.5
	$(BIN)/companion snapshot stand $(SHOTS)/stand.png --state $(OBS)/21x.jsonl --at 20.5
	$(BIN)/companion snapshot round-end $(SHOTS)/round-end.png --state $(OBS)/21x.jsonl
	$(BIN)/companion snapshot scoreboard $(SHOTS)/scoreboard.png --state $(OBS)/21x.jsonl
	$(BIN)/companion snapshot history $(SHOTS)/history.png --state $(OBS)/21x.jsonl
	$(BIN)/companion snapshot settings $(SHOTS)/settings.png
	$(BIN)/companion snapshot teach $(SHOTS)/teach.png
	$(BIN)/companion snapshot table $(SHOTS)/table-21x-solo.png --state $(OBS)/21x-solo.jsonl --at 40
	$(BIN)/companion snapshot table $(SHOTS)/table-solitaire.png --state $(OBS)/solitaire.jsonl --at 40
	$(BIN)/companion snapshot table $(SHOTS)/table-trick.png --state $(OBS)/trick.jsonl --at 25
	$(BIN)/companion snapshot table $(SHOTS)/table-medley.png --state $(OBS)/medley.jsonl --at 50
