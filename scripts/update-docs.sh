#!/usr/bin/env bash
# Regenerates docs/dialects (from the ODS) and docs/passes (from the pass
# registry); the tests fail when these are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
PTO_BLESS=1 cargo test --locked -p pto-dialects --test docs
PTO_BLESS=1 cargo test --locked -p pto-passes --test docs
PTO_BLESS=1 cargo test --locked -p pto-run --test op_table_docs
