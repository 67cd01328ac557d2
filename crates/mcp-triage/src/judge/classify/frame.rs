//! A JSON-RPC error frame, whatever carried it: the cause from the code, our request, the probe's
//! intent and the words of `message` and `error.data`.

use super::prose::{self, Text};
use super::request::RequestFacts;
use super::validation;
use super::verdict::Builder;
use crate::decode::jsonrpc::{self, ErrorCode};
use crate::judge::rules::{self, Group, Place};
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Flag};

/// Reserved codes that mean one thing whatever the request and the words.
pub(super) fn reserved_code_cause(code: ErrorCode) -> Option<Cause> {
    const TABLE: &[(ErrorCode, Cause)] = &[
        (ErrorCode::METHOD_NOT_FOUND, Cause::MethodNotFound),
        (ErrorCode::PARSE_ERROR, Cause::ParseError),
        (ErrorCode::HEADER_MISMATCH, Cause::HeaderMismatch),
        (
            ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
            Cause::ProtocolVersionUnsupported,
        ),
    ];
    TABLE
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, cause)| *cause)
}

/// Decides the cause of an error frame whose `message` sits at `ptr` in `b.v.message`, on `channel`.
pub(super) fn cause(
    b: &mut Builder,
    channel: Channel,
    code: ErrorCode,
    message: &str,
    ptr: &str,
    req: &RequestFacts,
    intent: Option<&str>,
) {
    let set = |b: &mut Builder, cause: Cause| b.decide(channel, cause, DecidedBy::Structure);
    let method = req.method.as_deref().unwrap_or("");
    if req.tools_call_without_name && matches!(code.0, -32603..=-32600) {
        set(b, Cause::InvalidRequest);
        b.structure("our tools/call had no string `name`: the request itself was invalid");
        if code == ErrorCode::METHOD_NOT_FOUND {
            // rmcp 3.11.0: -32601 "tools/call" to a tools/call without a name.
            b.flag(Flag::RefusalMislabelled);
            b.structure("the server answered \"method not found\" for tools/call, which it serves");
        }
        return;
    }
    if !method.is_empty()
        && !jsonrpc::is_mcp_client_method(method)
        && matches!(code.0, -32602..=-32600)
    {
        set(b, Cause::MethodNotFound);
        b.structure(format!("our method {method:?} is not an MCP method"));
        return;
    }
    // `error.data` read as structure comes before the message: the versions a server supports
    // (2026-07-28: -32022 with `data.supported`) here, a validation list below. Its strings are
    // words read after the message (Ruby: "Invalid params" + data "Tool not found: x").
    let data_ptr = ptr.replace("/error/message", "/error/data");
    let versions =
        b.v.message
            .as_ref()
            .and_then(|m| m.pointer(&data_ptr))
            .and_then(supported_versions);
    if let Some(versions) = versions {
        set(b, Cause::ProtocolVersionUnsupported);
        b.structure(format!(
            "{data_ptr}/supported lists the protocol versions the server accepts: {versions}"
        ));
        return;
    }
    // Only a tools/call's words are read, so only its `error.data` is copied out and searched.
    let data = if method == "tools/call" {
        b.v.message
            .as_ref()
            .and_then(|m| m.pointer(&data_ptr))
            .cloned()
    } else {
        None
    };
    let mut texts = vec![Text {
        place: Place::Message,
        pointer: ptr.to_string(),
        text: message,
    }];
    if let Some(data) = &data {
        texts.extend(prose::nested_strings(data, &data_ptr, Place::Data));
    }
    // "Method not found" to a tools/call whose words are about the tool (fastmcp for TypeScript,
    // the PHP SDK: -32601 "Unknown tool: x"): the method was understood, the words decide.
    if code == ErrorCode::METHOD_NOT_FOUND
        && method == "tools/call"
        && prose::refusal_cause(b, channel, &texts, req)
    {
        b.flag(Flag::RefusalMislabelled);
        b.structure(
            "-32601 says the method does not exist, yet the words are about the tool: tools/call was understood",
        );
        return;
    }
    if let Some(cause) = reserved_code_cause(code) {
        return set(b, cause);
    }
    // On an answer to our tools/call, a transport phrase may be the tool's own words about its
    // arguments: only session refusals count there, and only when they do not quote our arguments.
    // The request's envelope (2026-07-28 `_meta`) is refused before any tool is looked at, so its
    // words count too.
    let tool_answer = method == "tools/call" && channel != Channel::Http;
    if let Some(m) = rules::first(Group::Transport, Place::Message, message, None).filter(|m| {
        !tool_answer
            || (matches!(
                m.cause,
                Cause::SessionRequired | Cause::SessionNotFound | Cause::InvalidRequest
            ) && !req.quotes_our_arguments(message))
    }) {
        let m = rules::Match {
            cause: rules::session_cause(m.cause, req.has_session),
            ..m
        };
        b.decide_text(channel, "the message says why", ptr, message, &m);
        return;
    }
    if method != "tools/call" {
        let cause = match code {
            ErrorCode::INVALID_REQUEST | ErrorCode::INVALID_PARAMS => Cause::InvalidRequest,
            ErrorCode::INTERNAL_ERROR => Cause::InternalError,
            _ => Cause::ServerError,
        };
        return set(b, cause);
    }
    // A validation list in `error.data` is structure; one written into the message is words.
    if let Some(data) = &data
        && validation::decide(b, channel, data, &data_ptr, Place::Data, None)
    {
        return;
    }
    prose::code_in_text(b, &texts[..1], false);
    if prose::refusal_cause(b, channel, &texts, req) {
        return;
    }
    if let Some(value) = validation::json_in_text(message)
        && validation::decide(b, channel, &value, ptr, Place::Message, Some(message))
    {
        return;
    }
    let withheld = prose::withheld(b, &texts[0], req);
    match code {
        ErrorCode::INVALID_PARAMS => match intent {
            Some("A") => b.decide_intent(
                channel,
                Cause::UnknownTool,
                "the caller says this probe named an unknown tool",
            ),
            Some("C") => b.decide_intent(
                channel,
                Cause::ToolExecution,
                "the caller says this probe made the tool fail",
            ),
            _ => {
                set(b, Cause::InvalidArguments);
                b.structure("-32602 on tools/call with no clearer sign: most likely the arguments");
            }
        },
        ErrorCode::INTERNAL_ERROR if withheld => {
            set(b, Cause::InternalError);
            b.structure("-32603 with a generic message: the server hid what failed");
        }
        ErrorCode::INTERNAL_ERROR => {
            set(b, Cause::ToolExecution);
            b.structure("-32603 on tools/call carrying the handler's own message: the tool failed");
        }
        ErrorCode::INVALID_REQUEST => set(b, Cause::InvalidRequest),
        _ => {
            set(b, Cause::ToolExecution);
            b.structure(format!(
                "code {} is not a protocol error code: the tool's own failure surfaced as a frame",
                code.0
            ));
        }
    }
}

/// At most this many versions are quoted from `data.supported`.
const MAX_VERSIONS_QUOTED: usize = 8;

/// The versions `error.data.supported` lists (the 2026-07-28 unsupported-version error), quoted and
/// joined; `None` unless it is a non-empty list of strings.
pub(super) fn supported_versions(data: &serde_json::Value) -> Option<String> {
    let list = data.get("supported")?.as_array()?;
    let versions: Vec<&str> = list
        .iter()
        .map(serde_json::Value::as_str)
        .collect::<Option<Vec<&str>>>()?;
    if versions.is_empty() || versions.iter().any(|v| v.len() > 32) {
        return None;
    }
    let mut quoted: Vec<String> = versions
        .iter()
        .take(MAX_VERSIONS_QUOTED)
        .map(|v| format!("{v:?}"))
        .collect();
    if versions.len() > MAX_VERSIONS_QUOTED {
        quoted.push(format!("and {} more", versions.len() - MAX_VERSIONS_QUOTED));
    }
    Some(quoted.join(", "))
}
