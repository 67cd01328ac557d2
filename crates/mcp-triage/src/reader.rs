//! Incremental reading of one response body, for shells that stream: feed chunks as they arrive, and
//! learn when to stop (our response arrived, a cap was hit), which server-to-client requests need an
//! answer right away, and which deadline applies next. No clock: the shell passes `now` in.

use serde_json::Value;

use crate::body;
use crate::exchange::BodyEnd;
use crate::jsonrpc::{self, Message};
use crate::limits::Limits;
use crate::sse::SseParser;

/// What the shell should do after a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadStep {
    /// Keep reading.
    Continue,
    /// Stop: this is how the body ended.
    Stop(BodyEnd),
}

/// State for one body being read.
#[derive(Debug)]
pub struct BodyReader {
    limits: Limits,
    our_id: Option<Value>,
    sse: Option<SseParser>,
    bytes: Vec<u8>,
    unrelated: usize,
    pending_server_requests: Vec<Value>,
    ours_arrived: bool,
}

impl BodyReader {
    /// A reader for a body of this content type, looking for the response to `our_id`.
    pub fn new(content_type: Option<&str>, our_id: Option<Value>, limits: &Limits) -> BodyReader {
        let is_sse =
            content_type.is_some_and(|c| c.to_ascii_lowercase().contains("text/event-stream"));
        BodyReader {
            limits: limits.clone(),
            our_id,
            sse: is_sse.then(|| SseParser::new(limits)),
            bytes: Vec::new(),
            unrelated: 0,
            pending_server_requests: Vec::new(),
            ours_arrived: false,
        }
    }

    /// Refuse early: a declared length above the cap.
    pub fn declared_length_too_large(&self, content_length: Option<&str>) -> bool {
        content_length
            .and_then(|l| l.trim().parse::<u64>().ok())
            .is_some_and(|n| n > self.limits.max_body_bytes as u64)
    }

    /// Feeds a chunk. Bytes past the cap are dropped.
    pub fn push(&mut self, chunk: &[u8]) -> ReadStep {
        let room = self.limits.max_body_bytes.saturating_sub(self.bytes.len());
        let take = &chunk[..chunk.len().min(room)];
        self.bytes.extend_from_slice(take);
        if let Some(parser) = self.sse.as_mut() {
            for event in parser.push(take) {
                let Ok(value) = body::parse_json(&event.data) else {
                    self.unrelated += 1;
                    continue;
                };
                match jsonrpc::view(&value) {
                    Message::Result { id, .. } | Message::Error { id, .. }
                        if Some(id) == self.our_id.as_ref() =>
                    {
                        self.ours_arrived = true;
                    }
                    Message::Request { .. } => {
                        self.unrelated += 1;
                        self.pending_server_requests.push(value);
                    }
                    _ => self.unrelated += 1,
                }
                if self.ours_arrived {
                    return ReadStep::Stop(BodyEnd::StoppedAfterResponse);
                }
            }
            // A line, event or count cap stops reading; invalid UTF-8 does not (the bytes are kept and
            // the classifier reports them with their offset).
            if parser
                .problem()
                .is_some_and(|p| !matches!(p, crate::sse::SseProblem::InvalidUtf8 { .. }))
            {
                return ReadStep::Stop(BodyEnd::SizeCap);
            }
            if self.unrelated > self.limits.max_unrelated_messages {
                return ReadStep::Stop(BodyEnd::SizeCap);
            }
        }
        if chunk.len() > take.len() || self.bytes.len() >= self.limits.max_body_bytes {
            return ReadStep::Stop(BodyEnd::SizeCap);
        }
        ReadStep::Continue
    }

    /// Server-to-client requests seen since the last call (answer them now: never hang on them).
    pub fn take_server_requests(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.pending_server_requests)
    }

    /// True once our response has arrived in the stream.
    pub fn ours_arrived(&self) -> bool {
        self.ours_arrived
    }

    /// The bytes read so far.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The response as recorded: the status and headers as they came, the body read so far, and how
    /// reading ended.
    pub fn into_response(
        self,
        status: u16,
        headers: Vec<(String, String)>,
        end: BodyEnd,
    ) -> crate::exchange::Response {
        let (text, base64) = self.into_body();
        crate::exchange::Response {
            status,
            headers,
            body: Some(text),
            body_complete: Some(end == BodyEnd::Complete),
            body_end: Some(end),
            body_base64: base64,
        }
    }

    /// The bytes as a string and, when they are not UTF-8, the same bytes in base64 for the record.
    pub fn into_body(self) -> (String, Option<String>) {
        match String::from_utf8(self.bytes) {
            Ok(text) => (text, None),
            Err(e) => {
                let bytes = e.into_bytes();
                (
                    String::from_utf8_lossy(&bytes).into_owned(),
                    Some(crate::redact::base64_std(&bytes)),
                )
            }
        }
    }
}

