//! Stdio, sans-IO: a server started as a child process, newline-delimited JSON-RPC on its stdin and
//! stdout. Bytes in, lines and exchanges out; the shell spawns, writes, reads and keeps time.
//!
//! - [`LineSplitter`]: stdout bytes in, lines out, each cut at the line cap (the rest of an
//!   over-long line is dropped up to its newline, so memory never grows past the cap).
//! - [`Waiting`]: one request's wait. Each line is [`Waiting::hear`]d: our response ends the wait, a
//!   server request is handed back for the engine's reply, anything else is kept as evidence; its
//!   deadline is [`crate::RequestClock`]'s. [`Waiting::into_exchange`] makes the `mcp-exchange/1`
//!   record (`transport: "stdio"`).
//! - [`StderrTail`]: the last bytes of stderr, bounded, for the record of a server that exited.
//! - [`program_name`]: the only part of the command line any output shows.

use serde_json::Value;

use crate::decode::jsonrpc::{self, Message};
use crate::decode::reader::RequestClock;
use crate::vocabulary::exchange::{
    BodyEnd, Exchange, ProcessExit, Request, StdioCapture, Transport, TransportError, Vantage,
};
use crate::vocabulary::limits::Limits;
use crate::vocabulary::step::Outgoing;

/// Bytes of stderr kept for the record (its end).
pub(crate) const STDERR_TAIL_BYTES: usize = 2048;
/// Characters of a program name shown.
const MAX_PROGRAM_CHARS: usize = 64;

/// The name an output shows for `command`: its last path component, visible characters only,
/// capped. Never its arguments or environment (they carry keys as often as URLs do).
pub(crate) fn program_name(command: &str) -> String {
    let base = command.rsplit(['/', '\\']).next().unwrap_or(command);
    let name: String = base
        .chars()
        .filter(|c| !c.is_control() && !c.is_whitespace())
        .take(MAX_PROGRAM_CHARS)
        .collect();
    if name.is_empty() {
        "server".into()
    } else {
        name
    }
}

/// The endpoint string of a stdio run: `stdio:` and the program's name.
pub fn endpoint_of(command: &str) -> String {
    format!("stdio:{}", program_name(command))
}

/// What the command line says when a stdio server's command could not start: the program's name
/// (never its arguments), what the system said, and the likely fix (`missing`: no such program).
pub fn not_started(command: &str, detail: &str, missing: bool) -> String {
    let fix = if missing {
        "Is it installed, and on PATH (or give its full path)?"
    } else {
        "Check that it is a program this user may run."
    };
    format!(
        "could not start the server's command {}: {detail}. {fix}",
        program_name(command)
    )
}

/// One line of stdout, without its newline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The text (invalid UTF-8 replaced).
    pub text: String,
    /// The line was longer than the cap; the rest was dropped.
    pub cut: bool,
}

/// Splits stdout into lines with a cap on each.
#[derive(Debug)]
pub struct LineSplitter {
    buf: Vec<u8>,
    max_line: usize,
    cutting: bool,
}

impl LineSplitter {
    /// A splitter with the line cap of `limits` (one message: the body cap).
    pub fn new(limits: &Limits) -> LineSplitter {
        LineSplitter {
            buf: Vec::new(),
            max_line: limits.max_body_bytes.max(1),
            cutting: false,
        }
    }

    fn take(&mut self) -> Line {
        let mut bytes = std::mem::take(&mut self.buf);
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        let cut = std::mem::replace(&mut self.cutting, false);
        Line {
            text: String::from_utf8_lossy(&bytes).into_owned(),
            cut,
        }
    }

    /// Feeds bytes; returns the lines they complete.
    pub fn push(&mut self, mut bytes: &[u8]) -> Vec<Line> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            match bytes.iter().position(|b| *b == b'\n') {
                Some(i) => {
                    self.keep(&bytes[..i]);
                    out.push(self.take());
                    bytes = &bytes[i + 1..];
                }
                None => {
                    self.keep(bytes);
                    bytes = &[];
                }
            }
        }
        out
    }

    fn keep(&mut self, part: &[u8]) {
        let room = self.max_line.saturating_sub(self.buf.len());
        if part.len() > room {
            self.cutting = true;
        }
        self.buf.extend_from_slice(&part[..part.len().min(room)]);
    }

    /// Stdout closed: the last line, when it had no newline.
    pub fn finish(&mut self) -> Option<Line> {
        (!self.buf.is_empty() || self.cutting).then(|| self.take())
    }
}

