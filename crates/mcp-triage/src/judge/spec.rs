//! Spec verdicts: for a probe and the negotiated protocol version, does the answer conform to what
//! that version asks? Each verdict quotes the rule it applies and links to it.

use serde::Serialize;

use crate::judge::advice::spec_url;
use crate::judge::classify::Verdict;
use crate::vocabulary::cause::{Cause, Channel};
use crate::vocabulary::probe::Probe;
use crate::vocabulary::probe::{Check, ProbeName};
use crate::vocabulary::protocol::ProtocolVersion;
use crate::vocabulary::seeded_bug::{SeededBug, is_on};

labelled_enum! {
    /// Conformance of one answer.
    Conformance {
        /// What the version asks for.
        Conforms = "conforms",
        /// Not what the version asks for.
        Deviates = "deviates",
        /// The rule does not apply (the probe never reached the tool, or no rule speaks to it).
        NotApplicable = "not_applicable",
    }
}

/// A verdict with its rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpecVerdict {
    /// The probe judged.
    pub probe: Probe,
    /// The version whose rules were applied.
    pub version: String,
    /// The outcome.
    pub conformance: Conformance,
    /// The rule, quoted from the spec text of that version.
    pub rule: &'static str,
    /// Where the rule is.
    pub link: String,
    /// Why this outcome, in one or two sentences.
    pub reason: String,
}

const RULE_LEGACY_PROTOCOL: &str = "Protocol Errors: Standard JSON-RPC errors for issues like: Unknown tools, Invalid arguments, Server errors";
const RULE_LEGACY_BOTH: &str = "Protocol Errors: … Invalid arguments … Tool Execution Errors: Reported in tool results with isError: true: … Invalid input data";
const RULE_SEP1303_PROTOCOL: &str = "Protocol Errors: Standard JSON-RPC errors for issues like: Unknown tools, Malformed requests …, Server errors";
const RULE_SEP1303_INPUT: &str = "Tool Execution Errors: Reported in tool results with isError: true: … Input validation errors (e.g., date in wrong format, value out of range)";
const RULE_EXECUTION: &str = "Tool Execution Errors: Reported in tool results with isError: true: API failures … Business logic errors";
const RULE_VALIDATE: &str = "Servers MUST: Validate all tool inputs";
const RULE_SUCCESS: &str =
    "the server responds with a tool result (isError false or absent) for a call that succeeds";
const RULE_401: &str = "MCP servers MUST use the WWW-Authenticate header … when returning 401 Unauthorized, to indicate the location of the resource server metadata URL";
const RULE_GET: &str = "The server MUST either return Content-Type: text/event-stream in response to this HTTP GET, or else return HTTP 405 Method Not Allowed";
const RULE_ORIGIN: &str = "Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks";

fn is_sep1303(version: &str) -> bool {
    ProtocolVersion::names_from(version, ProtocolVersion::V2025_11_25)
}

/// Causes that come from the transport or the session, never from the tool call itself.
fn transport_cause(c: Cause) -> bool {
    matches!(
        c,
        Cause::Unauthenticated
            | Cause::InsufficientScope
            | Cause::Forbidden
            | Cause::OriginRejected
            | Cause::MethodNotAllowed
            | Cause::NotAcceptable
            | Cause::UnsupportedMediaType
            | Cause::SessionRequired
            | Cause::SessionNotFound
            | Cause::ProtocolVersionUnsupported
            | Cause::HeaderMismatch
            | Cause::RateLimited
            | Cause::Redirect
            | Cause::EndpointNotFound
    )
}

/// A JSON-RPC error frame answered the call itself: a 2xx frame for our id, or, in the 2026-07-28
/// era, a 4xx carrying a frame for our id about the call (not a transport refusal with `id: null`).
fn protocol_error(v: &Verdict, version: &str) -> bool {
    v.channel == Channel::JsonrpcError
        || (ProtocolVersion::names_from(version, ProtocolVersion::V2026_07_28)
            && v.channel == Channel::Http
            && v.jsonrpc_code.is_some()
            && v.response_matched
            && !transport_cause(v.cause))
}

/// True when the answer never got as far as the tool (auth, transport, network).
fn did_not_reach(v: &Verdict) -> bool {
    matches!(
        v.channel,
        Channel::Network
            | Channel::Http
            | Channel::Malformed
            | Channel::Accepted
            | Channel::StreamOpen
    )
}

