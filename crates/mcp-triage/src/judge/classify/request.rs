//! Our own request: what it was, and the ordered checks of what it did wrong (a refusal of a request
//! that was wrong is explained by the request, whatever the server's words).

use serde_json::Value;

use crate::decode::body;
use crate::decode::jsonrpc::{self, Message};
use crate::vocabulary::cause::Cause;
use crate::vocabulary::exchange::Request;
use crate::vocabulary::protocol::ProtocolVersion;

/// What we can tell from our own request.
#[derive(Debug, Default)]
pub(super) struct RequestFacts {
    pub(super) http_method: String,
    pub(super) body_present: bool,
    pub(super) body_parse_error: Option<String>,
    pub(super) body_not_jsonrpc: Option<String>,
    pub(super) id: Option<Value>,
    pub(super) method: Option<String>,
    pub(super) tool_name: Option<String>,
    pub(super) tools_call_without_name: bool,
    pub(super) has_session: bool,
    pub(super) protocol_header: Option<String>,
    pub(super) content_type_json: Option<bool>,
    pub(super) accept_ok: Option<bool>,
    pub(super) meta_version: Option<String>,
    pub(super) expects_response: bool,
    /// String values of our tools/call arguments (4+ characters), to tell a tool quoting what we sent
    /// ("Session mcp-triage-probe-nonexistent not found") from a refusal of the call.
    pub(super) argument_values: Vec<String>,
}

impl RequestFacts {
    /// True when `text` quotes one of our argument values.
    pub(super) fn quotes_our_arguments(&self, text: &str) -> bool {
        self.argument_values
            .iter()
            .any(|v| text.contains(v.as_str()))
    }
}

/// Reads our request.
pub(super) fn request_facts(req: &Request) -> RequestFacts {
    let mut f = RequestFacts {
        http_method: req.method.to_ascii_uppercase(),
        has_session: req.header(crate::vocabulary::header::SESSION_ID).is_some(),
        protocol_header: req
            .header(crate::vocabulary::header::PROTOCOL_VERSION)
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

/// Something our request did wrong, and the fact that shows it.
pub(super) type Wrong = (Cause, String);

/// A check of our own request.
pub(super) type Check = fn(&RequestFacts) -> Option<Wrong>;

/// Asked on a 4xx before the server's words: each of these explains a refusal by itself.
pub(super) const BEFORE_PROSE: &[Check] = &[
    body_not_json,
    body_not_jsonrpc,
    content_type_not_json,
    accept_without_both_types,
    unreleased_protocol_version,
];

/// Asked on a 4xx after the server's words found nothing.
pub(super) const AFTER_PROSE: &[Check] = &[method_not_mcp, tools_call_without_name];

/// The first check in `checks` that finds something wrong.
pub(super) fn first_wrong(checks: &[Check], req: &RequestFacts) -> Option<Wrong> {
    checks.iter().find_map(|check| check(req))
}

fn body_not_json(req: &RequestFacts) -> Option<Wrong> {
    let reason = req.body_parse_error.as_ref()?;
    Some((
        Cause::ParseError,
        format!("our request body is not JSON ({reason})"),
    ))
}

fn body_not_jsonrpc(req: &RequestFacts) -> Option<Wrong> {
    let reason = req.body_not_jsonrpc.as_ref()?;
    Some((
        Cause::InvalidRequest,
        format!("our request body is JSON but not JSON-RPC ({reason})"),
    ))
}

fn content_type_not_json(req: &RequestFacts) -> Option<Wrong> {
    (req.content_type_json == Some(false)).then(|| {
        (
            Cause::UnsupportedMediaType,
            "our request's Content-Type is not application/json".into(),
        )
    })
}

fn accept_without_both_types(req: &RequestFacts) -> Option<Wrong> {
    (req.accept_ok == Some(false)).then(|| {
        (
            Cause::NotAcceptable,
            "our request's Accept does not list both application/json and text/event-stream".into(),
        )
    })
}

fn unreleased_protocol_version(req: &RequestFacts) -> Option<Wrong> {
    let v = req.protocol_header.as_ref()?;
    ProtocolVersion::parse(v).is_none().then(|| {
        (
            Cause::ProtocolVersionUnsupported,
            format!("our MCP-Protocol-Version header names no released version ({v})"),
        )
    })
}

fn method_not_mcp(req: &RequestFacts) -> Option<Wrong> {
    let method = req.method.as_deref()?;
    (req.expects_response && !jsonrpc::is_mcp_client_method(method)).then(|| {
        (
            Cause::MethodNotFound,
            format!("our method {method:?} is not an MCP method"),
        )
    })
}

fn tools_call_without_name(req: &RequestFacts) -> Option<Wrong> {
    req.tools_call_without_name.then(|| {
        (
            Cause::InvalidRequest,
            "our tools/call had no string `name`".into(),
        )
    })
}
