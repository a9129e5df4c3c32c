#!/usr/bin/env bash
# Installs a built pto-mlir into PREFIX as a relocatable tree:
#
#   bin/                 pto-opt, pto-translate, pto-run
#   lib/                 libpto_mlir.so.X.Y.Z (SONAME libpto_mlir.so.X.Y) with
#                        the libpto_mlir.so.X.Y and libpto_mlir.so links, and
#                        libMLIR-C.so (the shared MLIR C API the build makes)
#   lib/cmake/PTOMLIR/   PTOMLIRConfig.cmake, PTOMLIRConfigVersion.cmake
#   lib/python/pto_mlir/ the Python package
#   include/pto-c/       the C API headers
#   share/pto-mlir/sim/  the simulator headers pto-translate's output includes
#   share/doc/pto-mlir/  README.md and docs/
#
# Binaries find lib/ through RUNPATH $ORIGIN/../lib, libraries each other
# through $ORIGIN, and LLVM/MLIR 22 in /usr/lib/llvm-22/lib: the tree works
# wherever it is moved. Nothing is built here: run scripts/setup.sh first.
#
#   scripts/install.sh PREFIX [--profile debug|release]
set -euo pipefail

usage="usage: scripts/install.sh PREFIX [--profile debug|release]"
prefix=""
profile=debug
while (($#)); do
  case "$1" in
    --profile) profile="${2:?$usage}"; shift 2 ;;
    --profile=*) profile="${1#--profile=}"; shift ;;
    -h|--help) echo "$usage"; exit 0 ;;
    -*) echo "install.sh: error: unknown option $1 ($usage)" >&2; exit 1 ;;
    *) [ -z "$prefix" ] || { echo "install.sh: error: two prefixes ($usage)" >&2; exit 1; }
       prefix="$1"; shift ;;
  esac
done
[ -n "$prefix" ] || { echo "install.sh: error: no PREFIX ($usage)" >&2; exit 1; }
# A relative PREFIX is the caller's, resolved before moving to the checkout.
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
cd "$(dirname "$0")/.."

built="target/$profile"
for artifact in pto-opt pto-translate pto-run libpto_mlir.so libMLIR-C.so; do
  if [ ! -f "$built/$artifact" ]; then
    echo "install.sh: error: $built/$artifact is missing: run scripts/setup.sh (or cargo build --workspace${profile:+ --profile $profile}) first" >&2
    exit 1
  fi
done
if ! command -v patchelf >/dev/null; then
  echo "install.sh: error: patchelf is not installed (scripts/setup.sh installs it)" >&2
  exit 1
fi

# The workspace version (Cargo.toml's [workspace.package]).
version=$(sed -n 's/^version = "\([0-9.]*\)"$/\1/p' Cargo.toml | head -1)
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "install.sh: error: no version in Cargo.toml" >&2; exit 1; }
# 0.x: a minor version may change the ABI, so it is part of the SONAME.
soname="libpto_mlir.so.${version%.*}"
llvm_lib=/usr/lib/llvm-22/lib

stage=$(mktemp -d "$prefix/.install.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,lib/cmake/PTOMLIR,lib/python,include,share/pto-mlir,share/doc/pto-mlir}

for tool in pto-opt pto-translate pto-run; do
  install -m 755 "$built/$tool" "$stage/bin/$tool"
  patchelf --set-rpath "\$ORIGIN/../lib:$llvm_lib" "$stage/bin/$tool"
done

install -m 755 "$built/libpto_mlir.so" "$stage/lib/libpto_mlir.so.$version"
patchelf --set-soname "$soname" "$stage/lib/libpto_mlir.so.$version"
patchelf --set-rpath "\$ORIGIN:$llvm_lib" "$stage/lib/libpto_mlir.so.$version"
ln -s "libpto_mlir.so.$version" "$stage/lib/$soname"
ln -s "$soname" "$stage/lib/libpto_mlir.so"
install -m 755 "$built/libMLIR-C.so" "$stage/lib/libMLIR-C.so"
patchelf --set-rpath "$llvm_lib" "$stage/lib/libMLIR-C.so"

cp -r include/pto-c "$stage/include/"
install -m 644 cmake/PTOMLIRConfig.cmake cmake/PTOMLIRConfigVersion.cmake "$stage/lib/cmake/PTOMLIR/"
echo "set(PTOMLIR_PACKAGE_VERSION \"$version\")" > "$stage/lib/cmake/PTOMLIR/PTOMLIRVersion.cmake"
tar -C python --exclude='__pycache__' -cf - pto_mlir | tar -C "$stage/lib/python" -xf -
cp -r sim "$stage/share/pto-mlir/sim"
cp README.md "$stage/share/doc/pto-mlir/"
cp -r docs "$stage/share/doc/pto-mlir/docs"

# Replace what an install of this version put there (other versions'
# libraries stay for the programs linked against them), then move the
# staged tree in, keeping directories that are links (a merged /usr).
rm -rf "$prefix"/bin/pto-{opt,translate,run} "$prefix/lib/libpto_mlir.so" "$prefix/lib/$soname" \
  "$prefix/lib/libpto_mlir.so.$version" "$prefix/lib/libMLIR-C.so" \
  "$prefix/lib/cmake/PTOMLIR" "$prefix/lib/python/pto_mlir" "$prefix/include/pto-c" \
  "$prefix/share/pto-mlir" "$prefix/share/doc/pto-mlir"
tar -C "$stage" -cf - bin lib include share | tar -C "$prefix" --keep-directory-symlink -xf -
echo "installed pto-mlir $version ($profile) in $prefix"
