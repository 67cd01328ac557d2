"""JSON for what callers hand in: any value gets a JSON form (pydantic models dumped, NaN and
infinities and anything else unknown as text), so a call is never refused for its arguments' types."""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["json_safe"]


def json_safe(value: Any) -> Any:
    """A JSON value for ``value``: pydantic models dumped, NaN and infinities as text, anything
    else unknown as its text."""

    def default(v: Any) -> Any:
        dump = getattr(v, "model_dump", None)
        if callable(dump):
            return dump(mode="json", by_alias=True, exclude_none=True)
        return str(v)

    def finite(v: Any) -> Any:
        if isinstance(v, float) and not math.isfinite(v):
            return str(v)
        if isinstance(v, dict):
            return {str(k): finite(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [finite(x) for x in v]
        return v

    try:
        return json.loads(json.dumps(finite(value), default=default))
    except (TypeError, ValueError, RecursionError):
        return str(value)
