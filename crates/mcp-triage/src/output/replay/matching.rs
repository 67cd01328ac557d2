//! How well a recorded exchange answers a request the engine sends (see the module's rules).

use serde_json::Value;

use crate::judge::classify::{Options, classify};
use crate::run::catalogue::ToolInfo;
use crate::run::engine::{Outgoing, Step};
use crate::vocabulary::cause::Channel;
use crate::vocabulary::exchange::Exchange;

/// The JSON-RPC message of a request body, if it is one object.
pub(super) fn message(ex_body: Option<&str>) -> Option<Value> {
    ex_body
        .and_then(|b| serde_json::from_str::<Value>(b).ok())
        .filter(Value::is_object)
}

pub(super) fn rpc_method(msg: Option<&Value>) -> Option<&str> {
    msg.and_then(|m| m.get("method")).and_then(Value::as_str)
}

pub(super) fn has_header(headers: &[(String, String)], name: &str) -> bool {
    headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name))
}

/// The part a `tools/call` plays against the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    UnknownTool,
    RefusedArguments,
    AcceptedArguments,
}

fn json_type_fits(declared: &str, v: &Value) -> bool {
    match declared {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.as_i64().is_some() || v.as_u64().is_some(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "null" => v.is_null(),
        _ => true,
    }
}

fn part_of(msg: &Value, tools: &[ToolInfo]) -> Option<(Part, String)> {
    // Without a catalogue no call can be told to be unknown or refused.
    if tools.is_empty() {
        return None;
    }
    let params = msg.get("params")?;
    let name = params.get("name").and_then(Value::as_str)?;
    let Some(tool) = tools.iter().find(|t| t.name == name) else {
        return Some((Part::UnknownTool, name.to_string()));
    };
    let empty = serde_json::Map::new();
    let args = match params.get("arguments") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(m)) => m,
        Some(_) => return Some((Part::RefusedArguments, name.to_string())),
    };
    let missing = tool.required.iter().any(|r| !args.contains_key(r));
    let mistyped = tool
        .properties
        .iter()
        .any(|(k, t)| args.get(k).is_some_and(|v| !json_type_fits(t, v)));
    let part = if missing || mistyped {
        Part::RefusedArguments
    } else {
        Part::AcceptedArguments
    };
    Some((part, name.to_string()))
}

/// Whether a recording answered as a connect step hopes: by its classification (a result, or a
/// notification accepted), not by its wording.
pub(super) fn answered_well(ex: &Exchange) -> bool {
    let v = classify(ex, &Options::default());
    matches!(v.channel, Channel::Success | Channel::Accepted)
}

/// The same `params`, leaving out what differs between any two clients (`_meta`, `clientInfo`,
/// `capabilities`).
fn same_params(a: Option<&Value>, b: Option<&Value>) -> bool {
    let ignored = |k: &str| matches!(k, "_meta" | "clientInfo" | "capabilities");
    match (
        a.and_then(|m| m.get("params")),
        b.and_then(|m| m.get("params")),
    ) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => x
            .iter()
            .filter(|(k, _)| !ignored(k))
            .eq(y.iter().filter(|(k, _)| !ignored(k))),
        (x, y) => x == y,
    }
}

/// How well `ex` (whose request body parsed as `theirs`) answers `out` (whose body parsed as
/// `ours`): `None` when it cannot, else a score (higher is better). `answered_well` is asked only
/// for connect steps, and only of a recording that could answer.
pub(super) fn fit(
    out: &Outgoing,
    ours: Option<&Value>,
    sends_token: bool,
    ex: &Exchange,
    theirs: Option<&Value>,
    tools: &[ToolInfo],
    answered_well: &mut dyn FnMut() -> bool,
) -> Option<[u32; 8]> {
    if !ex.request.method.eq_ignore_ascii_case(out.method) {
        return None;
    }
    if has_header(&ex.request.headers, "authorization") != sends_token {
        return None;
    }
    let method = rpc_method(ours);
    if method != rpc_method(theirs) {
        return None;
    }
    let intent_same = match (&ex.intent, &out.intent) {
        (Some(a), Some(b)) if a == b => 1,
        (Some(_), _) => return None,
        (None, _) => 0,
    };
    let (mut same_tool, mut same_args) = (0, 0);
    if method == Some("tools/call") {
        let (Some(o), Some(t)) = (ours, theirs) else {
            return None;
        };
        if intent_same == 0 {
            let (our_part, our_tool) = part_of(o, tools)?;
            let (their_part, their_tool) = part_of(t, tools)?;
            if our_part != their_part {
                return None;
            }
            // Two accepted calls are C or D only to the same tool (the parts differ by tool).
            if our_part == Part::AcceptedArguments && our_tool != their_tool {
                return None;
            }
            same_tool = u32::from(our_tool == their_tool);
        }
        // The same arguments count for the same tool only (probe A's name is ours alone).
        same_args = u32::from(
            (intent_same == 1 || same_tool == 1)
                && o.pointer("/params/arguments") == t.pointer("/params/arguments"),
        );
    }
    let version = |m: Option<&Value>| {
        m.and_then(|m| m.pointer("/params/protocolVersion"))
            .cloned()
    };
    let same_version = u32::from(version(ours) == version(theirs));
    // The same parameters otherwise (a page cursor of tools/list, say).
    let same_params = u32::from(same_params(ours, theirs));
    let session = crate::vocabulary::header::SESSION_ID;
    let mut alike =
        u32::from(has_header(&out.headers, session) == has_header(&ex.request.headers, session));
    for (name, value) in &out.headers {
        if name.eq_ignore_ascii_case(session) {
            continue;
        }
        if ex.request.header(name) == Some(value.as_str()) {
            alike += 1;
        }
    }
    // Where the request sent no Origin of its own, an ordinary one: none, or a loopback page's
    // (public captures test foreign and `null` origins on purpose).
    let ordinary_origin = u32::from(
        has_header(&out.headers, "origin")
            || ex.request.header("origin").is_none_or(|o| {
                o.starts_with("http://localhost")
                    || o.starts_with("http://127.0.0.1")
                    || o.starts_with("https://localhost")
            }),
    );
    let connect_ok = u32::from(!matches!(out.step, Step::Probe(_)) && answered_well());
    Some([
        intent_same,
        same_tool,
        same_args,
        same_version,
        same_params,
        alike,
        ordinary_origin,
        connect_ok,
    ])
}
