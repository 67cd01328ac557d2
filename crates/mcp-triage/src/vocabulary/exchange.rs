//! The `mcp-exchange/1` format: one HTTP round trip as a client saw it, read and written exactly.
//!
//! The people-facing labels (`case`, `description`, `server`, `protocol_version`) are kept so a file
//! round-trips, but nothing in [`crate::judge::classify`] reads them: they describe what the capturing person
//! meant, not what the wire said.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

/// The only format identifier this reader accepts.
pub const FORMAT: &str = "mcp-exchange/1";

/// One captured HTTP exchange.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    /// Always [`FORMAT`].
    pub format: String,
    /// Label for people; never read by the classifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// Label for people; never read by the classifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Label for people; never read by the classifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<serde_json::Value>,
    /// Where the capture was made from.
    pub vantage: Vantage,
    /// Label for people (the version the capturing client asked for); never read by the classifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// What was sent.
    pub request: Request,
    /// What came back, or `None` when no response headers arrived.
    pub response: Option<Response>,
    /// Why there is no response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport_error: Option<TransportError>,
    /// Free text from the client about the transport error, or about a read that broke after the
    /// head (`body_end: "connection_lost"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport_error_detail: Option<String>,
    /// Milliseconds from sending to the end of reading, measured by the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<f64>,
    /// The protocol version the session actually runs at, when the client knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub negotiated_version: Option<String>,
    /// The probe this request was (`A`, `B`, `C`, `D` or a transport check name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intent: Option<String>,
    /// How the request travelled; absent means HTTP (every capture written before stdio).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<Transport>,
    /// For a stdio exchange: what came back on the process's stdout and stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdio: Option<StdioCapture>,
    /// The run this exchange belongs to: every exchange a run records carries the same id (random,
    /// from the shell's randomness; see `Engine::new`), so a replay can refuse
    /// captures of different runs. Absent in captures made before it existed and in others' tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
}

labelled_enum! {
    /// How an exchange travelled.
    Transport {
        /// Streamable HTTP (and the old HTTP+SSE): the default when the field is absent.
        Http = "http",
        /// A child process: newline-delimited JSON-RPC on its stdin and stdout.
        Stdio = "stdio",
    }
}

/// What a stdio exchange read back: there is no status and no headers, only lines and the process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StdioCapture {
    /// The lines read from stdout while waiting for the answer, in order, without their newlines
    /// (each cut at the line cap; see `lines_cut`).
    #[serde(default)]
    pub lines: Vec<String>,
    /// How many of `lines` were cut at the line cap.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lines_cut: u32,
    /// How reading stopped (`complete` when stdout closed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<BodyEnd>,
    /// Set when the process had exited by the time reading stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<ProcessExit>,
    /// The last of the process's stderr (bounded, redacted); never in a share link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_tail: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How a process ended: its exit status, or the signal that ended it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcessExit {
    /// The exit status, when it exited by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
    /// The signal number, when a signal ended it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
}

impl std::fmt::Display for ProcessExit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.code, self.signal) {
            (Some(c), _) => write!(f, "exit status {c}"),
            (None, Some(s)) => write!(f, "signal {s}"),
            (None, None) => f.write_str("an unknown status"),
        }
    }
}

labelled_enum! {
    /// Where an exchange was observed from; a browser sees fewer headers than a direct client.
    Vantage {
        /// Browser `fetch`: only CORS-visible headers; a response without CORS is a network error.
        Browser = "browser",
        /// A raw HTTP client outside any browser.
        Direct = "direct",
    }
}

/// The request as sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// HTTP method, e.g. `POST`.
    pub method: String,
    /// Full URL.
    pub url: String,
    /// `[name, value]` pairs in the order sent.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// Raw body text, or `None` for no body.
    #[serde(default)]
    pub body: Option<String>,
}

/// The response as received.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// HTTP status code.
    pub status: u16,
    /// `[name, value]` pairs in wire order, names in the server's case.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// Raw body text (a lossy rendering when `body_base64` is present), or `None`.
    #[serde(default)]
    pub body: Option<String>,
    /// `false` when the client cut a stream that stayed open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_complete: Option<bool>,
    /// How reading stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_end: Option<BodyEnd>,
    /// The raw body bytes in standard base64, when they are not valid UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_base64: Option<String>,
}

