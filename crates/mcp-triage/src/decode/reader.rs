//! How every HTTP request ends, decided once for every shell. A shell sends the request and reports
//! what it saw as raw [`ReadEvent`]s (the response head as received, each chunk of bytes, a failed
//! read and its kind, the end of the stream, its one timer firing, Cancel); the [`RequestReader`]
//! answers each with what to do next ([`Next`]: read on until a moment, or stop and let go of the
//! request) and, at the end, makes the `mcp-exchange/1` record with the ending. Media types, caps,
//! what a 3xx means, the GET check's stop rule and when a deadline has passed are decided here; the
//! shells only carry them out. No clock: every event comes with the shell's `now`.

use serde_json::Value;

use crate::decode::body;
use crate::decode::jsonrpc::{self, Message};
use crate::decode::sse::SseParser;
use crate::secrets::recorded::unanswered_exchange;
use crate::secrets::redact::Credentials;
use crate::vocabulary::exchange::{BodyEnd, Exchange, TransportError, Vantage};
use crate::vocabulary::header;
use crate::vocabulary::limits::Limits;
use crate::vocabulary::step::Outgoing;

labelled_enum! {
    /// The kind of a failed read, as far as a shell can tell it.
    ReadFailure {
        /// The peer reset the connection.
        Reset = "reset",
        /// The shell's own I/O timeout fired (a backstop behind the core's deadlines).
        Timeout = "timeout",
        /// TLS failed: a certificate, a handshake, a record.
        Tls = "tls",
        /// Anything else: a refused connection, DNS, a body cut short, what a browser does not name.
        Other = "other",
    }
}

impl ReadFailure {
    /// What it was, for people.
    fn describe(self) -> &'static str {
        match self {
            ReadFailure::Reset => "the connection was reset",
            ReadFailure::Timeout => "a read timed out",
            ReadFailure::Tls => "TLS failed",
            ReadFailure::Other => "the request failed",
        }
    }
}

/// What a shell saw, reported in the order it saw it.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadEvent<'a> {
    /// The response head: the status and the headers as received (a repeated header stays repeated;
    /// a browser joins them, which reads the same).
    Head {
        /// The HTTP status.
        status: u16,
        /// The headers, in order, as received.
        headers: Vec<(String, String)>,
    },
    /// A browser's opaque redirect (`redirect: "manual"`): a 3xx whose status and target it hides.
    OpaqueRedirect,
    /// A chunk of the body.
    Chunk(&'a [u8]),
    /// The body ended.
    End,
    /// A read (or the request itself) failed.
    Failed {
        /// What kind of failure, as far as the shell can tell.
        kind: ReadFailure,
        /// The platform's words for it.
        detail: String,
    },
    /// The one timer the shell armed for [`Next::ReadOn`] fired (early or late: the core decides).
    Timer,
    /// The user or the run cancelled the request.
    Cancel,
}

/// What the shell does next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Next {
    /// Keep reading; (re)arm the one timer for this moment on the shell's clock.
    ReadOn {
        /// When to report [`ReadEvent::Timer`] if nothing else happened.
        until_ms: f64,
    },
    /// The ending is decided: let go of the request (abort the fetch, cancel the stream, stop
    /// waiting), report nothing more, and take the record with [`RequestReader::finish`].
    Stop,
}

/// Where a request is.
#[derive(Debug)]
enum Phase {
    /// Sent; no head yet.
    Sent,
    /// The head arrived; the body is being read.
    Body {
        status: u16,
        headers: Vec<(String, String)>,
        body: BodyReader,
        /// A GET check read only to its stream's first event.
        first_event_only: bool,
    },
    /// Decided: no response, for this reason.
    Unanswered(TransportError, String),
    /// Decided: a response, read to this ending.
    Answered {
        status: u16,
        headers: Vec<(String, String)>,
        body: BodyReader,
        end: BodyEnd,
    },
}