/// The deadlines of one request in flight, decided here so every shell applies the same ones. A
/// shell says when the request started, when its headers and each chunk arrived, and arms one timer
/// for [`RequestClock::next_deadline_ms`] (re-armed after every event); when it fires, the request
/// is stopped with [`BodyEnd::Deadline`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RequestClock {
    started_ms: f64,
    headers_ms: Option<f64>,
    last_chunk_ms: Option<f64>,
}

impl RequestClock {
    /// The request was sent at `now_ms` (the shell's clock).
    pub fn start(now_ms: f64) -> RequestClock {
        RequestClock {
            started_ms: now_ms,
            headers_ms: None,
            last_chunk_ms: None,
        }
    }

    /// The response headers arrived.
    pub fn headers(&mut self, now_ms: f64) {
        self.headers_ms.get_or_insert(now_ms);
    }

    /// A body chunk arrived.
    pub fn chunk(&mut self, now_ms: f64) {
        self.last_chunk_ms = Some(now_ms);
    }

    /// When the request must be stopped: no headers within the headers deadline, or a silence
    /// longer than the idle gap after them, and never later than the request's total.
    pub fn next_deadline_ms(&self, limits: &Limits) -> f64 {
        let total = self.started_ms + limits.request_total_ms as f64;
        let next = match self.headers_ms {
            None => self.started_ms + limits.headers_deadline_ms as f64,
            Some(h) => self.last_chunk_ms.unwrap_or(h) + limits.idle_gap_ms as f64,
        };
        next.min(total)
    }

    /// For a GET stream, which is only read for its first event: when to let go of it (a stream
    /// held open past this is what a GET stream does, not a failure).
    pub fn first_event_deadline_ms(&self, limits: &Limits) -> f64 {
        let from = self.headers_ms.unwrap_or(self.started_ms);
        (from + limits.first_event_ms as f64).min(self.next_deadline_ms(limits))
    }
}

/// The reply a client owes a server-to-client request: an empty result to `ping`, -32601 otherwise.
pub(crate) fn reply_to_server_request(request: &Value) -> Option<Value> {
    let Message::Request { id, method, .. } = jsonrpc::view(request) else {
        return None;
    };
    Some(if method == "ping" {
        serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}})
    } else {
        serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": format!("MCP Triage does not support {method}")}})
    })
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use serde_json::json;

    use super::*;

    #[test]
    fn stops_once_our_response_arrives_even_split_across_chunks() {
        let mut r = BodyReader::new(
            Some("text/event-stream"),
            Some(json!(5)),
            &Limits::default(),
        );
        let stream = b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n\ndata: more";
        let mut step = ReadStep::Continue;
        for chunk in stream.chunks(7) {
            step = r.push(chunk);
            if step != ReadStep::Continue {
                break;
            }
        }
        assert_eq!(step, ReadStep::Stop(BodyEnd::StoppedAfterResponse));
        let asks = r.take_server_requests();
        assert_eq!(asks.len(), 1);
        assert_eq!(
            reply_to_server_request(&asks[0]),
            Some(json!({"jsonrpc":"2.0","id":9,"result":{}}))
        );
    }

    #[test]
    fn caps_and_deadlines() {
        let limits = Limits {
            max_body_bytes: 10,
            ..Limits::default()
        };
        let mut r = BodyReader::new(Some("application/json"), Some(json!(1)), &limits);
        assert_eq!(r.push(b"0123456789abc"), ReadStep::Stop(BodyEnd::SizeCap));
        assert_eq!(r.bytes().len(), 10);
        assert!(r.declared_length_too_large(Some("11")));
        let l = Limits::default();
        let mut clock = RequestClock::start(1_000.0);
        assert_eq!(clock.next_deadline_ms(&l), 11_000.0, "headers deadline");
        clock.headers(1_005.0);
        assert_eq!(clock.first_event_deadline_ms(&l), 2_505.0);
        clock.chunk(1_100.0);
        assert_eq!(
            clock.next_deadline_ms(&l),
            11_100.0,
            "idle gap after the last chunk"
        );
        clock.chunk(29_000.0);
        assert_eq!(clock.next_deadline_ms(&l), 31_000.0, "never past the total");
        clock.headers(30_000.0);
        assert_eq!(
            clock.first_event_deadline_ms(&l),
            2_505.0,
            "headers counted once"
        );
        let other = json!({"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{}});
        assert_eq!(
            reply_to_server_request(&other).unwrap()["error"]["code"],
            -32601
        );
    }

    #[test]
    fn invalid_utf8_is_kept_as_base64() {
        let mut r = BodyReader::new(None, None, &Limits::default());
        r.push(b"ok\xff");
        let (text, b64) = r.into_body();
        assert_eq!(text, "ok\u{fffd}");
        assert_eq!(b64.as_deref(), Some("b2v/"));
    }
}
