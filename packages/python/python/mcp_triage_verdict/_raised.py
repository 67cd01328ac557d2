"""An exception as the core reads it (``Raised``): its class, code, message and data, as they are.
Which outcome it stands for is the core's decision (its table of client libraries' classes)."""

from __future__ import annotations

import json
from typing import Any

from . import Raised

# How far down `raise ... from` chains and one-exception groups are followed.
_MAX_DEPTH = 8


def innermost(error: BaseException) -> BaseException:
    """The exception a wrapper was raised from (``__cause__``), or a group's only member."""
    seen = error
    for _ in range(_MAX_DEPTH):
        if isinstance(seen, BaseExceptionGroup) and len(seen.exceptions) == 1:
            seen = seen.exceptions[0]
        elif seen.__cause__ is not None:
            seen = seen.__cause__
        else:
            break
    return seen


def _json_safe(value: Any) -> Any:
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return str(value)


def raised_of(error: BaseException) -> Raised:
    """The exception's class name, its ``code`` (an HTTP error's status where the library keeps it
    on ``response.status_code``), its message (``message``, else ``str()``) and its ``data``."""
    out: Raised = {"name": type(error).__name__, "message": ""}
    code = getattr(error, "code", None)
    if code is None:
        code = getattr(getattr(error, "response", None), "status_code", None)
    if isinstance(code, int) and not isinstance(code, bool):
        out["code"] = code
    message = getattr(error, "message", None)
    out["message"] = message if isinstance(message, str) else str(error)
    data = getattr(error, "data", None)
    if data is not None:
        out["data"] = _json_safe(data)
    return out
