#!/usr/bin/env bash
# Every workflow (.github/workflows) and the composite action (action.yml) pass jactionlint, a
# maintained fork of actionlint from PyPI (scripts/lint-requirements.txt, installed by setup.sh with
# shellcheck for the run: scripts), under .github/jactionlint.yaml. The controls: a workflow and an
# action, each with one broken reference, must be refused, so the check can fail on either kind.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv-lint/bin:$PATH"
if ! command -v jactionlint >/dev/null; then echo "jactionlint is not installed (scripts/setup.sh)"; exit 1; fi

control=$(mktemp -d)
trap 'rm -rf "$control"' EXIT
mkdir -p "$control/.github/workflows"
printf 'on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    timeout-minutes: 5\n    steps:\n      - run: echo "${{ github.nope }}"\n' \
  > "$control/.github/workflows/broken.yml"
sed 's/inputs\.url }}/inputs.no-such-input }}/' action.yml > "$control/action.yml"
for file in .github/workflows/broken.yml action.yml; do
  if (cd "$control" && jactionlint --no-color "$file" >/dev/null 2>&1); then
    echo "control: jactionlint passed a broken $file"; exit 1
  fi
done

jactionlint --version | head -1
if ! jactionlint --no-color; then exit 1; fi
shopt -s nullglob
files=(.github/workflows/*.yml action.yml)
echo "jactionlint: ${#files[@]} files clean (${files[*]}); the controls (a broken workflow, a broken action) fail"
