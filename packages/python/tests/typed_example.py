"""A typed use of every public name, checked by mypy --strict against the installed wheel (the
test's control: a wrong use of the same names must be refused)."""

from __future__ import annotations

from agents.mcp import MCPServerStreamableHttp
from agents.tool import ToolErrorFunction
from mcp import ClientSession

from mcp_triage_verdict import (
    VERDICT_FORMAT,
    Action,
    AgentCall,
    Cause,
    Channel,
    Conformance,
    DecidedBy,
    Delivery,
    Evidence,
    Flag,
    MadeOn,
    Party,
    Probe,
    Raised,
    RetryDecision,
    RetrySafety,
    SpecVerdict,
    Verdict,
    classify,
    classify_outcome,
    message_for_model,
    should_retry,
)
from mcp_triage_verdict.agents import TriageToolCalls, triage_failure_error_function
from mcp_triage_verdict.client import McpSession, TriagedCall, TriagedSession, verdict_for_exception

raised: Raised = {"name": "MCPError", "code": -32602, "message": "Unknown tool: t"}
call: AgentCall = {"tool": "t", "arguments": {}, "raised": raised}
v: Verdict = classify_outcome(call)
cause: Cause = v.cause
channel: Channel = v.channel
made_on: MadeOn = v.made_on
action: Action = v.action
party: Party = v.party
retry: RetrySafety = v.retry
delivery: Delivery | None = v.delivery
flags: tuple[Flag, ...] = v.flags
first: Evidence = v.evidence[0]
kind: DecidedBy = first.kind
spec: SpecVerdict | None = classify("{}", intent=Probe.A, protocol_version="2025-06-18").spec
conformance: Conformance | None = spec.conformance if spec else None
decision: RetryDecision = should_retry(v, 1, 3)
wait_ms: int = decision.after_ms
line: str = message_for_model(v)
as_dict: dict[str, object] = v.to_dict()
same: Verdict = Verdict.from_dict(as_dict)
fmt: str = VERDICT_FORMAT
if v.cause is Cause.UNKNOWN_TOOL and v.action == Action.PICK_ANOTHER_TOOL:
    text: str = v.cause  # a StrEnum is a str
failure: ToolErrorFunction = triage_failure_error_function
around: Verdict = verdict_for_exception("t", {"a": 1}, ExceptionGroup("transport", [ConnectionError("refused")]))


async def use(session: ClientSession) -> None:
    wrapped: McpSession = session
    triaged = TriagedSession(wrapped)
    await triaged.list_tools()
    outcome: TriagedCall = await triaged.call_tool("t", {"a": 1})
    print(outcome.verdict.cause, outcome.error, outcome.result, outcome.call["tool"])


class TriagedServer(TriageToolCalls, MCPServerStreamableHttp):
    """The Agents SDK's server class with every call's verdict."""

    def on_verdict(self, tool_name: str, verdict: Verdict) -> None:
        print(tool_name, verdict.cause)


server = TriagedServer({"url": "http://127.0.0.1:1/mcp"}, failure_error_function=triage_failure_error_function)
