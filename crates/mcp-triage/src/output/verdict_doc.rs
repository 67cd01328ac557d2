//! `mcp-triage-verdict/2`: one verdict as every surface hands it on (the CLI's `classify --json`,
//! the packages, an agent's call through [`classify_outcome`]). One shape for both entry points:
//! what an exchange alone tells (the probe's intent, the spec verdict at a protocol version, the
//! HTTP status, whether an unanswered request was sent) is present only when known, never guessed.
//! Its JSON Schema is `docs/mcp-triage-verdict-2.schema.json` (what changed from /1:
//! `docs/formats.md`). Two helpers read a verdict for an agent:
//! [`should_retry`] and [`message_for_model`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::judge::advice::{Advice, AgentAction, Party};
use crate::judge::assess::Assessment;
use crate::judge::classify::Verdict;
use crate::judge::model_lines::{model_line, network_lines};
use crate::judge::outcome::{
    AgentCall, MadeOn, RetrySafety, capped_tool, delivery_of_verdict, judge_call, resolved,
    retry_safety,
};
use crate::judge::server_advice::fitted;
use crate::judge::spec::{Conformance, SpecVerdict};
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Delivery, Evidence, Flag};
use crate::vocabulary::probe::Probe;

/// The format id every verdict carries.
pub const VERDICT_FORMAT: &str = "mcp-triage-verdict/2";

/// The format before `delivery` (`classify --json --verdict-format 1` prints it, for one version).
pub const VERDICT_FORMAT_1: &str = "mcp-triage-verdict/1";

/// The longest quote of the server's (or the library's) words a verdict carries.
const MAX_SAID_CHARS: usize = 500;

/// One verdict, as `mcp-triage-verdict/1` (see the module). It reads back from its JSON (a
/// package hands a verdict to [`should_retry`] and [`message_for_model`] as text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictDoc {
    /// [`VERDICT_FORMAT`].
    pub format: String,
    /// The tool called, when the call named one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Where the failure was decided: the server's answer, or the client library.
    pub made_on: MadeOn,
    /// How the answer arrived.
    pub channel: Channel,
    /// What most likely happened.
    pub cause: Cause,
    /// Whether structure, the probe's intent or text decided the cause.
    pub decided_by: DecidedBy,
    /// The phrase rule that decided, when text did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The facts that decided, the deciding one first.
    pub evidence: Vec<Evidence>,
    /// Observations beside the cause (absent when none, so read back as none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<Flag>,
    /// The JSON-RPC code, when an error carried one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jsonrpc_code: Option<i64>,
    /// The HTTP status, when it is known (an exchange, or a transport failure with one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http_status: Option<u16>,
    /// What the server (or the library) said, quoted, cut at 500 characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub said: Option<String>,
    /// What the agent should do.
    pub action: AgentAction,
    /// Who must act for the call to succeed.
    pub party: Party,
    /// For a call that got no answer: whether the request reached the server (`not_sent`,
    /// `may_have_run`); absent when an answer came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery: Option<Delivery>,
    /// Whether the same call may be sent again.
    pub retry: RetrySafety,
    /// One sentence for the agent's author.
    pub agent_advice: String,
    /// The probe this exchange was (an exchange's only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intent: Option<Probe>,
    /// The protocol version the spec verdict was judged at (an exchange's only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// The spec verdict (an exchange's only, with its intent and version).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec: Option<SpecDoc>,
}

/// The spec verdict as a verdict carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpecDoc {
    /// The probe judged.
    pub probe: Probe,
    /// The version whose rules were applied.
    pub version: String,
    /// The outcome.
    pub conformance: Conformance,
    /// The rule, quoted from the spec text of that version.
    pub rule: String,
    /// Where the rule is.
    pub link: String,
    /// Why this outcome.
    pub reason: String,
}

