//! One body being read: the caps, our response in a stream, the server's own requests.

use serde_json::Value;

use crate::decode::body;
use crate::decode::jsonrpc::{self, Message};
use crate::decode::sse::SseParser;
use crate::vocabulary::exchange::BodyEnd;
use crate::vocabulary::limits::Limits;

/// What the body reader says after a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ReadStep {
    /// Keep reading.
    Continue,
    /// Stop: this is how the body ended.
    Stop(BodyEnd),
}

/// State for one body being read: caps, our response in a stream, server requests.
#[derive(Debug)]
pub(super) struct BodyReader {
    limits: Limits,
    our_id: Option<Value>,
    sse: Option<SseParser>,
    bytes: Vec<u8>,
    unrelated: usize,
    events: usize,
    pending_server_requests: Vec<Value>,
    ours_arrived: bool,
}

impl BodyReader {
    /// A reader for a body (an SSE stream when `is_stream`), looking for the response to `our_id`.
    pub(super) fn new(is_stream: bool, our_id: Option<Value>, limits: &Limits) -> BodyReader {
        BodyReader {
            limits: limits.clone(),
            our_id,
            sse: is_stream.then(|| SseParser::new(limits)),
            bytes: Vec::new(),
            unrelated: 0,
            events: 0,
            pending_server_requests: Vec::new(),
            ours_arrived: false,
        }
    }

    /// SSE events read so far.
    pub(super) fn events(&self) -> usize {
        self.events
    }

    /// Feeds a chunk. Bytes past the cap are dropped.
    pub(super) fn push(&mut self, chunk: &[u8]) -> ReadStep {
        let room = self.limits.max_body_bytes.saturating_sub(self.bytes.len());
        let take = &chunk[..chunk.len().min(room)];
        self.bytes.extend_from_slice(take);
        if let Some(parser) = self.sse.as_mut() {
            for event in parser.push(take) {
                self.events += 1;
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
                .is_some_and(|p| !matches!(p, crate::decode::sse::SseProblem::InvalidUtf8 { .. }))
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
    pub(super) fn take_server_requests(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.pending_server_requests)
    }

    /// The response as recorded: the status and headers as they came, the body read so far, and how
    /// reading ended.
    pub(super) fn into_response(
        self,
        status: u16,
        headers: Vec<(String, String)>,
        end: BodyEnd,
    ) -> crate::vocabulary::exchange::Response {
        let (text, base64) = self.into_body();
        crate::vocabulary::exchange::Response {
            status,
            headers,
            body: Some(text),
            body_complete: Some(end == BodyEnd::Complete),
            body_end: Some(end),
            body_base64: base64,
        }
    }

    /// The bytes as a string and, when they are not UTF-8, the same bytes in base64 for the record.
    pub(super) fn into_body(self) -> (String, Option<String>) {
        match String::from_utf8(self.bytes) {
            Ok(text) => (text, None),
            Err(e) => {
                let bytes = e.into_bytes();
                (
                    String::from_utf8_lossy(&bytes).into_owned(),
                    Some(crate::secrets::redact::base64_std(&bytes)),
                )
            }
        }
    }
}
