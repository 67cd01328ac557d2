"""An adapter for the ``mcp`` package's client: ``TriagedSession(session)`` wraps a
``ClientSession`` (or anything with ``call_tool`` and ``list_tools``) so that ``call_tool``
returns the result with its verdict, or the exception the SDK raised with its verdict, never
raising for the call's own failure. Tools listed through it are remembered, so a verdict knows
each tool's input schema and annotations (retry safety reads ``readOnlyHint`` / ``idempotentHint``).

    session = TriagedSession(client_session)
    await session.list_tools()
    call = await session.call_tool("get_weather", {"city": "Oslo"})
    if call.verdict.action is Action.PROCEED: use(call.result)
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Protocol

from . import AgentCall, Verdict, classify_outcome
from ._json import json_safe
from ._raised import raised_of

__all__ = ["McpSession", "TriagedCall", "TriagedSession", "verdict_for_exception"]

# The most tool definitions remembered (a server listing more keeps the first ones).
_MAX_DEFINITIONS = 4096


class McpSession(Protocol):
    """What the adapter needs of a session (``mcp.ClientSession`` has both)."""

    def call_tool(self, name: str, arguments: dict[str, Any] | None = None) -> Awaitable[Any]: ...

    def list_tools(self, *args: Any, **kwargs: Any) -> Awaitable[Any]: ...


@dataclass(frozen=True, slots=True)
class TriagedCall:
    """A call's outcome: the SDK's ``result`` (a ``CallToolResult``) or the ``error`` it raised,
    the ``verdict``, and ``call``, what the verdict was made from (JSON-ready: log it, or feed it
    to ``mcp-triage classify --outcome``)."""

    verdict: Verdict
    call: AgentCall
    result: Any = None
    error: Exception | None = None


def _as_json(value: Any) -> Any:
    return json_safe(value)


def _judge(call: AgentCall) -> Verdict:
    """The call's verdict: the core judges whatever it is handed (a tool name over 1024 bytes is
    cut, a call it cannot read gets the ``unknown`` verdict), so a call that ran always gets one."""
    return classify_outcome(call)


def verdict_for_exception(tool: str, arguments: Any, error: BaseException) -> Verdict:
    """The verdict for an exception raised around a call rather than by it: with the ``mcp``
    client's Streamable HTTP transport a server that cannot be reached ends the transport's task
    group, so the exception (an ``ExceptionGroup``) leaves ``async with streamable_http_client``,
    outside ``call_tool``; catch it there and hand it here."""
    return _judge({"tool": tool, "arguments": _arguments(arguments), "raised": raised_of(error)})


def _arguments(arguments: Any) -> dict[str, Any]:
    safe = json_safe(arguments) if arguments is not None else {}
    return safe if isinstance(safe, dict) else {"(arguments)": safe}


class TriagedSession:
    """A session whose ``call_tool`` returns a ``TriagedCall``; every other attribute is the
    wrapped session's."""

    def __init__(self, session: McpSession) -> None:
        self._session = session
        self._definitions: dict[str, dict[str, Any]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    async def list_tools(self, *args: Any, **kwargs: Any) -> Any:
        """The session's ``list_tools(...)`` (each page), remembering each tool's definition."""
        listed = await self._session.list_tools(*args, **kwargs)
        for tool in getattr(listed, "tools", None) or []:
            definition = _as_json(tool)
            name = definition.get("name") if isinstance(definition, dict) else None
            if isinstance(name, str) and (name in self._definitions or len(self._definitions) < _MAX_DEFINITIONS):
                self._definitions[name] = definition
        return listed

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None, **kwargs: Any) -> TriagedCall:
        """The session's ``call_tool(name, arguments, **kwargs)`` with its verdict. Exceptions
        (``Exception``, not cancellation) become the verdict's input, never raised; nothing is
        raised after the call ran."""
        call: AgentCall = {"tool": name, "arguments": {}}
        if name in self._definitions:
            call["definition"] = self._definitions[name]
        call_fn: Any = self._session.call_tool
        try:
            call["arguments"] = _arguments(arguments)
            result = await call_fn(name, arguments, **kwargs)
        except Exception as error:
            call["raised"] = raised_of(error)
            return TriagedCall(verdict=_judge(call), call=call, error=error)
        call["result"] = _as_json(result)
        return TriagedCall(verdict=_judge(call), call=call, result=result)
