//! The deadlines of a request in flight ([`RequestClock`]), the same in every shell.

use crate::vocabulary::limits::Limits;

/// When a request that needs only its response head must be given up (the CORS doctor's requests,
/// and a request sent but not yet read).
pub fn head_deadline_ms(started_ms: f64, limits: &Limits) -> f64 {
    RequestClock::start(started_ms).next_deadline_ms(limits)
}

/// The deadlines of one request in flight, decided here so every shell applies the same ones. A
/// shell says when the request started, when its headers and each chunk arrived, and arms one timer
/// for [`RequestClock::next_deadline_ms`] (re-armed after every event); when it fires, the request
/// is stopped with [`BodyEnd::Deadline`](crate::vocabulary::exchange::BodyEnd::Deadline).
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
