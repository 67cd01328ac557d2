//! An incremental `text/event-stream` parser over bytes: LF, CRLF and CR line ends, comments,
//! missing `event:` lines, empty priming events, and the caps from [`Limits`].
//!
//! Bytes go in as they arrive (a chunk may end mid-line or mid-character); complete events come out.
//! Lines are decoded as UTF-8 one at a time, so invalid bytes are reported with their absolute offset
//! instead of being replaced.

use serde::Serialize;

use crate::vocabulary::limits::Limits;

/// One dispatched event with non-empty data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct SseEvent {
    /// The `event:` field, or `None` when absent (the default type `message`).
    pub event: Option<String>,
    /// The `data:` lines joined by `\n`.
    pub data: String,
    /// The last `id:` field seen in this event.
    pub id: Option<String>,
    /// Byte offset of the event's first line in the stream.
    pub offset: usize,
}

/// Why the parser stopped early, or what was left over at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub(crate) enum SseProblem {
    /// A line longer than the cap, starting at this offset.
    LineTooLong { offset: usize },
    /// One event's data grew past the cap.
    EventTooLarge { offset: usize },
    /// More events than the cap.
    TooManyEvents { limit: usize },
    /// Bytes that are not UTF-8 at this absolute offset.
    InvalidUtf8 { offset: usize },
    /// The stream ended inside an event (no blank line after it); the event was discarded.
    UnterminatedEvent { offset: usize },
}

impl SseProblem {
    /// A one-line explanation for people.
    pub(crate) fn describe(&self) -> String {
        match self {
            SseProblem::LineTooLong { offset } => {
                format!("an SSE line starting at byte {offset} exceeds the line cap")
            }
            SseProblem::EventTooLarge { offset } => {
                format!("the SSE event starting at byte {offset} exceeds the event cap")
            }
            SseProblem::TooManyEvents { limit } => {
                format!("more than {limit} SSE events; the rest was not read")
            }
            SseProblem::InvalidUtf8 { offset } => {
                format!("invalid UTF-8 at byte {offset} of the stream; reading stopped there")
            }
            SseProblem::UnterminatedEvent { offset } => format!(
                "the stream ended inside the event starting at byte {offset} (no blank line); \
                 it was discarded, as the SSE standard requires"
            ),
        }
    }
}

/// Incremental parser state.
#[derive(Debug, Clone)]
pub(crate) struct SseParser {
    buf: Vec<u8>,
    /// Absolute offset of `buf[0]`.
    base: usize,
    skip_lf: bool,
    first_line: bool,
    event: Option<String>,
    data: String,
    has_data: bool,
    id: Option<String>,
    event_offset: Option<usize>,
    dispatched: usize,
    /// Events dispatched with empty data (SEP-1699 priming events) and ignored.
    pub empty_events: usize,
    /// Comment lines seen.
    pub comments: usize,
    problem: Option<SseProblem>,
    max_line: usize,
    max_events: usize,
}

impl SseParser {
    /// A parser applying these limits.
    pub(crate) fn new(limits: &Limits) -> SseParser {
        SseParser {
            buf: Vec::new(),
            base: 0,
            skip_lf: false,
            first_line: true,
            event: None,
            data: String::new(),
            has_data: false,
            id: None,
            event_offset: None,
            dispatched: 0,
            empty_events: 0,
            comments: 0,
            problem: None,
            max_line: limits.max_sse_line_bytes,
            max_events: limits.max_sse_events,
        }
    }

    /// The problem that stopped parsing, if any.
    pub(crate) fn problem(&self) -> Option<&SseProblem> {
        self.problem.as_ref()
    }

    /// Feeds bytes; returns the events completed by them. After a problem, input is ignored.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if self.problem.is_some() {
            return out;
        }
        // Resume the scan where the previous chunk left off: a long line arriving in small chunks is
        // scanned once, not once per chunk.
        let mut i = self.buf.len();
        self.buf.extend_from_slice(bytes);
        let mut start = 0;
        while i < self.buf.len() {
            let b = self.buf[i];
            if self.skip_lf {
                self.skip_lf = false;
                if b == b'\n' && i == start {
                    start = i + 1;
                    i += 1;
                    continue;
                }
            }
            if b == b'\n' || b == b'\r' {
                let line_start = self.base + start;
                let line = self.buf[start..i].to_vec();
                self.skip_lf = b == b'\r';
                start = i + 1;
                if let Some(event) = self.line(&line, line_start) {
                    out.push(event);
                }
                if self.problem.is_some() {
                    self.buf.clear();
                    return out;
                }
            }
            i += 1;
        }
        self.buf.drain(..start);
        self.base += start;
        if self.buf.len() > self.max_line {
            self.problem = Some(SseProblem::LineTooLong { offset: self.base });
            self.buf.clear();
        }
        out
    }

    /// Ends the stream; reports an event that was never terminated by a blank line.
    pub(crate) fn finish(&mut self) -> Option<SseProblem> {
        if self.problem.is_some() {
            return self.problem.clone();
        }
        let pending_line = !self.buf.is_empty();
        if pending_line || self.has_data || self.event.is_some() {
            let offset = self.event_offset.unwrap_or(self.base);
            let problem = SseProblem::UnterminatedEvent { offset };
            self.problem = Some(problem.clone());
            return Some(problem);
        }
        None
    }

    fn line(&mut self, raw: &[u8], offset: usize) -> Option<SseEvent> {
        let mut raw = raw;
        if self.first_line {
            self.first_line = false;
            raw = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
        }
        let line = match std::str::from_utf8(raw) {
            Ok(line) => line,
            Err(e) => {
                self.problem = Some(SseProblem::InvalidUtf8 {
                    offset: offset + e.valid_up_to(),
                });
                return None;
            }
        };
        if line.is_empty() {
            return self.dispatch();
        }
        if line.starts_with(':') {
            self.comments += 1;
            return None;
        }
        if self.event_offset.is_none() {
            self.event_offset = Some(offset);
        }
        let (field, value) = match line.find(':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(' ').unwrap_or(value))
            }
            None => (line, ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
                if self.data.len() > self.max_line {
                    self.problem = Some(SseProblem::EventTooLarge {
                        offset: self.event_offset.unwrap_or(offset),
                    });
                }
            }
            "event" => self.event = Some(value.to_string()),
            "id" if !value.contains('\0') => self.id = Some(value.to_string()),
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let offset = self.event_offset.take().unwrap_or(self.base);
        let event = self.event.take();
        let id = self.id.take();
        let has_data = std::mem::take(&mut self.has_data);
        let data = std::mem::take(&mut self.data);
        if !has_data || data.is_empty() {
            if has_data || event.is_some() || id.is_some() {
                self.empty_events += 1;
            }
            return None;
        }
        if self.dispatched >= self.max_events {
            self.problem = Some(SseProblem::TooManyEvents {
                limit: self.max_events,
            });
            return None;
        }
        self.dispatched += 1;
        Some(SseEvent {
            event,
            data,
            id,
            offset,
        })
    }
}

