"""What a caller hands the core about a call, typed: ``AgentCall`` and the exception in it."""

from __future__ import annotations

from typing import Any, Required, TypedDict

__all__ = ["AgentCall", "Raised"]


class Raised(TypedDict, total=False):
    """Whatever the client library raised, as it raised it: the core reads which outcome it
    stands for (the server's error, the transport's, or the library's own)."""

    name: str
    code: int | str
    message: Required[str]
    data: Any
    causes: list[Raised]


class AgentCall(TypedDict, total=False):
    """What an agent's MCP client library handed it after a ``tools/call``: the tool, the
    arguments sent, optionally the tool's definition from ``tools/list``, and exactly one of
    ``result`` (the ``CallToolResult`` as JSON), ``error``, ``transport``, ``client_error`` or
    ``raised``."""

    tool: Required[str]
    arguments: dict[str, Any]
    definition: dict[str, Any]
    result: dict[str, Any]
    error: dict[str, Any]
    transport: dict[str, Any]
    client_error: dict[str, Any]
    raised: Raised
