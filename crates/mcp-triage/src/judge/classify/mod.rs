//! The decision table: an [`Exchange`] in, a [`Verdict`] out. Total: never fails, never panics.
//!
//! Order of questions: did a response arrive (channel `network`)? Is the status ≥ 300 (`http`)? Else,
//! is there a JSON-RPC response to our id, and is it an error frame, an `isError` result or a result?
//! The cause comes from structure first (status, code, `isError`, headers, challenge parameters, the
//! shape of our own request), then from the probe's intent where the caller gave one, and from prose
//! only when structure is silent; evidence records which.
//!
//! One module per responsibility: [`request`] reads our own request (and lists the checks of what it
//! did wrong), [`status`] answers with a status ≥ 300 (the status table), [`frame`] JSON-RPC error
//! frames, [`result`] results and `isError` results, [`prose`] the one search of the server's words
//! for an unknown tool or refused arguments, [`stdio`] stdio records. The phrases are data
//! (`rules/phrases.rules`, matched by [`crate::judge::rules`]).

mod frame;
mod prose;
mod request;
mod result;
mod status;
mod stdio;
#[cfg(test)]
mod tests;

use serde::Serialize;
use serde_json::Value;

use crate::decode::body::{self, BodyKind, DecodedBody, Origin};
use crate::decode::challenge::{self, Challenge};
use crate::decode::jsonrpc::{self, Message};
use crate::judge::rules::Match;
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Evidence, Flag};
use crate::vocabulary::exchange::{BodyEnd, Exchange, Vantage};
use crate::vocabulary::limits::Limits;

use request::request_facts;

/// Protocol versions this crate knows, oldest first.
pub(crate) const KNOWN_VERSIONS: &[&str] = &[
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// What the caller may tell the classifier besides the exchange.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The probe's intent (`A`, `B`, `C`, `D` or a transport check name), used only to break ties.
    pub intent: Option<String>,
    /// The negotiated protocol version, when known.
    pub negotiated_version: Option<String>,
    /// Caps for decoding.
    pub limits: Limits,
    /// The required arguments probe B left out (fits the advice: does the answer name them?).
    pub missing_fields: Vec<String>,
}

/// The classification of one exchange.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// How the answer arrived.
    pub channel: Channel,
    /// What most likely happened.
    pub cause: Cause,
    /// Whether structure, the probe's intent or text decided the cause.
    pub decided_by: DecidedBy,
    /// The code of the JSON-RPC error frame, whenever one is present.
    pub jsonrpc_code: Option<i64>,
    /// The facts that decided, the deciding one first.
    pub evidence: Vec<Evidence>,
    /// Observations beside the cause.
    pub flags: Vec<Flag>,
    /// HTTP status, when a response arrived.
    pub http_status: Option<u16>,
    /// What the body was.
    pub body_kind: Option<BodyKind>,
    /// Decoding problems, in words.
    pub problems: Vec<String>,
    /// Our JSON-RPC response (or the error frame that stood in for it), for display.
    pub message: Option<Value>,
    /// The JSON-RPC method we sent.
    pub request_method: Option<String>,
    /// The tool we called, for `tools/call`.
    pub tool_name: Option<String>,
    /// The first `WWW-Authenticate` challenge, parsed.
    pub challenge: Option<Challenge>,
    /// Messages that arrived before ours and were not ours (notifications, server requests).
    pub unrelated_messages: usize,
    /// Methods of server-to-client requests seen in the stream.
    pub server_requests: Vec<String>,
    /// A JSON-RPC response carrying our request's id was found (an error frame with `id: null`
    /// is not one).
    pub response_matched: bool,
    /// The phrase rule that decided the cause, when text decided.
    #[serde(skip)]
    pub(crate) rule: Option<&'static str>,
    /// Every phrase rule that matched, deciding or not, in order.
    #[serde(skip)]
    pub(crate) fired: Vec<&'static str>,
}

impl Verdict {
    /// The verdict in one line, for text reports and CI files: `tool_error · unknown_tool · HTTP 200`
    /// and the JSON-RPC code when there is one.
    pub fn outcome_line(&self) -> String {
        format!(
            "{} · {} · {}{}",
            self.channel,
            self.cause,
            self.carrier(),
            self.jsonrpc_code
                .map(|c| format!(" · JSON-RPC {c}"))
                .unwrap_or_default()
        )
    }
}

