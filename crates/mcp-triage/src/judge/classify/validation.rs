//! Validation payloads: the issue lists validator libraries emit (zod, pydantic, ajv, jsonschema),
//! recognised by their shape, never by their words, wherever an answer carries one.
//!
//! The shapes are rows of `rules/phrases.rules` (group `validation_shape`, with the library source
//! each was read from). A payload is a list of issue objects of one shape, a single issue object, or
//! such a list under one wrapper key (`issues`, `errors`, `detail`). Only the kind, path and message
//! of an issue are read: a pydantic issue's `input` (the caller's own values) is never quoted.

use serde_json::Value;

use super::verdict::Builder;
use crate::decode::body;
use crate::judge::rules::{self, Place, Rule};
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Evidence};
use crate::vocabulary::seeded_bug::{SeededBug, is_on};

/// A text longer than this is not searched for a payload.
const MAX_TEXT_BYTES: usize = 64 * 1024;
/// At most this many issue objects are checked for the shape.
const MAX_ISSUES_READ: usize = 64;
/// At most this many issues are quoted as evidence.
const MAX_ISSUES_QUOTED: usize = 3;
/// A path is quoted with at most this many parts, each at most [`MAX_PART_CHARS`] characters.
const MAX_PATH_PARTS: usize = 8;
const MAX_PART_CHARS: usize = 64;
/// A message is quoted with at most this many characters.
const MAX_MESSAGE_CHARS: usize = 160;
/// The keys a payload may sit under, one level deep (FastAPI's `detail`, zod's `issues`).
const WRAPPERS: &[&str] = &["issues", "errors", "detail"];

/// One issue: where (the path into the arguments) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Issue {
    pub(super) path: Vec<String>,
    pub(super) message: String,
}

/// A validation payload found in a value.
#[derive(Debug)]
pub(super) struct Payload {
    /// The shape rule it has.
    pub(super) rule: &'static Rule,
    /// The first issues, quoted.
    pub(super) issues: Vec<Issue>,
    /// How many issue objects the payload holds.
    pub(super) count: usize,
    /// Where the list sits inside the value (`""`, or `/detail`).
    pub(super) inner: String,
}

/// The payload `value` holds, if it holds one (read at `place`).
pub(super) fn read(value: &Value, place: Place) -> Option<Payload> {
    if is_on(SeededBug::ValidationReaderOff) {
        return None;
    }
    read_at(value, place, String::new(), 0)
}

fn read_at(value: &Value, place: Place, inner: String, depth: usize) -> Option<Payload> {
    match value {
        Value::Array(items) => list(items, place, inner),
        Value::Object(map) => {
            list(std::slice::from_ref(value), place, inner.clone()).or_else(|| {
                if depth > 0 {
                    return None;
                }
                WRAPPERS.iter().find_map(|k| {
                    map.get(*k)
                        .and_then(|v| read_at(v, place, format!("{inner}/{k}"), depth + 1))
                })
            })
        }
        _ => None,
    }
}

/// A list whose every checked item is an issue of the first item's shape.
fn list(items: &[Value], place: Place, inner: String) -> Option<Payload> {
    let first = items.first()?;
    let rule = rules::shapes(place).find(|r| issue(first, r).is_some())?;
    let mut issues = Vec::new();
    for item in items.iter().take(MAX_ISSUES_READ) {
        let found = issue(item, rule)?;
        if issues.len() < MAX_ISSUES_QUOTED {
            issues.push(found);
        }
    }
    Some(Payload {
        rule,
        issues,
        count: items.len(),
        inner,
    })
}

