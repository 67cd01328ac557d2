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
from ._raised import innermost, raised_of

__all__ = ["McpSession", "TriagedCall", "TriagedSession"]


class McpSession(Protocol):
    """What the adapter needs of a session (``mcp.ClientSession`` has both)."""

    def call_tool(self, name: str, arguments: dict[str, Any] | None = None) -> Awaitable[Any]: ...

    def list_tools(self) -> Awaitable[Any]: ...


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
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json", by_alias=True, exclude_none=True)
    return value


class TriagedSession:
    """A session whose ``call_tool`` returns a ``TriagedCall``; every other attribute is the
    wrapped session's."""

    def __init__(self, session: McpSession) -> None:
        self._session = session
        self._definitions: dict[str, dict[str, Any]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    async def list_tools(self) -> Any:
        """The session's ``list_tools()``, remembering each tool's definition."""
        listed = await self._session.list_tools()
        for tool in getattr(listed, "tools", None) or []:
            definition = _as_json(tool)
            if isinstance(definition, dict) and isinstance(definition.get("name"), str):
                self._definitions[definition["name"]] = definition
        return listed

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None, **kwargs: Any) -> TriagedCall:
        """The session's ``call_tool(name, arguments, **kwargs)`` with its verdict. Exceptions
        (``Exception``, not cancellation) become the verdict's input, never raised."""
        call: AgentCall = {"tool": name, "arguments": dict(arguments or {})}
        if name in self._definitions:
            call["definition"] = self._definitions[name]
        call_fn: Any = self._session.call_tool
        try:
            result = await call_fn(name, arguments, **kwargs)
        except Exception as error:
            call["raised"] = raised_of(innermost(error))
            return TriagedCall(verdict=classify_outcome(call), call=call, error=error)
        call["result"] = _as_json(result)
        return TriagedCall(verdict=classify_outcome(call), call=call, result=result)
