"""The OpenAI Agents SDK's ``failure_error_function``, told by MCP Triage: the model gets the
verdict's line (``message_for_model``: the tool does not exist, these arguments were refused, the
server failed, sign in again…) instead of the SDK's default "An error occurred while running the
tool. Please try again." for every failure.

    server = MCPServerStreamableHttp(params, failure_error_function=triage_failure_error_function)

It never raises: a failure it cannot read still gives the model a line.
"""

from __future__ import annotations

import json
from typing import Any

from . import AgentCall, classify_outcome, message_for_model
from ._raised import raised_of

__all__ = ["triage_failure_error_function"]

# What the model is told when even the tool's name is unknown.
_UNNAMED = "(unnamed tool)"


def triage_failure_error_function(ctx: Any, error: Exception) -> str:
    """``ToolErrorFunction``: ``ctx`` is the SDK's ``ToolContext`` (its ``tool_name`` and
    ``tool_arguments`` are read when present), ``error`` what the tool call raised (the SDK's
    wrapper and what it was raised from are handed to the core, which reads the link that tells)."""
    try:
        name = getattr(ctx, "tool_name", None)
        arguments: Any = {}
        try:
            arguments = json.loads(getattr(ctx, "tool_arguments", None) or "{}")
        except Exception:
            arguments = {}
        call: AgentCall = {
            "tool": name if isinstance(name, str) and name else _UNNAMED,
            "arguments": arguments if isinstance(arguments, dict) else {},
            "raised": raised_of(error),
        }
        return message_for_model(classify_outcome(call))
    except Exception as refused:
        return f"The tool call failed, and its failure could not be read ({type(refused).__name__})."