impl From<&SpecVerdict> for SpecDoc {
    fn from(s: &SpecVerdict) -> SpecDoc {
        SpecDoc {
            probe: s.probe,
            version: s.version.clone(),
            conformance: s.conformance,
            rule: s.rule.to_string(),
            link: s.link.clone(),
            reason: s.reason.clone(),
        }
    }
}

/// A client library's words as a verdict quotes them (to the model, too): tokens (`Bearer …`,
/// JWTs) redacted and secret-shaped values withheld, since a library's message may carry the
/// request's URL with its query (an `api_key=`) or a redirect's location; then cut to length.
fn library_words(message: &str) -> String {
    let capped: String = message.chars().take(MAX_SAID_CHARS * 4).collect();
    let redacted =
        crate::secrets::redact::redact(&capped, &crate::secrets::redact::Secrets::default()).0;
    crate::output::withhold::withhold(&redacted)
        .0
        .chars()
        .take(MAX_SAID_CHARS)
        .collect()
}

/// The words a verdict quotes from what a library raised: for a verdict the server made, the
/// server's own words inside the library's wording (`MCP error -32602: ` and the like are the
/// library's, never quoted as the server's; a message no quoting rule knows is quoted whole, as the
/// Python SDK's `MCPError` carries the server's message as it came).
fn words_of_raised(message: &str, made_on: MadeOn) -> Option<String> {
    Some(library_words(match made_on {
        MadeOn::Client => message,
        MadeOn::Server => crate::judge::library_rules::server_words(message).unwrap_or(message),
    }))
}

/// The words of an answer: a JSON-RPC error's message, else a result's first text content.
fn said_of(message: Option<&Value>) -> Option<String> {
    let m = message?;
    let text = m
        .pointer("/error/message")
        .or_else(|| m.pointer("/result/content/0/text"))
        .and_then(Value::as_str)?;
    Some(text.chars().take(MAX_SAID_CHARS).collect())
}

impl VerdictDoc {
    /// The fields both entry points fill alike, from a verdict and its advice; what only an
    /// exchange tells (intent, version, spec) is left absent.
    fn of(
        v: &Verdict,
        advice: &Advice,
        made_on: MadeOn,
        delivery: Option<Delivery>,
        retry: RetrySafety,
    ) -> VerdictDoc {
        VerdictDoc {
            format: VERDICT_FORMAT.into(),
            tool: v.tool_name.clone(),
            made_on,
            channel: v.channel,
            cause: v.cause,
            decided_by: v.decided_by,
            rule: v.deciding_rule().map(str::to_string),
            evidence: v.evidence.clone(),
            flags: v.flags.clone(),
            jsonrpc_code: v.jsonrpc_code,
            http_status: v.http_status,
            said: said_of(v.message.as_ref()),
            action: advice.action,
            party: advice.party,
            delivery,
            retry,
            // A connection failure says what it knows of the request once delivery is known.
            agent_advice: delivery
                .and_then(|d| network_lines(d, v.cause))
                .map_or(advice.agent, |(_, agent)| agent)
                .into(),
            intent: None,
            protocol_version: None,
            spec: None,
        }
    }

    /// An exchange's assessment as a verdict (`mcp-triage classify`); the tool's definition is not
    /// known there, so retry safety assumes nothing of its annotations.
    pub fn of_assessment(a: &Assessment) -> VerdictDoc {
        let delivery = delivery_of_verdict(&a.verdict);
        let retry = retry_safety(delivery, a.advice.action, a.verdict.cause, None);
        VerdictDoc {
            intent: a.intent,
            protocol_version: a.spec.as_ref().and(a.version.clone()),
            spec: a.spec.as_ref().map(SpecDoc::from),
            ..VerdictDoc::of(&a.verdict, &a.advice, MadeOn::Server, delivery, retry)
        }
    }

