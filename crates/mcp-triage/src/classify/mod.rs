//! The decision table: an [`Exchange`] in, a [`Verdict`] out. Total: never fails, never panics.
//!
//! Order of questions: did a response arrive (channel `network`)? Is the status ≥ 300 (`http`)? Else,
//! is there a JSON-RPC response to our id, and is it an error frame, an `isError` result or a result?
//! The cause comes from structure first (status, code, `isError`, headers, challenge parameters, the
//! shape of our own request) and from prose only when structure is silent; evidence records which.

use serde::Serialize;
use serde_json::Value;

use crate::body::{self, BodyKind, DecodedBody, Origin};
use crate::cause::{Cause, Channel, DecidedBy, Evidence, Flag};
use crate::challenge::{self, Challenge};
use crate::exchange::{BodyEnd, Exchange, Request, Response, TransportError, Vantage};
use crate::jsonrpc::{self, ErrorCode, Message};
use crate::limits::Limits;
use crate::text_rules::{self, Match};

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
    /// Whether structure or text decided the cause.
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
    /// What carried the answer: `HTTP 200`, `HTTP —` when no response came, or `stdio`.
    pub fn carrier(&self) -> String {
        match (self.body_kind, self.http_status) {
            (Some(BodyKind::StdioLines), _) => "stdio".into(),
            (_, Some(s)) => format!("HTTP {s}"),
            (_, None) => "HTTP —".into(),
        }
    }
}

/// What we can tell from our own request.
#[derive(Debug, Default)]
struct RequestFacts {
    http_method: String,
    body_present: bool,
    body_parse_error: Option<String>,
    body_not_jsonrpc: Option<String>,
    id: Option<Value>,
    method: Option<String>,
    tool_name: Option<String>,
    tools_call_without_name: bool,
    has_session: bool,
    protocol_header: Option<String>,
    content_type_json: Option<bool>,
    accept_ok: Option<bool>,
    meta_version: Option<String>,
    expects_response: bool,
    /// String values of our tools/call arguments (4+ characters), to tell a tool quoting what we sent
    /// ("Session mcp-triage-probe-nonexistent not found") from a refusal of the call.
    argument_values: Vec<String>,
}

impl RequestFacts {
    /// True when `text` quotes one of our argument values.
    fn quotes_our_arguments(&self, text: &str) -> bool {
        self.argument_values
            .iter()
            .any(|v| text.contains(v.as_str()))
    }
}