impl Verdict {
    /// The id of the phrase rule that decided the cause (`None` unless text decided).
    pub fn deciding_rule(&self) -> Option<&'static str> {
        self.rule
    }

    /// Every phrase rule that matched this exchange, deciding or not (evidence and flags alike).
    pub fn fired_rules(&self) -> &[&'static str] {
        &self.fired
    }

    /// What carried the answer: `HTTP 200`, `HTTP —` when no response came, or `stdio`.
    pub fn carrier(&self) -> String {
        match (self.body_kind, self.http_status) {
            (Some(BodyKind::StdioLines), _) => "stdio".into(),
            (_, Some(s)) => format!("HTTP {s}"),
            (_, None) => "HTTP —".into(),
        }
    }
}

/// A found JSON-RPC message with where it sits.
struct Found {
    value: Value,
    origin: Origin,
}

struct Scan {
    ours: Option<Found>,
    stray_error: Option<Found>,
    invalid_ours: Option<String>,
    unrelated: usize,
    server_requests: Vec<String>,
    too_many_unrelated: bool,
}

fn scan(decoded: &DecodedBody, our_id: Option<&Value>, limits: &Limits) -> Scan {
    let mut s = Scan {
        ours: None,
        stray_error: None,
        invalid_ours: None,
        unrelated: 0,
        server_requests: Vec::new(),
        too_many_unrelated: false,
    };
    for d in &decoded.values {
        let Ok(value) = &d.value else {
            s.unrelated += 1;
            continue;
        };
        let msg = jsonrpc::view(value);
        match &msg {
            Message::Result { id, .. } | Message::Error { id, .. } if Some(*id) == our_id => {
                s.ours = Some(Found {
                    value: value.clone(),
                    origin: d.origin,
                });
                break;
            }
            Message::Error { .. } if s.stray_error.is_none() => {
                s.stray_error = Some(Found {
                    value: value.clone(),
                    origin: d.origin,
                });
            }
            Message::Request { method, .. } => s.server_requests.push((*method).to_string()),
            Message::Invalid { id, reason } if id.is_some() && *id == our_id => {
                s.invalid_ours = Some(reason.clone());
            }
            _ => {}
        }
        s.unrelated += 1;
        if s.unrelated > limits.max_unrelated_messages {
            s.too_many_unrelated = true;
            break;
        }
    }
    s
}

/// The builder that accumulates a verdict.
struct Builder {
    v: Verdict,
}

impl Builder {
    fn decide(&mut self, channel: Channel, cause: Cause, by: DecidedBy) {
        self.v.channel = channel;
        self.v.cause = cause;
        self.v.decided_by = by;
    }
    fn structure(&mut self, fact: impl Into<String>) {
        self.v.evidence.push(Evidence::structure(fact));
    }
    /// What the client said of a request that failed, when it said anything.
    fn client_said(&mut self, ex: &Exchange) {
        if let Some(detail) = &ex.transport_error_detail {
            self.structure(format!("client said: {detail}"));
        }
    }
    /// A cause decided by a phrase rule: the verdict remembers which.
    fn decide_text(
        &mut self,
        channel: Channel,
        fact: impl Into<String>,
        pointer: &str,
        text: &str,
        m: &Match,
    ) {
        self.decide(channel, m.cause, DecidedBy::Text);
        self.v.rule = Some(m.rule);
        self.text(fact, pointer, text, m);
    }
    /// A cause the probe's intent decided (only ever a tie-break between equal readings of the wire).
    fn decide_intent(&mut self, channel: Channel, cause: Cause, fact: &str) {
        self.decide(channel, cause, DecidedBy::Intent);
        self.v.evidence.push(Evidence {
            kind: DecidedBy::Intent,
            ..Evidence::structure(fact)
        });
    }
    /// A rule matched that adds a flag, not evidence.
    fn fired(&mut self, m: &Match) {
        self.v.fired.push(m.rule);
    }
    fn text(&mut self, fact: impl Into<String>, pointer: &str, text: &str, m: &Match) {
        self.v.fired.push(m.rule);
        self.v.evidence.push(Evidence {
            kind: DecidedBy::Text,
            fact: fact.into(),
            pointer: Some(pointer.to_string()),
            range: Some(m.char_range(text)),
            matched: text.get(m.bytes.0..m.bytes.1).map(str::to_string),
            rule: Some(m.rule.to_string()),
        });
    }
    fn flag(&mut self, flag: Flag) {
        if !self.v.flags.contains(&flag) {
            self.v.flags.push(flag);
        }
    }
}

