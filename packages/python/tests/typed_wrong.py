"""The control for typed_example.py: each line misuses a public name; mypy --strict must refuse
every one (the test counts the errors)."""

from mcp_triage_verdict import Action, Cause, Verdict, classify_outcome, should_retry

v: Verdict = classify_outcome({"tool": "t", "result": {}})
v.cause = Cause.NONE
wrong_action: Action = "proceed"
wrong_wait: str = should_retry(v, 1, 3).after_ms
classify_outcome({"tool": 1, "result": {}})