    /// The verdict for a call a package could not read (not JSON, no tool, not exactly one outcome):
    /// `unknown`, made on the client, what was missing said in `said` and in the evidence, never
    /// sent again. Both packages return it in place of an exception, so an agent's error path gets
    /// a verdict whatever it handed over (`tool` when the input named one).
    pub fn unreadable(tool: Option<String>, why: &str) -> VerdictDoc {
        let said: String = why.chars().take(MAX_SAID_CHARS).collect();
        VerdictDoc {
            format: VERDICT_FORMAT.into(),
            tool: tool.as_deref().map(capped_tool).filter(|t| !t.is_empty()),
            made_on: MadeOn::Client,
            channel: Channel::Network,
            cause: Cause::Unknown,
            decided_by: DecidedBy::Structure,
            rule: None,
            evidence: vec![Evidence::structure(format!(
                "the call handed over could not be read: {said}"
            ))],
            flags: Vec::new(),
            jsonrpc_code: None,
            http_status: None,
            said: Some(said),
            action: AgentAction::ShowUserDoNotRetry,
            party: Party::AgentClient,
            delivery: None,
            retry: RetrySafety::Futile,
            agent_advice: "The outcome was not handed over in a form the classifier reads: give the tool's name and exactly one of result, error, transport, client_error or raised.".into(),
            intent: None,
            protocol_version: None,
            spec: None,
        }
    }

    /// This verdict as `mcp-triage-verdict/1` (for one version, behind `--verdict-format 1`):
    /// without `delivery`, its retry as /1 judged it (from the advice and the tool's annotations,
    /// `definition`, alone).
    pub fn as_format_1(&self, definition: Option<&Value>) -> VerdictDoc {
        VerdictDoc {
            format: VERDICT_FORMAT_1.into(),
            delivery: None,
            retry: retry_safety(None, self.action, self.cause, definition),
            ..self.clone()
        }
    }
}

/// The verdict for what an agent's MCP client library handed it after a `tools/call` (see
/// [`AgentCall`]); `Err` says in words what is wrong with the description. The HTTP status is
/// present only when the call says it; the probe's intent and the spec verdict are never present.
///
/// ```
/// use mcp_triage::verdict::{AgentCall, classify_outcome, message_for_model, should_retry};
///
/// // What the TypeScript SDK 1.29.0 hands an agent for a tool that does not exist.
/// let call: AgentCall = serde_json::from_str(r#"{
///     "tool": "get_wether",
///     "arguments": {"city": "Oslo"},
///     "result": {"isError": true, "content": [{"type": "text", "text": "MCP error -32602: Tool get_wether not found"}]}
/// }"#).unwrap();
/// let verdict = classify_outcome(&call).unwrap();
/// assert_eq!(verdict.cause.as_str(), "unknown_tool");
/// assert_eq!(verdict.action.as_str(), "pick_another_tool");
/// assert!(!should_retry(&verdict, 1, 3).retry);
/// assert!(message_for_model(&verdict).contains("get_wether"));
/// ```
pub fn classify_outcome(call: &AgentCall) -> Result<VerdictDoc, String> {
    let call = &resolved(call);
    let judged = judge_call(call)?;
    let v = &judged.verdict;
    let advice = fitted(v, &judged.missing_fields);
    let from_transport = call.transport.as_ref();
    let retry = retry_safety(
        judged.delivery,
        advice.action,
        v.cause,
        call.definition.as_ref(),
    );
    Ok(VerdictDoc {
        tool: Some(call.tool.clone()),
        http_status: from_transport.and_then(|t| t.status),
        said: match (&call.client_error, from_transport) {
            (Some(raised), _) => words_of_raised(&raised.message, judged.made_on),
            (None, Some(t)) => t
                .message
                .as_deref()
                .and_then(|m| words_of_raised(m, judged.made_on)),
            (None, None) => said_of(v.message.as_ref()),
        },
        ..VerdictDoc::of(v, &advice, judged.made_on, judged.delivery, retry)
    })
}

/// Whether to send the same call again, and after how long.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RetryDecision {
    /// Send it again.
    pub retry: bool,
    /// Wait this long first, in milliseconds (0 when not retrying).
    pub after_ms: u64,
    /// Why, in words.
    pub why: String,
}