/// A run id as every shell writes it (through the engine): 16 lowercase hex digits.
pub(crate) fn run_id_text(bits: u64) -> String {
    format!("{bits:016x}")
}

/// Whether `id` is a run id as [`run_id_text`] writes it.
pub(crate) fn is_run_id(id: &str) -> bool {
    id.len() == 16
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl Exchange {
    /// Says that an abort was the run's deadline, not the user: what the shell reports as aborted
    /// after the run's time limit passed becomes a deadline stop.
    pub fn abort_was_deadline(&mut self) {
        self.abort_was(TransportError::Timeout, BodyEnd::Deadline);
    }

    /// Says that an abort was a signal to the command line (Ctrl-C, SIGTERM), not the user's
    /// Cancel: what the shell reports as aborted after the run was interrupted says so.
    pub fn abort_was_interrupt(&mut self) {
        self.abort_was(TransportError::Interrupted, BodyEnd::Interrupted);
    }

    fn abort_was(&mut self, unanswered: TransportError, cut: BodyEnd) {
        if self.transport_error == Some(TransportError::Aborted) {
            self.transport_error = Some(unanswered);
        }
        if let Some(r) = self.response.as_mut()
            && r.body_end == Some(BodyEnd::Aborted)
        {
            r.body_end = Some(cut);
        }
        if let Some(io) = self.stdio.as_mut()
            && io.end == Some(BodyEnd::Aborted)
        {
            io.end = Some(cut);
        }
    }

    /// What kept this exchange from being answered and read to its end, if anything: a deadline,
    /// the size cap, Cancel, a refused redirect or a blocked request. A stream the client cut on
    /// purpose after our response (or a GET stream held open) counts as answered.
    pub fn stop_reason(&self) -> Option<crate::vocabulary::cause::StopReason> {
        use crate::vocabulary::cause::StopReason;
        if let Some(io) = &self.stdio {
            // A process that exited answered with its exit: that is a finding, not a stop.
            if io.exit.is_some() && self.transport_error.is_none() {
                return None;
            }
            if io.end == Some(BodyEnd::SizeCap) {
                return Some(StopReason::SizeCap);
            }
        }
        match self.transport_error {
            Some(TransportError::Timeout) => return Some(StopReason::Deadline),
            Some(TransportError::Aborted) => return Some(StopReason::Cancelled),
            Some(TransportError::RedirectRefused) => return Some(StopReason::Redirect),
            Some(TransportError::Network) => return Some(StopReason::Blocked),
            Some(TransportError::NotRecorded) => return Some(StopReason::NotRecorded),
            Some(TransportError::Interrupted) => return Some(StopReason::Interrupted),
            None => {}
        }
        // A GET answered with an event stream was answered when the stream opened: the stream
        // has no end to read, so Cancel or a deadline closing it stops nothing.
        if self.request.method.eq_ignore_ascii_case("GET")
            && let Some(r) = &self.response
            && (200..300).contains(&r.status)
            && r.media_type().as_deref() == Some(crate::vocabulary::header::EVENT_STREAM)
        {
            return None;
        }
        match self.response.as_ref().and_then(|r| r.body_end) {
            Some(BodyEnd::Deadline) => Some(StopReason::Deadline),
            Some(BodyEnd::SizeCap) => Some(StopReason::SizeCap),
            Some(BodyEnd::Aborted) => Some(StopReason::Cancelled),
            Some(BodyEnd::ConnectionLost) => Some(StopReason::ConnectionLost),
            Some(BodyEnd::Interrupted) => Some(StopReason::Interrupted),
            Some(BodyEnd::Complete | BodyEnd::StoppedAfterResponse) | None => None,
        }
    }
}

labelled_enum! {
    /// How the client stopped reading a body.
    BodyEnd {
        /// The server ended the body.
        Complete = "complete",
        /// Our response arrived; the rest was deliberately not read.
        StoppedAfterResponse = "stopped_after_response",
        /// The decoded-byte cap was reached.
        SizeCap = "size_cap",
        /// A deadline (idle gap or total) passed.
        Deadline = "deadline",
        /// The user or the run cancelled.
        Aborted = "aborted",
        /// The connection broke before the body ended: a reset, a chunked body cut short, a body
        /// shorter than its `Content-Length`, a TLS failure.
        ConnectionLost = "connection_lost",
        /// A signal to the command line (Ctrl-C, SIGTERM) interrupted the run while it read.
        Interrupted = "interrupted",
    }
}

labelled_enum! {
    /// Why no response headers arrived.
    TransportError {
        /// `fetch` rejected: CORS, DNS, refused connection, mixed content.
        Network = "network",
        /// No headers before the deadline.
        Timeout = "timeout",
        /// Cancelled before headers arrived.
        Aborted = "aborted",
        /// A redirect answered and was not followed.
        RedirectRefused = "redirect_refused",
        /// Replay: no recorded exchange fits the request (nothing was sent).
        NotRecorded = "not_recorded",
        /// A signal to the command line (Ctrl-C, SIGTERM) interrupted the run before headers arrived.
        Interrupted = "interrupted",
    }
}

problem_enum! {
/// Why a file is not an exchange.
ExchangeError => Capture(CaptureProblemId) {
    /// Not JSON, or JSON of the wrong shape; the text says where.
    Json(String),
    /// The `format` field names another format.
    WrongFormat(String),
}
}

impl fmt::Display for ExchangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExchangeError::Json(e) => write!(f, "not an mcp-exchange/1 document: {e}"),
            ExchangeError::WrongFormat(found) => {
                write!(f, "format is {found:?}, expected \"{FORMAT}\"")
            }
        }
    }
}

