#!/usr/bin/env bash
# Regenerates docs/dialects (from the ODS), docs/passes (from the pass
# registry) and the simulator's table of on-chip memories (from the
# planner's); the tests fail when these are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
PTO_BLESS=1 cargo test --locked -p pto-dialects --test docs
PTO_BLESS=1 cargo test --locked -p pto-passes --test docs
PTO_BLESS=1 cargo test --locked -p pto-passes --test sim_limits
PTO_BLESS=1 cargo test --locked -p pto-run --test op_table_docs
