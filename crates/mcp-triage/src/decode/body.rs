//! Body decoding: bytes → JSON message(s) | SSE events | HTML | text | empty | malformed, never failing.
//!
//! Decisions documented here:
//! - Invalid UTF-8 is never replaced: a JSON or text body that is not UTF-8 is `Malformed` with the byte
//!   offset; an SSE stream keeps the events before the bad bytes and reports the offset.
//! - A JSON string holding a lone surrogate escape (`"\ud800"`) is not valid Unicode: the message is
//!   malformed with that reason (serde_json refuses it, and we report its words).
//! - A batch array is malformed unless the negotiated version is 2025-03-26.

use serde::Serialize;
use serde_json::Value;

use crate::decode::sse::{self, SseEvent};
use crate::vocabulary::limits::Limits;

/// What the body was, as decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BodyKind {
    /// No bytes.
    Empty,
    /// A JSON document (one message or a batch).
    Json,
    /// A `text/event-stream`.
    EventStream,
    /// An HTML page (error pages of web frameworks).
    Html,
    /// Other text.
    Text,
    /// Bytes that could not be decoded as what they claimed to be.
    Malformed,
    /// A stdio server's stdout: one JSON-RPC message per line.
    StdioLines,
}

impl BodyKind {
    /// A word for people: `JSON`, `SSE`, `HTML`, …
    pub fn as_str(self) -> &'static str {
        match self {
            BodyKind::Empty => "empty",
            BodyKind::Json => "JSON",
            BodyKind::EventStream => "SSE",
            BodyKind::Html => "HTML",
            BodyKind::Text => "text",
            BodyKind::Malformed => "malformed",
            BodyKind::StdioLines => "stdout lines",
        }
    }
}

/// Where a decoded JSON value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "from", rename_all = "snake_case")]
pub(crate) enum Origin {
    /// The whole JSON body.
    Body,
    /// Element `index` of a batch array.
    Batch { index: usize },
    /// The data of SSE event number `index`.
    SseEvent { index: usize },
    /// Line `index` of a stdio server's stdout.
    Line { index: usize },
}

/// One JSON value found in the body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Decoded {
    /// Where it was found.
    pub origin: Origin,
    /// The value, or why it is not JSON.
    pub value: Result<Value, String>,
}

/// The decoded body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct DecodedBody {
    /// What it was.
    pub kind: BodyKind,
    /// JSON values in arrival order (one per SSE event, per batch element, or the body).
    pub values: Vec<Decoded>,
    /// SSE events, when it was a stream.
    pub events: Vec<SseEvent>,
    /// Things that went wrong while decoding, in words.
    pub problems: Vec<String>,
    /// The body as text (UTF-8 prefix up to the cap), for display and text rules.
    pub text: String,
    /// True when the body was longer than the cap and was cut.
    pub truncated: bool,
}

fn sniff(bytes: &[u8]) -> BodyKind {
    let trimmed = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map(|i| &bytes[i..])
        .unwrap_or(&[]);
    match trimmed.first() {
        None => BodyKind::Empty,
        Some(b'{') | Some(b'[') => BodyKind::Json,
        Some(b'<') => BodyKind::Html,
        _ if trimmed.starts_with(b"data:")
            || trimmed.starts_with(b"event:")
            || trimmed.starts_with(b"id:")
            || trimmed.starts_with(b":") =>
        {
            BodyKind::EventStream
        }
        _ => BodyKind::Text,
    }
}

/// How a body whose JSON nests deeper than the parser reads (128 levels) is described.
pub(crate) const JSON_TOO_DEEP: &str = "the JSON nests deeper than 128 levels, more than is read";

/// Parses JSON text, reporting lone surrogates and depth in plain words.
pub(crate) fn parse_json(text: &str) -> Result<Value, String> {
    serde_json::from_str::<Value>(text).map_err(|e| {
        let msg = e.to_string();
        if msg.starts_with("recursion limit exceeded") {
            format!("{JSON_TOO_DEEP}: {msg}")
        } else if msg.contains("surrogate") || has_lone_surrogate_escape(text) {
            format!("invalid Unicode in a JSON string (lone surrogate escape): {msg}")
        } else {
            format!("not valid JSON: {msg}")
        }
    })
}

/// True when the text holds a `\uD800`–`\uDFFF` escape that is not part of a valid pair.
fn has_lone_surrogate_escape(text: &str) -> bool {
    let b = text.as_bytes();
    let hex4 = |at: usize| -> Option<u32> {
        let s = text.get(at..at + 4)?;
        u32::from_str_radix(s, 16).ok()
    };
    let mut i = 0;
    while i + 6 <= b.len() {
        if b[i] == b'\\' && b[i + 1] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] == b'\\' && b[i + 1] == b'u' {
            match hex4(i + 2) {
                Some(0xD800..=0xDBFF) => {
                    let low = (b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u'))
                        .then(|| hex4(i + 8))
                        .flatten();
                    if !matches!(low, Some(0xDC00..=0xDFFF)) {
                        return true;
                    }
                    i += 12;
                    continue;
                }
                Some(0xDC00..=0xDFFF) => return true,
                _ => {}
            }
        }
        i += 1;
    }
    false
}

