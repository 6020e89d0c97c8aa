# Throneroom: `make run` starts the service, `make test` runs everything.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help install run test lint proto redis-server bench bots golden clean

help: ## Show this help
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  make %-12s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) ## Create .venv and install the packages with their dev tools

run: $(STAMP) ## Start the service (gRPC 127.0.0.1:50051, REST 127.0.0.1:8080; in-memory store unless REDIS_URL is set)
	THRONEROOM_HTTP_LISTEN="$${THRONEROOM_HTTP_LISTEN-127.0.0.1:8080}" $(VENV)/bin/throneroom-server

redis-server: ## Make sure a redis-server binary exists (installs Debian's package as root)
	@./scripts/ensure-redis.sh

test: $(STAMP) redis-server ## Install, start a throwaway redis-server, run the whole test suite
	$(PY) scripts/gen_proto.py --check
	$(PY) -m pytest -q

lint: $(STAMP) ## ruff, mypy --strict and the generated-code freshness check
	$(PY) scripts/gen_proto.py --check
	$(VENV)/bin/ruff check sdk service tests bench scripts
	$(VENV)/bin/ruff format --check sdk service tests bench scripts
	$(VENV)/bin/mypy

proto: $(STAMP) ## Regenerate sdk/throneroom/v1 from proto/
	$(PY) scripts/gen_proto.py

bench: $(STAMP) redis-server ## Run the benchmarks (engine and service) and print their figures
	$(PY) bench/engine.py
	$(PY) bench/service.py

FUZZ_CASES ?= 100000
.PHONY: fuzz
fuzz: $(STAMP) ## Fuzz both faces and every game's moves (FUZZ_CASES=100000; FUZZ_ARGS=--redis for Redis)
	$(PY) bench/fuzz.py --cases $(FUZZ_CASES) $(FUZZ_ARGS)

bots: $(STAMP) ## Evaluate the heuristic bots against random bots (200 seeded games each)
	$(PY) scripts/bot_eval.py king_is_dead
	$(PY) scripts/bot_eval.py kings_life

golden: $(STAMP) ## Rewrite the golden playthrough files after an intended rules change
	$(PY) -m throneroom_server.games.golden --write

clean: ## Remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
