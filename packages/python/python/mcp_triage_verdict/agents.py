"""MCP Triage in the OpenAI Agents SDK. The SDK's ``failure_error_function`` sees only what a call
raised: an MCP tool's ``isError`` result reaches the model as if it had worked (agents 0.24.0
agents/mcp/util.py:797-803). So, together:

    class TriagedServer(TriageToolCalls, MCPServerStreamableHttp):
        def on_verdict(self, tool_name, verdict): ...   # every call's verdict, successes included

    server = TriagedServer(params, failure_error_function=triage_failure_error_function)

``TriageToolCalls`` sees every call the agent makes through the server: an ``isError`` result's
text becomes the verdict's line for the model, and what a call raised (the SDK's own refusal of
missing arguments included) goes on to ``triage_failure_error_function``, whose line replaces the
SDK's "An error occurred while running the tool. Please try again.". Neither raises for a failure it
cannot read. A tool the model made up never reaches the server: the SDK raises ``ModelBehaviorError``
from ``Runner.run``; ``verdict_for_exception`` (``mcp_triage_verdict.client``) reads it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from . import AgentCall, Verdict, classify_outcome, message_for_model
from ._json import json_safe
from ._raised import raised_of

__all__ = ["TriageToolCalls", "triage_failure_error_function"]

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


def _with_line(result: Any, line: str) -> Any:
    """The result with its first text item's words replaced by the verdict's line (the result as
    it was when it has none, or cannot be copied)."""
    try:
        content = list(getattr(result, "content", None) or [])
        for i, item in enumerate(content):
            if isinstance(getattr(item, "text", None), str):
                content[i] = item.model_copy(update={"text": line})
                return result.model_copy(update={"content": content})
    except Exception:
        pass
    return result


class TriageToolCalls:
    """A mixin for an Agents SDK MCP server class (put it first): ``call_tool`` as the server's, with
    a verdict for each call handed to ``on_verdict``; an ``isError`` result's text becomes the
    verdict's line, and an exception is raised on as it was (to the ``failure_error_function``); a
    cancelled call gets its verdict (cancelled, may have run) before the cancellation goes on."""

    def on_verdict(self, tool_name: str, verdict: Verdict) -> None:
        """Each call's verdict, successes included: override it to log or count. Does nothing."""

    async def call_tool(self, tool_name: str, arguments: dict[str, Any] | None, *args: Any, **kwargs: Any) -> Any:
        call: AgentCall = {"tool": tool_name, "arguments": json_safe(arguments) if isinstance(arguments, dict) else {}}
        try:
            result = await super().call_tool(tool_name, arguments, *args, **kwargs)  # type: ignore[misc]
        except Exception as error:
            call["raised"] = raised_of(error)
            self.on_verdict(tool_name, classify_outcome(call))
            raise
        except asyncio.CancelledError as cancelled:
            # The SDK cancels a pending call when its session ends (the server gone): told as
            # cancelled and "may have run" before the cancellation goes on, never swallowed.
            call["raised"] = raised_of(cancelled)
            try:
                self.on_verdict(tool_name, classify_outcome(call))
            except Exception:
                pass  # a hook that fails must not turn the cancellation into another error
            raise
        call["result"] = json_safe(result)
        verdict = classify_outcome(call)
        self.on_verdict(tool_name, verdict)
        if getattr(result, "isError", False) is True:
            return _with_line(result, message_for_model(verdict))
        return result
