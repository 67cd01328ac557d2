"""MCP Triage's verdicts for Python agents: how an MCP ``tools/call`` failed (an unknown tool,
invalid arguments, the tool's own failure, auth, transport, the client library), told apart by
the same core as the ``mcp-triage`` command line and npm package, with what to do next.

    verdict = classify_outcome({"tool": "get_wether", "arguments": {}, "raised": {...}})
    if should_retry(verdict, attempt=1, max_attempts=3).retry: ...
    model_sees = message_for_model(verdict)

Every decision is the core's (``_core``, a compiled extension); this module only turns values
into JSON text and back, typed. Adapters: ``mcp_triage_verdict.client`` (the ``mcp`` package's
``ClientSession``) and ``mcp_triage_verdict.agents`` (the OpenAI Agents SDK).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from . import _core
from ._json import json_safe
from ._types import AgentCall, Raised
from ._vocabulary import (
    Action,
    Cause,
    Channel,
    Conformance,
    DecidedBy,
    Delivery,
    Flag,
    MadeOn,
    Party,
    Probe,
    RetrySafety,
)

__all__ = [
    "VERDICT_FORMAT",
    "Action",
    "AgentCall",
    "Cause",
    "Channel",
    "Conformance",
    "DecidedBy",
    "Delivery",
    "Evidence",
    "Flag",
    "MadeOn",
    "Party",
    "Probe",
    "Raised",
    "RetryDecision",
    "RetrySafety",
    "SpecVerdict",
    "Verdict",
    "classify",
    "classify_outcome",
    "message_for_model",
    "should_retry",
]

#: The format every verdict carries (``to_dict()["format"]``).
VERDICT_FORMAT: Final[str] = _core.VERDICT_FORMAT


@dataclass(frozen=True, slots=True)
class Evidence:
    """One fact that contributed to the verdict, the deciding one first."""

    kind: DecidedBy
    fact: str
    pointer: str | None = None
    range: tuple[int, int] | None = None
    matched: str | None = None
    rule: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": str(self.kind), "fact": self.fact}
        if self.pointer is not None:
            out["pointer"] = self.pointer
        if self.range is not None:
            out["range"] = list(self.range)
        if self.matched is not None:
            out["matched"] = self.matched
        if self.rule is not None:
            out["rule"] = self.rule
        return out


@dataclass(frozen=True, slots=True)
class SpecVerdict:
    """The spec verdict: an exchange's, with a probe's intent and a protocol version only."""

    probe: Probe
    version: str
    conformance: Conformance
    rule: str
    link: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "probe": str(self.probe),
            "version": self.version,
            "conformance": str(self.conformance),
            "rule": self.rule,
            "link": self.link,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """One verdict (``mcp-triage-verdict/2``); ``to_dict()`` gives the format's JSON object."""

    made_on: MadeOn
    channel: Channel
    cause: Cause
    decided_by: DecidedBy
    evidence: tuple[Evidence, ...]
    action: Action
    party: Party
    retry: RetrySafety
    agent_advice: str
    delivery: Delivery | None = None
    format: str = VERDICT_FORMAT
    tool: str | None = None
    rule: str | None = None
    flags: tuple[Flag, ...] = ()
    jsonrpc_code: int | None = None
    http_status: int | None = None
    said: str | None = None
    intent: Probe | None = None
    protocol_version: str | None = None
    spec: SpecVerdict | None = None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Verdict:
        """A verdict from the format's JSON object (``ValueError`` when it is not one)."""
        if not isinstance(d, Mapping) or d.get("format") != VERDICT_FORMAT:
            raise ValueError(f"not an {VERDICT_FORMAT}: its format is {d.get('format') if isinstance(d, Mapping) else type(d).__name__!r}")
        try:
            spec = d.get("spec")
            return cls(
                format=str(d["format"]),
                tool=d.get("tool"),
                made_on=MadeOn(d["made_on"]),
                channel=Channel(d["channel"]),
                cause=Cause(d["cause"]),
                decided_by=DecidedBy(d["decided_by"]),
                rule=d.get("rule"),
                evidence=tuple(
                    Evidence(
                        kind=DecidedBy(e["kind"]),
                        fact=e["fact"],
                        pointer=e.get("pointer"),
                        range=(e["range"][0], e["range"][1]) if "range" in e else None,
                        matched=e.get("matched"),
                        rule=e.get("rule"),
                    )
                    for e in d["evidence"]
                ),
                flags=tuple(Flag(f) for f in d.get("flags", ())),
                jsonrpc_code=d.get("jsonrpc_code"),
                http_status=d.get("http_status"),
                said=d.get("said"),
                action=Action(d["action"]),
                party=Party(d["party"]),
                retry=RetrySafety(d["retry"]),
                delivery=Delivery(d["delivery"]) if "delivery" in d else None,
                agent_advice=d["agent_advice"],
                intent=Probe(d["intent"]) if "intent" in d else None,
                protocol_version=d.get("protocol_version"),
                spec=None
                if spec is None
                else SpecVerdict(
                    probe=Probe(spec["probe"]),
                    version=spec["version"],
                    conformance=Conformance(spec["conformance"]),
                    rule=spec["rule"],
                    link=spec["link"],
                    reason=spec["reason"],
                ),
            )
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise ValueError(f"not an {VERDICT_FORMAT}: {e!r}") from e

    def to_dict(self) -> dict[str, Any]:
        """The verdict as the format's JSON object (absent fields left out, as the core does)."""
        out: dict[str, Any] = {"format": self.format}
        optional: dict[str, Any] = {
            "tool": self.tool,
            "rule": self.rule,
            "jsonrpc_code": self.jsonrpc_code,
            "http_status": self.http_status,
            "said": self.said,
            "delivery": None if self.delivery is None else str(self.delivery),
            "intent": None if self.intent is None else str(self.intent),
            "protocol_version": self.protocol_version,
            "spec": None if self.spec is None else self.spec.to_dict(),
        }
        out.update(
            made_on=str(self.made_on),
            channel=str(self.channel),
            cause=str(self.cause),
            decided_by=str(self.decided_by),
            evidence=[e.to_dict() for e in self.evidence],
            action=str(self.action),
            party=str(self.party),
            retry=str(self.retry),
            agent_advice=self.agent_advice,
        )
        if self.flags:
            out["flags"] = [str(f) for f in self.flags]
        out.update({k: v for k, v in optional.items() if v is not None})
        return out

    def to_json(self) -> str:
        """``to_dict()`` as JSON text."""
        return json.dumps(self.to_dict())