/// Decodes a body of media type `media` (see [`crate::vocabulary::header::media_type`]). `batch_allowed` is true only when 2025-03-26 was negotiated; `cut_by_client`
/// when the client stopped reading a stream that stayed open (then an event in progress at the cut
/// is ours to explain, not the server's: it is not reported as a stream that "ended inside" it).
pub(crate) fn decode(
    bytes: &[u8],
    media: Option<&str>,
    batch_allowed: bool,
    cut_by_client: bool,
    limits: &Limits,
) -> DecodedBody {
    let mut problems = Vec::new();
    let truncated = bytes.len() > limits.max_body_bytes;
    let bytes = if truncated {
        problems.push(format!(
            "body longer than {} bytes; only the first {} were decoded",
            limits.max_body_bytes, limits.max_body_bytes
        ));
        &bytes[..limits.max_body_bytes]
    } else {
        bytes
    };
    let media = media.unwrap_or_default();
    let kind = if bytes.iter().all(u8::is_ascii_whitespace) {
        BodyKind::Empty
    } else if media == crate::vocabulary::header::EVENT_STREAM {
        BodyKind::EventStream
    } else if media == "application/json" || media.ends_with("+json") {
        BodyKind::Json
    } else if media == "text/html" {
        BodyKind::Html
    } else {
        sniff(bytes)
    };
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.to_string(),
        Err(e) => {
            // A cut at the cap may split a character: that is truncation, not invalid UTF-8.
            let at_cut = truncated && e.error_len().is_none();
            if !at_cut {
                problems.push(format!(
                    "invalid UTF-8 at byte {} (kept as bytes, never replaced)",
                    e.valid_up_to()
                ));
            }
            String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned()
        }
    };
    let text_is_whole = text.len() == bytes.len();
    let mut out = DecodedBody {
        kind,
        values: Vec::new(),
        events: Vec::new(),
        problems,
        text,
        truncated,
    };
    match kind {
        BodyKind::Empty | BodyKind::Html | BodyKind::Text => {
            if !text_is_whole && !truncated {
                out.kind = BodyKind::Malformed;
            }
        }
        BodyKind::Malformed | BodyKind::StdioLines => {}
        BodyKind::Json => {
            if !text_is_whole && !truncated {
                out.kind = BodyKind::Malformed;
                return out;
            }
            match parse_json(&out.text) {
                Ok(Value::Array(items)) => {
                    if batch_allowed {
                        out.values = items
                            .into_iter()
                            .enumerate()
                            .map(|(index, v)| Decoded {
                                origin: Origin::Batch { index },
                                value: Ok(v),
                            })
                            .collect();
                    } else {
                        out.kind = BodyKind::Malformed;
                        out.problems.push(
                            "a JSON array (batch): only protocol version 2025-03-26 allows batching"
                                .into(),
                        );
                    }
                }
                Ok(v) => out.values.push(Decoded {
                    origin: Origin::Body,
                    value: Ok(v),
                }),
                Err(reason) => {
                    out.kind = BodyKind::Malformed;
                    out.problems.push(reason.clone());
                    out.values.push(Decoded {
                        origin: Origin::Body,
                        value: Err(reason),
                    });
                }
            }
        }
        BodyKind::EventStream => {
            let mut parser = sse::SseParser::new(limits);
            let events = parser.push(bytes);
            let end_problem = if truncated || cut_by_client {
                parser.problem().cloned()
            } else {
                parser.finish()
            };
            if let Some(problem) = end_problem {
                out.problems.push(problem.describe());
            }
            out.values = events
                .iter()
                .enumerate()
                .map(|(index, ev)| Decoded {
                    origin: Origin::SseEvent { index },
                    value: parse_json(&ev.data),
                })
                .collect();
            out.events = events;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn dec(body: &[u8], ct: Option<&str>) -> DecodedBody {
        decode(body, ct, false, false, &Limits::default())
    }

    #[test]
    fn kinds() {
        assert_eq!(dec(b"", None).kind, BodyKind::Empty);
        assert_eq!(dec(b"{}", Some("application/json")).kind, BodyKind::Json);
        assert_eq!(dec(b"{}", None).kind, BodyKind::Json);
        assert_eq!(dec(b"<!DOCTYPE html>", None).kind, BodyKind::Html);
        assert_eq!(dec(b"Invalid Origin header", None).kind, BodyKind::Text);
        assert_eq!(dec(b"data: {}\n\n", None).kind, BodyKind::EventStream);
        assert_eq!(
            dec(b"{\"a\":", Some("application/json")).kind,
            BodyKind::Malformed
        );
    }

    #[test]
    fn batch_only_when_allowed() {
        let body = br#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#;
        assert_eq!(
            dec(body, Some("application/json")).kind,
            BodyKind::Malformed
        );
        let ok = decode(
            body,
            Some("application/json"),
            true,
            false,
            &Limits::default(),
        );
        assert_eq!(ok.kind, BodyKind::Json);
        assert_eq!(ok.values.len(), 1);
    }

    #[test]
    fn lone_surrogate_is_reported() {
        let d = dec(br#"{"jsonrpc":"2.0","id":1,"result":{"t":"\ud800"}}"#, None);
        assert_eq!(d.kind, BodyKind::Malformed);
        assert!(d.problems[0].contains("lone surrogate"), "{:?}", d.problems);
    }

    #[test]
    fn invalid_utf8_is_located_never_replaced() {
        let d = dec(b"{\"a\":\"\xff\"}", Some("application/json"));
        assert_eq!(d.kind, BodyKind::Malformed);
        assert!(d.problems[0].contains("byte 6"));
        assert!(!d.text.contains('\u{fffd}'));
    }

    #[test]
    fn cap_truncates_and_says_so() {
        let limits = Limits {
            max_body_bytes: 8,
            ..Limits::default()
        };
        let d = decode(
            b"data: {\"jsonrpc\":\"2.0\"}\n\n",
            None,
            false,
            false,
            &limits,
        );
        assert!(d.truncated);
        assert!(
            d.problems.iter().any(|p| p.contains("only the first 8")),
            "{:?}",
            d.problems
        );
        assert!(d.values.is_empty());
    }
}