/// One request from its sending to its record: every shell's only way to end a request.
#[derive(Debug)]
pub struct RequestReader {
    record: Exchange,
    limits: Limits,
    expect_id: Option<Value>,
    headers_only: bool,
    started_ms: f64,
    clock: RequestClock,
    phase: Phase,
    server_requests: Vec<Value>,
    /// What the shell said of a read that failed after the head (the record's detail).
    failure: Option<String>,
}

impl RequestReader {
    /// `out` was sent at `now_ms` (with `creds`, seen from `vantage`).
    pub fn new(
        out: &Outgoing,
        creds: &Credentials,
        vantage: Vantage,
        limits: &Limits,
        now_ms: f64,
    ) -> RequestReader {
        RequestReader {
            record: unanswered_exchange(out, creds, vantage),
            limits: limits.clone(),
            expect_id: out.expect_id.clone(),
            headers_only: out.headers_only,
            started_ms: now_ms,
            clock: RequestClock::start(now_ms),
            phase: Phase::Sent,
            server_requests: Vec::new(),
            failure: None,
        }
    }

    /// The record of a request the run did not send because its time limit had passed (the engine
    /// counts it in flight until it is handed back).
    pub fn not_sent(out: &Outgoing, creds: &Credentials, vantage: Vantage) -> Exchange {
        let mut ex = unanswered_exchange(out, creds, vantage);
        ex.transport_error = Some(TransportError::Timeout);
        ex.transport_error_detail = Some("not sent: the run's time limit had passed".into());
        ex
    }

    /// When the shell's timer must fire next (the first moment, right after sending).
    pub fn until_ms(&self) -> f64 {
        match &self.phase {
            Phase::Body {
                first_event_only: true,
                ..
            } => self.clock.first_event_deadline_ms(&self.limits),
            _ => self.clock.next_deadline_ms(&self.limits),
        }
    }

    /// The latest moment this request may last, whatever it reports: a shell whose I/O cannot be
    /// stopped from outside gives it this as a backstop behind [`Next::ReadOn`]'s moments.
    pub fn give_up_ms(&self) -> f64 {
        self.started_ms + self.limits.request_total_ms as f64
    }

