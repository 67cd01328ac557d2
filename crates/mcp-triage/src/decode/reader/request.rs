//! The [`RequestReader`]: one request from its sending to its record, and how it ends.

use serde_json::Value;

use super::body_reader::{BodyReader, ReadStep};
use super::clock::RequestClock;
use super::events::{Next, ReadEvent, ReadFailure};
use crate::secrets::recorded::unanswered_exchange;
use crate::secrets::redact::Credentials;
use crate::vocabulary::exchange::{BodyEnd, Exchange, TransportError, Vantage};

/// How much later than the core's own deadline a shell's phase backstop fires
/// ([`RequestReader::backstops_ms`]).
pub(crate) const BACKSTOP_GRACE_MS: f64 = 250.0;
use crate::vocabulary::header;
use crate::vocabulary::limits::Limits;
use crate::vocabulary::step::Outgoing;

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
    /// Decided: a redirect, not followed; its head is kept (where it pointed).
    Redirected {
        status: u16,
        headers: Vec<(String, String)>,
    },
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

    /// The phase backstops of such a shell, in milliseconds: how long the head may take (the head's
    /// deadline) and how long the body may be read once the head is in (a request read only to its
    /// first event: that window; any other: the request's total). With them a read the core let go
    /// of does not hold a connection open long after, which a census's one request in flight per
    /// host counts on. Each is a quarter second later than the core's own moment, so the
    /// core's deadline, not the client's, always decides how the request ended.
    pub fn backstops_ms(&self) -> (f64, f64) {
        let head = super::clock::head_deadline_ms(0.0, &self.limits) + BACKSTOP_GRACE_MS;
        let body = if self.headers_only {
            self.limits.first_event_ms
        } else {
            self.limits.request_total_ms
        };
        (head, body as f64 + BACKSTOP_GRACE_MS)
    }

    /// True once the ending is decided.
    pub fn is_done(&self) -> bool {
        matches!(
            self.phase,
            Phase::Unanswered(..) | Phase::Answered { .. } | Phase::Redirected { .. }
        )
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
            self.phase = Phase::Redirected { status, headers };
            return Next::Stop;
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
        if self.headers_only && !is_stream && (status < 300 || status == 405) {
            // A GET answered with anything but a stream is read no further than its head (405 is
            // the answer the spec asks for), unless it was refused otherwise: that body says why
            // (a version refused is not a wrong path), read within the same caps as any other.
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
            Phase::Redirected { status, headers } => {
                // Not an answer (nothing of it is read or followed), but its head says where it
                // pointed, which the verdict names.
                ex.transport_error = Some(TransportError::RedirectRefused);
                ex.transport_error_detail = Some(format!(
                    "the server answered with a redirect (HTTP {status}); it was not followed"
                ));
                ex.response = Some(crate::vocabulary::exchange::Response {
                    status,
                    headers,
                    body: None,
                    body_complete: None,
                    body_end: None,
                    body_base64: None,
                });
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