/// `value` as an issue of `rule`'s shape: an object whose kind and message are strings and whose
/// path is a list of names and indexes, or a string (`/a/0`, `.a[0]`).
fn issue(value: &Value, rule: &Rule) -> Option<Issue> {
    let obj = value.as_object()?;
    let mut keys = rule.text.split(' ');
    let (kind, path, message) = (keys.next()?, keys.next()?, keys.next()?);
    let get = |key: &str| {
        obj.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    };
    get(kind)?.as_str()?;
    let message = get(message)?.as_str()?;
    let path = match get(path)? {
        Value::Array(parts) => parts
            .iter()
            .map(|p| match p {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .collect::<Option<Vec<String>>>()?,
        Value::String(s) => s
            .split(['/', '.', '[', ']'])
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect(),
        _ => return None,
    };
    Some(Issue {
        path: path
            .into_iter()
            .take(MAX_PATH_PARTS)
            .map(|p| cut(&p, MAX_PART_CHARS))
            .collect(),
        message: cut(message, MAX_MESSAGE_CHARS),
    })
}

/// At most `max` characters of `s`, with "…" where it was cut.
fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// The JSON a text holds: the whole text, else from its first `[` or `{` to its end (a prefix of
/// words before a dumped list). Bounded in size and depth.
pub(super) fn json_in_text(text: &str) -> Option<Value> {
    if text.len() > MAX_TEXT_BYTES || is_on(SeededBug::ValidationReaderOff) {
        return None;
    }
    let start = text.find(['[', '{'])?;
    body::parse_json(text[start..].trim_end()).ok()
}

/// A path in words: `text`, `items.0.name`, or "the arguments" for the root.
fn path_words(path: &[String]) -> String {
    if path.is_empty() {
        "the arguments".to_string()
    } else {
        format!("`{}`", path.join("."))
    }
}

/// Decides `invalid_arguments` on `channel` when `value` (found at `pointer`) holds a validation
/// payload; returns whether it did. `text` is the string the value was read from, when it was read
/// from a text item or a message (then words decided: an agent must parse prose to find it, and the
/// shape rule is the deciding rule); otherwise the payload is structure. The required arguments
/// our request left out (`b.missing`, from the tool's schema) are named where the payload points.
pub(super) fn decide(
    b: &mut Builder,
    channel: Channel,
    value: &Value,
    pointer: &str,
    place: Place,
    text: Option<&str>,
) -> bool {
    let Some(p) = read(value, place) else {
        return false;
    };
    let by = if text.is_some() {
        DecidedBy::Text
    } else {
        DecidedBy::Structure
    };
    b.decide(channel, Cause::InvalidArguments, by);
    b.v.fired.push(p.rule.id);
    if by == DecidedBy::Text {
        b.v.rule = Some(p.rule.id);
    }
    let library = match p.rule.id.rsplit('.').next().unwrap_or(p.rule.id) {
        "ajv_legacy" => "ajv 6",
        other => other,
    };
    let holder = if text.is_some() {
        "the text is"
    } else {
        "the answer holds"
    };
    let fact = format!(
        "{holder} a validation issue list in {library}'s shape ({} issue{}): the arguments were refused before the tool ran",
        p.count,
        if p.count == 1 { "" } else { "s" }
    );
    // The first issue's message, where it stands verbatim in the text, is the matched words.
    let matched = text.and_then(|t| {
        let m = &p.issues.first()?.message;
        let at = t.find(m.as_str())?;
        let start = t[..at].chars().count();
        Some(([start, start + m.chars().count()], m.clone()))
    });
    b.v.evidence.push(Evidence {
        kind: by,
        fact,
        pointer: Some(format!(
            "{pointer}{}",
            if text.is_some() { "" } else { &p.inner }
        )),
        range: matched.as_ref().map(|(r, _)| *r),
        matched: matched.map(|(_, m)| m),
        rule: Some(p.rule.id.to_string()),
    });
    for i in &p.issues {
        b.v.evidence.push(Evidence {
            kind: by,
            ..Evidence::structure(format!("{}: {}", path_words(&i.path), i.message))
        });
    }
    if p.count > p.issues.len() {
        b.structure(format!(
            "{} more issue{} not quoted",
            p.count - p.issues.len(),
            if p.count - p.issues.len() == 1 {
                ""
            } else {
                "s"
            }
        ));
    }
    if let Some(field) = p.issues.iter().find_map(|i| {
        b.missing
            .iter()
            .find(|m| i.path.iter().any(|part| part == *m))
    }) {
        b.structure(format!(
            "the payload points at `{field}`, a required argument in the tool's schema (tools/list) that our call left out"
        ));
    }
    true
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use serde_json::json;

    fn shape_of(v: &Value) -> Option<&'static str> {
        read(v, Place::IsError).map(|p| p.rule.id)
    }

    #[test]
    fn each_library_shape_is_recognised_and_words_are_not_needed() {
        let zod = json!([{"code":"invalid_type","expected":"string","received":"number","path":["text"],"message":"Expected string, received number"}]);
        let pydantic =
            json!([{"type":"missing","loc":["id"],"msg":"Field required","input":{"secret":"x"}}]);
        let ajv = json!([{"instancePath":"/items/0","schemaPath":"#/required","keyword":"required","params":{},"message":"must have required property 'id'"}]);
        let ajv6 = json!([{"dataPath":".items[0]","keyword":"type","message":"should be string"}]);
        let jsonschema =
            json!([{"validator":"required","path":[],"message":"'id' is a required property"}]);
        assert_eq!(shape_of(&zod), Some("validation_shape.zod"));
        assert_eq!(shape_of(&pydantic), Some("validation_shape.pydantic"));
        assert_eq!(shape_of(&ajv), Some("validation_shape.ajv"));
        assert_eq!(shape_of(&ajv6), Some("validation_shape.ajv_legacy"));
        assert_eq!(shape_of(&jsonschema), Some("validation_shape.jsonschema"));
        let p = read(&ajv, Place::IsError).unwrap();
        assert_eq!(p.issues[0].path, vec!["items", "0"]);
        // Wrapped one level deep; a single issue object too.
        let wrapped = json!({"detail": pydantic});
        assert_eq!(read(&wrapped, Place::Data).unwrap().inner, "/detail");
        assert!(read(&json!({"a": {"detail": pydantic}}), Place::Data).is_none());
        assert_eq!(shape_of(&zod[0]), Some("validation_shape.zod"));
    }

    #[test]
    fn near_shapes_and_mixed_lists_are_not_payloads() {
        // A list of results that happen to have a `message`, a path that is an object, a mixed list.
        assert!(read(&json!([{"message":"ok","path":["a"]}]), Place::IsError).is_none());
        assert!(
            read(
                &json!([{"code":"x","path":{"a":1},"message":"m"}]),
                Place::IsError
            )
            .is_none()
        );
        let mixed = json!([{"code":"x","path":["a"],"message":"m"}, {"note": 1}]);
        assert!(read(&mixed, Place::IsError).is_none());
        assert!(read(&json!("code path message"), Place::IsError).is_none());
        assert!(read(&json!([]), Place::IsError).is_none());
    }

    #[test]
    fn quotes_are_capped_and_the_input_never_read() {
        let long = "x".repeat(10_000);
        let many: Vec<Value> = (0..500)
            .map(|i| {
                let loc = vec![Value::String(long.clone()); 20];
                json!({"type": "t", "loc": loc, "msg": long, "input": format!("secret-{i}")})
            })
            .collect();
        let p = read(&Value::Array(many), Place::IsError).unwrap();
        assert_eq!((p.count, p.issues.len()), (500, MAX_ISSUES_QUOTED));
        assert_eq!(p.issues[0].path.len(), MAX_PATH_PARTS);
        assert!(p.issues[0].message.chars().count() <= MAX_MESSAGE_CHARS + 1);
        assert!(p.issues.iter().all(|i| !i.message.contains("secret")));
    }

    #[test]
    fn a_payload_after_words_in_a_text_is_found() {
        let text = "Invalid arguments: [{\"code\":\"invalid_type\",\"path\":[\"text\"],\"message\":\"Required\"}]";
        let v = json_in_text(text).unwrap();
        assert_eq!(shape_of(&v), Some("validation_shape.zod"));
        assert!(json_in_text("no json here").is_none());
        assert!(json_in_text(&format!("[{}]", " ".repeat(MAX_TEXT_BYTES))).is_none());
    }

    #[test]
    fn the_switch_turns_the_reader_off() {
        let zod = json!([{"code":"c","path":[],"message":"m"}]);
        assert!(read(&zod, Place::IsError).is_some());
        crate::vocabulary::seeded_bug::with(SeededBug::ValidationReaderOff, || {
            assert!(read(&zod, Place::IsError).is_none());
        });
    }
}
