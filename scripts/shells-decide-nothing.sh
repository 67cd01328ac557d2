#!/usr/bin/env bash
# No shell decides how a request ends (crates/mcp-triage/src/decode/reader/mod.rs): the shells' sources
# (the page, the CLI, and every binding crate) name no media type, no content header they would read
# themselves, no status range, no cap or deadline of the limits, no ending, and none of the core's
# reading internals. The control: every pattern must fire on scripts/fixtures/deciding-shell.rs.txt.
set -uo pipefail
cd "$(dirname "$0")/.."

PATTERNS=(
  'event-stream'                               # a media type
  'content-type|content-length'                # a header the core reads
  '300[[:space:]]*\.\.|\.\.=?[[:space:]]*(399|400)'  # what a 3xx means
  'max_body_bytes|max_sse_line_bytes|max_sse_events|max_unrelated_messages'  # a cap
  'headers_deadline_ms|idle_gap_ms|request_total_ms|first_event_ms'          # a deadline
  'BodyEnd::|TransportError::'                 # an ending
  'RequestClock|BodyReader|SseParser'          # the core's reading internals
)
CONTROL=scripts/fixtures/deciding-shell.rs.txt
SHELLS=(web/src crates/mcp-triage-cli/src)
for d in crates/*; do
  case "$d" in crates/mcp-triage|crates/mcp-triage-cli) ;; *) [ -d "$d/src" ] && SHELLS+=("$d/src") ;; esac
done

status=0
for p in "${PATTERNS[@]}"; do
  if ! grep -Eqi -- "$p" "$CONTROL"; then
    echo "control: the pattern /$p/ finds nothing in $CONTROL, so it cannot fail"; status=1
  fi
  # Comment lines may explain what the core decides; code may not decide it.
  found=$(grep -rEni --include='*.rs' -- "$p" "${SHELLS[@]}" | grep -Ev '^[^:]+:[0-9]+:[[:space:]]*//' || true)
  if [ -n "$found" ]; then
    echo "a shell decides what the core's reader decides (/$p/):"; echo "$found"; status=1
  fi
done
[ "$status" -eq 0 ] && echo "no shell decides a media type, cap, redirect meaning, deadline or ending (${#PATTERNS[@]} patterns over ${SHELLS[*]}; each fires on the control)"
exit "$status"