/// The longest wait [`should_retry`] asks for.
const MAX_BACKOFF_MS: u64 = 60_000;

/// Whether to send the same call again after `attempt` tries (1 for the first) of at most
/// `max_attempts`: only where the verdict says it is safe ([`RetrySafety::Safe`]); never a call
/// that may have run on a tool not declared read-only or idempotent. The wait doubles with each
/// attempt from a first wait the cause decides (longer for a rate limit), up to a minute.
pub fn should_retry(verdict: &VerdictDoc, attempt: u32, max_attempts: u32) -> RetryDecision {
    let no = |why: &str| RetryDecision {
        retry: false,
        after_ms: 0,
        why: why.to_string(),
    };
    match verdict.retry {
        RetrySafety::NotNeeded => no("the call succeeded"),
        RetrySafety::Futile => no("the same call cannot succeed as it is"),
        RetrySafety::AfterAction => no(match verdict.action {
            AgentAction::Reauthenticate => "get a new token first, then call again",
            _ => "start a new session first, then call again",
        }),
        RetrySafety::OutcomeUnknown => no(
            "the call may have run, and the tool does not say it is safe to run twice: ask before sending it again",
        ),
        RetrySafety::Safe if attempt >= max_attempts => no("no attempts left"),
        RetrySafety::Safe => {
            let first: u64 = match verdict.cause {
                Cause::RateLimited => 2_000,
                Cause::ConnectionLost | Cause::NetworkOrCors => 500,
                _ => 1_000,
            };
            let after_ms = first
                .saturating_mul(1u64 << attempt.saturating_sub(1).min(16))
                .min(MAX_BACKOFF_MS);
            RetryDecision {
                retry: true,
                after_ms,
                why: format!("{} is passing: try again later", verdict.cause.label()),
            }
        }
    }
}

/// One line for the model in place of "An error occurred": what happened to this call and what
/// to do instead, by cause, with the tool's name and the server's words where they help.
pub fn message_for_model(verdict: &VerdictDoc) -> String {
    let tool = verdict.tool.as_deref().unwrap_or("the tool");
    let line = verdict
        .delivery
        .and_then(|d| network_lines(d, verdict.cause))
        .map_or_else(|| model_line(verdict.cause), |(model, _)| model)
        .replace("{tool}", tool);
    let said = verdict.said.as_deref();
    // The words are whoever made the verdict's: the library's own never quoted as the server's.
    match (verdict.made_on, said) {
        (MadeOn::Client, Some(s)) => format!("{line} (Raised by the MCP client library: \"{s}\".)"),
        (MadeOn::Client, None) => format!("{line} (Raised by the MCP client library.)"),
        (MadeOn::Server, Some(s)) => format!("{line} The server said: \"{s}\"."),
        (MadeOn::Server, None) => line,
    }
}

/// The names of a labelled enum's values, for a schema's `enum`.
fn names<T: Copy>(all: &[T], name: impl Fn(T) -> &'static str) -> Value {
    Value::Array(all.iter().map(|v| Value::String(name(*v).into())).collect())
}

/// Per action, the retry safeties a verdict with it can carry (every cause, answered or not, with
/// and without a tool declared safe to repeat, through [`retry_safety`]): the schema's `allOf`,
/// from which the npm package's types make their union on the action.
fn retry_by_action() -> Value {
    let repeatable = serde_json::json!({"annotations": {"readOnlyHint": true}});
    let repeatable = &repeatable;
    let deliveries = [None, Some(Delivery::NotSent), Some(Delivery::MayHaveRun)];
    let rows: Vec<Value> = AgentAction::ALL
        .iter()
        .map(|action| {
            let mut safeties: Vec<RetrySafety> = Cause::ALL
                .iter()
                .flat_map(|cause| {
                    deliveries
                        .iter()
                        .filter(move |delivery| {
                            // An unanswered call has a cause its delivery fits, and that
                            // cause's advice.
                            delivery.is_none_or(|d| {
                                d.fits(*cause)
                                    && crate::judge::advice::for_cause(*cause).action == *action
                            })
                        })
                        .flat_map(move |delivery| {
                            [None, Some(repeatable)]
                                .map(|d| retry_safety(*delivery, *action, *cause, d))
                        })
                })
                .collect();
            safeties.sort();
            safeties.dedup();
            serde_json::json!({
                "if": {"properties": {"action": {"const": action.as_str()}}},
                "then": {"properties": {"retry": {"enum": names(&safeties, RetrySafety::as_str)}}},
            })
        })
        .collect();
    Value::Array(rows)
}

