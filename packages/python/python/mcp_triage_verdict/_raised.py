"""An exception as the core reads it (``Raised``): its class, code, message and data, as they are,
with the chain it was raised from (``causes``: ``raise … from``, a one-exception group's member).
Which link, and which outcome, is the core's decision (its tables of client libraries' classes
and words)."""

from __future__ import annotations

from typing import Any

from ._json import json_safe
from ._types import Raised

# How many links of a chain are handed over (the core reads as many).
_MAX_CAUSES = 8
# The longest message handed over (the core reads 4096 characters).
_MAX_MESSAGE = 4096


def _link(error: BaseException) -> Raised:
    out: Raised = {"name": type(error).__name__, "message": ""}
    try:
        code = getattr(error, "code", None)
        # mcp 1.x's McpError keeps the JSON-RPC error at .error (an ErrorData), not on itself.
        inner = getattr(error, "error", None) if code is None else None
        inner_code = getattr(inner, "code", None)
        if isinstance(inner_code, int) and not isinstance(inner_code, bool):
            code = inner_code
        if code is None:
            code = getattr(getattr(error, "response", None), "status_code", None)
        if (isinstance(code, int) and not isinstance(code, bool)) or isinstance(code, str):
            out["code"] = code
        message = getattr(error, "message", None)
        text = message if isinstance(message, str) else str(error)
        out["message"] = text[:_MAX_MESSAGE]
        data = getattr(error, "data", None)
        if data is None and inner_code is not None:
            data = getattr(inner, "data", None)
        if data is not None:
            out["data"] = json_safe(data)
    except Exception as odd:  # an exception whose attributes raise: its class still counts
        out["message"] = f"(unreadable: {type(odd).__name__})"
    return out


def raised_of(error: BaseException) -> Raised:
    """The exception, and what it was raised from, outermost first."""
    chain: list[BaseException] = []
    seen = error
    for _ in range(_MAX_CAUSES + 1):
        if isinstance(seen, BaseExceptionGroup) and len(seen.exceptions) == 1:
            seen = seen.exceptions[0]
            continue
        chain.append(seen)
        nxt = seen.__cause__ or (None if seen.__suppress_context__ else seen.__context__)
        if nxt is None or nxt in chain:
            break
        seen = nxt
    out = _link(chain[0])
    if len(chain) > 1:
        out["causes"] = [_link(e) for e in chain[1 : _MAX_CAUSES + 1]]
    return out
