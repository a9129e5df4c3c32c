#!/usr/bin/env bash
# Runs the whole test suite: formatting and clippy lints (either failing
# fails the suite), cargo test (Rust units and integration tests), then the
# lit suite in test/ (Debian's lit, FileCheck and not). The last line is
# "N passed, N failed" over cargo test and lit.
set -uo pipefail
cd "$(dirname "$0")/.."

lit=/usr/lib/llvm-22/bin/lit
logs=target/test-logs
mkdir -p "$logs"

cargo build --workspace --locked </dev/null
build_status=$?

# Formatting and lints are part of the suite: either failing fails it.
cargo fmt --all --check 2>&1 | tee "$logs/fmt.log"
fmt_status=${PIPESTATUS[0]}
cargo clippy --workspace --all-targets --locked -- -D warnings </dev/null 2>&1 | tee "$logs/clippy.log"
clippy_status=${PIPESTATUS[0]}

cargo test --workspace --locked --no-fail-fast </dev/null 2>&1 | tee "$logs/cargo-test.log"
cargo_status=${PIPESTATUS[0]}

"$lit" -sv --show-unsupported test/ 2>&1 | tee "$logs/lit.log"
lit_status=${PIPESTATUS[0]}

# cargo: "test result: ok. 3 passed; 0 failed; ..." per test binary.
read -r cargo_passed cargo_failed < <(
  awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
       END { print p + 0, f + 0 }' "$logs/cargo-test.log")
# lit: "  Passed: 12 (92.31%)", "  Failed: 1 (7.69%)", ...
read -r lit_passed lit_failed < <(
  awk -F: '/^  Passed *:/ { p += $2 }
           /^  (Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ { f += $2 }
           END { print p + 0, f + 0 }' "$logs/lit.log")

# The pto-isa conformance suite runs only where pto-isa's headers are
# (PTO_ISA_ROOT, else ../shared/third_party/pto-isa): say which it was.
if sed -n '/^Unsupported Tests/,/^$/p' "$logs/lit.log" | grep -q "e2e/pto-isa-conformance.test"; then
  echo "pto-isa conformance: skipped (no pto-isa headers at ${PTO_ISA_ROOT:-../shared/third_party/pto-isa}, or no clang++ 22)"
else
  summary=target/debug/lit/e2e/Output/pto-isa-conformance.test.tmp.log
  [ -f "$summary" ] && echo "pto-isa conformance: $(grep -E '^kernels: ' "$summary" | tail -1)"
fi

passed=$((cargo_passed + lit_passed))
failed=$((cargo_failed + lit_failed))
# A build or runner failure with no failing test still fails the suite.
if [ "$build_status" -ne 0 ] || [ "$cargo_status" -ne 0 ] || [ "$lit_status" -ne 0 ] \
  || [ "$fmt_status" -ne 0 ] || [ "$clippy_status" -ne 0 ]; then
  if [ "$failed" -eq 0 ]; then failed=1; fi
fi
[ "$fmt_status" -eq 0 ] || echo "cargo fmt --check: not formatted (see $logs/fmt.log)"
[ "$clippy_status" -eq 0 ] || echo "cargo clippy -D warnings: failed (see $logs/clippy.log)"
echo "cargo test: $cargo_passed passed, $cargo_failed failed; lit: $lit_passed passed, $lit_failed failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