/// Judges one probe's verdict against the rules of `version` (e.g. `2025-11-25`).
pub(crate) fn verdict(probe: Probe, version: &str, v: &Verdict) -> SpecVerdict {
    let tools = |anchor: &str| spec_url(version, &format!("server/tools#{anchor}"));
    let mk = |conformance, rule, link: String, reason: String| SpecVerdict {
        probe,
        version: version.to_string(),
        conformance,
        rule,
        link,
        reason,
    };
    let unreached = || {
        mk(
            Conformance::NotApplicable,
            RULE_LEGACY_PROTOCOL,
            tools("error-handling"),
            format!(
                "no answer of the tool was read ({} / {}), so the error-handling rule is not in play",
                v.channel, v.cause
            ),
        )
    };
    match probe {
        Probe::Call(ProbeName::A) => {
            let rule = if is_sep1303(version) {
                RULE_SEP1303_PROTOCOL
            } else {
                RULE_LEGACY_PROTOCOL
            };
            if protocol_error(v, version) {
                mk(
                    Conformance::Conforms,
                    rule,
                    tools("error-handling"),
                    "an unknown tool is a protocol error, and it came as a JSON-RPC error frame"
                        .into(),
                )
            } else if v.channel == Channel::ToolError || v.channel == Channel::Success {
                mk(
                    Conformance::Deviates,
                    rule,
                    tools("error-handling"),
                    format!(
                        "an unknown tool is a protocol error in every version, but it came as {} result \
                     (proposals to move it into isError, SEP-2140/2145, are not in any released text)",
                        if v.channel == Channel::ToolError {
                            "an isError"
                        } else {
                            "a successful"
                        }
                    ),
                )
            } else {
                unreached()
            }
        }
        Probe::Call(ProbeName::B) => {
            if v.flags
                .contains(&crate::vocabulary::cause::Flag::MessageWithheld)
            {
                return mk(Conformance::NotApplicable, RULE_VALIDATE, tools("security-considerations"),
                    "the server withheld the message, so whether the arguments were validated cannot be told from the wire".into());
            }
            if v.cause == Cause::ToolExecution
                && matches!(v.channel, Channel::ToolError | Channel::JsonrpcError)
            {
                // Only words that say the tool ran (an SDK's "Error executing tool …") show that the
                // inputs were not validated; an answer whose words match no rule may be a refusal
                // worded in a way no rule knows, so it is not judged.
                let ran = v.fired_rules().iter().any(|r| {
                    crate::judge::rules::in_group(r, crate::judge::rules::Group::ToolExecution)
                });
                if ran || is_on(SeededBug::AccuseFromAGuess) {
                    return mk(Conformance::Deviates, RULE_VALIDATE, tools("security-considerations"),
                        "the tool ran with a required argument missing (its words say it failed while \
                         executing): the server does not validate inputs against the schema".into());
                }
                // A refusal worded in a way no rule knows, or the tool's own failure: where both
                // readings give one verdict, it is said; otherwise it is not judged.
                if is_sep1303(version) && protocol_error(v, version) {
                    return mk(Conformance::Deviates, RULE_SEP1303_INPUT, tools("error-handling"),
                        "from 2025-11-25 (SEP-1303) input validation errors belong in isError; this answer came \
                         as a JSON-RPC error, so it deviates whether it refused the arguments (in words no \
                         rule knows) or was the tool's own failure".into());
                }
                return mk(Conformance::NotApplicable, RULE_VALIDATE, tools("security-considerations"),
                    "not judged: the answer's words match no rule that says whether the arguments were \
                     refused or the tool ran, so whether inputs are validated cannot be told from the wire".into());
            }
            if is_sep1303(version) {
                if v.channel == Channel::ToolError {
                    mk(Conformance::Conforms, RULE_SEP1303_INPUT, tools("error-handling"),
                        "from 2025-11-25 (SEP-1303) input validation errors are tool execution errors, and \
                         this one came as isError".into())
                } else if protocol_error(v, version) {
                    mk(Conformance::Deviates, RULE_SEP1303_INPUT, tools("error-handling"),
                        "from 2025-11-25 (SEP-1303) input validation errors belong in isError so the model \
                         can correct itself; this one came as a JSON-RPC error".into())
                } else if v.channel == Channel::Success {
                    mk(Conformance::Deviates, RULE_VALIDATE, tools("security-considerations"),
                        "a call with a required argument missing succeeded: inputs are not validated".into())
                } else {
                    unreached()
                }
            } else if v.channel == Channel::ToolError || protocol_error(v, version) {
                mk(
                    Conformance::Conforms,
                    RULE_LEGACY_BOTH,
                    tools("error-handling"),
                    format!(
                        "up to 2025-06-18 the text lists \"invalid arguments\" under protocol errors and \"invalid \
                     input data\" under tool execution errors, so either channel conforms (this came as {})",
                        v.channel
                    ),
                )
            } else if v.channel == Channel::Success {
                mk(
                    Conformance::Deviates,
                    RULE_VALIDATE,
                    tools("security-considerations"),
                    "a call with a required argument missing succeeded: inputs are not validated"
                        .into(),
                )
            } else {
                unreached()
            }
        }
        Probe::Call(ProbeName::C) => {
            if v.channel == Channel::ToolError {
                mk(
                    Conformance::Conforms,
                    RULE_EXECUTION,
                    tools("error-handling"),
                    "an execution failure came as an isError result, as every version asks".into(),
                )
            } else if protocol_error(v, version) {
                mk(Conformance::Deviates, RULE_EXECUTION, tools("error-handling"),
                    "an execution failure belongs in an isError result in every version; it came as a \
                     JSON-RPC error, which SDK clients raise as an exception and hide from the model".into())
            } else if v.channel == Channel::Success {
                mk(Conformance::NotApplicable, RULE_EXECUTION, tools("error-handling"),
                    "the call succeeded: C was not provoked (pick a call that makes the backend fail)".into())
            } else {
                unreached()
            }
        }
        Probe::Call(ProbeName::D) => {
            if v.channel == Channel::Success {
                mk(
                    Conformance::Conforms,
                    RULE_SUCCESS,
                    tools("calling-tools"),
                    "the call succeeded with a plain result".into(),
                )
            } else if did_not_reach(v) {
                unreached()
            } else {
                mk(
                    Conformance::Deviates,
                    RULE_SUCCESS,
                    tools("calling-tools"),
                    format!(
                        "a call that should succeed came back as {} / {}",
                        v.channel, v.cause
                    ),
                )
            }
        }
        Probe::Check(Check::NoToken) => {
            let link = spec_url(version, "basic/authorization#authorization-server-location");
            if ProtocolVersion::names_before(version, ProtocolVersion::V2025_06_18) {
                return mk(
                    Conformance::NotApplicable,
                    RULE_401,
                    link,
                    "protected resource metadata in WWW-Authenticate is required from 2025-06-18"
                        .into(),
                );
            }
            match (v.http_status, &v.challenge) {
                (Some(401), Some(c)) if c.param("resource_metadata").is_some() => mk(
                    Conformance::Conforms,
                    RULE_401,
                    link,
                    "401 with a WWW-Authenticate challenge naming resource_metadata".into(),
                ),
                (Some(401), _) => mk(
                    Conformance::Deviates,
                    RULE_401,
                    link,
                    "401 without a WWW-Authenticate challenge naming resource_metadata".into(),
                ),
                (Some(s), _) if (200..300).contains(&s) => mk(
                    Conformance::NotApplicable,
                    RULE_401,
                    link,
                    "the server answered without a token: it does not require authorization".into(),
                ),
                _ => mk(
                    Conformance::NotApplicable,
                    RULE_401,
                    link,
                    format!("no 401 to judge ({} / {})", v.channel, v.cause),
                ),
            }
        }
        Probe::Check(Check::Get) => {
            let link = spec_url(
                version,
                "basic/transports#listening-for-messages-from-the-server",
            );
            match v.channel {
                Channel::StreamOpen => mk(
                    Conformance::Conforms,
                    RULE_GET,
                    link,
                    "GET opened an SSE stream".into(),
                ),
                Channel::Http if v.http_status == Some(405) => mk(
                    Conformance::Conforms,
                    RULE_GET,
                    link,
                    "GET answered 405 Method Not Allowed".into(),
                ),
                Channel::Network => mk(
                    Conformance::NotApplicable,
                    RULE_GET,
                    link,
                    "GET got no readable answer".into(),
                ),
                // The server does not serve this revision: its GET rule is not in play.
                Channel::Http if v.cause == Cause::ProtocolVersionUnsupported => mk(
                    Conformance::NotApplicable,
                    RULE_GET,
                    link,
                    format!(
                        "the server refused protocol revision {version} itself, so that revision's GET rule is not in play"
                    ),
                ),
                _ => mk(
                    Conformance::Deviates,
                    RULE_GET,
                    link,
                    format!(
                        "GET answered {} ({}): neither an SSE stream nor 405",
                        v.http_status
                            .map(|s| s.to_string())
                            .unwrap_or_else(|| "nothing".into()),
                        v.cause
                    ),
                ),
            }
        }
        Probe::Origin => {
            let link = spec_url(version, "basic/transports#security-warning");
            if !v.response_matched && v.cause != Cause::OriginRejected {
                return mk(
                    Conformance::NotApplicable,
                    RULE_ORIGIN,
                    link,
                    format!(
                        "connect got no answer to judge ({} / {}), so whether this origin is accepted cannot be told",
                        v.channel, v.cause
                    ),
                );
            }
            if v.cause == Cause::OriginRejected {
                mk(Conformance::Conforms, RULE_ORIGIN, link,
                    "the server validates Origin and refuses this page's origin (allow it explicitly to use this tool)".into())
            } else {
                mk(Conformance::NotApplicable, RULE_ORIGIN, link,
                    "this page's origin was accepted: either it is allowed, or Origin is not checked (a page cannot send another Origin to tell)".into())
            }
        }
    }
}
