# The two commands a GM or developer needs (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: play test bench clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "hsm-tui needs Python 3.11 or newer (found: $$($(PYTHON) --version))"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

play: $(VENV)/.installed
	$(BIN)/hsm

test: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -n auto

bench: $(VENV)/.installed-test
	@rm -f .bench-table.jsonl
	HSM_BENCH_TABLE=.bench-table.jsonl $(BIN)/python bench/odds.py
	$(BIN)/python bench/packs.py
	HSM_BENCH_TABLE=.bench-table.jsonl $(BIN)/python bench/combat.py
	HSM_BENCH_TABLE=.bench-table.jsonl $(BIN)/python bench/ui.py
	$(BIN)/python bench/ssh.py
	$(BIN)/python bench/web.py
	$(BIN)/python bench/propagation.py
	$(BIN)/python bench/files.py
	$(BIN)/python bench/powercut.py
	$(BIN)/python bench/table.py .bench-table.jsonl

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .bench-table.jsonl
