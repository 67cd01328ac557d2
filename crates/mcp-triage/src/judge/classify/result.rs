//! Our response arrived on a 2xx (or on stdout): an error frame, an `isError` result, or a result.

use serde_json::Value;

use super::frame;
use super::prose::{self, Text};
use super::request::RequestFacts;
use super::validation;
use super::verdict::{Builder, Found, pointer_for};
use crate::decode::body::{self, Origin};
use crate::decode::jsonrpc::{self, Message};
use crate::judge::rules::{self, Group, Kind, Place};
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Flag};

/// Texts under this many bytes are read for words of failure in a success (a long text that says
/// "not found" somewhere is most likely data).
const SHORT_SUCCESS: usize = 200;

/// Decides the answer that carries our id.
pub(super) fn answered(b: &mut Builder, ours: &Found, req: &RequestFacts, intent: Option<&str>) {
    match jsonrpc::view(&ours.value) {
        Message::Error { code, message, .. } => {
            b.decide(Channel::JsonrpcError, Cause::Unknown, DecidedBy::Structure);
            b.structure(format!("JSON-RPC error frame, code {}", code.label()));
            let ptr = pointer_for(ours.origin, "/error/message");
            frame::cause(b, Channel::JsonrpcError, code, message, &ptr, req, intent);
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
fn content_texts(result: &Value, origin: Origin, place: Place) -> Vec<Text<'_>> {
    result
        .get("content")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(i, item)| {
                    item.get("text").and_then(Value::as_str).map(|t| Text {
                        place,
                        pointer: pointer_for(origin, &format!("/result/content/{i}/text")),
                        text: t,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// An `isError` result: refused before the tool ran (unknown tool, bad arguments) when its words say
/// so, else the tool's own failure.
fn tool_error_cause(b: &mut Builder, result: &Value, origin: Origin, req: &RequestFacts) {
    let mut texts = content_texts(result, origin, Place::IsError);
    prose::code_in_text(b, &texts, true);
    let content_count = texts.len();
    if let Some(structured) = result.get("structuredContent") {
        let ptr = pointer_for(origin, "/result/structuredContent");
        // A validation payload in structuredContent is structure: it decides before any words.
        if validation::decide(
            b,
            Channel::ToolError,
            structured,
            &ptr,
            Place::Structured,
            None,
        ) {
            return;
        }
        texts.extend(prose::nested_strings(structured, &ptr, Place::Structured));
    }
    if prose::refusal_cause(b, Channel::ToolError, &texts, req) {
        return;
    }
    // A validation payload written into a text item, with no words that say so.
    for t in &texts[..content_count] {
        if let Some(value) = validation::json_in_text(t.text)
            && validation::decide(
                b,
                Channel::ToolError,
                &value,
                &t.pointer,
                Place::IsError,
                Some(t.text),
            )
        {
            return;
        }
    }
    // Structure decides: isError with no sign of a refusal before the tool ran.
    b.decide(
        Channel::ToolError,
        Cause::ToolExecution,
        DecidedBy::Structure,
    );
    for t in &texts[..content_count] {
        if let Some(m) = rules::first(Group::ToolExecution, t.place, t.text, None) {
            b.text(
                "the text names a tool execution failure",
                &t.pointer,
                t.text,
                &m,
            );
        }
        prose::withheld(b, t, req);
    }
    if content_count == 0 {
        b.structure("no text content explains the error");
    }
}

/// A success whose content reads like a failure: flagged, never a change of cause.
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
    for t in content_texts(result, Origin::Body, Place::SuccessText) {
        let trimmed = t.text.trim_start();
        let json_error = body::parse_json(trimmed)
            .ok()
            .and_then(|v| v.as_object().map(|o| o.contains_key("error")))
            .unwrap_or(false);
        if json_error {
            b.flag(Flag::SoftFailureSuspected);
            b.structure(format!(
                "{} is JSON with an \"error\" member in a success",
                t.pointer
            ));
            return;
        }
        let Some(m) = rules::first(Group::SoftFailure, t.place, t.text, None) else {
            continue;
        };
        let fact = match m.kind {
            Kind::Prefix => "a success whose text starts with \"error\"",
            _ if trimmed.len() < SHORT_SUCCESS => "a short success that reads like an error",
            _ => continue,
        };
        if let Some(flag) = m.flag {
            b.flag(flag);
        }
        b.text(fact, &t.pointer, t.text, &m);
        return;
    }
}