/// What a line meant to the request waiting for it.
#[derive(Debug, Clone, PartialEq)]
pub enum Heard {
    /// Our response: the wait is over.
    Ours,
    /// A request from the server: hand it to [`crate::run::engine::Engine::reply`] and write the reply.
    ServerRequest(Value),
    /// Anything else (a notification, a response to another id, a log line): kept as evidence.
    Other,
    /// The wait has kept as many lines or bytes as it may: stop reading for this request.
    Full,
}

/// How a wait ended, as the shell saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Our response arrived (or the message expects none and was written).
    Answered,
    /// Stdout closed; `exit` is how the process ended, when the shell learnt it.
    Closed(Option<ProcessExit>),
    /// The request's deadline passed.
    Deadline,
    /// The run was cancelled or its deadline passed.
    Aborted,
    /// The request could not be written (the process had already gone).
    NotWritten(Option<ProcessExit>),
}

/// One request's wait for its answer on stdout.
#[derive(Debug)]
pub struct Waiting {
    expect_id: Option<Value>,
    started_ms: f64,
    clock: RequestClock,
    lines: Vec<String>,
    lines_cut: u32,
    kept_bytes: usize,
    full: bool,
    ours: bool,
}

impl Waiting {
    /// The request `out` was written at `now_ms`.
    pub fn new(out: &Outgoing, now_ms: f64) -> Waiting {
        let mut clock = RequestClock::start(now_ms);
        // Stdio has no headers: the answer's first line is what the idle gap measures from.
        clock.headers(now_ms);
        Waiting {
            expect_id: out.expect_id.clone(),
            started_ms: now_ms,
            clock,
            lines: Vec::new(),
            lines_cut: 0,
            kept_bytes: 0,
            full: false,
            ours: false,
        }
    }

    /// True when nothing is to be waited for: the message was a notification or a response.
    pub fn expects_nothing(&self) -> bool {
        self.expect_id.is_none()
    }

    /// When the shell must stop waiting (its clock): the request's total or idle deadline.
    pub fn deadline_ms(&self, limits: &Limits) -> f64 {
        self.clock.next_deadline_ms(limits)
    }

    /// True once our response arrived.
    pub fn answered(&self) -> bool {
        self.ours
    }

    /// A line arrived at `now_ms`.
    pub fn hear(&mut self, line: Line, now_ms: f64, limits: &Limits) -> Heard {
        if self.full || self.ours {
            return Heard::Full;
        }
        self.clock.chunk(now_ms);
        if line.cut {
            self.lines_cut += 1;
        }
        self.kept_bytes += line.text.len();
        let value = (!line.cut)
            .then(|| serde_json::from_str::<Value>(line.text.trim()).ok())
            .flatten();
        self.lines.push(line.text);
        let heard = match value.as_ref().map(jsonrpc::view) {
            Some(Message::Result { id, .. } | Message::Error { id, .. })
                if Some(id) == self.expect_id.as_ref() =>
            {
                self.ours = true;
                Heard::Ours
            }
            Some(Message::Request { .. }) => value.map_or(Heard::Other, Heard::ServerRequest),
            _ => Heard::Other,
        };
        if heard != Heard::Ours
            && (self.lines.len() > limits.max_unrelated_messages
                || self.kept_bytes > limits.max_body_bytes)
        {
            self.full = true;
            return Heard::Full;
        }
        heard
    }

    /// The record of this request: what was written, what came back, how it ended.
    pub fn into_exchange(
        self,
        out: &Outgoing,
        ending: Ending,
        now_ms: f64,
        stderr_tail: Option<String>,
    ) -> Exchange {
        let (end, exit, transport_error) = match ending {
            _ if self.ours => (Some(BodyEnd::StoppedAfterResponse), None, None),
            _ if self.full => (Some(BodyEnd::SizeCap), None, None),
            Ending::Answered => (Some(BodyEnd::Complete), None, None),
            Ending::Closed(exit) => (Some(BodyEnd::Complete), exit.or(Some(UNKNOWN_EXIT)), None),
            Ending::NotWritten(exit) => (None, exit.or(Some(UNKNOWN_EXIT)), None),
            Ending::Deadline => (Some(BodyEnd::Deadline), None, Some(TransportError::Timeout)),
            Ending::Aborted => (Some(BodyEnd::Aborted), None, Some(TransportError::Aborted)),
        };
        // The stderr tail is evidence for a process that is gone or silent, not for an answer.
        let stderr_tail = stderr_tail
            .filter(|t| !t.is_empty() && !self.ours && !matches!(ending, Ending::Answered));
        let mut ex = Exchange::sent(
            Vantage::Direct,
            Request {
                method: "STDIO".into(),
                url: out.url.clone(),
                headers: Vec::new(),
                body: out.body.clone(),
            },
        );
        ex.transport_error = transport_error;
        ex.elapsed_ms = Some((now_ms - self.started_ms).max(0.0));
        ex.intent = out.intent.clone();
        ex.transport = Some(Transport::Stdio);
        ex.stdio = Some(StdioCapture {
            lines: self.lines,
            lines_cut: self.lines_cut,
            end,
            exit,
            stderr_tail,
        });
        ex
    }
}

