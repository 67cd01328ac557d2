//! The entry of the decision table: which part answers an exchange, in the order of questions.

use super::request::request_facts;
use super::verdict::{Builder, Options, Verdict, pointer_for, scan};
use super::{frame, result, status, stdio};
use crate::decode::body::{self, BodyKind};
use crate::decode::challenge::{self};
use crate::decode::jsonrpc::{self, Message};
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Flag};
use crate::vocabulary::exchange::{BodyEnd, Exchange, TransportError, Vantage};
use crate::vocabulary::protocol::ProtocolVersion;

/// Classifies one exchange. Reads the request, the response (or its absence), and the optional
/// `negotiated_version`/`intent` fields or their overrides in `opts`; never the people-facing labels.
///
/// ```
/// use mcp_triage::{Exchange, Options, classify};
///
/// // A `tools/call` answered with a JSON-RPC error frame, as recorded (`mcp-exchange/1`).
/// let ex = Exchange::from_json(br#"{
///   "format": "mcp-exchange/1", "vantage": "direct",
///   "request": {"method": "POST", "url": "https://mcp.example.com/mcp",
///     "headers": [["Content-Type", "application/json"], ["Accept", "application/json, text/event-stream"]],
///     "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\",\"arguments\":{}}}"},
///   "response": {"status": 200, "headers": [["Content-Type", "application/json"]],
///     "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"Unknown tool: nope\"}}"}
/// }"#).unwrap();
/// let v = classify(&ex, &Options::default());
/// assert_eq!((v.channel.as_str(), v.cause.as_str()), ("jsonrpc_error", "unknown_tool"));
/// // The same verdict as every surface hands it on (`mcp-triage-verdict/2`):
/// let doc = mcp_triage::verdict::VerdictDoc::of_assessment(&mcp_triage::assess(&ex, &Options::default()));
/// assert_eq!(doc.action.as_str(), "pick_another_tool");
/// ```
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
        missing: opts.missing_fields.clone(),
    };
    if ex.is_stdio()
        && let Some(io) = &ex.stdio
    {
        stdio::answer(&mut b, ex, io, &req, intent.as_deref(), &opts.limits);
        return b.v;
    }
    // A redirect is never followed: no answer, whatever head it came with.
    let Some(resp) = ex
        .response
        .as_ref()
        .filter(|_| ex.transport_error != Some(TransportError::RedirectRefused))
    else {
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
    let batch_allowed =
        version.as_deref().and_then(ProtocolVersion::parse) == Some(ProtocolVersion::V2025_03_26);
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
        status::sessions_in_a_sessionless_era(&mut b, &req);
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