impl std::error::Error for ExchangeError {}

impl Exchange {
    /// Reads one exchange from JSON bytes, checking the format identifier.
    pub fn from_json(bytes: &[u8]) -> Result<Exchange, ExchangeError> {
        let value: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| ExchangeError::Json(e.to_string()))?;
        match value.get("format") {
            Some(serde_json::Value::String(f)) if f == FORMAT => {}
            Some(serde_json::Value::String(f)) => {
                return Err(ExchangeError::WrongFormat(f.clone()));
            }
            Some(_) => return Err(ExchangeError::WrongFormat("(not a string)".into())),
            None => return Err(ExchangeError::Json("no \"format\" field".into())),
        }
        serde_json::from_value(value).map_err(|e| ExchangeError::Json(e.to_string()))
    }

    /// The request as sent from `vantage`, with nothing recorded yet: no answer, no labels, no
    /// timing. The one place every field is spelled out; shells and the core fill in the rest.
    pub fn sent(vantage: Vantage, request: Request) -> Exchange {
        Exchange {
            format: FORMAT.into(),
            case: None,
            description: None,
            server: None,
            vantage,
            protocol_version: None,
            request,
            response: None,
            transport_error: None,
            transport_error_detail: None,
            elapsed_ms: None,
            negotiated_version: None,
            intent: None,
            transport: None,
            stdio: None,
            run_id: None,
        }
    }

    /// True for an exchange with a child process over stdio.
    pub fn is_stdio(&self) -> bool {
        self.transport == Some(Transport::Stdio)
    }

    /// Writes the exchange as pretty JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// Finds the first header with this name, ignoring ASCII case.
pub(crate) fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

impl Request {
    /// The value of a request header, ignoring the name's case.
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

impl Response {
    /// The value of a response header, ignoring the name's case.
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }

    /// The media type (lower-cased, without parameters), read from every `Content-Type` as a
    /// browser reads it: the one reading every shell and every rule uses.
    pub fn media_type(&self) -> Option<String> {
        crate::vocabulary::header::media_type(&self.headers)
    }

    /// The body bytes: from `body_base64` when present and valid, else the text.
    ///
    /// Returns the bytes and, when `body_base64` could not be decoded, a note saying so.
    pub fn body_bytes(&self) -> (Cow<'_, [u8]>, Option<String>) {
        if let Some(b64) = &self.body_base64 {
            match crate::vocabulary::exchange::decode_base64(b64) {
                Some(bytes) => return (Cow::Owned(bytes), None),
                None => {
                    let text = self.body.as_deref().unwrap_or("").as_bytes();
                    return (
                        Cow::Borrowed(text),
                        Some("body_base64 is not valid base64; using the text body".to_string()),
                    );
                }
            }
        }
        (
            Cow::Borrowed(self.body.as_deref().unwrap_or("").as_bytes()),
            None,
        )
    }
}

