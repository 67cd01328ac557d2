//! What came back: each exchange is judged, kept within the run's budgets, and moves the run on.

use std::sync::Arc;

use crate::vocabulary::header;
use serde_json::Value;

use super::config::{Era, MODERN, Mode, Progress};
use super::record::Record;
use super::report::discover_refusal;
use super::state::{CatalogueState, Engine, usable_session_id};
use crate::decode::reader;
use crate::judge::assess::{Assessment, assess};
use crate::judge::classify::Options;
use crate::run::catalogue::{self, SkipReason};
use crate::vocabulary::cause::{Flag, RunEnd};
use crate::vocabulary::exchange::{Exchange, Vantage};
use crate::vocabulary::probe::ProbeName;
use crate::vocabulary::protocol::ProtocolVersion;
use crate::vocabulary::step::{Outgoing, Step};

/// An answer [`Engine::read`] has redacted, for [`Engine::handle_read`].
#[derive(Debug)]
pub struct ReadAnswer {
    step: Step,
    exchange: Exchange,
    /// The session id as the server sent it (before redaction).
    raw_session: Option<String>,
    /// How many times the run's own secrets were in the answer.
    echoed: usize,
}

impl Engine {
    /// The Outgoing for our reply to a server-to-client request seen while reading `during`.
    pub fn reply(&mut self, request: &Value) -> Option<Outgoing> {
        let body = reader::reply_to_server_request(request)?;
        // Every answer is a POST with the token: a server cannot make the page send without end.
        if self.replies >= self.cfg.limits.max_replies_per_run {
            self.replies_refused += 1;
            return None;
        }
        self.replies += 1;
        let step = Step::Reply(self.replies);
        let stdio = self.stdio();
        let headers = if stdio {
            Vec::new()
        } else {
            self.headers("", None)
        };
        self.sent.push((step, 0));
        self.in_flight.push(step);
        Some(Outgoing {
            step,
            method: if stdio { "STDIO" } else { "POST" },
            url: self.cfg.endpoint.url.clone(),
            headers,
            body: Some(body.to_string()),
            with_token: !stdio,
            expect_id: None,
            headers_only: false,
            intent: None,
            wave: 0,
        })
    }

    pub(super) fn options(&self, intent: Option<&str>) -> Options {
        Options {
            intent: intent.map(str::to_string),
            negotiated_version: self.negotiated.clone(),
            limits: self.cfg.limits.clone(),
            missing_fields: self.missing_fields(intent),
        }
    }