    /// True once the ending is decided.
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Unanswered(..) | Phase::Answered { .. })
    }

    /// True once the response head arrived (and was not a refused redirect).
    pub fn has_head(&self) -> bool {
        matches!(self.phase, Phase::Body { .. } | Phase::Answered { .. })
    }

    /// Server-to-client requests read since the last call: answer them now (never hang on them).
    pub fn take_server_requests(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.server_requests)
    }

    /// Takes what the shell saw at `now_ms` and says what to do next. Once the ending is decided,
    /// every later event is ignored (an abort the shell made after [`Next::Stop`] reports a failure
    /// too).
    pub fn on(&mut self, now_ms: f64, event: ReadEvent<'_>) -> Next {
        if self.is_done() {
            return Next::Stop;
        }
        let deadline = self.until_ms();
        // Whatever arrives at or after the deadline arrived too late: the deadline decides, in
        // every shell alike, whichever event reports it (a timer, a late head, a late chunk).
        if now_ms >= deadline && event != ReadEvent::Cancel {
            return self.deadline_passed();
        }
        match event {
            ReadEvent::Timer => Next::ReadOn { until_ms: deadline },
            ReadEvent::Cancel => match &self.phase {
                Phase::Sent => self.unanswered(TransportError::Aborted, "cancelled".into()),
                _ => self.ended(BodyEnd::Aborted),
            },
            ReadEvent::OpaqueRedirect => self.unanswered(
                TransportError::RedirectRefused,
                "the server answered with a redirect; it was not followed (a browser shows \
                 neither its status nor its target)"
                    .into(),
            ),
            ReadEvent::Head { status, headers } => self.head(now_ms, status, headers),
            ReadEvent::Chunk(bytes) => self.chunk(now_ms, bytes),
            ReadEvent::End => match &self.phase {
                Phase::Sent => self.unanswered(
                    TransportError::Network,
                    "the connection closed before any answer".into(),
                ),
                _ => self.ended(BodyEnd::Complete),
            },
            ReadEvent::Failed { kind, detail } => {
                if kind == ReadFailure::Timeout {
                    return self.deadline_passed();
                }
                match &self.phase {
                    Phase::Sent => self.unanswered(
                        TransportError::Network,
                        format!("{}: {detail}", kind.describe()),
                    ),
                    _ => {
                        self.failure = Some(format!("{}: {detail}", kind.describe()));
                        self.ended(BodyEnd::ConnectionLost)
                    }
                }
            }
        }
    }

    fn head(&mut self, now_ms: f64, status: u16, headers: Vec<(String, String)>) -> Next {
        if !matches!(self.phase, Phase::Sent) {
            return Next::ReadOn {
                until_ms: self.until_ms(),
            };
        }
        if (300..400).contains(&status) {
            return self.unanswered(
                TransportError::RedirectRefused,
                format!("the server answered with a redirect (HTTP {status}); it was not followed"),
            );
        }
        self.clock.headers(now_ms);
        let media = header::media_type(&headers);
        let is_stream = media.as_deref() == Some(header::EVENT_STREAM);
        let body = BodyReader::new(is_stream, self.expect_id.clone(), &self.limits);
        let declared = crate::vocabulary::exchange::header(&headers, "content-length")
            .and_then(|l| l.trim().parse::<u64>().ok());
        let too_long = declared.is_some_and(|n| n > self.limits.max_body_bytes as u64);
        self.phase = Phase::Body {
            status,
            headers,
            body,
            first_event_only: self.headers_only && is_stream,
        };
        if self.headers_only && !is_stream {
            // A GET answered with anything but a stream is read no further than its head.
            return self.ended(BodyEnd::StoppedAfterResponse);
        }
        if too_long {
            return self.ended(BodyEnd::SizeCap);
        }
        Next::ReadOn {
            until_ms: self.until_ms(),
        }
    }

    fn chunk(&mut self, now_ms: f64, bytes: &[u8]) -> Next {
        let Phase::Body {
            body,
            first_event_only,
            ..
        } = &mut self.phase
        else {
            return Next::ReadOn {
                until_ms: self.until_ms(),
            };
        };
        self.clock.chunk(now_ms);
        let step = body.push(bytes);
        self.server_requests.extend(body.take_server_requests());
        // The GET check reads a stream to its first event (an old HTTP+SSE endpoint opens with
        // `endpoint`), then lets go of it.
        let first_event = *first_event_only && body.events() > 0;
        match step {
            ReadStep::Stop(end) => self.ended(end),
            ReadStep::Continue if first_event => self.ended(BodyEnd::StoppedAfterResponse),
            ReadStep::Continue => Next::ReadOn {
                until_ms: self.until_ms(),
            },
        }
    }

    /// The deadline passed: before the head, a timeout; a GET stream held open past its moment
    /// is what a GET stream does; any other body was cut by the deadline.
    fn deadline_passed(&mut self) -> Next {
        match &self.phase {
            Phase::Sent => self.unanswered(
                TransportError::Timeout,
                "no response headers before the deadline".into(),
            ),
            Phase::Body {
                first_event_only: true,
                ..
            } => self.ended(BodyEnd::StoppedAfterResponse),
            _ => self.ended(BodyEnd::Deadline),
        }
    }

    fn unanswered(&mut self, error: TransportError, detail: String) -> Next {
        self.phase = Phase::Unanswered(error, detail);
        Next::Stop
    }

    fn ended(&mut self, end: BodyEnd) -> Next {
        let phase = std::mem::replace(&mut self.phase, Phase::Sent);
        self.phase = match phase {
            Phase::Body {
                status,
                headers,
                body,
                ..
            } => Phase::Answered {
                status,
                headers,
                body,
                end,
            },
            other => other,
        };
        Next::Stop
    }

    /// The record, as it came (the engine redacts it when it is handed back), with the time from
    /// sending to `now_ms`. A request whose ending was never decided (the shell gave up on it) is
    /// recorded as cancelled.
    pub fn finish(mut self, now_ms: f64) -> Exchange {
        if !self.is_done() {
            self.on(now_ms, ReadEvent::Cancel);
        }
        let mut ex = self.record;
        ex.elapsed_ms = Some(now_ms - self.started_ms);
        match self.phase {
            Phase::Unanswered(error, detail) => {
                ex.transport_error = Some(error);
                ex.transport_error_detail = Some(detail);
            }
            Phase::Answered {
                status,
                headers,
                body,
                end,
            } => {
                ex.response = Some(body.into_response(status, headers, end));
                // Only a read that broke says more than its ending: what the shell saw of it.
                ex.transport_error_detail = self.failure;
            }
            Phase::Sent | Phase::Body { .. } => {}
        }
        ex
    }
}