/// The JSON Schema of `mcp-triage-verdict/2` (draft 2020-12), its vocabularies read from the
/// tables they are defined in, so the schema cannot name a value the code does not (the committed
/// copy is `docs/mcp-triage-verdict-2.schema.json`, checked equal to this by a test; /1's stays
/// committed beside it).
pub fn verdict_schema() -> Value {
    let text = serde_json::json!({"type": "string"});
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://github.com/mcp-triage/mcp-triage/blob/main/docs/mcp-triage-verdict-2.schema.json",
        "title": VERDICT_FORMAT,
        "description": "One MCP Triage verdict: for a captured exchange (mcp-triage classify) or for what an agent's MCP client library handed it after a tools/call (classify_outcome). What is not known is absent, never null.",
        "type": "object",
        "additionalProperties": false,
        "required": ["format", "made_on", "channel", "cause", "decided_by", "evidence", "action", "party", "retry", "agent_advice"],
        "allOf": retry_by_action(),
        "properties": {
            "format": {"const": VERDICT_FORMAT},
            "file": {"type": "string", "description": "mcp-triage classify only: the file the exchange came from."},
            "tool": text,
            "made_on": {"enum": names(MadeOn::ALL, MadeOn::as_str)},
            "channel": {"enum": names(Channel::ALL, Channel::as_str)},
            "cause": {"enum": names(Cause::ALL, Cause::as_str)},
            "decided_by": {"enum": names(DecidedBy::ALL, DecidedBy::as_str)},
            "rule": text,
            "evidence": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["kind", "fact"],
                    "properties": {
                        "kind": {"enum": names(DecidedBy::ALL, DecidedBy::as_str)},
                        "fact": text,
                        "pointer": text,
                        "range": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2},
                        "matched": text,
                        "rule": text,
                    },
                },
            },
            "flags": {"type": "array", "minItems": 1, "items": {"enum": names(Flag::ALL, Flag::as_str)}},
            "jsonrpc_code": {"type": "integer"},
            "http_status": {"type": "integer", "minimum": 100, "maximum": 599},
            "said": {"type": "string", "maxLength": MAX_SAID_CHARS},
            "action": {"enum": names(AgentAction::ALL, AgentAction::as_str)},
            "party": {"enum": names(Party::ALL, Party::as_str)},
            "delivery": {"enum": names(Delivery::ALL, Delivery::as_str), "description": "For a call that got no answer: not_sent (refused before the request was written, or the connection never opened: the tool did not run) or may_have_run (the request was or may have been written). Absent when an answer came."},
            "retry": {"enum": names(RetrySafety::ALL, RetrySafety::as_str)},
            "agent_advice": text,
            "intent": {"enum": names(Probe::ALL, Probe::as_str)},
            "protocol_version": text,
            "spec": {
                "type": "object",
                "additionalProperties": false,
                "required": ["probe", "version", "conformance", "rule", "link", "reason"],
                "properties": {
                    "probe": {"enum": names(Probe::ALL, Probe::as_str)},
                    "version": text,
                    "conformance": {"enum": names(Conformance::ALL, Conformance::as_str)},
                    "rule": text,
                    "link": text,
                    "reason": text,
                },
            },
        },
    })
}