/// Parses a whole stream at once: the events, and the problem that stopped or ended it (the tests'
/// way in; the shells feed the incremental parser).
#[cfg(test)]
pub(crate) fn parse_all(bytes: &[u8], limits: &Limits) -> (Vec<SseEvent>, Option<SseProblem>) {
    let mut parser = SseParser::new(limits);
    let events = parser.push(bytes);
    let problem = parser.finish();
    (events, problem)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn events(text: &[u8]) -> (Vec<SseEvent>, Option<SseProblem>) {
        parse_all(text, &Limits::default())
    }

    #[test]
    fn lf_and_crlf_and_cr_frame_the_same_events() {
        for sep in ["\n", "\r\n", "\r"] {
            let text = format!("event: message{sep}data: {{\"a\":1}}{sep}{sep}data: x{sep}{sep}");
            let (evs, problem) = events(text.as_bytes());
            assert_eq!(problem, None, "sep {sep:?}");
            assert_eq!(evs.len(), 2);
            assert_eq!(evs[0].event.as_deref(), Some("message"));
            assert_eq!(evs[0].data, "{\"a\":1}");
            assert_eq!(evs[1].event, None);
            assert_eq!(evs[1].data, "x");
        }
    }

    #[test]
    fn crlf_split_across_chunks_is_one_line_end() {
        let mut p = SseParser::new(&Limits::default());
        let mut out = p.push(b"data: one\r");
        out.extend(p.push(b"\n\r"));
        out.extend(p.push(b"\ndata: two\r\n\r\n"));
        assert_eq!(p.finish(), None);
        let data: Vec<_> = out.iter().map(|e| e.data.as_str()).collect();
        assert_eq!(data, ["one", "two"]);
    }

    #[test]
    fn priming_event_with_empty_data_and_comments_are_skipped() {
        let (evs, problem) = events(b": keepalive\n\nid: 0\ndata:\n\nid: 1\ndata: {}\n\n");
        assert_eq!(problem, None);
        assert_eq!(evs.len(), 1);
        assert_eq!(evs[0].id.as_deref(), Some("1"));
    }

    #[test]
    fn multi_line_data_is_joined_with_newlines() {
        let (evs, _) = events(b"data: {\ndata: \"a\": 1}\n\n");
        assert_eq!(evs[0].data, "{\n\"a\": 1}");
    }

    #[test]
    fn utf8_split_across_chunks_is_fine_but_invalid_bytes_are_located() {
        let mut p = SseParser::new(&Limits::default());
        let bytes = "data: é\n\n".as_bytes();
        let mut out = p.push(&bytes[..7]);
        out.extend(p.push(&bytes[7..]));
        assert_eq!(out[0].data, "é");
        let (_, problem) = events(b"data: ok\n\ndata: \xff\n\n");
        assert_eq!(problem, Some(SseProblem::InvalidUtf8 { offset: 16 }));
    }

    #[test]
    fn unterminated_event_is_reported_not_dispatched() {
        let (evs, problem) = events(b"data: {\"a\":1}\n");
        assert!(evs.is_empty());
        assert_eq!(problem, Some(SseProblem::UnterminatedEvent { offset: 0 }));
    }

    #[test]
    fn caps_stop_the_parser() {
        let limits = Limits {
            max_sse_line_bytes: 16,
            max_sse_events: 2,
            ..Limits::default()
        };
        let (_, problem) = parse_all(&[b'a'; 40], &limits);
        assert_eq!(problem, Some(SseProblem::LineTooLong { offset: 0 }));
        let (evs, problem) = parse_all(b"data: 1\n\ndata: 2\n\ndata: 3\n\n", &limits);
        assert_eq!(evs.len(), 2);
        assert_eq!(problem, Some(SseProblem::TooManyEvents { limit: 2 }));
        let (_, problem) = parse_all(b"data: 0123456789\ndata: 0123456789\n\n", &limits);
        assert_eq!(problem, Some(SseProblem::EventTooLarge { offset: 0 }));
    }
}
