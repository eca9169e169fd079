# Waymark — the commands a newcomer needs.
#   make run    build and run waymark (ARGS="tag ~/Pictures/trip --track trip.gpx"; default: --help)
#   make test   install what is missing, build, run every test
#   make bench  benchmarks side by side with reference tools; figures go to docs/BENCHMARKS.md

SWIFT ?= swift
WAYMARK_FIXTURES ?= $(abspath $(CURDIR)/../shared/fixtures)
export WAYMARK_FIXTURES
ARGS ?= --help

.PHONY: bootstrap build release run test bench clean

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build

release: bootstrap
	$(SWIFT) build -c release --product waymark

run: bootstrap
	$(SWIFT) run waymark $(ARGS)

test: bootstrap
	@test -d "$(WAYMARK_FIXTURES)" || { echo "make test: the shared test files are missing at $(WAYMARK_FIXTURES); set WAYMARK_FIXTURES" >&2; exit 1; }
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: release
	scripts/bench

clean:
	rm -rf .build
