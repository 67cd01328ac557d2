#!/usr/bin/env bash
# The public captures (fixtures/exchanges) are test data of this repository, never part of a published
# crate: no file `cargo package --list` puts in a publishable crate has the bytes of a public capture.
# The control: a folder listing one public capture under another name is found to leak it.
set -uo pipefail
cd "$(dirname "$0")/.."

hashes() { xargs -0 -r sha256sum | cut -d' ' -f1 | sort -u; }

public=$(find fixtures/exchanges -name '*.json' -print0 | hashes)
count=$(printf '%s\n' "$public" | grep -c .)
if [ "$count" -lt 900 ]; then
  echo "only $count public captures found in fixtures/exchanges"; exit 1
fi

# leaks DIR: how many files listed on stdin (paths relative to DIR) hold a public capture's bytes.
leaks() {
  local packaged
  packaged=$(cd "$1" && while read -r f; do [ -f "$f" ] && printf '%s\0' "$f"; done | hashes)
  comm -12 <(printf '%s\n' "$public") <(printf '%s\n' "$packaged") | grep -c .
}

control=$(mktemp -d)
trap 'rm -rf "$control"' EXIT
first=$(find fixtures/exchanges -name '*.json' | sort | head -1)
mkdir -p "$control/tests/data" && cp "$first" "$control/tests/data/renamed.json"
if [ "$(printf 'Cargo.toml\ntests/data/renamed.json\n' | leaks "$control")" -ne 1 ]; then
  echo "control: a copied capture was not found"; exit 1
fi

status=0
crates=0
for manifest in crates/*/Cargo.toml; do
  grep -Eq '^[[:space:]]*publish[[:space:]]*=[[:space:]]*false' "$manifest" && continue
  name=$(sed -n 's/^name = "\(.*\)"/\1/p' "$manifest" | head -1)
  if ! files=$(cargo package --list --allow-dirty -p "$name" 2>/dev/null); then
    echo "cargo package --list failed for $name"; status=1; continue
  fi
  crates=$((crates + 1))
  leaked=$(printf '%s\n' "$files" | leaks "$(dirname "$manifest")")
  if [ "$leaked" -gt 0 ]; then
    echo "$name: $leaked public captures would be published"; status=1
  fi
done
[ "$status" -eq 0 ] && echo "no public capture is in a published crate ($crates crates listed, $count captures hashed; the control finds a copied one)"
exit "$status"