/// Stdout closed but the shell could not learn how the process ended.
const UNKNOWN_EXIT: ProcessExit = ProcessExit {
    code: None,
    signal: None,
};

/// The last `STDERR_TAIL_BYTES` of stderr.
#[derive(Debug, Default)]
pub struct StderrTail {
    buf: Vec<u8>,
    dropped: bool,
}

impl StderrTail {
    /// Keeps the end of what arrived so far.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() > STDERR_TAIL_BYTES {
            let cut = self.buf.len() - STDERR_TAIL_BYTES;
            self.buf.drain(..cut);
            self.dropped = true;
        }
    }

    /// The tail as text, starting at a line when the head was dropped; `None` when empty.
    pub fn text(&self) -> Option<String> {
        let text = String::from_utf8_lossy(&self.buf);
        let text = match (self.dropped, text.find('\n')) {
            (true, Some(i)) => format!("…{}", &text[i..]),
            (true, None) => format!("…{text}"),
            (false, _) => text.into_owned(),
        };
        let trimmed = text.trim_end();
        (!trimmed.trim().is_empty()).then(|| trimmed.to_string())
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn small() -> Limits {
        Limits {
            max_body_bytes: 16,
            ..Limits::default()
        }
    }

    #[test]
    fn lines_are_split_across_chunks_and_cut_at_the_cap_without_growing() {
        let mut s = LineSplitter::new(&small());
        assert!(s.push(b"{\"a\":").is_empty());
        let lines = s.push(b"1}\r\nshort\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
        assert_eq!(lines[0].text, "{\"a\":1}");
        assert_eq!(lines[1].text, "short");
        assert!(s.buf.len() <= 16, "an endless line stays within the cap");
        let rest = s.push(b"yyyy\nend");
        assert_eq!(rest.len(), 1);
        assert!(rest[0].cut);
        assert_eq!(rest[0].text.len(), 16);
        assert_eq!(s.finish().map(|l| l.text), Some("end".into()));
        assert_eq!(s.finish(), None);
    }

    fn call(id: Option<i64>) -> Outgoing {
        Outgoing {
            step: crate::run::engine::Step::Probe(crate::vocabulary::probe::ProbeName::C),
            method: "STDIO",
            url: "stdio:node".into(),
            headers: Vec::new(),
            body: Some(match id {
                Some(id) => format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"lead_get","arguments":{{"id":"x"}}}}}}"#
                ),
                None => r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into(),
            }),
            with_token: false,
            expect_id: id.map(|i| serde_json::json!(i)),
            headers_only: false,
            intent: Some("C".into()),
            wave: 1,
        }
    }

    fn line(text: &str) -> Line {
        Line {
            text: text.into(),
            cut: false,
        }
    }

    fn judged(lines: &[&str], ending: Ending, id: Option<i64>) -> (Exchange, crate::Verdict) {
        let limits = Limits::default();
        let out = call(id);
        let mut w = Waiting::new(&out, 0.0);
        for l in lines {
            w.hear(line(l), 1.0, &limits);
        }
        let ex = w.into_exchange(&out, ending, 2.0, Some("Traceback: boom".into()));
        let v = crate::classify(&ex, &crate::Options::default());
        (ex, v)
    }

    #[test]
    fn a_process_that_exits_before_answering_is_server_exited_not_a_stop() {
        use crate::vocabulary::cause::{Cause, Channel};
        let exit = ProcessExit {
            code: Some(1),
            signal: None,
        };
        let (ex, v) = judged(&[], Ending::Closed(Some(exit)), Some(5));
        assert_eq!(
            (v.channel, v.cause),
            (Channel::Network, Cause::ServerExited)
        );
        assert!(
            v.evidence[0].fact.contains("exit status 1"),
            "{:?}",
            v.evidence
        );
        assert_eq!(ex.stop_reason(), None, "an exit is the server's answer");
        assert_eq!(v.carrier(), "stdio");
        let tail = ex.stdio.as_ref().and_then(|io| io.stderr_tail.clone());
        assert_eq!(tail.as_deref(), Some("Traceback: boom"));
        // A line that could not be written at all says so.
        let (_, v) = judged(&[], Ending::NotWritten(Some(exit)), Some(6));
        assert!(v.evidence[0].fact.contains("could not be written"));
    }

    #[test]
    fn log_lines_on_stdout_are_flagged_and_the_answer_still_decides() {
        use crate::vocabulary::cause::{Cause, Channel, Flag};
        let answer = r#"{"jsonrpc":"2.0","id":5,"result":{"isError":true,"content":[{"type":"text","text":"lead not found"}]}}"#;
        let (ex, v) = judged(&["tool call: lead_get", answer], Ending::Answered, Some(5));
        assert_eq!(
            (v.channel, v.cause),
            (Channel::ToolError, Cause::ToolExecution)
        );
        assert!(v.flags.contains(&Flag::NonJsonStdout));
        assert!(
            v.problems[0].contains("stdout line 1 is not JSON"),
            "{:?}",
            v.problems
        );
        assert_eq!(
            ex.stdio.as_ref().and_then(|io| io.stderr_tail.clone()),
            None,
            "no stderr for an answer"
        );
        // Without the log line there is no flag.
        let (_, clean) = judged(&[answer], Ending::Answered, Some(5));
        assert!(!clean.flags.contains(&Flag::NonJsonStdout));
    }

    #[test]
    fn silence_until_the_deadline_is_a_timeout_and_a_notification_is_accepted() {
        use crate::vocabulary::cause::{Cause, Channel, StopReason};
        let (ex, v) = judged(&[], Ending::Deadline, Some(5));
        assert_eq!(v.cause, Cause::Timeout);
        assert_eq!(ex.stop_reason(), Some(StopReason::Deadline));
        let (ex, v) = judged(&[], Ending::Answered, None);
        assert_eq!((v.channel, v.cause), (Channel::Accepted, Cause::None));
        assert_eq!(
            ex.stdio.and_then(|io| io.stderr_tail),
            None,
            "no stderr for a written notification"
        );
    }

    #[test]
    fn a_flood_of_other_lines_stops_the_wait_at_the_cap() {
        let limits = Limits {
            max_unrelated_messages: 3,
            ..Limits::default()
        };
        let out = call(Some(5));
        let mut w = Waiting::new(&out, 0.0);
        let heard: Vec<Heard> = (0..6)
            .map(|_| {
                w.hear(
                    line(r#"{"jsonrpc":"2.0","method":"notifications/message"}"#),
                    1.0,
                    &limits,
                )
            })
            .collect();
        assert_eq!(heard[2], Heard::Other);
        assert_eq!(heard[3], Heard::Full);
        assert_eq!(heard[5], Heard::Full);
        let ex = w.into_exchange(&out, Ending::Answered, 2.0, None);
        assert_eq!(ex.stdio.as_ref().map(|io| io.lines.len()), Some(4));
        assert_eq!(
            ex.stop_reason(),
            Some(crate::vocabulary::cause::StopReason::SizeCap)
        );
    }

    #[test]
    fn program_names_never_show_arguments_or_directories() {
        assert_eq!(program_name("/usr/local/bin/node"), "node");
        assert_eq!(program_name("C:\\tools\\uvx.exe"), "uvx.exe");
        assert_eq!(program_name("odd name\u{7}"), "oddname");
        assert_eq!(program_name("/"), "server");
        assert_eq!(endpoint_of("npx"), "stdio:npx");
    }

    #[test]
    fn the_stderr_tail_keeps_the_end_from_a_line_start() {
        let mut t = StderrTail::default();
        assert_eq!(t.text(), None);
        for i in 0..500 {
            t.push(format!("line {i}\n").as_bytes());
        }
        let text = t.text().unwrap_or_default();
        assert!(text.starts_with("…\nline "), "{}", &text[..20]);
        assert!(text.ends_with("line 499"));
        assert!(t.buf.len() <= STDERR_TAIL_BYTES);
    }
}
