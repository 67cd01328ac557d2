//! The server's words about a tools/call it refused: one search for an unknown tool, then for refused
//! arguments, used alike for error frames, `isError` results and HTTP error bodies.

use serde_json::Value;

use super::request::RequestFacts;
use super::verdict::Builder;
use crate::judge::rules::{self, Group, Match, Place};
use crate::vocabulary::cause::Channel;

/// A string of the answer, where it was found and its JSON pointer (`/body` for a body).
pub(super) struct Text<'a> {
    pub place: Place,
    pub pointer: String,
    pub text: &'a str,
}

/// At most this many strings are read from one `error.data` or `structuredContent`.
const MAX_NESTED_STRINGS: usize = 16;
/// At most this many values are visited (and pointers built) in one of them.
const MAX_NESTED_VALUES: usize = 256;
/// A value whose JSON pointer would be longer than this is not read (a hostile key stays unread).
const MAX_POINTER_BYTES: usize = 512;

/// The string values inside `value` (found at `pointer`), in document order, bounded: a container
/// pushes only as many children as the visit budget has left, and no pointer grows past
/// [`MAX_POINTER_BYTES`], so memory and time stay small whatever the answer holds.
pub(super) fn nested_strings<'a>(value: &'a Value, pointer: &str, place: Place) -> Vec<Text<'a>> {
    nested_strings_counted(value, pointer, place).0
}

/// [`nested_strings`], and how many pointers it built: the test of its bound counts them.
pub(super) fn nested_strings_counted<'a>(
    value: &'a Value,
    pointer: &str,
    place: Place,
) -> (Vec<Text<'a>>, usize) {
    let mut built = 0;
    let mut out = Vec::new();
    let mut stack = vec![(value, pointer.to_string())];
    let mut budget = MAX_NESTED_VALUES.saturating_sub(1);
    while let Some((v, ptr)) = stack.pop() {
        if out.len() >= MAX_NESTED_STRINGS {
            break;
        }
        let children: Vec<(&Value, String)> = match v {
            Value::String(s) => {
                out.push(Text {
                    place,
                    pointer: ptr,
                    text: s.as_str(),
                });
                continue;
            }
            Value::Array(items) => items
                .iter()
                .enumerate()
                .take(budget)
                .map(|(i, item)| (item, i.to_string()))
                .collect(),
            Value::Object(map) => map
                .iter()
                .filter(|(k, _)| ptr.len() + k.len() < MAX_POINTER_BYTES)
                .take(budget)
                .map(|(k, item)| (item, k.replace('~', "~0").replace('/', "~1")))
                .collect(),
            _ => continue,
        };
        budget -= children.len();
        for (item, key) in children.into_iter().rev() {
            if ptr.len() + 1 + key.len() <= MAX_POINTER_BYTES {
                built += 1;
                stack.push((item, format!("{ptr}/{key}")));
            }
        }
    }
    (out, built)
}

/// How a fact about the words is phrased, by where they were found.
fn says(place: Place) -> &'static str {
    match place {
        Place::Message | Place::Data => "the error says",
        Place::HttpBody => "the refusal says",
        Place::IsError | Place::Structured | Place::SuccessText => "the text says",
    }
}

/// Decides an unknown tool or refused arguments from the texts (in order: unknown tool over all of
/// them first), on `channel`. Returns whether it decided.
///
/// "Tool X not found" that quotes our own argument is the tool talking about what we asked for (a
/// registry of tools, say), not a refusal of the tool name.
pub(super) fn refusal_cause(
    b: &mut Builder,
    channel: Channel,
    texts: &[Text<'_>],
    req: &RequestFacts,
) -> bool {
    let tool = req.tool_name.as_deref();
    for t in texts {
        if let Some(m) = rules::first(Group::UnknownTool, t.place, t.text, tool)
            .filter(|_| !req.quotes_our_arguments(t.text))
        {
            let fact = format!("{} the tool does not exist", says(t.place));
            b.decide_text(channel, fact, &t.pointer, t.text, &m);
            return true;
        }
    }
    for t in texts {
        if let Some(m) = rules::first(Group::InvalidArguments, t.place, t.text, tool) {
            let fact = format!("{} the arguments were refused", says(t.place));
            b.decide_text(channel, fact, &t.pointer, t.text, &m);
            return true;
        }
    }
    false
}

/// A JSON-RPC code written into one of the texts: evidence and the `code_in_text` flag.
pub(super) fn code_in_text(b: &mut Builder, texts: &[Text<'_>], with_code: bool) {
    for t in texts {
        let Some(m) = rules::first(Group::CodeInText, t.place, t.text, None) else {
            continue;
        };
        if let Some(flag) = m.flag {
            b.flag(flag);
        }
        let fact = match rules::find_code_in_text(t.text) {
            Some((code, _)) if with_code => {
                format!("a JSON-RPC code ({code}) written into the text")
            }
            _ => "a JSON-RPC code written into the message".to_string(),
        };
        b.text(fact, &t.pointer, t.text, &m);
        if !with_code {
            return;
        }
    }
}

/// The message says nothing beyond a framework prefix and the tool's name, or a generic phrase.
pub(super) fn withheld(b: &mut Builder, t: &Text<'_>, req: &RequestFacts) -> bool {
    let found: Option<Match> =
        rules::first(Group::Withheld, t.place, t.text, req.tool_name.as_deref());
    match found {
        Some(m) => {
            b.fired(&m);
            if let Some(flag) = m.flag {
                b.flag(flag);
            }
            true
        }
        None => false,
    }
}
