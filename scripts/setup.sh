#!/usr/bin/env bash
# Installs what the two README commands need, skipping whatever is already present at the right version.
# Idempotent: a second run on a set-up machine takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must match the wasm-bindgen pinned in Cargo.lock exactly.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)

log() { printf '[setup] %s\n' "$*"; }

# 1. Rust target for the browser build (rust-toolchain.toml names it; make sure it is there).
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 2. Chromium and chromedriver from Debian (never a browser download by a test tool).
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  log "installing chromium + chromium-driver (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
fi

# 3. trunk, pinned (0.22 needs a newer rustc). Built without LTO: same binary behaviour, 2.5x faster.
if ! trunk --version 2>/dev/null | grep -q "$TRUNK_VERSION"; then
  log "installing trunk $TRUNK_VERSION"
  CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install --locked "trunk@$TRUNK_VERSION"
fi

# 4. wasm-bindgen-cli exactly as Cargo.lock pins it; without --locked (its lockfile pins a crate the
#    registry lacks). Also provides wasm-bindgen-test-runner.
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WB_VERSION"; then
  log "installing wasm-bindgen-cli $WB_VERSION"
  CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install --force wasm-bindgen-cli --version "$WB_VERSION"
fi

# 5. npm packages: binaryen 132 (wasm-opt), playwright-core, axe-core; the demo server's SDK.
if [ ! -x node_modules/.bin/wasm-opt ] || ! cmp -s package-lock.json node_modules/.package-lock.json 2>/dev/null; then
  log "npm ci (root)"
  npm ci --no-audit --no-fund --loglevel=error
fi
if [ ! -d demo/node_modules ] || ! cmp -s demo/package-lock.json demo/node_modules/.package-lock.json 2>/dev/null; then
  log "npm ci (demo)"
  (cd demo && npm ci --no-audit --no-fund --loglevel=error)
fi

# 6. Crates for offline Trunk builds.
cargo fetch --locked >/dev/null 2>&1 || cargo fetch --locked
log "ready"
