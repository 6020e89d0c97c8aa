# Throneroom: `make run` starts the service, `make test` runs everything.
# Two distributions: the SDK `throneroom` (sdk/pyproject.toml) and the server
# `throneroom-server` (pyproject.toml); .venv holds both, editable, with the dev
# tools, at the exact versions of constraints.txt.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
CONSTRAINTS := constraints.txt
LATEST ?= .venv-latest
LPY    := $(LATEST)/bin/python

.DEFAULT_GOAL := help
.PHONY: help install run test test-fast test-latest latest-venv lock lint proto redis-server nginx chromium bench bench-tournament bots golden clean

help: ## Show this help
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  make %-12s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml sdk/pyproject.toml $(CONSTRAINTS)
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade -c $(CONSTRAINTS) pip
	$(PY) -m pip install --quiet -c $(CONSTRAINTS) -e './sdk[cli,tournament,websocket]' -e '.[rl]' --group dev
	touch $(STAMP)

install: $(STAMP) ## Create .venv: SDK (with its cli, tournament and websocket extras) and server (editable, with its rl extra) and dev tools, pinned by constraints.txt

run: $(STAMP) ## Start the service (gRPC 127.0.0.1:50051, REST 127.0.0.1:8080; in-memory store unless REDIS_URL is set)
	THRONEROOM_HTTP_LISTEN="$${THRONEROOM_HTTP_LISTEN-127.0.0.1:8080}" $(VENV)/bin/throneroom-server

redis-server: ## Make sure a redis-server binary exists (installs Debian's package as root)
	@./scripts/ensure-redis.sh

nginx: ## Make sure Debian's nginx exists for tests/deploy (nginx -t, a throwaway balancer; installs it as root)
	@./scripts/ensure-nginx.sh

chromium: ## Make sure Debian's headless chromium exists for the browser tests (installs it as root)
	@./scripts/ensure-chromium.sh

test: $(STAMP) redis-server nginx chromium ## Install, start a throwaway redis-server, run the whole test suite on every core (browser tests in chromium)
	$(PY) scripts/gen_proto.py --check
	$(PY) -m pytest -q -n auto

# The developer's loop: make test-fast, plus the test files of what you touched.
# Both run on every core (pytest-xdist: one worker process per CPU, each with its
# own throwaway servers; docs/testing.md has the figures).
FAST := not slow and not cluster and not browser
test-fast: $(STAMP) redis-server nginx ## The fast tier on every core: all tests but the slow, Redis Cluster and browser ones (a few minutes on 2 cores; docs/testing.md has the figures)
	$(PY) -m pytest -q -n auto -m "$(FAST)" $(PYTEST_ARGS)

latest-venv:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	rm -rf $(LATEST) && $(PYTHON) -m venv $(LATEST)  # fresh: nothing left over from before
	$(LPY) -m pip install --quiet --upgrade pip setuptools
	$(LPY) -m pip install --quiet --upgrade --upgrade-strategy eager -e './sdk[cli,tournament,websocket]' -e '.[rl]' --group dev

test-latest: latest-venv redis-server nginx chromium ## The newest versions the ranges allow (no constraints) in .venv-latest: drift, then every test
	$(LPY) scripts/lock.py drift $(LPY)
	$(LPY) -m pytest -q

lock: latest-venv ## Rewrite constraints.txt from the newest versions the ranges allow (run make test-latest first)
	$(LPY) scripts/lock.py write $(LPY)

lint: $(STAMP) ## ruff, mypy --strict and the generated-code freshness check
	$(PY) scripts/gen_proto.py --check
	$(VENV)/bin/ruff check sdk service throneroom_dev tests bench scripts
	$(VENV)/bin/ruff format --check sdk service throneroom_dev tests bench scripts
	$(VENV)/bin/mypy

proto: $(STAMP) ## Regenerate sdk/throneroom/v1 from proto/
	$(PY) scripts/gen_proto.py

bench: $(STAMP) redis-server ## Run the benchmarks (engine and service) and print their figures
	$(PY) bench/engine.py
	$(PY) bench/service.py

.PHONY: bench-peer
bench-peer: $(STAMP) redis-server ## Throneroom beside boardgame.io (../shared/peer-bgio; node + npm): moves/s, latency, CPU/move
	$(PY) bench/peer.py --floor --workers 1 2 $(PEER_ARGS)

.PHONY: bench-sizing
bench-sizing: $(STAMP) redis-server ## Sizing figures for docs/scaling.md: Redis bytes per game, commits per Redis core, CPU per move
	$(PY) bench/sizing.py

.PHONY: bench-rl
bench-rl: $(STAMP) ## PettingZoo environment steps/s of every game beside PettingZoo's chess_v6 (RL_ARGS=--all: every variant)
	$(PY) bench/rl.py $(RL_ARGS)

.PHONY: bench-tournament
bench-tournament: $(STAMP) redis-server ## A random-bot tournament through the service: games/min, RPCs per decision
	$(PY) bench/tournament.py
	$(PY) bench/tournament.py --game kings_life --seats 4 --games 1

FUZZ_CASES ?= 100000
.PHONY: fuzz
fuzz: $(STAMP) ## Fuzz both faces and every game's moves (FUZZ_CASES=100000; FUZZ_ARGS=--redis for Redis)
	$(PY) bench/fuzz.py --cases $(FUZZ_CASES) $(FUZZ_ARGS)

bots: $(STAMP) ## Evaluate the heuristic bots against random bots (each game's declared trials), then the MCTS bot against the heuristic bots (seeded tournaments)
	$(PY) scripts/bot_eval.py --all
	for t in examples/tournaments/mcts_*.toml; do $(PY) scripts/mcts_eval.py $$t || exit 1; done

golden: $(STAMP) ## Rewrite the golden playthrough files after an intended rules change
	$(PY) -m throneroom_dev.golden --write

clean: ## Remove the virtual environment and caches
	rm -rf $(VENV) $(LATEST) .pytest_cache .mypy_cache .ruff_cache .hypothesis
