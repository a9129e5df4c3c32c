#!/usr/bin/env bash
# Sets up everything pto-mlir needs on Debian 12 and builds it:
#  1. installs the LLVM/MLIR 22 toolchain from Debian's packages if any part
#     is missing (idempotent: installed packages are left alone);
#  2. builds the workspace; the build also makes the shared MLIR C API
#     library (target/<profile>/libMLIR-C.so) from Debian's static archives.
# No environment variable is needed: .cargo/config.toml carries the paths.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libclang-22-dev clang-22
  libpolly-22-dev zlib1g-dev libzstd-dev libxml2-dev libz3-dev
  g++ cmake ninja-build python3 python3-numpy python3-pytest patchelf
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v cargo >/dev/null; then
  echo "setup: error: cargo is not on PATH (install Rust with rustup first)" >&2
  exit 1
fi

# The test command checks formatting and lints: rustup's default profile has
# rustfmt and clippy, a minimal one does not.
if command -v rustup >/dev/null; then
  rustup component add rustfmt clippy >/dev/null 2>&1 || true
fi

cargo build --workspace --locked