    /// The required arguments the planned B call leaves out (none for other intents).
    pub(super) fn missing_fields(&self, intent: Option<&str>) -> Vec<String> {
        if intent != Some(ProbeName::B.as_str()) {
            return Vec::new();
        }
        let Some(choice) = self.planned[ProbeName::B.index()].choice.as_ref() else {
            return Vec::new();
        };
        self.tools
            .iter()
            .find(|t| t.name == choice.tool)
            .map(|t| {
                t.required
                    .iter()
                    .filter(|r| choice.arguments.get(r.as_str()).is_none())
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The shell contract: every request `poll` or [`Engine::reply`] handed out comes back here
    /// exactly once, whatever happened to it (an answer, a deadline, Cancel, a refusal), then the
    /// shell calls `poll` again.
    ///
    /// Hands back what happened to a request, as it came: [`Engine::read`], then
    /// [`Engine::handle_read`].
    pub fn handle(&mut self, step: Step, exchange: Exchange) {
        let read = self.read(step, exchange);
        self.handle_read(read);
    }

    /// The first half of [`Engine::handle`], which changes nothing in the run: the session id is
    /// read from the exchange verbatim (it is sent back as the server chose it), then the exchange
    /// is redacted before anything else reads it or it is recorded. A shell that must not hold
    /// the page for long calls this and [`Engine::handle_read`] in two tasks.
    pub fn read(&self, step: Step, mut exchange: Exchange) -> ReadAnswer {
        let raw_session = exchange
            .response
            .as_ref()
            .and_then(|r| r.header(header::SESSION_ID))
            .map(str::to_string);
        // Microseconds are all a clock can say: rounded, the time reads back from JSON as written
        // (a replayed report is byte for byte the report it was made from).
        exchange.elapsed_ms = exchange.elapsed_ms.map(|ms| (ms * 1000.0).round() / 1000.0);
        let echoed = crate::secrets::redact::redact_exchange(&mut exchange, &self.cfg.secrets);
        ReadAnswer {
            step,
            exchange,
            raw_session,
            echoed,
        }
    }

    /// The second half of [`Engine::handle`]: the redacted answer is judged, recorded and moves
    /// the run on. Only [`Engine::read`] makes a [`ReadAnswer`], so nothing unredacted gets here.
    pub fn handle_read(&mut self, read: ReadAnswer) {
        let ReadAnswer {
            step,
            mut exchange,
            raw_session,
            echoed,
        } = read;
        self.in_flight.retain(|s| *s != step);
        self.streaming.retain(|s| *s != step);
        match self.ended {
            Some(RunEnd::DeadlinePassed) => exchange.abort_was_deadline(),
            Some(RunEnd::Interrupted) => exchange.abort_was_interrupt(),
            _ => {}
        }
        if exchange.run_id.is_none() {
            exchange.run_id = self.run_id.clone();
        }
        let wave = self.wave_of(step).unwrap_or(0);
        let intent = step.intent();
        if exchange.intent.is_none() {
            exchange.intent = intent.map(str::to_string);
        }
        if exchange.negotiated_version.is_none() {
            exchange.negotiated_version = self.negotiated.clone();
        }
        // One decoding of the answer: the assessment's. A result counts when it is our response
        // (its id) in a 2xx answer.
        let assessment = self.assessment_of(step, &exchange, echoed > 0);
        let v = &assessment.verdict;
        // Over stdio there is no status: our response is the answer.
        let result = (v.response_matched
            && (exchange.is_stdio() || v.http_status.is_some_and(|s| (200..300).contains(&s))))
        .then(|| v.message.as_ref().and_then(|m| m.get("result")).cloned())
        .flatten();
        match step {
            Step::Discover => match result {
                Some(res) => {
                    self.speaking_modern = Some(true);
                    self.negotiated = Some(MODERN.to_string());
                    self.server_info = res
                        .pointer("/_meta/io.modelcontextprotocol~1serverInfo")
                        .or_else(|| res.get("serverInfo"))
                        .cloned();
                    if self.cfg.era == Era::Auto {
                        self.notes.push(
                            "auto: server/discover answered, so the run speaks 2026-07-28".into(),
                        );
                    }
                }
                None if self.cfg.era == Era::Auto => {
                    // The note (with the reason) is written once the answer is assessed, below.
                    self.speaking_modern = Some(false);
                }
                None => {}
            },
            Step::Initialize => match result {
                Some(res) => {
                    let v = res
                        .get("protocolVersion")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    self.negotiated = Some(if ProtocolVersion::parse(v).is_some() {
                        v.to_string()
                    } else {
                        self.requested_version.clone()
                    });
                    if v != self.requested_version {
                        self.notes.push(format!(
                            "asked for {} and the server answered {v:?}",
                            self.requested_version
                        ));
                    }
                    self.server_info = res.get("serverInfo").cloned();
                    // A session id that holds one of our secrets is never sent back (the token
                    // goes nowhere but the Authorization header).
                    let holds_secret =
                        |s: &str| crate::secrets::redact::redact_exact(s, &self.cfg.secrets).1 > 0;
                    match raw_session.as_deref() {
                        Some(s) if usable_session_id(s, &self.cfg.limits) && !holds_secret(s) => {
                            self.session = Some(s.to_string())
                        }
                        Some(_) => self.notes.push(
                            "the Mcp-Session-Id is not visible ASCII, is too long, or holds a secret, so it is not sent back".into(),
                        ),
                        None => {
                            if exchange.vantage == Vantage::Browser {
                                self.session_header_hidden = true;
                            }
                        }
                    }
                }
                None => self.connect_failed = true,
            },
            Step::ToolsList(page) => {
                self.pages = self.pages.max(page);
                match result {
                    Some(res) => {
                        let (tools, cursor) = catalogue::parse_tools(&res);
                        self.tools.extend(tools);
                        let room = page < 20 && self.tools.len() < 10_000;
                        match cursor {
                            Some(c) if room => self.cursor = Some(c),
                            Some(_) => {
                                self.notes.push(
                                    "the catalogue was cut at 20 pages or 10,000 tools".into(),
                                );
                                self.complete_catalogue();
                                self.catalogue = CatalogueState::Cut;
                            }
                            None => self.complete_catalogue(),
                        }
                    }
                    None => {
                        self.catalogue = CatalogueState::Failed;
                        for p in [ProbeName::B, ProbeName::C, ProbeName::D] {
                            self.set_choice(p, Err(SkipReason::CatalogueUnavailable));
                        }
                    }
                }
            }
            _ => {}
        }
        if step == Step::Discover
            && self.cfg.era == Era::Auto
            && self.speaking_modern == Some(false)
        {
            self.notes.push(format!(
                "auto: server/discover was refused ({}), so the run fell back to initialize (one extra round trip)",
                discover_refusal(&exchange, &assessment.verdict)
            ));
        }
        // The verdict is made from the whole body (under its own cap); only then does the run's
        // budget decide how much of it is kept.
        self.keep_within_run_budget(&mut exchange);
        self.records.push(Arc::new(Record {
            step,
            wave,
            exchange,
            assessment,
        }));
        self.reassess_once_negotiated();
    }

    /// The assessment of one answer, with what the run knows beside it: the negotiated version,
    /// whether the user pointed a probe at a tool tools/list does not list, whether it echoed a
    /// secret.
    pub(super) fn assessment_of(
        &self,
        step: Step,
        exchange: &Exchange,
        echoed: bool,
    ) -> Assessment {
        let options = self.options(exchange.intent.as_deref());
        let mut assessment = assess(exchange, &options);
        // B, C or D pointed (by the user) at a tool tools/list does not list tests an unknown tool:
        // what it gets back says nothing against the server.
        if let Step::Probe(p) = step
            && p != ProbeName::A
            && let Some(tool) = self.planned[p.index()].choice.as_ref().map(|c| &c.tool)
            && self.catalogue_read_whole()
            && !self.tools.iter().any(|t| &t.name == tool)
            && let Some(spec) = assessment.spec.as_mut()
        {
            spec.conformance = crate::judge::spec::Conformance::NotApplicable;
            spec.reason = format!(
                "probe {} called {tool}, which tools/list does not list: that tests an unknown tool, so this answer says nothing against the server",
                p.as_str()
            );
        }
        if echoed {
            assessment.add_flag(Flag::SecretEchoed, &options.missing_fields);
        }
        assessment
    }

    /// An answer that arrived before the protocol version was negotiated (the no-token check can
    /// overtake initialize) is assessed again once it is known: verdicts must not depend on which
    /// answer came first.
    pub(super) fn reassess_once_negotiated(&mut self) {
        let Some(version) = self.negotiated.clone() else {
            return;
        };
        for i in 0..self.records.len() {
            if self.records[i].exchange.negotiated_version.is_some() {
                continue;
            }
            let old = &self.records[i];
            let mut exchange = old.exchange.clone();
            exchange.negotiated_version = Some(version.clone());
            let echoed = old.assessment.verdict.flags.contains(&Flag::SecretEchoed);
            let assessment = self.assessment_of(old.step, &exchange, echoed);
            self.records[i] = Arc::new(Record {
                step: old.step,
                wave: old.wave,
                exchange,
                assessment,
            });
        }
    }

    /// Keeps the run's response bodies within [`Limits::max_kept_bytes_per_run`]: past it, a body
    /// keeps only what still fits (its head), and the report says how many were cut, in the run's
    /// own words. The body is not blamed: its ending stays as it was read (no size cap), and its
    /// verdict was made from the whole of it before.
    pub(super) fn keep_within_run_budget(&mut self, exchange: &mut Exchange) {
        if let Some(io) = exchange.stdio.as_mut() {
            // Stdio lines count against the same budget; past it, the lines that do not fit go.
            let mut room = self
                .cfg
                .limits
                .max_kept_bytes_per_run
                .saturating_sub(self.kept_bytes);
            let before = io.lines.len();
            io.lines.retain(|l| {
                let fits = l.len() <= room;
                if fits {
                    room -= l.len();
                }
                fits
            });
            if io.lines.len() < before {
                self.bodies_cut += 1;
            }
            self.kept_bytes += io.lines.iter().map(String::len).sum::<usize>();
        }
        let Some(r) = exchange.response.as_mut() else {
            return;
        };
        let room = self
            .cfg
            .limits
            .max_kept_bytes_per_run
            .saturating_sub(self.kept_bytes);
        let mut cut = false;
        if let Some(body) = r.body.as_mut()
            && body.len() > room
        {
            let mut at = room;
            while !body.is_char_boundary(at) {
                at -= 1;
            }
            body.truncate(at);
            cut = true;
        }
        if r.body_base64.as_ref().is_some_and(|b| b.len() > room) {
            r.body_base64 = None;
            cut = true;
        }
        if cut {
            self.bodies_cut += 1;
            r.body_complete = Some(false);
        }
        self.kept_bytes += r.body.as_ref().map_or(0, String::len);
    }

    pub(super) fn complete_catalogue(&mut self) {
        self.catalogue = CatalogueState::Complete;
        let b = catalogue::choose_b(&self.tools);
        let c = catalogue::choose_c(&self.tools);
        let d = catalogue::choose_d(&self.tools);
        self.set_choice(ProbeName::B, b);
        self.set_choice(ProbeName::C, c);
        self.set_choice(ProbeName::D, d);
        if self.cfg.mode == Mode::Quick {
            self.propose();
        }
        // A's name was drawn before the catalogue was known: redraw if it collides.
        if let Some(a) = &self.planned[0].choice
            && self.tools.iter().any(|t| t.name == a.tool)
            && !self.was_sent(Step::Probe(ProbeName::A))
        {
            self.planned[0].choice = None;
            self.plan_a();
        }
    }

    /// Everything recorded so far.
    pub fn records(&self) -> &[Arc<Record>] {
        &self.records
    }

    /// How many requests are in flight (replies to server requests included): sent by the shell and
    /// not yet handed back with [`Engine::handle`].
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// The shell saw the response headers of a request in flight.
    pub fn headers_arrived(&mut self, step: Step) {
        if self.in_flight.contains(&step) && !self.streaming.contains(&step) {
            self.streaming.push(step);
        }
    }

    /// Where each request of the run stands, in the order they were sent.
    pub fn progress(&self) -> Vec<(Step, Progress)> {
        let mut out: Vec<(Step, Progress)> = Vec::new();
        for (step, _) in &self.sent {
            if out.iter().any(|(s, _)| s == step) {
                continue;
            }
            out.push((*step, self.progress_of(*step)));
        }
        out
    }

    /// Where one request stands.
    pub fn progress_of(&self, step: Step) -> Progress {
        use crate::vocabulary::cause::StopReason;
        if self.in_flight.contains(&step) {
            return if self.streaming.contains(&step) {
                Progress::Streaming
            } else {
                Progress::Sending
            };
        }
        match self.records.iter().rev().find(|r| r.step == step) {
            None => Progress::Sending,
            Some(r) => match r.exchange.stop_reason() {
                Some(StopReason::Deadline) => Progress::TimedOut,
                Some(StopReason::Cancelled | StopReason::Interrupted) => Progress::Aborted,
                _ => {
                    let v = &r.assessment.verdict;
                    Progress::Done(format!("{} / {}", v.channel, v.cause))
                }
            },
        }
    }

    /// The catalogue has been asked for: connecting is over and the run is under way.
    pub(super) fn past_connect(&self) -> bool {
        self.records
            .iter()
            .any(|r| matches!(r.step, Step::ToolsList(_)))
    }
}
