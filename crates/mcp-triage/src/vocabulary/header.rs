//! The HTTP header names MCP uses, spelled once (header names compare case-insensitively; these are
//! the spellings the spec uses and we send), and the one reading of a response's media type.

/// The session id a stateful server hands out and expects back.
pub(crate) const SESSION_ID: &str = "Mcp-Session-Id";
/// The negotiated protocol version, on every request after `initialize`.
pub(crate) const PROTOCOL_VERSION: &str = "MCP-Protocol-Version";
/// 2026-07-28: the JSON-RPC method, repeated as a header.
pub(crate) const METHOD: &str = "Mcp-Method";
/// 2026-07-28: the tool (or other) name a request is about.
pub(crate) const NAME: &str = "Mcp-Name";
/// Resuming an SSE stream.
pub(crate) const LAST_EVENT_ID: &str = "Last-Event-ID";

/// Headers a run sets itself (or a browser owns): a user's extra header may not replace them.
pub(crate) const SET_BY_THE_RUN: &[&str] = &[
    "Authorization",
    "Content-Type",
    "Accept",
    "Host",
    "Origin",
    "Cookie",
    "Content-Length",
    SESSION_ID,
    PROTOCOL_VERSION,
    METHOD,
    NAME,
    "Referer",
];

/// The media type of an SSE stream.
pub(crate) const EVENT_STREAM: &str = "text/event-stream";

/// A response's media type (its essence, lower-cased, without parameters) from its headers as
/// received, read the way the Fetch standard's "extract a MIME type" reads them, so a browser's view
/// (repeated headers joined by `, `) and a raw client's (the same header twice) give one answer:
/// every `Content-Type` value in order, split at commas outside quoted strings; a piece that is not
/// `type/subtype` made of token characters, or is `*/*`, is passed over; the last valid one wins.
pub(crate) fn media_type(headers: &[(String, String)]) -> Option<String> {
    let mut found = None;
    for (_, value) in headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("content-type"))
    {
        for piece in split_outside_quotes(value) {
            if let Some(essence) = essence(piece)
                && essence != "*/*"
            {
                found = Some(essence);
            }
        }
    }
    found
}

/// `value` split at the commas that are not inside a quoted string.
fn split_outside_quotes(value: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in value.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => {
                pieces.push(&value[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&value[start..]);
    pieces
}

/// `type/subtype` of one media type, lower-cased, when both are tokens.
fn essence(piece: &str) -> Option<String> {
    let head = piece.split(';').next()?.trim_matches([' ', '\t']);
    let (kind, sub) = head.split_once('/')?;
    let token = |t: &str| {
        !t.is_empty()
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
    };
    (token(kind) && token(sub)).then(|| head.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn of(values: &[&str]) -> Option<String> {
        let headers: Vec<(String, String)> = values
            .iter()
            .map(|v| ("Content-Type".to_string(), v.to_string()))
            .collect();
        media_type(&headers)
    }

    #[test]
    fn a_media_type_is_read_as_a_browser_reads_it_whether_a_header_is_repeated_or_joined() {
        assert_eq!(
            of(&["Text/Event-Stream; charset=utf-8"]).as_deref(),
            Some(EVENT_STREAM)
        );
        assert_eq!(
            of(&["application/json"]).as_deref(),
            Some("application/json")
        );
        // Repeated (a raw client) and joined (a browser's Headers): the same answer, the last.
        assert_eq!(
            of(&["text/plain", "text/event-stream"]),
            of(&["text/plain, text/event-stream"])
        );
        assert_eq!(
            of(&["text/plain, text/event-stream"]).as_deref(),
            Some(EVENT_STREAM)
        );
        // A comma inside a quoted parameter does not split; invalid pieces and */* are passed over.
        assert_eq!(
            of(&["text/event-stream; x=\"a,b\"", "nonsense", "*/*"]).as_deref(),
            Some(EVENT_STREAM)
        );
        assert_eq!(of(&["text/ html"]), None);
        assert_eq!(of(&[]), None);
        let other = vec![(
            "X-Content-Type".to_string(),
            "text/event-stream".to_string(),
        )];
        assert_eq!(media_type(&other), None);
    }
}