/// Classifies one exchange. Reads the request, the response (or its absence), and the optional
/// `negotiated_version`/`intent` fields or their overrides in `opts`; never the people-facing labels.
pub fn classify(ex: &Exchange, opts: &Options) -> Verdict {
    let req = request_facts(&ex.request);
    let intent = opts.intent.clone().or_else(|| ex.intent.clone());
    let version = opts
        .negotiated_version
        .clone()
        .or_else(|| ex.negotiated_version.clone());
    let mut b = Builder {
        v: Verdict {
            channel: Channel::Malformed,
            cause: Cause::Unknown,
            decided_by: DecidedBy::Structure,
            jsonrpc_code: None,
            evidence: Vec::new(),
            flags: Vec::new(),
            http_status: None,
            body_kind: None,
            problems: Vec::new(),
            message: None,
            request_method: req.method.clone(),
            tool_name: req.tool_name.clone(),
            challenge: None,
            unrelated_messages: 0,
            server_requests: Vec::new(),
            response_matched: false,
            rule: None,
            fired: Vec::new(),
        },
    };
    if ex.is_stdio()
        && let Some(io) = &ex.stdio
    {
        stdio::answer(&mut b, ex, io, &req, intent.as_deref(), &opts.limits);
        return b.v;
    }
    let Some(resp) = &ex.response else {
        status::no_response(&mut b, ex);
        return b.v;
    };
    b.v.http_status = Some(resp.status);
    if ex.vantage == Vantage::Browser {
        b.flag(Flag::HeadersMayBeHidden);
    }
    b.v.challenge = resp
        .header("www-authenticate")
        .and_then(|h| challenge::parse(h).into_iter().next());

    let (bytes, note) = resp.body_bytes();
    if let Some(note) = note {
        b.v.problems.push(note);
    }
    let batch_allowed = version.as_deref() == Some("2025-03-26");
    let decoded = body::decode(
        &bytes,
        resp.media_type().as_deref(),
        batch_allowed,
        resp.body_complete == Some(false),
        &opts.limits,
    );
    b.v.body_kind = Some(decoded.kind);
    b.v.problems.extend(decoded.problems.iter().cloned());
    let found = scan(&decoded, req.id.as_ref(), &opts.limits);
    b.v.unrelated_messages = if found.ours.is_some() {
        found.unrelated
    } else {
        0
    };
    b.v.server_requests = found.server_requests.clone();
    b.v.response_matched = found.ours.is_some();
    if found.ours.is_some() && found.unrelated > 0 {
        b.flag(Flag::UnrelatedMessagesFirst);
    }
    if found.too_many_unrelated {
        b.v.problems.push(format!(
            "more than {} messages before our response; stopped looking",
            opts.limits.max_unrelated_messages
        ));
    }
    let frame = found.ours.as_ref().or(found.stray_error.as_ref());
    if let Some(f) = frame
        && let Message::Error { code, .. } = jsonrpc::view(&f.value)
    {
        b.v.jsonrpc_code = Some(code.0);
    }

    if resp.status >= 300 {
        b.v.message = frame.map(|f| f.value.clone());
        status::refusal(&mut b, resp, &req, frame, &decoded);
        return b.v;
    }
    if resp.status < 200 {
        b.decide(
            Channel::Malformed,
            Cause::MalformedResponse,
            DecidedBy::Structure,
        );
        b.structure(format!(
            "HTTP status {} is informational, not an answer",
            resp.status
        ));
        return b.v;
    }

    // 2xx from here on.
    match req.http_method.as_str() {
        "GET" => return status::get_stream(b, resp, &decoded),
        "OPTIONS" => {
            b.decide(Channel::Success, Cause::None, DecidedBy::Structure);
            b.structure(format!("preflight answered with HTTP {}", resp.status));
            match resp.header("access-control-allow-origin") {
                Some(o) => b.structure(format!("Access-Control-Allow-Origin: {o}")),
                None => b.structure("no Access-Control-Allow-Origin: a browser refuses this"),
            }
            return b.v;
        }
        "DELETE" => {
            b.decide(Channel::Success, Cause::None, DecidedBy::Structure);
            b.structure(format!("DELETE answered with HTTP {}", resp.status));
            return b.v;
        }
        _ => {}
    }
    if !req.expects_response {
        if resp.status == 202 || decoded.kind == BodyKind::Empty {
            b.decide(Channel::Accepted, Cause::None, DecidedBy::Structure);
            b.structure(format!(
                "HTTP {} to a message that expects no response",
                resp.status
            ));
            return b.v;
        }
        if req.body_parse_error.is_some() || req.body_not_jsonrpc.is_some() {
            b.structure("our request body was not a JSON-RPC request, yet the status is 2xx");
        }
    }

    if let Some(ours) = &found.ours {
        b.v.message = Some(ours.value.clone());
        result::answered(&mut b, ours, &req, intent.as_deref());
        return b.v;
    }

    // 2xx without a response to our id.
    let end = resp.body_end;
    if decoded.truncated || end == Some(BodyEnd::SizeCap) {
        b.decide(
            Channel::Malformed,
            Cause::BodyTooLarge,
            DecidedBy::Structure,
        );
        b.structure("the body reached the size cap before our response arrived");
    } else if end == Some(BodyEnd::Deadline) {
        b.decide(Channel::Malformed, Cause::Timeout, DecidedBy::Structure);
        b.structure("a deadline passed before our response arrived");
    } else if end == Some(BodyEnd::Aborted) {
        b.decide(Channel::Malformed, Cause::Aborted, DecidedBy::Structure);
        b.structure("reading was cancelled before our response arrived");
    } else if end == Some(BodyEnd::Interrupted) {
        b.decide(Channel::Malformed, Cause::Aborted, DecidedBy::Structure);
        b.structure("the run was interrupted (a signal) before our response arrived");
    } else if end == Some(BodyEnd::ConnectionLost) {
        b.decide(
            Channel::Malformed,
            Cause::ConnectionLost,
            DecidedBy::Structure,
        );
        b.structure("the connection broke before our response arrived");
        b.client_said(ex);
    } else if let Some(stray) = &found.stray_error {
        b.v.message = Some(stray.value.clone());
        b.structure("a JSON-RPC error frame that is not addressed to our id");
        if let Message::Error { code, message, .. } = jsonrpc::view(&stray.value) {
            let pointer = pointer_for(stray.origin, "/error/message");
            frame::cause(
                &mut b,
                Channel::Malformed,
                code,
                message,
                &pointer,
                &req,
                None,
            );
        }
    } else if resp.body_complete == Some(false) && decoded.kind == BodyKind::EventStream {
        b.decide(Channel::Malformed, Cause::Timeout, DecidedBy::Structure);
        b.structure("the stream stayed open and our response never arrived");
    } else {
        b.decide(
            Channel::Malformed,
            Cause::MalformedResponse,
            DecidedBy::Structure,
        );
        let too_deep = decoded.values.iter().any(|d| {
            d.value
                .as_ref()
                .err()
                .is_some_and(|e| e.starts_with(crate::decode::body::JSON_TOO_DEEP))
        });
        if too_deep {
            b.structure(format!(
                "{}, so no JSON-RPC response could be found in it",
                crate::decode::body::JSON_TOO_DEEP
            ));
        } else if let Some(reason) = &found.invalid_ours {
            b.structure(format!(
                "the message with our id is not valid JSON-RPC: {reason}"
            ));
        } else if req.id.is_none() {
            b.structure("our request carried no usable id, so no response can match it");
        } else {
            b.structure(format!(
                "no JSON-RPC response with our id in a {} body",
                decoded.kind.as_str()
            ));
        }
    }
    b.v
}

/// The JSON pointer of `inner` in the message found at `origin`.
fn pointer_for(origin: Origin, inner: &str) -> String {
    match origin {
        Origin::Body | Origin::SseEvent { .. } | Origin::Line { .. } => inner.to_string(),
        Origin::Batch { index } => format!("/{index}{inner}"),
    }
}
