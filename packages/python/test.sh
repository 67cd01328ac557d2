#!/usr/bin/env bash
# The Python package as a user gets it: the sdist made by maturin, the wheel built from that sdist
# (so the sdist is proved to build from source), the wheel installed with no index into a fresh
# virtualenv, then pytest in that virtualenv (tests/: the API, parity with the CLI and the npm
# package over every public capture, the adapters with the real `mcp` client and OpenAI Agents SDK
# against live peers, mypy --strict). The test tools come from packages/python/.venv (setup.sh)
# through a .pth file; the package only from the wheel.
#   bash packages/python/test.sh [--bench]   (after the npm package's build and a debug build of the
#   CLI; --bench builds and installs the same way, then runs bench.py instead of the tests)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tools=$root/packages/python/.venv
export PATH="$tools/bin:$PATH"
out=$root/target/python-dist
# A target folder of its own, emptied: the sdist's files carry its timestamps, older than a
# previous build's, so cargo would take that build as fresh.
rm -rf "$out" "$root/target/python"

python3 packages/python/vocabulary.py --check
(cd packages/python && maturin sdist --out "$out")
CARGO_TARGET_DIR=$root/target/python pip wheel -q --disable-pip-version-check --no-index --no-deps \
  --no-build-isolation "$out"/mcp_triage_verdict-*.tar.gz -w "$out"
wheel=$(ls "$out"/mcp_triage_verdict-*.whl)
echo "wheel: $(basename "$wheel") $(stat -c %s "$wheel") bytes; sdist: $(stat -c %s "$out"/mcp_triage_verdict-*.tar.gz) bytes"

venv=${TMPDIR:-/tmp}/mcp-triage-py-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check --no-index --no-deps "$wheel"
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
"$tools/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' > "$site/mcp-triage-test-tools.pth"
if "$tools/bin/python" -c 'import mcp_triage_verdict' 2>/dev/null; then
  echo "the test tools' virtualenv must not hold the package (the tests would not prove the wheel)"; exit 1
fi
if [ "${1:-}" = "--bench" ]; then
  exec "$venv/bin/python" packages/python/bench.py
fi
# Again on `mcp` 1.x (its tools from packages/python/.venv-mcp1): the framework matrix and the
# README example, which read the error where each version keeps it.
venv1=${TMPDIR:-/tmp}/mcp-triage-py-venv-mcp1
rm -rf "$venv1"
python3 -m venv "$venv1"
"$venv1/bin/pip" install -q --disable-pip-version-check --no-index --no-deps "$wheel"
site1=$("$venv1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
"$root/packages/python/.venv-mcp1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' > "$site1/mcp-triage-test-tools.pth"
cd packages/python/tests
status=0
PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" -m pytest -p no:cacheprovider -q "$@" || status=$?
if [ $# -eq 0 ]; then
  echo "== again with mcp $("$venv1/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))')"
  PYTHONDONTWRITEBYTECODE=1 "$venv1/bin/python" -m pytest -p no:cacheprovider -q test_frameworks.py test_readme.py || status=$?
fi
exit $status
