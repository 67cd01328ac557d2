//! A verdict and how one is built: the options a caller gives, the verdict, the scan of a body for
//! our response, and the builder every part of the decision table writes into.

use serde::Serialize;
use serde_json::Value;

use crate::decode::body::{BodyKind, DecodedBody, Origin};
use crate::decode::challenge::Challenge;
use crate::decode::jsonrpc::{self, Message};
use crate::judge::rules::Match;
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Evidence, Flag};
use crate::vocabulary::exchange::Exchange;
use crate::vocabulary::limits::Limits;

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
    /// The flags that belong to this answer alone: what holds for every answer of a run
    /// ([`Flag::once_per_run`]) is said once, in the run's notes, never on a card or a link's row.
    pub(crate) fn own_flags(&self) -> impl Iterator<Item = Flag> + '_ {
        self.flags.iter().copied().filter(|f| !f.once_per_run())
    }

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
pub(super) struct Found {
    pub(super) value: Value,
    pub(super) origin: Origin,
}

pub(super) struct Scan {
    pub(super) ours: Option<Found>,
    pub(super) stray_error: Option<Found>,
    pub(super) invalid_ours: Option<String>,
    pub(super) unrelated: usize,
    pub(super) server_requests: Vec<String>,
    pub(super) too_many_unrelated: bool,
}

pub(super) fn scan(decoded: &DecodedBody, our_id: Option<&Value>, limits: &Limits) -> Scan {
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
pub(super) struct Builder {
    pub(super) v: Verdict,
    /// The required arguments our request left out (from the tool's schema), for the evidence.
    pub(super) missing: Vec<String>,
}

impl Builder {
    pub(super) fn decide(&mut self, channel: Channel, cause: Cause, by: DecidedBy) {
        self.v.channel = channel;
        self.v.cause = cause;
        self.v.decided_by = by;
    }
    pub(super) fn structure(&mut self, fact: impl Into<String>) {
        self.v.evidence.push(Evidence::structure(fact));
    }
    /// What the client said of a request that failed, when it said anything.
    pub(super) fn client_said(&mut self, ex: &Exchange) {
        if let Some(detail) = &ex.transport_error_detail {
            self.structure(format!("client said: {detail}"));
        }
    }
    /// A cause decided by a phrase rule: the verdict remembers which.
    pub(super) fn decide_text(
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
    pub(super) fn decide_intent(&mut self, channel: Channel, cause: Cause, fact: &str) {
        self.decide(channel, cause, DecidedBy::Intent);
        self.v.evidence.push(Evidence {
            kind: DecidedBy::Intent,
            ..Evidence::structure(fact)
        });
    }
    /// A rule matched that adds a flag, not evidence.
    pub(super) fn fired(&mut self, m: &Match) {
        self.v.fired.push(m.rule);
    }
    pub(super) fn text(&mut self, fact: impl Into<String>, pointer: &str, text: &str, m: &Match) {
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
    pub(super) fn flag(&mut self, flag: Flag) {
        if !self.v.flags.contains(&flag) {
            self.v.flags.push(flag);
        }
    }
}

/// The JSON pointer of `inner` in the message found at `origin`.
pub(super) fn pointer_for(origin: Origin, inner: &str) -> String {
    match origin {
        Origin::Body | Origin::SseEvent { .. } | Origin::Line { .. } => inner.to_string(),
        Origin::Batch { index } => format!("/{index}{inner}"),
    }
}