/// When a request that needs only its response head must be given up (the CORS doctor's requests,
/// and a request sent but not yet read).
pub fn head_deadline_ms(started_ms: f64, limits: &Limits) -> f64 {
    RequestClock::start(started_ms).next_deadline_ms(limits)
}

/// What the body reader says after a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReadStep {
    /// Keep reading.
    Continue,
    /// Stop: this is how the body ended.
    Stop(BodyEnd),
}

/// State for one body being read: caps, our response in a stream, server requests.
#[derive(Debug)]
struct BodyReader {
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
    fn new(is_stream: bool, our_id: Option<Value>, limits: &Limits) -> BodyReader {
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
    fn events(&self) -> usize {
        self.events
    }

    /// Feeds a chunk. Bytes past the cap are dropped.
    fn push(&mut self, chunk: &[u8]) -> ReadStep {
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
    fn take_server_requests(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.pending_server_requests)
    }

    /// The response as recorded: the status and headers as they came, the body read so far, and how
    /// reading ended.
    fn into_response(
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
    fn into_body(self) -> (String, Option<String>) {
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

/// The deadlines of one request in flight, decided here so every shell applies the same ones. A
/// shell says when the request started, when its headers and each chunk arrived, and arms one timer
/// for [`RequestClock::next_deadline_ms`] (re-armed after every event); when it fires, the request
/// is stopped with [`BodyEnd::Deadline`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RequestClock {
    started_ms: f64,
    headers_ms: Option<f64>,
    last_chunk_ms: Option<f64>,
}

impl RequestClock {
    /// The request was sent at `now_ms` (the shell's clock).
    pub(crate) fn start(now_ms: f64) -> RequestClock {
        RequestClock {
            started_ms: now_ms,
            headers_ms: None,
            last_chunk_ms: None,
        }
    }

    /// The response headers arrived.
    pub(crate) fn headers(&mut self, now_ms: f64) {
        self.headers_ms.get_or_insert(now_ms);
    }

    /// A body chunk arrived.
    pub(crate) fn chunk(&mut self, now_ms: f64) {
        self.last_chunk_ms = Some(now_ms);
    }

    /// When the request must be stopped: no headers within the headers deadline, or a silence
    /// longer than the idle gap after them, and never later than the request's total.
    pub(crate) fn next_deadline_ms(&self, limits: &Limits) -> f64 {
        let total = self.started_ms + limits.request_total_ms as f64;
        let next = match self.headers_ms {
            None => self.started_ms + limits.headers_deadline_ms as f64,
            Some(h) => self.last_chunk_ms.unwrap_or(h) + limits.idle_gap_ms as f64,
        };
        next.min(total)
    }

    /// For a GET stream, which is only read for its first event: when to let go of it (a stream
    /// held open past this is what a GET stream does, not a failure).
    pub(crate) fn first_event_deadline_ms(&self, limits: &Limits) -> f64 {
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
    use crate::run::engine::Step;

    fn out(headers_only: bool) -> Outgoing {
        Outgoing {
            step: Step::Probe(crate::vocabulary::cause::ProbeName::C),
            method: if headers_only { "GET" } else { "POST" },
            url: "http://127.0.0.1:1/mcp".into(),
            headers: Vec::new(),
            body: Some("{}".into()),
            with_token: false,
            expect_id: Some(json!(5)),
            headers_only,
            intent: Some("C".into()),
            wave: 1,
        }
    }

    fn limits() -> Limits {
        Limits {
            headers_deadline_ms: 1_000,
            idle_gap_ms: 500,
            request_total_ms: 3_000,
            first_event_ms: 200,
            max_body_bytes: 64,
            ..Limits::default()
        }
    }

    fn head(ct: &str) -> ReadEvent<'static> {
        ReadEvent::Head {
            status: 200,
            headers: vec![("Content-Type".into(), ct.into())],
        }
    }

    fn reader(headers_only: bool) -> RequestReader {
        RequestReader::new(
            &out(headers_only),
            &Credentials::default(),
            Vantage::Direct,
            &limits(),
            0.0,
        )
    }

    /// Events at the shell's times.
    type Events<'a> = Vec<(f64, ReadEvent<'a>)>;

    /// Feeds `events` at their times; the ending (transport error or body end) and the record.
    fn run(headers_only: bool, events: &[(f64, ReadEvent<'_>)]) -> (String, Exchange) {
        let mut r = reader(headers_only);
        for (now, event) in events {
            if r.on(*now, event.clone()) == Next::Stop {
                break;
            }
        }
        let ex = r.finish(events.last().map_or(0.0, |e| e.0));
        let ending = match (&ex.transport_error, &ex.response) {
            (Some(e), _) => format!("transport:{e}"),
            (None, Some(resp)) => format!("body:{}", resp.body_end.map_or("none", |e| e.as_str())),
            (None, None) => "nothing".into(),
        };
        (ending, ex)
    }

    const OURS: &[u8] = b"data: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n\n";

    #[test]
    fn every_ending_is_decided_here_from_the_events_alone() {
        let reset = || ReadEvent::Failed {
            kind: ReadFailure::Reset,
            detail: "os error 104".into(),
        };
        let cases: Vec<(&str, bool, Events<'_>, &str)> = vec![
            (
                "a whole JSON body",
                false,
                vec![
                    (1.0, head("application/json")),
                    (2.0, ReadEvent::Chunk(b"{}")),
                    (3.0, ReadEvent::End),
                ],
                "body:complete",
            ),
            (
                "a reset mid-body",
                false,
                vec![
                    (1.0, head("application/json")),
                    (2.0, ReadEvent::Chunk(b"{\"a\"")),
                    (3.0, reset()),
                ],
                "body:connection_lost",
            ),
            (
                "a body cut short (other)",
                false,
                vec![
                    (1.0, head("text/event-stream")),
                    (2.0, ReadEvent::Chunk(b"data: {")),
                    (
                        3.0,
                        ReadEvent::Failed {
                            kind: ReadFailure::Other,
                            detail: "incomplete chunked encoding".into(),
                        },
                    ),
                ],
                "body:connection_lost",
            ),
            (
                "a reset before any answer",
                false,
                vec![(1.0, reset())],
                "transport:network",
            ),
            (
                "closed before any answer",
                false,
                vec![(1.0, ReadEvent::End)],
                "transport:network",
            ),
            (
                "no head by the deadline",
                false,
                vec![(1_000.0, ReadEvent::Timer)],
                "transport:timeout",
            ),
            (
                "a head after the deadline",
                false,
                vec![(1_000.5, head("application/json"))],
                "transport:timeout",
            ),
            (
                "the shell's own timeout",
                false,
                vec![(
                    400.0,
                    ReadEvent::Failed {
                        kind: ReadFailure::Timeout,
                        detail: "timed out".into(),
                    },
                )],
                "transport:timeout",
            ),
            (
                "a stall after the head",
                false,
                vec![(1.0, head("text/event-stream")), (501.0, ReadEvent::Timer)],
                "body:deadline",
            ),
            (
                "a drip past the total",
                false,
                (0..40)
                    .map(|i| {
                        (
                            1.0 + f64::from(i) * 100.0,
                            if i == 0 {
                                head("text/event-stream")
                            } else {
                                ReadEvent::Chunk(b":")
                            },
                        )
                    })
                    .collect(),
                "body:deadline",
            ),
            (
                "a redirect",
                false,
                vec![(
                    1.0,
                    ReadEvent::Head {
                        status: 307,
                        headers: vec![("Location".into(), "https://elsewhere.example/".into())],
                    },
                )],
                "transport:redirect_refused",
            ),
            (
                "an opaque redirect",
                false,
                vec![(1.0, ReadEvent::OpaqueRedirect)],
                "transport:redirect_refused",
            ),
            (
                "a body over the cap",
                false,
                vec![
                    (1.0, head("text/event-stream")),
                    (2.0, ReadEvent::Chunk(&[b':'; 65])),
                ],
                "body:size_cap",
            ),
            (
                "a declared length over the cap",
                false,
                vec![(
                    1.0,
                    ReadEvent::Head {
                        status: 200,
                        headers: vec![("content-length".into(), "65".into())],
                    },
                )],
                "body:size_cap",
            ),
            (
                "our response in a mixed-case stream type",
                false,
                vec![
                    (1.0, head("Text/Event-Stream; charset=utf-8")),
                    (2.0, ReadEvent::Chunk(OURS)),
                ],
                "body:stopped_after_response",
            ),
            (
                "our response under a repeated Content-Type",
                false,
                vec![
                    (
                        1.0,
                        ReadEvent::Head {
                            status: 200,
                            headers: vec![
                                ("Content-Type".into(), "text/plain".into()),
                                ("Content-Type".into(), "text/event-stream".into()),
                            ],
                        },
                    ),
                    (2.0, ReadEvent::Chunk(OURS)),
                ],
                "body:stopped_after_response",
            ),
            (
                "cancel before the head",
                false,
                vec![(1.0, ReadEvent::Cancel)],
                "transport:aborted",
            ),
            (
                "cancel mid-body",
                false,
                vec![(1.0, head("text/event-stream")), (2.0, ReadEvent::Cancel)],
                "body:aborted",
            ),
            (
                "a GET answered 405",
                true,
                vec![(
                    1.0,
                    ReadEvent::Head {
                        status: 405,
                        headers: vec![],
                    },
                )],
                "body:stopped_after_response",
            ),
            (
                "a GET stream's first event",
                true,
                vec![
                    (1.0, head("text/event-stream")),
                    (2.0, ReadEvent::Chunk(b"event: endpoint\ndata: /m")),
                    (3.0, ReadEvent::Chunk(b"\n\n")),
                ],
                "body:stopped_after_response",
            ),
            (
                "a GET stream with no event",
                true,
                vec![(1.0, head("text/event-stream")), (201.0, ReadEvent::Timer)],
                "body:stopped_after_response",
            ),
            (
                "a GET stream that closes",
                true,
                vec![(1.0, head("text/event-stream")), (2.0, ReadEvent::End)],
                "body:complete",
            ),
        ];
        for (name, headers_only, events, want) in cases {
            let (got, ex) = run(headers_only, &events);
            assert_eq!(got, want, "{name}");
            if name == "a reset mid-body" {
                assert_eq!(
                    ex.transport_error_detail.as_deref(),
                    Some("the connection was reset: os error 104"),
                    "what the shell saw of it"
                );
            }
        }
    }

    #[test]
    fn a_timer_before_its_moment_rearms_and_events_after_the_end_change_nothing() {
        let mut r = reader(false);
        assert_eq!(r.until_ms(), 1_000.0, "the headers deadline first");
        assert_eq!(
            r.on(10.0, ReadEvent::Timer),
            Next::ReadOn { until_ms: 1_000.0 }
        );
        assert_eq!(
            r.on(20.0, head("text/event-stream")),
            Next::ReadOn { until_ms: 520.0 }
        );
        assert_eq!(
            r.on(100.0, ReadEvent::Chunk(b": x\n")),
            Next::ReadOn { until_ms: 600.0 }
        );
        assert_eq!(r.on(150.0, ReadEvent::Chunk(OURS)), Next::Stop);
        // The abort that follows a stop reports a failure: it is not the ending.
        let late = ReadEvent::Failed {
            kind: ReadFailure::Other,
            detail: "aborted".into(),
        };
        assert_eq!(r.on(160.0, late), Next::Stop);
        let ex = r.finish(170.0);
        let resp = ex.response.as_ref().unwrap();
        assert_eq!(resp.body_end, Some(BodyEnd::StoppedAfterResponse));
        assert_eq!(ex.elapsed_ms, Some(170.0));
        // The total bounds the idle gap, and the first event's moment bounds a GET stream.
        let mut drip = reader(false);
        drip.on(0.0, head("text/event-stream"));
        for t in (100..2_900).step_by(100) {
            drip.on(f64::from(t), ReadEvent::Chunk(b":"));
        }
        assert_eq!(drip.until_ms(), 3_000.0);
        let mut get = reader(true);
        get.on(50.0, head("text/event-stream"));
        assert_eq!(get.until_ms(), 250.0);
    }

    #[test]
    fn the_record_keeps_the_head_as_received_and_hands_out_server_requests() {
        let mut r = reader(false);
        let headers = vec![
            ("content-type".to_string(), "text/plain".to_string()),
            ("Content-Type".to_string(), "text/event-stream".to_string()),
        ];
        r.on(
            1.0,
            ReadEvent::Head {
                status: 200,
                headers: headers.clone(),
            },
        );
        let stream = b"data: {\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n\n";
        for chunk in stream.chunks(7) {
            assert!(matches!(
                r.on(2.0, ReadEvent::Chunk(chunk)),
                Next::ReadOn { .. }
            ));
        }
        let asks = r.take_server_requests();
        assert_eq!(asks.len(), 1);
        assert_eq!(
            reply_to_server_request(&asks[0]),
            Some(json!({"jsonrpc":"2.0","id":9,"result":{}}))
        );
        r.on(3.0, ReadEvent::End);
        let ex = r.finish(3.0);
        let resp = ex.response.unwrap();
        assert_eq!(
            resp.headers, headers,
            "as received, repeated header and all"
        );
        assert_eq!(resp.body_complete, Some(true));
        let other = json!({"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{}});
        assert_eq!(
            reply_to_server_request(&other).unwrap()["error"]["code"],
            -32601
        );
    }

    #[test]
    fn invalid_utf8_is_kept_as_base64_and_a_request_given_up_on_is_cancelled() {
        let mut r = BodyReader::new(false, None, &Limits::default());
        r.push(b"ok\xff");
        let (text, b64) = r.into_body();
        assert_eq!(text, "ok\u{fffd}");
        assert_eq!(b64.as_deref(), Some("b2v/"));
        let mut cut = reader(false);
        cut.on(1.0, head("application/json"));
        let ex = cut.finish(2.0);
        assert_eq!(ex.response.unwrap().body_end, Some(BodyEnd::Aborted));
        assert_eq!(
            reader(false).finish(1.0).transport_error,
            Some(TransportError::Aborted)
        );
    }
}
