//! A stdio exchange: the lines read from stdout instead of a status, headers and a body.

use super::request::RequestFacts;
use super::verdict::{Builder, scan};
use super::{frame, result, status};
use crate::decode::body::{self, BodyKind, DecodedBody, Origin};
use crate::decode::jsonrpc::{self, Message};
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Flag};
use crate::vocabulary::exchange::{BodyEnd, Exchange, StdioCapture, TransportError};
use crate::vocabulary::limits::Limits;

/// Decides a stdio record.
pub(super) fn answer(
    b: &mut Builder,
    ex: &Exchange,
    io: &StdioCapture,
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
        decoded.values.push(body::Decoded {
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
        result::answered(b, ours, req, intent);
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
        status::no_response(b, ex);
        b.v.evidence.clear();
        b.structure(match ex.transport_error {
            Some(TransportError::Aborted) => "cancelled before our response arrived on stdout",
            Some(TransportError::Interrupted) => {
                "the run was interrupted (a signal) before our response arrived on stdout"
            }
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
            frame::cause(
                b,
                Channel::Malformed,
                code,
                message,
                "/error/message",
                req,
                None,
            );
        }
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
