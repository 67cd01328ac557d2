//! The server's words about a tools/call it refused: one search for an unknown tool, then for refused
//! arguments, used alike for error frames, `isError` results and HTTP error bodies.

use serde_json::Value;

use super::Builder;
use super::request::RequestFacts;
use crate::cause::{Channel, Flag};
use crate::rules::{self, Group, Match, Place};

/// A string of the answer, where it was found and its JSON pointer (`/body` for a body).
pub(super) struct Text<'a> {
    pub place: Place,
    pub pointer: String,
    pub text: &'a str,
}

/// At most this many strings are read from one `error.data` or `structuredContent`.
const MAX_NESTED_STRINGS: usize = 16;
/// At most this many values are visited in one of them.
const MAX_NESTED_VALUES: usize = 256;

/// The string values inside `value` (found at `pointer`), in document order, bounded.
pub(super) fn nested_strings<'a>(value: &'a Value, pointer: &str, place: Place) -> Vec<Text<'a>> {
    let mut out = Vec::new();
    let mut stack = vec![(value, pointer.to_string())];
    let mut visited = 0;
    while let Some((v, ptr)) = stack.pop() {
        visited += 1;
        if visited > MAX_NESTED_VALUES || out.len() >= MAX_NESTED_STRINGS {
            break;
        }
        match v {
            Value::String(s) => out.push(Text {
                place,
                pointer: ptr,
                text: s.as_str(),
            }),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push((item, format!("{ptr}/{i}")));
                }
            }
            Value::Object(map) => {
                let entries: Vec<_> = map.iter().collect();
                for (k, item) in entries.into_iter().rev() {
                    let key = k.replace('~', "~0").replace('/', "~1");
                    stack.push((item, format!("{ptr}/{key}")));
                }
            }
            _ => {}
        }
    }
    out
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
        b.flag(Flag::CodeInText);
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
            b.flag(Flag::MessageWithheld);
            true
        }
        None => false,
    }
}