/// Decodes standard base64 (with or without padding, no whitespace); `None` when invalid.
pub(crate) fn decode_base64(text: &str) -> Option<Vec<u8>> {
    fn value(c: u8) -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'+' | b'-' => Some(62),
            b'/' | b'_' => Some(63),
            _ => None,
        }
    }
    let trimmed = text.trim_end_matches('=');
    let bytes = trimmed.as_bytes();
    if bytes.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut acc: u32 = 0;
        for (i, &c) in chunk.iter().enumerate() {
            acc |= value(c)? << (18 - 6 * i);
        }
        out.push((acc >> 16) as u8);
        if chunk.len() > 2 {
            out.push((acc >> 8) as u8);
        }
        if chunk.len() > 3 {
            out.push(acc as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn base64_decodes_all_alignments() {
        assert_eq!(decode_base64("aGk=").as_deref(), Some(&b"hi"[..]));
        assert_eq!(decode_base64("aGVsbG8").as_deref(), Some(&b"hello"[..]));
        assert_eq!(decode_base64("YWJj").as_deref(), Some(&b"abc"[..]));
        assert_eq!(decode_base64("/w==").as_deref(), Some(&[0xffu8][..]));
        assert_eq!(decode_base64("a"), None);
        assert_eq!(decode_base64("a*bc"), None);
    }

    #[test]
    fn wrong_format_is_refused() {
        let doc = br#"{"format":"mcp-exchange/2","vantage":"direct","request":{"method":"GET","url":"x"},"response":null}"#;
        assert_eq!(
            Exchange::from_json(doc),
            Err(ExchangeError::WrongFormat("mcp-exchange/2".into()))
        );
    }
}

/// Builds an exchange from a raw HTTP response as pasted (status line, headers, blank line, body) and
/// the request body that was sent. For servers a browser cannot reach (no CORS): paste what curl saw.
pub(crate) fn from_raw_http(
    response: &str,
    request_body: &str,
    url: &str,
) -> Result<Exchange, String> {
    let text = response.trim_start();
    let (head, body) = match text.find("\r\n\r\n") {
        Some(i) => (&text[..i], &text[i + 4..]),
        None => match text.find("\n\n") {
            Some(i) => (&text[..i], &text[i + 2..]),
            None => (text, ""),
        },
    };
    let mut lines = head.lines();
    let status_line = lines.next().unwrap_or("");
    let mut parts = status_line.split_whitespace();
    let proto = parts.next().unwrap_or("");
    if !proto.starts_with("HTTP/") {
        return Err(
            "the response must start with a status line such as \"HTTP/1.1 200 OK\"".into(),
        );
    }
    let status: u16 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .filter(|s| (100..600).contains(s))
        .ok_or("the status line has no valid status code")?;
    let mut headers = Vec::new();
    for line in lines {
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            continue;
        }
        let (k, v) = line.split_once(':').ok_or_else(|| {
            format!(
                "not a header line: {:?}",
                line.chars().take(60).collect::<String>()
            )
        })?;
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    let request_body = request_body.trim();
    let mut ex = Exchange::sent(
        Vantage::Direct,
        Request {
            method: "POST".into(),
            url: url.to_string(),
            headers: vec![
                ("Content-Type".into(), "application/json".into()),
                (
                    "Accept".into(),
                    "application/json, text/event-stream".into(),
                ),
            ],
            body: (!request_body.is_empty()).then(|| request_body.to_string()),
        },
    );
    ex.response = Some(Response {
        status,
        headers,
        body: Some(body.to_string()),
        body_complete: Some(true),
        body_end: None,
        body_base64: None,
    });
    Ok(ex)
}

#[cfg(test)]
mod paste_tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn raw_http_responses_are_read() {
        let raw = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"isError\":true,\"content\":[]}}\n\n";
        let ex = from_raw_http(
            raw,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x"}}"#,
            "https://x/mcp",
        )
        .unwrap();
        let v = crate::classify(&ex, &crate::Options::default());
        assert_eq!(v.channel, crate::Channel::ToolError);
        assert!(from_raw_http("hello", "", "u").is_err());
        assert!(from_raw_http("HTTP/1.1 abc\r\n\r\n", "", "u").is_err());
        assert!(from_raw_http("HTTP/1.1 200 OK\nno colon here\n\n{}", "", "u").is_err());
        assert!(crate::output::replay::from_paste("[1]", "").is_err());
    }
}