fn request_facts(req: &Request) -> RequestFacts {
    let mut f = RequestFacts {
        http_method: req.method.to_ascii_uppercase(),
        has_session: req.header(crate::header::SESSION_ID).is_some(),
        protocol_header: req
            .header(crate::header::PROTOCOL_VERSION)
            .map(str::to_string),
        ..RequestFacts::default()
    };
    if f.http_method == "POST" {
        f.content_type_json = Some(req.header("content-type").is_some_and(|ct| {
            ct.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        }));
        f.accept_ok = Some(req.header("accept").is_some_and(|a| {
            let a = a.to_ascii_lowercase();
            a.contains("application/json") && a.contains("text/event-stream")
        }));
    }
    let Some(text) = req.body.as_deref().filter(|b| !b.trim().is_empty()) else {
        return f;
    };
    f.body_present = true;
    let value = match body::parse_json(text) {
        Ok(v) => v,
        Err(e) => {
            f.body_parse_error = Some(e);
            return f;
        }
    };
    match jsonrpc::view(&value) {
        Message::Request { id, method, params } => {
            f.id = Some(id.clone());
            f.method = Some(method.to_string());
            f.expects_response = true;
            f.meta_version = params
                .and_then(|p| p.get("_meta"))
                .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"))
                .and_then(Value::as_str)
                .map(str::to_string);
            if method == "tools/call" {
                f.argument_values = params
                    .and_then(|p| p.get("arguments"))
                    .and_then(Value::as_object)
                    .map(|args| {
                        args.values()
                            .filter_map(Value::as_str)
                            .filter(|v| v.len() >= 4)
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default();
                match params.and_then(|p| p.get("name")) {
                    Some(Value::String(name)) => f.tool_name = Some(name.clone()),
                    _ => f.tools_call_without_name = true,
                }
            }
        }
        Message::Notification { method, .. } => f.method = Some(method.to_string()),
        Message::Result { .. } | Message::Error { .. } => {}
        Message::Invalid { reason, .. } => f.body_not_jsonrpc = Some(reason),
    }
    f
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
    fn text(&mut self, fact: impl Into<String>, pointer: &str, text: &str, m: &Match) {
        self.v.evidence.push(Evidence {
            kind: DecidedBy::Text,
            fact: fact.into(),
            pointer: Some(pointer.to_string()),
            range: Some(m.char_range(text)),
            matched: Some(text[m.bytes.0..m.bytes.1].to_string()),
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
        },
    };
    if ex.is_stdio()
        && let Some(io) = &ex.stdio
    {
        stdio_answer(&mut b, ex, io, &req, intent.as_deref(), &opts.limits);
        return b.v;
    }
    let Some(resp) = &ex.response else {
        no_response(&mut b, ex);
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
        resp.header("content-type"),
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
        http_status(&mut b, resp, &req, frame, &decoded);
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
        "GET" => return get_stream(b, resp, &decoded),
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
        answered(&mut b, ours, &req, intent.as_deref());
        return b.v;
    }

    // 2xx without a response to our id.
    b.v.channel = Channel::Malformed;
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
    } else if let Some(stray) = &found.stray_error {
        b.v.message = Some(stray.value.clone());
        b.structure("a JSON-RPC error frame that is not addressed to our id");
        if let Message::Error { code, message, .. } = jsonrpc::view(&stray.value) {
            let pointer = pointer_for(stray.origin, "/error/message");
            frame_cause(&mut b, code, message, &pointer, &req, None);
        }
        b.v.channel = Channel::Malformed;
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
                .is_some_and(|e| e.starts_with(crate::body::JSON_TOO_DEEP))
        });
        if too_deep {
            b.structure(format!(
                "{}, so no JSON-RPC response could be found in it",
                crate::body::JSON_TOO_DEEP
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

/// A stdio exchange: the lines read from stdout instead of a status, headers and a body.
fn stdio_answer(
    b: &mut Builder,
    ex: &Exchange,
    io: &crate::exchange::StdioCapture,
    req: &RequestFacts,
    intent: Option<&str>,
    limits: &Limits,
) {
    b.v.body_kind = Some(BodyKind::StdioLines);
    let mut decoded = DecodedBody {
        kind: BodyKind::StdioLines,
        values: Vec::new(),
        events: Vec::new(),
        problems: Vec::new(),
        text: String::new(),
        truncated: io.lines_cut > 0,
    };
    let mut not_json = 0usize;
    for (index, line) in io.lines.iter().enumerate() {
        let value = body::parse_json(line.trim());
        if value.is_err() {
            not_json += 1;
            if not_json == 1 {
                let head: String = line.chars().take(80).collect();
                decoded
                    .problems
                    .push(format!("stdout line {} is not JSON: {head:?}", index + 1));
            }
        }
        decoded.values.push(crate::body::Decoded {
            origin: Origin::Line { index },
            value,
        });
    }
    b.v.problems.extend(decoded.problems.iter().cloned());
    if not_json > 0 {
        b.flag(Flag::NonJsonStdout);
        if not_json > 1 {
            b.v.problems
                .push(format!("{not_json} lines on stdout were not JSON"));
        }
    }
    let found = scan(&decoded, req.id.as_ref(), limits);
    b.v.server_requests = found.server_requests.clone();
    b.v.response_matched = found.ours.is_some();
    if let Some(ours) = &found.ours {
        b.v.unrelated_messages = found.unrelated;
        if found.unrelated > 0 {
            b.flag(Flag::UnrelatedMessagesFirst);
        }
        if let Message::Error { code, .. } = jsonrpc::view(&ours.value) {
            b.v.jsonrpc_code = Some(code.0);
        }
        b.v.message = Some(ours.value.clone());
        answered(b, ours, req, intent);
        return;
    }
    let stray = found.stray_error.as_ref();
    if let Some(f) = stray
        && let Message::Error { code, .. } = jsonrpc::view(&f.value)
    {
        b.v.jsonrpc_code = Some(code.0);
    }
    if let Some(exit) = io.exit {
        b.decide(Channel::Network, Cause::ServerExited, DecidedBy::Structure);
        let before = if req.expects_response {
            "before answering"
        } else {
            "after this message"
        };
        match io.end {
            None => b.structure(format!(
                "the process had already exited ({exit}): the line could not be written"
            )),
            _ => b.structure(format!("the process exited ({exit}) {before}")),
        }
        if io.stderr_tail.is_some() {
            b.structure("its last stderr lines are in the exchange (never in a share link)");
        }
        return;
    }
    if !req.expects_response && ex.transport_error.is_none() {
        b.decide(Channel::Accepted, Cause::None, DecidedBy::Structure);
        b.structure("written to stdin; stdio acknowledges nothing that expects no response");
        return;
    }
    if ex.transport_error.is_some() {
        no_response(b, ex);
        b.v.evidence.clear();
        b.structure(match ex.transport_error {
            Some(TransportError::Aborted) => "cancelled before our response arrived on stdout",
            Some(TransportError::NotRecorded) => {
                "replay: the recording holds no exchange that fits this request"
            }
            _ => "no response with our id on stdout before the deadline",
        });
        return;
    }
    if io.end == Some(BodyEnd::SizeCap) || found.too_many_unrelated {
        b.decide(
            Channel::Malformed,
            Cause::BodyTooLarge,
            DecidedBy::Structure,
        );
        b.structure("stdout passed the size cap before our response arrived");
        return;
    }
    if let Some(f) = stray {
        b.v.message = Some(f.value.clone());
        b.structure("a JSON-RPC error frame that is not addressed to our id");
        if let Message::Error { code, message, .. } = jsonrpc::view(&f.value) {
            frame_cause(b, code, message, "/error/message", req, None);
        }
        b.v.channel = Channel::Malformed;
        return;
    }
    b.decide(
        Channel::Malformed,
        Cause::MalformedResponse,
        DecidedBy::Structure,
    );
    b.structure(match &found.invalid_ours {
        Some(reason) => format!("the message with our id is not valid JSON-RPC: {reason}"),
        None => "stdout closed without a JSON-RPC response with our id".into(),
    });
}

fn pointer_for(origin: Origin, inner: &str) -> String {
    match origin {
        Origin::Body | Origin::SseEvent { .. } | Origin::Line { .. } => inner.to_string(),
        Origin::Batch { index } => format!("/{index}{inner}"),
    }
}

fn no_response(b: &mut Builder, ex: &Exchange) {
    let (cause, fact) = match ex.transport_error {
        Some(TransportError::Timeout) => {
            (Cause::Timeout, "no response headers before the deadline")
        }
        Some(TransportError::Aborted) => {
            (Cause::Aborted, "cancelled before response headers arrived")
        }
        Some(TransportError::RedirectRefused) => (
            Cause::Redirect,
            "the server answered with a redirect, which is never followed",
        ),
        Some(TransportError::Network) => (
            Cause::NetworkOrCors,
            "the request failed without a readable response (CORS, DNS, refused, mixed content)",
        ),
        Some(TransportError::NotRecorded) => (
            Cause::Unknown,
            "replay: the recording holds no exchange that fits this request",
        ),
        None => (Cause::NetworkOrCors, "no response was recorded"),
    };
    b.decide(Channel::Network, cause, DecidedBy::Structure);
    b.structure(fact);
    if let Some(detail) = &ex.transport_error_detail {
        b.structure(format!("client said: {detail}"));
    }
}

fn get_stream(mut b: Builder, resp: &Response, decoded: &DecodedBody) -> Verdict {
    if decoded.kind == BodyKind::EventStream
        || resp
            .header("content-type")
            .is_some_and(|c| c.contains("event-stream"))
    {
        if decoded.events.first().and_then(|e| e.event.as_deref()) == Some("endpoint") {
            b.decide(
                Channel::StreamOpen,
                Cause::LegacySseTransport,
                DecidedBy::Structure,
            );
            b.structure(
                "the GET stream opens with an `endpoint` event: the 2024-11-05 HTTP+SSE transport",
            );
            return b.v;
        }
        b.decide(Channel::StreamOpen, Cause::None, DecidedBy::Structure);
        b.structure(format!(
            "GET answered with HTTP {} and an SSE stream",
            resp.status
        ));
        if resp.body_complete == Some(false)
            || resp.body_end.is_some_and(|e| e != BodyEnd::Complete)
        {
            b.structure("the stream stayed open until the client stopped reading");
        }
        return b.v;
    }
    b.decide(Channel::Success, Cause::None, DecidedBy::Structure);
    b.structure(format!(
        "GET answered with HTTP {} and a {} body",
        resp.status,
        decoded.kind.as_str()
    ));
    b.v
}

/// Status ≥ 300: the channel is `http`; the cause comes from the status, the challenge, the frame,
/// our request, and last the prose.
fn http_status(
    b: &mut Builder,
    resp: &Response,
    req: &RequestFacts,
    frame: Option<&Found>,
    decoded: &DecodedBody,
) {
    let status = resp.status;
    b.v.channel = Channel::Http;
    b.structure(format!("HTTP status {status}"));
    let frame_msg = frame.map(|f| (jsonrpc::view(&f.value), f.origin));
    let (frame_code, frame_text, frame_ptr) = match &frame_msg {
        Some((Message::Error { code, message, .. }, origin)) => (
            Some(*code),
            Some(*message),
            pointer_for(*origin, "/error/message"),
        ),
        _ => (None, None, "/body".to_string()),
    };
    if let Some(code) = frame_code {
        b.structure(format!("JSON-RPC error code {}", code.label()));
    }
    // The prose to search: the frame's message, else a text/HTML body.
    let prose: Option<(&str, String)> = match frame_text {
        Some(t) => Some((t, frame_ptr.clone())),
        None if matches!(
            decoded.kind,
            BodyKind::Text | BodyKind::Html | BodyKind::Json
        ) =>
        {
            Some((decoded.text.as_str(), "/body".to_string()))
        }
        None => None,
    };
    let set = |b: &mut Builder, cause: Cause, by: DecidedBy| b.decide(Channel::Http, cause, by);

    match status {
        300..=399 => {
            set(b, Cause::Redirect, DecidedBy::Structure);
            if let Some(loc) = resp.header("location") {
                b.structure(format!("Location: {loc} (not followed)"));
            }
            return;
        }
        401 => {
            set(b, Cause::Unauthenticated, DecidedBy::Structure);
            challenge_evidence(b);
            return;
        }
        403 => {
            // RFC 6750 says error="insufficient_scope"; some servers only name the scope they need.
            let scope = b.v.challenge.as_ref().is_some_and(|c| {
                c.param("error") == Some("insufficient_scope")
                    || (c.param("error").is_none() && c.param("scope").is_some())
            });
            if scope {
                set(b, Cause::InsufficientScope, DecidedBy::Structure);
                challenge_evidence(b);
                return;
            }
            if let Some((text, ptr)) = &prose
                && let Some(m) = text_rules::find(text, text_rules::TRANSPORT)
                    .filter(|m| matches!(m.cause, Cause::OriginRejected | Cause::InsufficientScope))
            {
                set(b, m.cause, DecidedBy::Text);
                b.text("the refusal says why", ptr, text, &m);
                return;
            }
            set(b, Cause::Forbidden, DecidedBy::Structure);
            challenge_evidence(b);
            return;
        }
        405 => return set(b, Cause::MethodNotAllowed, DecidedBy::Structure),
        406 => return set(b, Cause::NotAcceptable, DecidedBy::Structure),
        408 | 504 => return set(b, Cause::Timeout, DecidedBy::Structure),
        413 => return set(b, Cause::BodyTooLarge, DecidedBy::Structure),
        415 => return set(b, Cause::UnsupportedMediaType, DecidedBy::Structure),
        429 => {
            set(b, Cause::RateLimited, DecidedBy::Structure);
            if let Some(r) = resp.header("retry-after") {
                b.structure(format!("Retry-After: {r}"));
            }
            return;
        }
        _ => {}
    }

    // Reserved codes that mean one thing whatever the status.
    match frame_code {
        Some(ErrorCode::PARSE_ERROR)
            if req.body_parse_error.is_some() || req.body_not_jsonrpc.is_none() =>
        {
            return set(b, Cause::ParseError, DecidedBy::Structure);
        }
        Some(ErrorCode::HEADER_MISMATCH) => {
            return set(b, Cause::HeaderMismatch, DecidedBy::Structure);
        }
        Some(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION) => {
            return set(b, Cause::ProtocolVersionUnsupported, DecidedBy::Structure);
        }
        Some(ErrorCode::METHOD_NOT_FOUND) => {
            return set(b, Cause::MethodNotFound, DecidedBy::Structure);
        }
        _ => {}
    }

    if status == 404 {
        if req.has_session {
            set(b, Cause::SessionNotFound, DecidedBy::Structure);
            b.structure("we sent an Mcp-Session-Id; an unknown or ended session MUST get 404");
            return;
        }
        if let Some((text, ptr)) = &prose
            && let Some(m) = text_rules::find(text, text_rules::TRANSPORT)
        {
            set(
                b,
                text_rules::session_cause(m.cause, req.has_session),
                DecidedBy::Text,
            );
            b.text("the refusal says why", ptr, text, &m);
            return;
        }
        if let (Some(code), Some(text)) = (frame_code, frame_text) {
            frame_cause(b, code, text, &frame_ptr, req, None);
            b.v.channel = Channel::Http;
            return;
        }
        return set(b, Cause::EndpointNotFound, DecidedBy::Structure);
    }

    if status >= 500 {
        set(b, Cause::ServerError, DecidedBy::Structure);
        return;
    }

    // 400 and other 4xx: what our own request did wrong comes first.
    if let Some(reason) = &req.body_parse_error {
        set(b, Cause::ParseError, DecidedBy::Structure);
        b.structure(format!("our request body is not JSON ({reason})"));
        return;
    }
    if let Some(reason) = &req.body_not_jsonrpc {
        set(b, Cause::InvalidRequest, DecidedBy::Structure);
        b.structure(format!(
            "our request body is JSON but not JSON-RPC ({reason})"
        ));
        return;
    }
    if req.content_type_json == Some(false) {
        set(b, Cause::UnsupportedMediaType, DecidedBy::Structure);
        b.structure("our request's Content-Type is not application/json");
        return;
    }
    if req.accept_ok == Some(false) {
        set(b, Cause::NotAcceptable, DecidedBy::Structure);
        b.structure(
            "our request's Accept does not list both application/json and text/event-stream",
        );
        return;
    }
    if let Some(v) = &req.protocol_header
        && !KNOWN_VERSIONS.contains(&v.as_str())
    {
        set(b, Cause::ProtocolVersionUnsupported, DecidedBy::Structure);
        b.structure(format!(
            "our MCP-Protocol-Version header names no released version ({v})"
        ));
        return;
    }
    if let Some((text, ptr)) = &prose
        && let Some(m) = text_rules::find(text, text_rules::TRANSPORT)
    {
        let cause = text_rules::session_cause(m.cause, req.has_session);
        set(b, cause, DecidedBy::Text);
        let fact = match (m.cause, cause) {
            (Cause::SessionRequired, Cause::SessionNotFound) => {
                "the refusal is about the session, and we sent one: it is not usable"
            }
            (Cause::SessionNotFound, Cause::SessionRequired) => {
                "the refusal is about the session, and we sent none: one is required"
            }
            _ => "the refusal says why",
        };
        b.text(fact, ptr, text, &m);
        return;
    }
    if let Some(method) = req.method.as_deref()
        && req.expects_response
        && !jsonrpc::is_mcp_client_method(method)
    {
        set(b, Cause::MethodNotFound, DecidedBy::Structure);
        b.structure(format!("our method {method:?} is not an MCP method"));
        return;
    }
    if req.tools_call_without_name {
        set(b, Cause::InvalidRequest, DecidedBy::Structure);
        b.structure("our tools/call had no string `name`");
        return;
    }
    // A standard code addressed to our id on a 4xx (the 2026-07-28 era sends protocol errors so);
    // implementation codes like -32000 on a 4xx are transport refusals, not the tool's doing.
    if let (Some(code), Some(text)) = (frame_code, frame_text)
        && code.is_standard()
        && frame.is_some_and(|f| {
            jsonrpc::view(&f.value)
                .response_id()
                .is_some_and(|id| Some(id) == req.id.as_ref())
        })
    {
        frame_cause(b, code, text, &frame_ptr, req, None);
        b.v.channel = Channel::Http;
        return;
    }
    set(b, Cause::InvalidRequest, DecidedBy::Structure);
    b.structure("a 4xx refusal of the request without a more specific sign");
}

fn challenge_evidence(b: &mut Builder) {
    let Some(c) = b.v.challenge.clone() else {
        if matches!(b.v.http_status, Some(401)) {
            b.structure("no WWW-Authenticate challenge (MUST be sent with 401)");
        }
        return;
    };
    let mut fact = format!("WWW-Authenticate: {}", c.scheme);
    for key in ["error", "scope", "resource_metadata"] {
        if let Some(v) = c.param(key) {
            fact.push_str(&format!(" {key}={v}"));
        }
    }
    b.structure(fact);
}

/// Our response arrived on a 2xx: an error frame, an `isError` result, or a result.
fn answered(b: &mut Builder, ours: &Found, req: &RequestFacts, intent: Option<&str>) {
    match jsonrpc::view(&ours.value) {
        Message::Error { code, message, .. } => {
            b.decide(Channel::JsonrpcError, Cause::Unknown, DecidedBy::Structure);
            b.structure(format!("JSON-RPC error frame, code {}", code.label()));
            let ptr = pointer_for(ours.origin, "/error/message");
            frame_cause(b, code, message, &ptr, req, intent);
            b.v.channel = Channel::JsonrpcError;
        }
        Message::Result { result, .. } => {
            let is_error = result.get("isError");
            if is_error == Some(&Value::Bool(true)) {
                b.decide(
                    Channel::ToolError,
                    Cause::ToolExecution,
                    DecidedBy::Structure,
                );
                b.structure("result.isError is true");
                tool_error_cause(b, result, ours.origin, req);
            } else {
                b.decide(Channel::Success, Cause::None, DecidedBy::Structure);
                match is_error {
                    Some(Value::Bool(false)) => b.structure("result.isError is false"),
                    Some(other) => {
                        b.structure(format!("result.isError is not a boolean ({other})"))
                    }
                    None => b.structure("a result without isError"),
                }
                soft_failure(b, result);
            }
        }
        _ => {
            b.decide(
                Channel::Malformed,
                Cause::MalformedResponse,
                DecidedBy::Structure,
            );
        }
    }
}

/// Texts of a result's content items with their JSON pointers.
fn content_texts(result: &Value, origin: Origin) -> Vec<(String, &str)> {
    result
        .get("content")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(i, item)| {
                    item.get("text")
                        .and_then(Value::as_str)
                        .map(|t| (pointer_for(origin, &format!("/result/content/{i}/text")), t))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn tool_error_cause(b: &mut Builder, result: &Value, origin: Origin, req: &RequestFacts) {
    let texts = content_texts(result, origin);
    for (ptr, text) in &texts {
        if let Some((code, range)) = text_rules::find_code_in_text(text) {
            b.flag(Flag::CodeInText);
            let m = Match {
                rule: "code_in_text",
                cause: Cause::Unknown,
                bytes: range,
            };
            b.text(
                format!("a JSON-RPC code ({code}) written into the text"),
                ptr,
                text,
                &m,
            );
        }
    }
    for (ptr, text) in &texts {
        // "Tool X not found" that quotes our own argument is the tool talking about what we asked
        // for (a registry of tools, say), not a refusal of the tool name.
        if let Some(m) = text_rules::find_unknown_tool(text, req.tool_name.as_deref())
            .filter(|_| !req.quotes_our_arguments(text))
        {
            b.decide(Channel::ToolError, Cause::UnknownTool, DecidedBy::Text);
            b.text("the text says the tool does not exist", ptr, text, &m);
            return;
        }
    }
    for (ptr, text) in &texts {
        if let Some(m) = text_rules::find(text, text_rules::INVALID_ARGUMENTS) {
            b.decide(Channel::ToolError, Cause::InvalidArguments, DecidedBy::Text);
            b.text("the text says the arguments were refused", ptr, text, &m);
            return;
        }
    }
    // Structure decides: isError with no sign of a refusal before the tool ran.
    b.decide(
        Channel::ToolError,
        Cause::ToolExecution,
        DecidedBy::Structure,
    );
    for (ptr, text) in &texts {
        if let Some(m) = text_rules::find(text, text_rules::TOOL_EXECUTION) {
            b.text("the text names a tool execution failure", ptr, text, &m);
        }
        if text_rules::is_withheld(text, req.tool_name.as_deref()) {
            b.flag(Flag::MessageWithheld);
        }
    }
    if texts.is_empty() {
        b.structure("no text content explains the error");
    }
}

fn soft_failure(b: &mut Builder, result: &Value) {
    let structured_error = result
        .get("structuredContent")
        .and_then(Value::as_object)
        .is_some_and(|o| o.contains_key("error"));
    if structured_error {
        b.flag(Flag::SoftFailureSuspected);
        b.structure("structuredContent has an \"error\" member in a success");
        return;
    }
    for (ptr, text) in content_texts(result, Origin::Body) {
        let trimmed = text.trim_start();
        let json_error = body::parse_json(trimmed)
            .ok()
            .and_then(|v| v.as_object().map(|o| o.contains_key("error")))
            .unwrap_or(false);
        if json_error {
            b.flag(Flag::SoftFailureSuspected);
            b.structure(format!(
                "{ptr} is JSON with an \"error\" member in a success"
            ));
            return;
        }
        let lower = trimmed.to_ascii_lowercase();
        if lower.starts_with("error") {
            b.flag(Flag::SoftFailureSuspected);
            let m = Match {
                rule: "soft_failure.starts_with_error",
                cause: Cause::Unknown,
                bytes: (text.len() - trimmed.len(), text.len() - trimmed.len() + 5),
            };
            b.text("a success whose text starts with \"error\"", &ptr, text, &m);
            return;
        }
        if lower.len() < 200
            && let Some(p) = text_rules::SOFT_FAILURE
                .iter()
                .find(|p| lower.contains(**p))
        {
            b.flag(Flag::SoftFailureSuspected);
            if let Some(at) = lower.find(p) {
                // `lower` is the trimmed text: shift back into `text` (ASCII phrases, so the bounds
                // are character boundaries there too).
                let lead = text.len() - trimmed.len();
                let m = Match {
                    rule: "soft_failure.phrase",
                    cause: Cause::Unknown,
                    bytes: (lead + at, lead + at + p.len()),
                };
                b.text("a short success that reads like an error", &ptr, text, &m);
            }
            return;
        }
    }
}

/// The cause of a JSON-RPC error frame (whatever its status), from code, request and prose.
fn frame_cause(
    b: &mut Builder,
    code: ErrorCode,
    message: &str,
    ptr: &str,
    req: &RequestFacts,
    intent: Option<&str>,
) {
    // Some SDKs put the real words in `error.data` (Ruby: "Invalid params" + data "Tool not found: x").
    let data_text =
        b.v.message
            .as_ref()
            .and_then(|m| m.pointer(&ptr.replace("/error/message", "/error/data")))
            .and_then(Value::as_str)
            .map(str::to_string);
    let data_ptr = ptr.replace("/error/message", "/error/data");
    let channel = b.v.channel;
    let set = |b: &mut Builder, cause: Cause, by: DecidedBy| b.decide(channel, cause, by);
    let method = req.method.as_deref().unwrap_or("");
    if req.tools_call_without_name && matches!(code.0, -32600 | -32602 | -32603) {
        set(b, Cause::InvalidRequest, DecidedBy::Structure);
        b.structure("our tools/call had no string `name`: the request itself was invalid");
        return;
    }
    if !method.is_empty()
        && !jsonrpc::is_mcp_client_method(method)
        && matches!(code.0, -32602..=-32600)
    {
        set(b, Cause::MethodNotFound, DecidedBy::Structure);
        b.structure(format!("our method {method:?} is not an MCP method"));
        return;
    }
    match code {
        ErrorCode::METHOD_NOT_FOUND => return set(b, Cause::MethodNotFound, DecidedBy::Structure),
        ErrorCode::PARSE_ERROR => return set(b, Cause::ParseError, DecidedBy::Structure),
        ErrorCode::HEADER_MISMATCH => return set(b, Cause::HeaderMismatch, DecidedBy::Structure),
        ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => {
            return set(b, Cause::ProtocolVersionUnsupported, DecidedBy::Structure);
        }
        _ => {}
    }
    // On an answer to our tools/call, a transport phrase may be the tool's own words about its
    // arguments: only session refusals count there, and only when they do not quote our arguments.
    let tool_answer = method == "tools/call" && channel != Channel::Http;
    if let Some(m) = text_rules::find(message, text_rules::TRANSPORT).filter(|m| {
        !tool_answer
            || (matches!(m.cause, Cause::SessionRequired | Cause::SessionNotFound)
                && !req.quotes_our_arguments(message))
    }) {
        set(
            b,
            text_rules::session_cause(m.cause, req.has_session),
            DecidedBy::Text,
        );
        b.text("the message says why", ptr, message, &m);
        return;
    }
    if method != "tools/call" {
        let cause = match code {
            ErrorCode::INVALID_REQUEST | ErrorCode::INVALID_PARAMS => Cause::InvalidRequest,
            ErrorCode::INTERNAL_ERROR => Cause::InternalError,
            _ => Cause::ServerError,
        };
        return set(b, cause, DecidedBy::Structure);
    }
    if let Some((_, range)) = text_rules::find_code_in_text(message) {
        b.flag(Flag::CodeInText);
        let m = Match {
            rule: "code_in_text",
            cause: Cause::Unknown,
            bytes: range,
        };
        b.text("a JSON-RPC code written into the message", ptr, message, &m);
    }
    let texts: Vec<(&str, &str)> = std::iter::once((ptr, message))
        .chain(data_text.as_deref().map(|d| (data_ptr.as_str(), d)))
        .collect();
    for (p, text) in &texts {
        // "Tool X not found" that quotes our own argument is the tool talking about what we asked
        // for (a registry of tools, say), not a refusal of the tool name.
        if let Some(m) = text_rules::find_unknown_tool(text, req.tool_name.as_deref())
            .filter(|_| !req.quotes_our_arguments(text))
        {
            set(b, Cause::UnknownTool, DecidedBy::Text);
            b.text("the error says the tool does not exist", p, text, &m);
            return;
        }
    }
    for (p, text) in &texts {
        if let Some(m) = text_rules::find(text, text_rules::INVALID_ARGUMENTS) {
            set(b, Cause::InvalidArguments, DecidedBy::Text);
            b.text("the error says the arguments were refused", p, text, &m);
            return;
        }
    }
    let withheld = text_rules::is_withheld(message, req.tool_name.as_deref());
    if withheld {
        b.flag(Flag::MessageWithheld);
    }
    match code {
        ErrorCode::INVALID_PARAMS => {
            let (cause, why) = match intent {
                Some("A") => (
                    Cause::UnknownTool,
                    "the caller says this probe named an unknown tool",
                ),
                Some("C") => (
                    Cause::ToolExecution,
                    "the caller says this probe made the tool fail",
                ),
                _ => (
                    Cause::InvalidArguments,
                    "-32602 on tools/call with no clearer sign: most likely the arguments",
                ),
            };
            set(b, cause, DecidedBy::Structure);
            b.structure(why);
        }
        ErrorCode::INTERNAL_ERROR if withheld => {
            set(b, Cause::InternalError, DecidedBy::Structure);
            b.structure("-32603 with a generic message: the server hid what failed");
        }
        ErrorCode::INTERNAL_ERROR => {
            set(b, Cause::ToolExecution, DecidedBy::Structure);
            b.structure("-32603 on tools/call carrying the handler's own message: the tool failed");
        }
        ErrorCode::INVALID_REQUEST => set(b, Cause::InvalidRequest, DecidedBy::Structure),
        _ => {
            set(b, Cause::ToolExecution, DecidedBy::Structure);
            b.structure(format!(
                "code {} is not a protocol error code: the tool's own failure surfaced as a frame",
                code.0
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn exchange(status: u16, ct: &str, body: &str) -> Exchange {
        let doc = serde_json::json!({
            "format": "mcp-exchange/1", "vantage": "browser",
            "request": {"method": "POST", "url": "https://x/mcp",
                "headers": [["Content-Type", "application/json"], ["Accept", "application/json, text/event-stream"]],
                "body": "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"icp_list\",\"arguments\":{}}}"},
            "response": {"status": status, "headers": [["content-type", ct]], "body": body}
        });
        Exchange::from_json(doc.to_string().as_bytes()).unwrap()
    }

    #[test]
    fn soft_failures_in_a_success_are_flagged() {
        let json_error = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"error\": \"quota\"}"}]}}"#;
        let v = classify(
            &exchange(200, "application/json", json_error),
            &Options::default(),
        );
        assert_eq!((v.channel, v.cause), (Channel::Success, Cause::None));
        assert!(v.flags.contains(&Flag::SoftFailureSuspected));
        let prose = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Error: upstream timed out"}]}}"#;
        let v = classify(
            &exchange(200, "application/json", prose),
            &Options::default(),
        );
        assert!(v.flags.contains(&Flag::SoftFailureSuspected));
        let fine = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"ok\":true}"}]}}"#;
        let v = classify(
            &exchange(200, "application/json", fine),
            &Options::default(),
        );
        assert!(v.flags.is_empty() || v.flags == [Flag::HeadersMayBeHidden]);
    }

    fn call_with(args: &str, status: u16, ct: &str, body: &str) -> Exchange {
        let mut ex = exchange(status, ct, body);
        ex.request.body = Some(format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{{\"name\":\"session_get\",\"arguments\":{args}}}}}"
        ));
        ex
    }

    #[test]
    fn a_tool_quoting_our_argument_is_not_a_transport_or_unknown_tool_refusal() {
        let args = r#"{"session_id":"mcp-triage-probe-nonexistent"}"#;
        let frame = r#"{"jsonrpc":"2.0","id":7,"error":{"code":0,"message":"Session mcp-triage-probe-nonexistent not found"}}"#;
        let v = classify(
            &call_with(args, 200, "application/json", frame),
            &Options::default(),
        );
        assert_eq!(
            (v.channel, v.cause),
            (Channel::JsonrpcError, Cause::ToolExecution)
        );
        let registry = r#"{"jsonrpc":"2.0","id":7,"result":{"isError":true,"content":[{"type":"text","text":"Tool not found: mcp-triage-probe-nonexistent"}]}}"#;
        let v = classify(
            &call_with(
                r#"{"name":"mcp-triage-probe-nonexistent"}"#,
                200,
                "application/json",
                registry,
            ),
            &Options::default(),
        );
        assert_eq!(v.cause, Cause::ToolExecution);
        // Without our argument in it, a session refusal on a tools/call frame still counts.
        let go = r#"{"jsonrpc":"2.0","id":7,"error":{"code":0,"message":"method \"tools/call\" is invalid during session initialization"}}"#;
        let v = classify(
            &call_with("{}", 200, "application/json", go),
            &Options::default(),
        );
        assert_eq!(v.cause, Cause::SessionRequired);
    }

    #[test]
    fn soft_failure_highlight_after_leading_whitespace_and_non_ascii() {
        let body = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"\n\n❌ Not found"}]}}"#;
        let v = classify(
            &exchange(200, "application/json", body),
            &Options::default(),
        );
        let e = v
            .evidence
            .iter()
            .find(|e| e.rule.as_deref() == Some("soft_failure.phrase"))
            .unwrap();
        assert_eq!(e.matched.as_deref(), Some("Not found"));
    }

    #[test]
    fn a_stream_the_client_cut_is_not_said_to_have_ended_inside_an_event() {
        let partial =
            "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"";
        let problems = |complete: bool| {
            let mut ex = exchange(200, "text/event-stream", partial);
            if let Some(r) = ex.response.as_mut() {
                r.body_complete = Some(complete);
            }
            classify(&ex, &Options::default()).problems.join(" | ")
        };
        // The server closed the stream mid-event: that is the server's doing, and it is said.
        assert!(problems(true).contains("the stream ended inside the event"));
        // The page stopped reading a stream that stayed open: not the server's doing.
        assert!(
            !problems(false).contains("ended inside the event"),
            "{}",
            problems(false)
        );
    }

    #[test]
    fn json_nested_too_deep_is_named_as_such() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let v = classify(
            &exchange(200, "application/json", &deep),
            &Options::default(),
        );
        assert_eq!(v.channel, Channel::Malformed);
        let said: Vec<String> = v.evidence.iter().map(|e| e.fact.clone()).collect();
        assert!(
            said.iter()
                .any(|f| f.contains("nests deeper than 128 levels")),
            "{said:?}"
        );
        assert!(
            !said
                .iter()
                .any(|f| f.contains("no JSON-RPC response with our id")),
            "{said:?}"
        );
    }

    #[test]
    fn ids_must_match_exactly_and_unrelated_messages_are_skipped() {
        let wrong_type = r#"{"jsonrpc":"2.0","id":"7","result":{"content":[]}}"#;
        let v = classify(
            &exchange(200, "application/json", wrong_type),
            &Options::default(),
        );
        assert_eq!(
            (v.channel, v.cause),
            (Channel::Malformed, Cause::MalformedResponse)
        );
        let float = r#"{"jsonrpc":"2.0","id":7.0,"result":{"content":[]}}"#;
        assert_eq!(
            classify(
                &exchange(200, "application/json", float),
                &Options::default()
            )
            .channel,
            Channel::Malformed
        );
        let stream = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n\
                      data: {\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}\n\n\
                      data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[],\"isError\":true}}\n\n";
        let v = classify(
            &exchange(200, "text/event-stream", stream),
            &Options::default(),
        );
        assert_eq!(v.channel, Channel::ToolError);
        assert_eq!(v.unrelated_messages, 2);
        assert_eq!(v.server_requests, ["ping"]);
        assert!(v.flags.contains(&Flag::UnrelatedMessagesFirst));
    }

    #[test]
    fn html_502_is_a_server_error_a_deadline_cut_stream_a_timeout_and_batches_need_2025_03_26() {
        let v = classify(
            &exchange(502, "text/html", "<html>bad gateway</html>"),
            &Options::default(),
        );
        assert_eq!((v.channel, v.cause), (Channel::Http, Cause::ServerError));
        let mut ex = exchange(200, "text/event-stream", ": keepalive\n\n");
        if let Some(r) = ex.response.as_mut() {
            r.body_end = Some(BodyEnd::Deadline);
        }
        let v = classify(&ex, &Options::default());
        assert_eq!((v.channel, v.cause), (Channel::Malformed, Cause::Timeout));
        let legacy = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[],"isError":true}}"#;
        let mut ex = exchange(200, "application/json", &format!("[{legacy}]"));
        assert_eq!(
            classify(&ex, &Options::default()).channel,
            Channel::Malformed
        );
        ex.negotiated_version = Some("2025-03-26".into());
        assert_eq!(
            classify(&ex, &Options::default()).channel,
            Channel::ToolError
        );
    }
}