@dataclass(frozen=True, slots=True)
class RetryDecision:
    """Whether to send the same call again, after how many milliseconds, and why."""

    retry: bool
    after_ms: int
    why: str


def _text(value: str | bytes | Mapping[str, Any]) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    if isinstance(value, str):
        return value
    return _json(value)


def _json(value: Any) -> str:
    """JSON text for what a caller handed in; ``ValueError`` when it has no JSON form."""
    try:
        return json.dumps(value, allow_nan=False, default=json_safe)
    except (TypeError, ValueError, RecursionError) as e:
        raise ValueError(f"not JSON: {e}") from e


def _count(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be an integer of at least 0, not {value!r}")
    return min(value, 2**32 - 1)


def classify(
    exchange: str | bytes | Mapping[str, Any],
    *,
    intent: Probe | Literal["A", "B", "C", "D"] | None = None,
    protocol_version: str | None = None,
) -> Verdict:
    """A captured exchange (``mcp-exchange/1``: text, bytes or a parsed object) → its verdict,
    as ``mcp-triage classify --json`` gives it. ``ValueError`` when it is not an exchange."""
    raw = _core.classify(_text(exchange), None if intent is None else str(intent), protocol_version)
    return Verdict.from_dict(json.loads(raw))


def classify_outcome(call: AgentCall) -> Verdict:
    """What an agent's MCP client library handed it after a ``tools/call`` → its verdict. Never
    raises for what it is handed: a call it cannot read gets the ``unknown`` verdict whose ``said``
    says what was missing (the core's one decision for both packages)."""
    try:
        text = _json(call)
    except ValueError as e:
        tool = call.get("tool") if isinstance(call, Mapping) else None
        return Verdict.from_dict(json.loads(_core.unreadable(tool if isinstance(tool, str) else None, str(e))))
    return Verdict.from_dict(json.loads(_core.classify_outcome(text)))


def should_retry(verdict: Verdict, attempt: int, max_attempts: int) -> RetryDecision:
    """Whether to send the same call again (``attempt`` counts from 1), and after how long."""
    raw = _core.should_retry(verdict.to_json(), _count("attempt", attempt), _count("max_attempts", max_attempts))
    d = json.loads(raw)
    return RetryDecision(retry=bool(d["retry"]), after_ms=int(d["after_ms"]), why=str(d["why"]))


def message_for_model(verdict: Verdict) -> str:
    """One line for the model, in place of "An error occurred while running the tool"."""
    return _core.message_for_model(verdict.to_json())
