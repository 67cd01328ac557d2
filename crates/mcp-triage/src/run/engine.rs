//! The probe plan as a sans-IO state machine: given what has been received and the time now, which
//! requests to send next. The shell (browser module or a test) sends them and hands back exchanges.
//!
//! Connect per era, then run probe A alongside `tools/list` and B, C, D together once the catalogue is
//! known, with the transport checks (no token, GET) beside them. Wave targets (sequential rounds of
//! non-OPTIONS requests up to the last probe response, leaving out paging beyond the first page and the
//! closing DELETE): legacy stateless 3, legacy stateful 4, +1 with auto, 2026-07-28 2.

use std::sync::Arc;

use crate::vocabulary::header;
use serde::Serialize;
use serde_json::{Value, json};

use crate::decode::reader;
use crate::judge::assess::{Assessment, assess};
use crate::judge::classify::{KNOWN_VERSIONS, Options};
use crate::judge::spec::{self, Probe, SpecVerdict};
use crate::judge::summary::{self, RunSummary};
use crate::run::catalogue::{self, Choice, SkipReason, ToolInfo, ToolRisk};
use crate::vocabulary::cause::{Flag, Interrupt, RunEnd};
use crate::vocabulary::exchange::{Exchange, Transport, Vantage};
use crate::vocabulary::limits::Limits;

/// The version a legacy connection asks for by default.
pub const DEFAULT_LEGACY: &str = "2025-11-25";
/// The stateless era.
pub const MODERN: &str = "2026-07-28";

/// Which protocol era to speak.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Era {
    /// `initialize` asking for this version (2025-03-26, 2025-06-18 or 2025-11-25).
    Legacy(String),
    /// 2026-07-28: no initialize, `server/discover`, `_meta` on every request.
    Modern,
    /// `server/discover` first, falling back to `initialize` when refused.
    Auto,
}

/// The eras a user can pick: the value (what [`Era::parse`] reads) and its label, the default first.
pub const ERA_CHOICES: &[(&str, &str)] = &[
    ("2025-11-25", "Legacy 2025-11-25 (default)"),
    ("2025-06-18", "Legacy 2025-06-18"),
    ("2025-03-26", "Legacy 2025-03-26"),
    (MODERN, "2026-07-28 (stateless)"),
    ("auto", "Auto: try 2026-07-28, fall back"),
];

impl Era {
    /// Parses a value of [`ERA_CHOICES`]: a version, `2026-07-28`, or `auto`.
    pub fn parse(text: &str) -> Option<Era> {
        match text {
            "auto" => Some(Era::Auto),
            MODERN => Some(Era::Modern),
            "2025-03-26" | "2025-06-18" | "2025-11-25" => Some(Era::Legacy(text.to_string())),
            _ => None,
        }
    }

    /// The era of the first (default) choice.
    pub fn default_choice() -> Era {
        Era::Legacy(ERA_CHOICES[0].0.to_string())
    }
}

labelled_enum! {
    /// Quick check runs straight through; Review first stops after the catalogue for the user's edits.
    Mode {
        /// Connect and run the default (safe) plan without stopping.
        Quick = "quick",
        /// Stop after the catalogue so every payload can be reviewed, edited or skipped.
        Review = "review",
    }
}

pub use crate::vocabulary::cause::ProbeName;
pub use crate::vocabulary::step::{Outgoing, Step};

impl ProbeName {
    /// The spec probe.
    pub fn probe(self) -> Probe {
        match self {
            ProbeName::A => Probe::A,
            ProbeName::B => Probe::B,
            ProbeName::C => Probe::C,
            ProbeName::D => Probe::D,
        }
    }
}

/// What the shell should do after a poll.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Poll {
    /// Requests to send now, in this order.
    pub send: Vec<Outgoing>,
    /// Abort everything in flight (the run deadline passed).
    pub abort_all: bool,
    /// Nothing more will be sent and nothing is in flight.
    pub done: bool,
}

/// The engine's configuration.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// The endpoint URL (already checked with [`crate::run::endpoint::parse_endpoint`]).
    pub endpoint: String,
    /// Which era to speak.
    pub era: Era,
    /// Quick or review.
    pub mode: Mode,
    /// A token was given (enables the no-token check).
    pub has_token: bool,
    /// Randomness for probe A's tool name.
    pub random: u64,
    /// Caps and deadlines.
    pub limits: Limits,
    /// This tool's version, sent as clientInfo.
    pub client_version: String,
    /// The run's secrets: every exchange is redacted with them the moment [`Engine::handle`] gets it.
    pub secrets: crate::secrets::redact::Secrets,
    /// Streamable HTTP, or a child process over stdio (then there are no headers, no token, no
    /// GET stream and no session to close: only the JSON-RPC lines).
    pub transport: Transport,
}

/// A probe as planned: the tool, the payload, or why it is skipped.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlannedProbe {
    /// Which probe.
    pub probe: ProbeName,
    /// The chosen call.
    pub choice: Option<Choice>,
    /// The JSON-RPC id reserved for it.
    pub id: i64,
    /// Why it will not run.
    pub skipped: Option<SkipReason>,
    /// The exact request body that will be sent.
    pub payload: Option<String>,
    /// The chosen tool's risk by its own annotations.
    pub risk: Option<ToolRisk>,
}

/// A user's change to one probe in Review first.
#[derive(Debug, Clone, PartialEq)]
pub enum ProbeEdit {
    /// Leave as planned.
    Keep,
    /// Do not send it.
    Skip,
    /// Call this tool with these arguments; `opt_in` must be true for a tool not declared read-only.
    Replace {
        tool: String,
        arguments: Value,
        opt_in: bool,
    },
}

impl PlannedProbe {
    /// "Probe D skipped: why; what to do", when it was skipped (the Markdown and the command line
    /// say the same).
    pub fn skip_line(&self) -> Option<String> {
        self.skipped.map(|why| {
            format!(
                "Probe {} skipped: {}{}",
                self.probe.as_str(),
                why.describe(),
                why.next_step()
                    .map(|n| format!("; {n}"))
                    .unwrap_or_default()
            )
        })
    }
}

/// Where one request of a run stands, for a progress list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// Sent, waiting for response headers.
    Sending,
    /// Headers arrived; reading the body or stream.
    Streaming,
    /// Read: its channel and cause (`tool_error / unknown_tool`).
    Done(String),
    /// A deadline stopped it.
    TimedOut,
    /// Cancel stopped it.
    Aborted,
}

/// One recorded exchange with its assessment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Record {
    /// The step.
    pub step: Step,
    /// Its round.
    pub wave: u32,
    /// What went over the wire (redacted by the shell before it gets here).
    pub exchange: Exchange,
    /// The classification.
    pub assessment: Assessment,
}

impl Record {
    /// The `resource_metadata` URL this answer's challenge names, which the user may fetch.
    pub fn resource_metadata_url(&self) -> Option<&str> {
        self.assessment
            .verdict
            .challenge
            .as_ref()
            .and_then(|c| c.param("resource_metadata"))
    }

    /// The JSON a card shows as the answer: our JSON-RPC response (or the frame that stood in for
    /// it), or, for the resource metadata, the document itself.
    pub fn shown_json(&self) -> Option<Value> {
        if let Some(m) = &self.assessment.verdict.message {
            return Some(m.clone());
        }
        if self.step != Step::ResourceMetadata {
            return None;
        }
        let body = self.exchange.response.as_ref()?.body.as_deref()?;
        serde_json::from_str(body).ok()
    }
}

/// The request for the resource metadata a 401 named: a GET without the token, only on the
/// endpoint's own origin (a server must not make the page call elsewhere).
pub fn resource_metadata_request(url: &str, endpoint_origin: &str) -> Result<Outgoing, String> {
    let same_origin = url == endpoint_origin || url.starts_with(&format!("{endpoint_origin}/"));
    if !same_origin {
        return Err(format!(
            "not fetched: {url} is not on the endpoint's origin {endpoint_origin}"
        ));
    }
    Ok(Outgoing {
        step: Step::ResourceMetadata,
        method: "GET",
        url: url.to_string(),
        headers: vec![("Accept".into(), "application/json".into())],
        body: None,
        with_token: false,
        expect_id: None,
        headers_only: false,
        intent: Some("resource_metadata".into()),
        wave: 0,
    })
}

/// The record of a resource-metadata fetch (the exchange redacted by the caller, as every exchange).
pub fn resource_metadata_record(exchange: Exchange) -> Record {
    let assessment = assess(&exchange, &Options::default());
    Record {
        step: Step::ResourceMetadata,
        wave: 0,
        exchange,
        assessment,
    }
}

/// The state of a run.
#[derive(Debug, Clone)]
pub struct Engine {
    cfg: EngineConfig,
    next_id: i64,
    started_ms: Option<f64>,
    sent: Vec<(Step, u32)>,
    in_flight: Vec<Step>,
    /// In-flight steps whose response headers arrived (the shell says so).
    streaming: Vec<Step>,
    records: Vec<Arc<Record>>,
    requested_version: String,
    negotiated: Option<String>,
    session: Option<String>,
    session_header_hidden: bool,
    speaking_modern: Option<bool>,
    connect_failed: bool,
    tools: Vec<ToolInfo>,
    cursor: Option<String>,
    pages: u32,
    catalogue: CatalogueState,
    planned: [PlannedProbe; 4],
    review_applied: bool,
    /// Quick check's consent step: proposals for B, C and D where no declared read-only tool fits.
    consent: ConsentState,
    proposals: [Option<Proposal>; 4],
    server_info: Option<Value>,
    ended: Option<RunEnd>,
    replies: u32,
    /// Server requests left unanswered because the run's reply cap was reached.
    replies_refused: u32,
    /// Response body bytes kept so far in this run.
    kept_bytes: usize,
    /// Bodies cut to their head because the run's kept-bytes cap was reached.
    bodies_cut: u32,
    notes: Vec<String>,
    /// The id every exchange this run records carries (see [`Engine::run_id`]).
    run_id: Option<String>,
    /// The signal that interrupted the run, if one did before it ended.
    interrupted_by: Option<Interrupt>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ConsentState {
    /// Every probe had a declared read-only tool, or nothing could be proposed, or Review first.
    NotNeeded,
    /// Waiting for the user's answer.
    Asking,
    /// Answered: "Run with these" (true) or "Only probe A" (false).
    Answered(bool),
}

/// A call proposed for the user's OK, with the id and the exact body it will be sent with.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proposal {
    /// The proposed call.
    pub choice: Choice,
    /// The JSON-RPC id reserved for it.
    pub id: i64,
    /// The exact request body, as it will be sent.
    pub payload: String,
    /// The tool as the catalogue describes it (its annotations as declared).
    pub tool: Option<ToolInfo>,
}

/// One probe in the consent step: what is proposed, or why nothing fits.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConsentRow {
    /// Which probe.
    pub probe: ProbeName,
    /// The proposal, when a tool fits.
    pub proposal: Option<Proposal>,
    /// Why no declared read-only tool was chosen (and, without a proposal, why nothing runs).
    pub reason: Option<SkipReason>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CatalogueState {
    Pending,
    /// Every page of `tools/list` was read.
    Complete,
    /// Cut at the page or tool limit: tools past the cut are unknown.
    Cut,
    Failed,
}

fn planned(probe: ProbeName) -> PlannedProbe {
    PlannedProbe {
        probe,
        choice: None,
        id: 0,
        skipped: None,
        payload: None,
        risk: None,
    }
}

/// Why a probe calls what it calls when Review first (or a plan file) chose the call: the mark a
/// replay reads to make the same edit.
pub(crate) const CHOSEN_BY_YOU: &str = "chosen by you";

/// A run's id from the shell's randomness: 16 hex digits of a SplitMix64 step (mixed, but not secret:
/// it says what the randomness says, which the shells draw from the OS or the browser's crypto).
fn run_id_of(random: u64) -> String {
    let mut z = random.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    crate::vocabulary::exchange::run_id_text(z ^ (z >> 31))
}

/// A session id we are willing to send back: visible ASCII, bounded.
pub fn usable_session_id(value: &str, limits: &Limits) -> bool {
    !value.is_empty()
        && !value.contains(crate::secrets::redact::MARK)
        && value.len() <= limits.max_session_id_bytes
        && value.bytes().all(|b| (0x21..=0x7e).contains(&b))
}

impl Engine {
    /// A new run.
    pub fn new(cfg: EngineConfig) -> Engine {
        let requested_version = match &cfg.era {
            Era::Legacy(v) => v.clone(),
            Era::Modern => MODERN.to_string(),
            Era::Auto => DEFAULT_LEGACY.to_string(),
        };
        let cfg_random = cfg.random;
        Engine {
            cfg,
            next_id: 1,
            started_ms: None,
            sent: Vec::new(),
            in_flight: Vec::new(),
            streaming: Vec::new(),
            records: Vec::new(),
            requested_version,
            negotiated: None,
            session: None,
            session_header_hidden: false,
            speaking_modern: None,
            connect_failed: false,
            tools: Vec::new(),
            cursor: None,
            pages: 0,
            catalogue: CatalogueState::Pending,
            planned: std::array::from_fn(|i| planned(ProbeName::ALL[i])),
            review_applied: false,
            consent: ConsentState::NotNeeded,
            proposals: [None, None, None, None],
            server_info: None,
            ended: None,
            replies: 0,
            replies_refused: 0,
            kept_bytes: 0,
            bodies_cut: 0,
            notes: Vec::new(),
            run_id: Some(run_id_of(cfg_random)),
            interrupted_by: None,
        }
    }

    /// The run's id: 16 hex digits derived from the shell's randomness, written into every
    /// exchange the run records (`run_id` in `mcp-exchange/1`), so captures of different runs are
    /// told apart. A replay sets the recording's own id instead (or none).
    pub fn run_id(&self) -> Option<&str> {
        self.run_id.as_deref()
    }

    /// Replaces the run's id (a replay keeps the id of the run it replays, or has none).
    pub fn set_run_id(&mut self, id: Option<String>) {
        self.run_id = id;
    }

    fn id(&mut self) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    fn wave_of(&self, step: Step) -> Option<u32> {
        self.sent.iter().find(|(s, _)| *s == step).map(|(_, w)| *w)
    }

    fn was_sent(&self, step: Step) -> bool {
        self.sent.iter().any(|(s, _)| *s == step)
    }

    fn is_done(&self, step: Step) -> bool {
        self.was_sent(step) && !self.in_flight.contains(&step)
    }

    fn modern(&self) -> bool {
        self.speaking_modern == Some(true)
    }

    fn stdio(&self) -> bool {
        self.cfg.transport == Transport::Stdio
    }

    /// Requests are shaped as 2026-07-28 asks (`_meta`, `Mcp-Method`, the version header): when the
    /// run speaks it, and for auto's `server/discover`, which a server of that era only answers
    /// when it is shaped so.
    fn shaped_modern(&self) -> bool {
        self.modern() || (self.cfg.era == Era::Auto && self.speaking_modern.is_none())
    }

    fn meta() -> Value {
        json!({
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
        })
    }

    fn headers(&self, method: &str, name: Option<&str>) -> Vec<(String, String)> {
        let mut h = vec![
            ("Content-Type".to_string(), "application/json".to_string()),
            (
                "Accept".to_string(),
                "application/json, text/event-stream".to_string(),
            ),
        ];
        if self.shaped_modern() {
            h.push((header::PROTOCOL_VERSION.into(), MODERN.into()));
            h.push((header::METHOD.into(), method.into()));
            if let Some(n) = name {
                h.push((header::NAME.into(), n.into()));
            }
        } else if let Some(v) = &self.negotiated {
            h.push((header::PROTOCOL_VERSION.into(), v.clone()));
        }
        if let Some(s) = &self.session {
            h.push((header::SESSION_ID.into(), s.clone()));
        }
        h
    }

    fn request_body(&self, id: Option<i64>, method: &str, mut params: Value) -> String {
        if self.shaped_modern()
            && let Some(obj) = params.as_object_mut()
        {
            obj.insert("_meta".into(), Self::meta());
        }
        let mut msg = json!({"jsonrpc": "2.0", "method": method});
        if let Some(id) = id {
            msg["id"] = json!(id);
        }
        if !params.as_object().is_some_and(|o| o.is_empty()) || self.shaped_modern() {
            msg["params"] = params;
        }
        msg.to_string()
    }

    fn outgoing(
        &mut self,
        step: Step,
        wave: u32,
        method: &str,
        id: Option<i64>,
        params: Value,
        name: Option<&str>,
    ) -> Outgoing {
        let body = self.request_body(id, method, params);
        let stdio = self.stdio();
        let headers = if stdio {
            Vec::new()
        } else {
            self.headers(method, name)
        };
        self.sent.push((step, wave));
        self.in_flight.push(step);
        Outgoing {
            step,
            method: if stdio { "STDIO" } else { "POST" },
            url: self.cfg.endpoint.clone(),
            headers,
            body: Some(body),
            with_token: !stdio,
            expect_id: id.map(|i| json!(i)),
            headers_only: false,
            intent: match step {
                Step::Probe(p) => Some(p.as_str().into()),
                Step::NoToken => Some("no_token".into()),
                Step::Get => Some("get".into()),
                _ => None,
            },
            wave,
        }
    }

    fn connect_params(&self) -> (&'static str, Value) {
        if self.modern() || (self.cfg.era == Era::Auto && self.speaking_modern.is_none()) {
            ("server/discover", json!({}))
        } else {
            (
                "initialize",
                json!({
                    "protocolVersion": self.requested_version,
                    "capabilities": {},
                    "clientInfo": {"name": "mcp-triage", "version": self.cfg.client_version},
                }),
            )
        }
    }

    /// When the shell must call [`Engine::poll`] again even if nothing arrives: the run's
    /// deadline (on the shell's clock, once the run has started and until it has ended). A shell
    /// arms one timer for it, as for a request's [`crate::decode::reader::RequestClock`].
    pub fn poll_timeout(&self) -> Option<f64> {
        if self.ended.is_some() {
            return None;
        }
        self.started_ms
            .map(|s| s + self.cfg.limits.run_total_ms as f64 + 1.0)
    }

    /// Requests to send now. `now_ms` is the shell's clock; the run deadline is checked against it.
    ///
    /// The shell contract (ARCHITECTURE.md): call `poll` at the start, after every
    /// [`Engine::handle`], after the user answers a review or consent step, and when
    /// [`Engine::poll_timeout`] comes; send every request it returns as it is, abort everything in
    /// flight when `abort_all`, and stop when `done`.
    pub fn poll(&mut self, now_ms: f64) -> Poll {
        let started = *self.started_ms.get_or_insert(now_ms);
        if self.ended.is_none() && now_ms - started > self.cfg.limits.run_total_ms as f64 {
            self.end(RunEnd::DeadlinePassed);
            return Poll {
                send: Vec::new(),
                abort_all: true,
                done: self.in_flight.is_empty(),
            };
        }
        let mut send = Vec::new();
        if self.ended.is_some() {
            return Poll {
                send,
                abort_all: false,
                done: self.in_flight.is_empty(),
            };
        }

        let base_wave = self.connect(&mut send);
        if self.speaking_modern.is_none() {
            // Auto: wait for discover to say which era.
            return self.finish_poll(send);
        }
        if self.connect_failed {
            // A GET tells an endpoint of the old HTTP+SSE transport (2024-11-05) from a broken one.
            if !self.was_sent(Step::Get) && !self.stdio() {
                send.push(self.get_request(base_wave + 1));
            } else if self.in_flight.is_empty() {
                self.end(RunEnd::ConnectFailed);
            }
            return self.finish_poll(send);
        }

        // After connecting: when may the catalogue and probe A go out, and in which wave?
        let list_wave = if self.modern() {
            if self.cfg.era == Era::Auto {
                Some(2)
            } else {
                Some(1)
            }
        } else if self.negotiated.is_some() {
            let init_wave = self.wave_of(Step::Initialize).unwrap_or(1);
            if !self.was_sent(Step::Initialized) {
                let w = init_wave + 1;
                send.push(self.outgoing(
                    Step::Initialized,
                    w,
                    "notifications/initialized",
                    None,
                    json!({}),
                    None,
                ));
            }
            if self.session.is_some() {
                // Some servers refuse requests that overtake notifications/initialized.
                self.is_done(Step::Initialized).then_some(init_wave + 2)
            } else {
                Some(init_wave + 1)
            }
        } else {
            None
        };
        let Some(list_wave) = list_wave else {
            return self.finish_poll(send);
        };

        if !self.was_sent(Step::ToolsList(1)) {
            let id = self.id();
            send.push(self.outgoing(
                Step::ToolsList(1),
                list_wave,
                "tools/list",
                Some(id),
                json!({}),
                None,
            ));
            if !self.was_sent(Step::Get) && !self.stdio() {
                send.push(self.get_request(list_wave));
            }
            self.plan_a();
        }
        if let Some(cursor) = self.cursor.take() {
            let page = self.pages + 1;
            let id = self.id();
            send.push(self.outgoing(
                Step::ToolsList(page),
                list_wave,
                "tools/list",
                Some(id),
                json!({"cursor": cursor}),
                None,
            ));
        }
        let review_wait = self.cfg.mode == Mode::Review && !self.review_applied;
        if !review_wait {
            self.send_probe(ProbeName::A, list_wave, &mut send);
        }
        if self.catalogue != CatalogueState::Pending && !review_wait {
            for p in [ProbeName::B, ProbeName::C, ProbeName::D] {
                self.send_probe(p, list_wave + 1, &mut send);
            }
        }
        // Close the session once everything else is done: not while the consent step may still
        // send B, C and D on it.
        let probes_done = !self.waiting_for_consent()
            && ProbeName::ALL.iter().all(|p| {
                let pl = &self.planned[p.index()];
                pl.skipped.is_some() || self.is_done(Step::Probe(*p))
            });
        if probes_done
            && self.session.is_some()
            && !self.was_sent(Step::Delete)
            && self.in_flight.is_empty()
        {
            let mut del = self.outgoing(Step::Delete, 0, "DELETE", None, json!({}), None);
            del.method = "DELETE";
            del.body = None;
            del.headers.retain(|(k, _)| k != "Content-Type");
            send.push(del);
        }
        self.finish_poll(send)
    }

    /// The run's connect requests, the first its first [`Engine::poll`] sends: the connect request
    /// of `cfg`'s era and the no-token check. For a legacy or auto run that is the whole first
    /// poll; a 2026-07-28 run's first poll goes on with the tool list, the GET check and probe A.
    /// A shell that starts a run before its engine is there (the page's boot module, at the click)
    /// sends these: the decision is the one `poll` makes, without the rest of the run in the
    /// shell's code.
    pub fn first_requests(cfg: EngineConfig) -> Vec<Outgoing> {
        let mut engine = Engine::new(cfg);
        let mut send = Vec::new();
        engine.connect(&mut send);
        send
    }

    /// Connect: the connect request of the run's era (discover or initialize) and the no-token
    /// check, each once. Returns the connect request's wave.
    fn connect(&mut self, send: &mut Vec<Outgoing>) -> u32 {
        if self.speaking_modern.is_none() {
            self.speaking_modern = match self.cfg.era {
                Era::Modern => Some(true),
                Era::Legacy(_) => Some(false),
                Era::Auto => None,
            };
        }
        let connect_step = if self.modern() || self.speaking_modern.is_none() {
            Step::Discover
        } else {
            Step::Initialize
        };
        let base_wave = if self.cfg.era == Era::Auto && connect_step == Step::Initialize {
            2
        } else {
            1
        };
        if !self.was_sent(connect_step) {
            let id = self.id();
            let (method, params) = self.connect_params();
            send.push(self.outgoing(connect_step, base_wave, method, Some(id), params, None));
        }
        // The no-token check repeats the connect request of the run's era without the token; auto
        // sends it once discover has said which era (a bare discover to a legacy server would
        // report "method not found", not how it treats a missing token).
        if self.speaking_modern.is_some()
            && self.cfg.has_token
            && !self.stdio()
            && !self.was_sent(Step::NoToken)
        {
            let id = self.id();
            let wave = if self.cfg.era == Era::Auto && connect_step == Step::Discover {
                base_wave + 1
            } else {
                base_wave
            };
            let (method, params) = self.connect_params();
            let mut out = self.outgoing(Step::NoToken, wave, method, Some(id), params, None);
            out.with_token = false;
            send.push(out);
        }
        base_wave
    }

    fn finish_poll(&mut self, send: Vec<Outgoing>) -> Poll {
        let done = send.is_empty()
            && self.in_flight.is_empty()
            && !self.waiting_for_review()
            && !self.waiting_for_consent();
        if done && self.ended.is_none() {
            self.ended = Some(RunEnd::Complete);
        }
        Poll {
            send,
            abort_all: false,
            done,
        }
    }

    fn get_request(&mut self, wave: u32) -> Outgoing {
        let mut headers = self.headers("", None);
        headers.retain(|(k, _)| k != "Content-Type" && k != header::METHOD);
        for h in headers.iter_mut() {
            if h.0 == "Accept" {
                h.1 = "text/event-stream".into();
            }
        }
        self.sent.push((Step::Get, wave));
        self.in_flight.push(Step::Get);
        Outgoing {
            step: Step::Get,
            method: "GET",
            url: self.cfg.endpoint.clone(),
            headers,
            body: None,
            with_token: true,
            expect_id: None,
            headers_only: true,
            intent: Some("get".into()),
            wave,
        }
    }

    fn plan_a(&mut self) {
        if self.planned[0].choice.is_some() || self.planned[0].skipped.is_some() {
            return;
        }
        let name = catalogue::unknown_tool_name(self.cfg.random, &self.tools);
        let choice = Choice {
            tool: name,
            arguments: json!({}),
            why: "a name that is certainly not in the catalogue".into(),
        };
        self.set_choice(ProbeName::A, Ok(choice));
    }

    /// For each of B, C and D without a declared read-only tool, a proposal for the user's OK; asks
    /// when there is at least one.
    fn propose(&mut self) {
        for p in [ProbeName::B, ProbeName::C, ProbeName::D] {
            if !self.planned[p.index()]
                .skipped
                .is_some_and(SkipReason::no_declared_read_only_tool)
            {
                continue;
            }
            let Some(choice) = catalogue::propose(p, &self.tools) else {
                continue;
            };
            let id = self.id();
            let payload = self.request_body(
                Some(id),
                "tools/call",
                json!({"name": choice.tool, "arguments": choice.arguments}),
            );
            let tool = self.tools.iter().find(|t| t.name == choice.tool).cloned();
            self.proposals[p.index()] = Some(Proposal {
                choice,
                id,
                payload,
                tool,
            });
        }
        if self.proposals.iter().any(Option::is_some) {
            self.consent = ConsentState::Asking;
        }
    }

    /// The consent step's rows: every probe of B, C and D with no declared read-only tool.
    pub fn consent_rows(&self) -> Vec<ConsentRow> {
        [ProbeName::B, ProbeName::C, ProbeName::D]
            .into_iter()
            .filter(|p| {
                self.proposals[p.index()].is_some()
                    || self.planned[p.index()]
                        .skipped
                        .is_some_and(SkipReason::no_declared_read_only_tool)
            })
            .map(|p| ConsentRow {
                probe: p,
                proposal: self.proposals[p.index()].clone(),
                reason: self.planned[p.index()].skipped,
            })
            .collect()
    }

    fn waiting_for_consent(&self) -> bool {
        self.consent == ConsentState::Asking && self.ended.is_none() && !self.connect_failed
    }

    /// The plan this run would send, as a plan file's entries for a person to read and commit:
    /// each probe's declared read-only choice, else the consent step's proposal (its `opt_in`
    /// false: whoever commits the plan sets it to agree), else skipped with nothing to call.
    pub fn proposed_plan(&self) -> Vec<crate::run::plan_file::PlanEntry> {
        ProbeName::ALL
            .iter()
            .map(|p| {
                let planned = &self.planned[p.index()];
                let choice = planned
                    .choice
                    .as_ref()
                    .filter(|_| planned.skipped.is_none())
                    .or_else(|| self.proposals[p.index()].as_ref().map(|x| &x.choice));
                crate::run::plan_file::PlanEntry {
                    probe: *p,
                    skip: choice.is_none(),
                    tool: choice.map(|c| c.tool.clone()),
                    arguments: choice.map(|c| c.arguments.clone()),
                    opt_in: false,
                }
            })
            .collect()
    }

    /// True when Quick check waits at the consent step and nothing is in flight: the shell shows
    /// the step. Requests that need no consent (A, the transport checks) were sent as usual.
    pub fn awaiting_consent(&self) -> bool {
        self.waiting_for_consent() && self.in_flight.is_empty()
    }

    /// The user's answer: "Run with these" (`true`) calls the proposals, "Only probe A" (`false`)
    /// skips them. The run deadline restarts: the time spent reading does not count.
    pub fn answer_consent(&mut self, run_them: bool) {
        if self.consent != ConsentState::Asking {
            return;
        }
        for p in [ProbeName::B, ProbeName::C, ProbeName::D] {
            let Some(proposal) = self.proposals[p.index()].clone() else {
                continue;
            };
            if run_them {
                let mut choice = proposal.choice;
                choice.why.push_str("; you agreed");
                self.set_choice_as(p, Ok(choice), proposal.id);
            } else {
                self.set_choice(p, Err(SkipReason::SkippedByUser));
            }
        }
        self.consent = ConsentState::Answered(run_them);
        self.started_ms = None;
    }

    fn set_choice(&mut self, probe: ProbeName, choice: Result<Choice, SkipReason>) {
        let id = self.id();
        self.set_choice_as(probe, choice, id);
    }

    fn set_choice_as(&mut self, probe: ProbeName, choice: Result<Choice, SkipReason>, id: i64) {
        let risk = choice.as_ref().ok().and_then(|c| {
            self.tools
                .iter()
                .find(|t| t.name == c.tool)
                .map(ToolInfo::risk)
        });
        let payload = choice.as_ref().ok().map(|c| {
            self.request_body(
                Some(id),
                "tools/call",
                json!({"name": c.tool, "arguments": c.arguments}),
            )
        });
        let p = &mut self.planned[probe.index()];
        p.id = id;
        p.risk = risk;
        p.payload = payload;
        match choice {
            Ok(c) => {
                p.choice = Some(c);
                p.skipped = None;
            }
            Err(reason) => {
                p.choice = None;
                p.skipped = Some(reason);
            }
        }
    }

    fn send_probe(&mut self, probe: ProbeName, wave: u32, send: &mut Vec<Outgoing>) {
        let step = Step::Probe(probe);
        if self.was_sent(step) {
            return;
        }
        let p = self.planned[probe.index()].clone();
        if p.skipped.is_some() {
            return;
        }
        let Some(choice) = p.choice else { return };
        let out = self.outgoing(
            step,
            wave,
            "tools/call",
            Some(p.id),
            json!({"name": choice.tool, "arguments": choice.arguments}),
            Some(&choice.tool),
        );
        send.push(out);
    }

    fn waiting_for_review(&self) -> bool {
        self.cfg.mode == Mode::Review
            && !self.review_applied
            && self.ended.is_none()
            && !self.connect_failed
            && self.catalogue != CatalogueState::Pending
    }

    /// True when Review first is waiting for the user's edits.
    pub fn awaiting_review(&self) -> bool {
        self.waiting_for_review()
            && self
                .in_flight
                .iter()
                .all(|s| matches!(s, Step::Get | Step::NoToken))
    }

    /// The plan as it stands (choices, payloads, skip reasons).
    pub fn plan(&self) -> &[PlannedProbe; 4] {
        &self.planned
    }

    /// The catalogue, with each tool's risk.
    pub fn tools(&self) -> &[ToolInfo] {
        &self.tools
    }

    /// The one rule for calling a tool the user named: `None` when it may be called without opt-in
    /// (declared read-only, or absent from a catalogue read to its end, which makes the call a test
    /// of an unknown tool), otherwise why it needs the user's opt-in. A tool the run could not see
    /// (the catalogue was cut or failed) is not known to be read-only, so it needs opt-in.
    pub fn needs_opt_in(&self, tool: &str) -> Option<&'static str> {
        match self.tools.iter().find(|t| t.name == tool) {
            Some(t) if t.is_safe() => None,
            Some(_) => Some("is not declared read-only and may have side effects"),
            None if self.catalogue_read_whole() => None,
            None => Some(
                "is not in the part of the catalogue this run could read, so its safety is unknown",
            ),
        }
    }

    /// `tools/list` was read to its end: a name not in it is certainly not a tool of the server.
    fn catalogue_read_whole(&self) -> bool {
        self.catalogue == CatalogueState::Complete
    }

    /// What Review first says under a tool name the user typed that `tools/list` did not list, before
    /// the run (the same rule as [`Engine::needs_opt_in`]); `None` for a listed tool or no name.
    pub fn unlisted_tool_note(&self, tool: &str) -> Option<&'static str> {
        if tool.trim().is_empty() || self.tools.iter().any(|t| t.name == tool) {
            return None;
        }
        Some(if self.catalogue_read_whole() {
            "not in tools/list: this will test an unknown tool"
        } else {
            "not in the part of the catalogue we could read: needs your opt-in"
        })
    }

    /// Applies the user's edits (Review first) and lets the run continue.
    pub fn apply_review(&mut self, edits: &[(ProbeName, ProbeEdit)]) -> Result<(), String> {
        for (probe, edit) in edits {
            if let ProbeEdit::Replace {
                tool,
                arguments,
                opt_in,
            } = edit
            {
                if tool.trim().is_empty() || tool.len() > 128 {
                    return Err(format!(
                        "probe {}: the tool name must be 1 to 128 characters",
                        probe.as_str()
                    ));
                }
                if !arguments.is_object() {
                    return Err(format!(
                        "probe {}: arguments must be a JSON object",
                        probe.as_str()
                    ));
                }
                if !opt_in && let Some(why) = self.needs_opt_in(tool) {
                    return Err(format!(
                        "probe {}: {tool} {why}; tick the opt-in to call it",
                        probe.as_str()
                    ));
                }
            }
        }
        // In probe order, whatever order the edits came in (a plan file lists them as its author
        // wrote them): each change takes the next JSON-RPC id, so the same plan gives the same
        // requests, and a replay of its report the same report.
        let in_order = ProbeName::ALL
            .iter()
            .flat_map(|p| edits.iter().filter(move |(probe, _)| probe == p));
        for (probe, edit) in in_order {
            match edit {
                ProbeEdit::Keep => {}
                ProbeEdit::Skip => self.set_choice(*probe, Err(SkipReason::SkippedByUser)),
                ProbeEdit::Replace {
                    tool, arguments, ..
                } => self.set_choice(
                    *probe,
                    Ok(Choice {
                        tool: tool.clone(),
                        arguments: arguments.clone(),
                        why: CHOSEN_BY_YOU.into(),
                    }),
                ),
            }
        }
        self.review_applied = true;
        // The time the user spent reading the plan does not count against the run deadline.
        self.started_ms = None;
        Ok(())
    }

    /// Cancels the run: nothing more is sent; the shell aborts what is in flight.
    pub fn cancel(&mut self) {
        self.end(RunEnd::Cancelled);
    }

    /// A signal interrupted the run (the command line's Ctrl-C or SIGTERM): nothing more is sent,
    /// the shell aborts what is in flight and hands it back, and each such record says the run
    /// was interrupted. A run that had already ended keeps its ending.
    pub fn interrupt(&mut self, by: Interrupt) {
        if self.ended.is_none() {
            self.interrupted_by = Some(by);
        }
        self.end(RunEnd::Interrupted);
    }

    fn end(&mut self, why: RunEnd) {
        if self.ended.is_none() {
            self.ended = Some(why);
        }
        for p in self.planned.iter_mut() {
            if p.skipped.is_none() && !self.sent.iter().any(|(s, _)| *s == Step::Probe(p.probe)) {
                p.skipped = Some(SkipReason::RunEnded);
            }
        }
    }

    /// Why the run ended, once it has.
    pub fn ended(&self) -> Option<RunEnd> {
        self.ended
    }

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
            url: self.cfg.endpoint.clone(),
            headers,
            body: Some(body.to_string()),
            with_token: !stdio,
            expect_id: None,
            headers_only: false,
            intent: None,
            wave: 0,
        })
    }

    fn options(&self, intent: Option<&str>) -> Options {
        Options {
            intent: intent.map(str::to_string),
            negotiated_version: self.negotiated.clone(),
            limits: self.cfg.limits.clone(),
            missing_fields: self.missing_fields(intent),
        }
    }

    /// The required arguments the planned B call leaves out (none for other intents).
    fn missing_fields(&self, intent: Option<&str>) -> Vec<String> {
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
    /// Hands back what happened to a request, as it came: the session id is read from it verbatim
    /// (it is sent back as the server chose it), then the exchange is redacted before anything else
    /// reads it or it is recorded.
    pub fn handle(&mut self, step: Step, mut exchange: Exchange) {
        self.in_flight.retain(|s| *s != step);
        self.streaming.retain(|s| *s != step);
        let raw_session = exchange
            .response
            .as_ref()
            .and_then(|r| r.header(header::SESSION_ID))
            .map(str::to_string);
        // Microseconds are all a clock can say: rounded, the time reads back from JSON as written
        // (a replayed report is byte for byte the report it was made from).
        exchange.elapsed_ms = exchange.elapsed_ms.map(|ms| (ms * 1000.0).round() / 1000.0);
        let echoed = crate::secrets::redact::redact_exchange(&mut exchange, &self.cfg.secrets);
        self.keep_within_run_budget(&mut exchange);
        match self.ended {
            Some(RunEnd::DeadlinePassed) => exchange.abort_was_deadline(),
            Some(RunEnd::Interrupted) => exchange.abort_was_interrupt(),
            _ => {}
        }
        if exchange.run_id.is_none() {
            exchange.run_id = self.run_id.clone();
        }
        let wave = self.wave_of(step).unwrap_or(0);
        let intent = match step {
            Step::Probe(p) => Some(p.as_str()),
            Step::NoToken => Some("no_token"),
            Step::Get => Some("get"),
            _ => None,
        };
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
                    self.negotiated = Some(if KNOWN_VERSIONS.contains(&v) {
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
    fn assessment_of(&self, step: Step, exchange: &Exchange, echoed: bool) -> Assessment {
        let mut assessment = assess(exchange, &self.options(exchange.intent.as_deref()));
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
        if echoed && !assessment.verdict.flags.contains(&Flag::SecretEchoed) {
            assessment.verdict.flags.push(Flag::SecretEchoed);
            assessment
                .flag_advice
                .push(crate::judge::advice::for_flag(Flag::SecretEchoed));
        }
        assessment
    }

    /// An answer that arrived before the protocol version was negotiated (the no-token check can
    /// overtake initialize) is assessed again once it is known: verdicts must not depend on which
    /// answer came first.
    fn reassess_once_negotiated(&mut self) {
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
    /// keeps only what still fits (its head), and the report says how many were cut.
    fn keep_within_run_budget(&mut self, exchange: &mut Exchange) {
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
                io.end = Some(crate::vocabulary::exchange::BodyEnd::SizeCap);
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
            r.body_end = Some(crate::vocabulary::exchange::BodyEnd::SizeCap);
        }
        self.kept_bytes += r.body.as_ref().map_or(0, String::len);
    }

    fn complete_catalogue(&mut self) {
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
    pub fn past_connect(&self) -> bool {
        self.records
            .iter()
            .any(|r| matches!(r.step, Step::ToolsList(_)))
    }

    /// The report of the run so far.
    pub fn report(&self) -> RunReport {
        let version = self
            .negotiated
            .clone()
            .unwrap_or_else(|| self.requested_version.clone());
        let (summary, origin, c_not_provoked) = conclusions(&self.records, &version);
        let probe_waves = self
            .records
            .iter()
            .filter(|r| matches!(r.step, Step::Probe(_)))
            .map(|r| r.wave)
            .max();
        let mut notes = self.notes.clone();
        notes.extend(once_per_run_notes(&self.records));
        if self.replies_refused > 0 {
            notes.push(format!(
                "the server sent {} more requests to the client than a run answers ({}); they were not answered",
                self.replies_refused, self.cfg.limits.max_replies_per_run
            ));
        }
        if self.bodies_cut > 0 {
            notes.push(format!(
                "this run kept {} MiB of response bodies; {} later bodies keep only their head",
                self.cfg.limits.max_kept_bytes_per_run / (1024 * 1024),
                self.bodies_cut
            ));
        }
        if self.records.iter().any(|r| {
            r.assessment.verdict.cause == crate::vocabulary::cause::Cause::LegacySseTransport
        }) {
            notes.push(
                "this endpoint speaks the old HTTP+SSE transport (2024-11-05): its GET stream opens with an \
                 `endpoint` event; probe it with a client of that transport, or use the server's Streamable HTTP endpoint"
                    .into(),
            );
        }
        let session_refused = self.records.iter().any(|r| {
            matches!(
                r.assessment.verdict.cause,
                crate::vocabulary::cause::Cause::SessionRequired
                    | crate::vocabulary::cause::Cause::SessionNotFound
            )
        });
        if self.session_header_hidden && session_refused {
            notes.push(
                "initialize worked but the session id is not readable, so the next call fails: the server must \
                 list Mcp-Session-Id in Access-Control-Expose-Headers"
                    .into(),
            );
        }
        RunReport {
            endpoint: self.cfg.endpoint.clone(),
            era: self.cfg.era.clone(),
            mode: self.cfg.mode,
            negotiated_version: self.negotiated.clone(),
            server_info: self.server_info.clone(),
            session: self.session.is_some(),
            probes: self.planned.clone(),
            records: self.records.clone(),
            headline: headline_of(&self.records, self.ended, &summary),
            summary,
            origin,
            c_not_provoked,
            waves: probe_waves,
            ended: self.ended,
            interrupted_by: self.interrupted_by,
            notes,
            tools: self
                .tools
                .iter()
                .map(|t| (t.name.clone(), t.risk()))
                .collect(),
        }
    }
}

/// Everything a run found, ready for display, download and sharing (after redaction).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    /// The endpoint as typed.
    pub endpoint: String,
    /// The era asked for.
    pub era: Era,
    /// Quick or review.
    pub mode: Mode,
    /// The version the run spoke.
    pub negotiated_version: Option<String>,
    /// `serverInfo` from initialize or discover.
    pub server_info: Option<Value>,
    /// The server gave a session id.
    pub session: bool,
    /// The four probes as planned.
    pub probes: [PlannedProbe; 4],
    /// Every exchange in order of arrival. Shared with the engine: a report made after every
    /// exchange copies pointers, never bodies (a run may keep up to 32 MiB of them).
    pub records: Vec<Arc<Record>>,
    /// The first sentence: what happened, cause first (see [`summary::headline`]).
    pub headline: String,
    /// Distinguishability and the finding.
    pub summary: RunSummary,
    /// Whether the page's origin was accepted.
    pub origin: Option<SpecVerdict>,
    /// Probe C succeeded: nothing was provoked.
    pub c_not_provoked: bool,
    /// The number of sequential rounds up to the last probe response.
    pub waves: Option<u32>,
    /// Why the run ended.
    pub ended: Option<RunEnd>,
    /// The signal that interrupted the run (`ended` is then `interrupted`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupted_by: Option<Interrupt>,
    /// Things worth saying about the run.
    pub notes: Vec<String>,
    /// The catalogue: names and risks.
    pub tools: Vec<(String, ToolRisk)>,
}

/// What the records of a run add up to: the summary of A, B and C, the Origin verdict from the
/// connect exchange, and whether C failed to provoke anything.
/// The headline for these records: the connect exchange when no probe could run, else the finding.
/// What holds for every answer of the run alike, said once (see [`Flag::once_per_run`]).
fn once_per_run_notes(records: &[Arc<Record>]) -> Vec<String> {
    let mut notes: Vec<String> = crate::vocabulary::cause::Flag::ALL
        .iter()
        .filter(|f| f.once_per_run())
        .filter(|f| {
            records
                .iter()
                .any(|r| r.assessment.verdict.flags.contains(f))
        })
        .map(|f| format!("every answer: {}", crate::judge::advice::for_flag(*f)))
        .collect();
    // A server that writes to stdout breaks every client, whichever answer the lines landed in.
    let polluted: Vec<String> = records
        .iter()
        .filter(|r| r.assessment.verdict.flags.contains(&Flag::NonJsonStdout))
        .map(|r| r.step.label())
        .collect();
    if !polluted.is_empty() {
        notes.push(format!(
            "stdout held lines that are not JSON-RPC (while waiting for {}): {}",
            polluted.join(", "),
            crate::judge::advice::for_flag(Flag::NonJsonStdout)
        ));
    }
    notes
}

/// Why auto's `server/discover` got no usable result, in a few words for the run's notes.
fn discover_refusal(exchange: &Exchange, v: &crate::judge::classify::Verdict) -> String {
    use crate::vocabulary::cause::StopReason;
    match exchange.stop_reason() {
        Some(StopReason::Blocked) => "the browser could not read the answer: servers of earlier eras seldom let the 2026-07-28 headers through CORS".into(),
        Some(why) => why.describe().into(),
        None => match (v.http_status, v.jsonrpc_code) {
            (Some(status), Some(code)) if !(200..300).contains(&status) => {
                format!("HTTP {status}, JSON-RPC error {code}")
            }
            (Some(status), None) if !(200..300).contains(&status) => format!("HTTP {status}"),
            (_, Some(code)) => format!("JSON-RPC error {code}"),
            _ => format!("no result: {}", v.cause.as_str().replace('_', " ")),
        },
    }
}

/// The last connect exchange (`initialize` or `server/discover`), and whether the run got past it
/// (a `tools/list` or a probe happened): what the headline and the demo-token offer both read.
fn connect_outcome(records: &[Arc<Record>]) -> (Option<&Record>, bool) {
    let connect = records
        .iter()
        .rev()
        .find(|r| matches!(r.step, Step::Initialize | Step::Discover))
        .map(|r| &**r);
    let connected = records
        .iter()
        .any(|r| matches!(r.step, Step::ToolsList(_) | Step::Probe(_)));
    (connect, connected)
}

fn headline_of(records: &[Arc<Record>], ended: Option<RunEnd>, summary: &RunSummary) -> String {
    let (connect, connected) = connect_outcome(records);
    summary::headline(
        connect.map(|r| (&r.assessment.verdict, r.exchange.stop_reason())),
        connected,
        ended,
        summary,
    )
}

fn conclusions(records: &[Arc<Record>], version: &str) -> (RunSummary, Option<SpecVerdict>, bool) {
    let probe = |p: ProbeName| {
        records
            .iter()
            .find(|r| r.step == Step::Probe(p))
            .map(|r| &r.assessment.verdict)
    };
    // Only answers read to their end are compared: a probe cut by a deadline, the size cap, Cancel,
    // a redirect or a blocked request says what stopped it instead.
    let outcome = |p: ProbeName| match records.iter().find(|r| r.step == Step::Probe(p)) {
        Some(r) => match r.exchange.stop_reason() {
            Some(why) => Err(summary::Missing::Stopped(why)),
            None => Ok(&r.assessment.verdict),
        },
        None => Err(summary::Missing::NotRun),
    };
    let summary = summary::summarize_answered([
        outcome(ProbeName::A),
        outcome(ProbeName::B),
        outcome(ProbeName::C),
    ]);
    let origin = records
        .iter()
        .find(|r| matches!(r.step, Step::Initialize | Step::Discover))
        .map(|r| spec::verdict(Probe::Origin, version, &r.assessment.verdict));
    let c_not_provoked = probe(ProbeName::C)
        .is_some_and(|v| v.channel == crate::vocabulary::cause::Channel::Success);
    (summary, origin, c_not_provoked)
}

/// A report's records grouped as its cards are shown, each group in card order.
#[derive(Debug, Clone, Default)]
pub struct CardGroups {
    /// The connect exchange when the run stopped there: it is the finding, shown first.
    pub connect_failed: Vec<Arc<Record>>,
    /// Probes A to D.
    pub probes: Vec<Arc<Record>>,
    /// The transport checks: no token, then GET.
    pub checks: Vec<Arc<Record>>,
    /// Everything else (initialize, tools/list, replies…), in the order it happened.
    pub connect: Vec<Arc<Record>>,
}

/// Where a step's card goes among the probes and checks (`None`: with the connection exchanges).
fn card_rank(step: Step) -> Option<usize> {
    match step {
        Step::Probe(p) => ProbeName::ALL.iter().position(|q| *q == p),
        Step::NoToken => Some(ProbeName::ALL.len()),
        Step::Get => Some(ProbeName::ALL.len() + 1),
        _ => None,
    }
}

/// The command line's exit statuses, decided once (documented in `mcp-triage --help`).
pub mod exit {
    use crate::vocabulary::cause::Interrupt;

    /// The run completed.
    pub const OK: u8 = 0;
    /// `classify`: an input was not an exchange.
    pub const NOT_AN_EXCHANGE: u8 = 1;
    /// A usage error.
    pub const USAGE: u8 = 2;
    /// The server could not be reached, or refused the run at connect (a 401, a 403…).
    pub const UNREACHABLE: u8 = 3;
    /// A probe that was planned could not run to an answer (a deadline, the size cap, a refusal).
    pub const PROBE_NOT_RUN: u8 = 4;
    /// The score is below `--fail-under` ("n/a" is below any N of at least 1).
    pub const BELOW_FAIL_UNDER: u8 = 5;
    /// A local failure (an output file could not be written).
    pub const LOCAL: u8 = 6;
    /// SIGINT (Ctrl-C) interrupted the run: 128 + 2, as a shell reports a process it ended.
    pub const SIGINT: u8 = 130;
    /// SIGTERM interrupted the run: 128 + 15.
    pub const SIGTERM: u8 = 143;

    /// The status for a run a signal interrupted.
    pub fn of_interrupt(by: Interrupt) -> u8 {
        match by {
            Interrupt::Sigint => SIGINT,
            Interrupt::Sigterm => SIGTERM,
        }
    }

    /// Every exit status of the command line, in precedence order: the first row that applies is
    /// the status. The one table `--help` and the README print (a test holds the README to it).
    pub const TABLE: &[(u8, &str)] = &[
        (
            SIGINT,
            "interrupted by SIGINT (Ctrl-C): what was recorded is still written, and says so",
        ),
        (SIGTERM, "interrupted by SIGTERM: the same"),
        (
            LOCAL,
            "a local failure: an output could not be made or written",
        ),
        (
            USAGE,
            "a usage error, or input that replay cannot read (nothing was run)",
        ),
        (NOT_AN_EXCHANGE, "classify: an input was not an exchange"),
        (
            UNREACHABLE,
            "the server could not be reached, or refused the run at connect",
        ),
        (PROBE_NOT_RUN, "a planned probe could not run to an answer"),
        (BELOW_FAIL_UNDER, "the score is below --fail-under"),
        (OK, "the run completed"),
    ];

    /// [`TABLE`] as text: a heading and one line a status.
    pub fn table_text() -> String {
        let mut out = String::from("Exit status (the first that applies, top to bottom):\n");
        for (code, meaning) in TABLE {
            out.push_str(&format!("  {code:>3}  {meaning}\n"));
        }
        out.pop();
        out
    }
}

impl RunReport {
    /// The exit status of this run for the command line, by [`exit::TABLE`]'s precedence: the
    /// signal that interrupted it, else [`exit::LOCAL`] when `local_failure` (an output could not
    /// be made or written), else the lowest that applies of [`exit::UNREACHABLE`],
    /// [`exit::PROBE_NOT_RUN`] and [`exit::BELOW_FAIL_UNDER`], else [`exit::OK`].
    pub fn exit_status(&self, fail_under: Option<u8>, local_failure: bool) -> u8 {
        if let Some(by) = self.interrupted_by {
            return exit::of_interrupt(by);
        }
        if local_failure {
            return exit::LOCAL;
        }
        if self.ended == Some(RunEnd::ConnectFailed) {
            return exit::UNREACHABLE;
        }
        let cut = self
            .records
            .iter()
            .any(|r| matches!(r.step, Step::Probe(_)) && r.exchange.stop_reason().is_some());
        let ran_out = self
            .probes
            .iter()
            .any(|p| p.choice.is_some() && p.skipped == Some(SkipReason::RunEnded));
        if cut || ran_out {
            return exit::PROBE_NOT_RUN;
        }
        if self.below_fail_under(fail_under) {
            return exit::BELOW_FAIL_UNDER;
        }
        exit::OK
    }

    /// [`RunReport::exit_status`] when every output was written.
    pub fn exit_code(&self, fail_under: Option<u8>) -> u8 {
        self.exit_status(fail_under, false)
    }

    /// The score is below the bar `fail_under` (pairs of A, B, C told apart by structure); "n/a"
    /// is below any bar of at least 1.
    pub fn below_fail_under(&self, fail_under: Option<u8>) -> bool {
        fail_under.is_some_and(|n| {
            n >= 1 && (self.summary.judged == 0 || self.summary.score.unwrap_or(0) < n)
        })
    }

    /// The records grouped and ordered as the page shows them (and the Markdown lists them).
    pub fn card_groups(&self) -> CardGroups {
        let mut ranked: Vec<(usize, Arc<Record>)> = self
            .records
            .iter()
            .filter_map(|r| card_rank(r.step).map(|k| (k, r.clone())))
            .collect();
        ranked.sort_by_key(|(k, _)| *k);
        let (probes, checks): (Vec<_>, Vec<_>) = ranked
            .into_iter()
            .partition(|(_, r)| matches!(r.step, Step::Probe(_)));
        let probes: Vec<Arc<Record>> = probes.into_iter().map(|(_, r)| r).collect();
        let stopped_at_connect = probes.is_empty();
        let (connect_failed, connect) = self
            .records
            .iter()
            .filter(|r| card_rank(r.step).is_none())
            .cloned()
            .partition(|r| {
                stopped_at_connect && matches!(r.step, Step::Initialize | Step::Discover)
            });
        CardGroups {
            connect_failed,
            probes,
            checks: checks.into_iter().map(|(_, r)| r).collect(),
            connect,
        }
    }

    /// The spec verdicts of the probes and checks, in card order.
    pub fn spec_verdicts(&self) -> Vec<(Step, crate::judge::spec::SpecVerdict)> {
        let groups = self.card_groups();
        groups
            .probes
            .iter()
            .chain(&groups.checks)
            .filter_map(|r| r.assessment.spec.clone().map(|s| (r.step, s)))
            .collect()
    }

    /// `serverInfo` as "name version", when the server said.
    pub fn server_text(&self) -> Option<String> {
        let info = self.server_info.as_ref()?;
        let field = |k: &str| info.get(k).and_then(Value::as_str).unwrap_or("");
        let name = field("name");
        Some(
            format!(
                "{} {}",
                if name.is_empty() { "?" } else { name },
                field("version")
            )
            .trim_end()
            .to_string(),
        )
    }

    /// The protocol version the run spoke, or that none was negotiated.
    pub fn protocol_text(&self) -> &str {
        self.negotiated_version
            .as_deref()
            .unwrap_or("not negotiated")
    }

    /// "3 sequential rounds" (how many waves the probes needed), when probes ran.
    pub fn rounds_text(&self) -> Option<String> {
        self.waves
            .map(|w| format!("{w} sequential round{}", if w == 1 { "" } else { "s" }))
    }

    /// A request of the run got no readable answer (a POST blocked by CORS or the network) and the
    /// user did not cancel: the CORS doctor's token-free requests can say which step is missing.
    pub fn needs_cors_doctor(&self) -> bool {
        let blocked = self.records.iter().any(|r| {
            r.exchange.transport_error == Some(crate::vocabulary::exchange::TransportError::Network)
                && r.exchange.request.method == "POST"
        });
        blocked && self.ended != Some(RunEnd::Cancelled)
    }

    /// The run spoke (or was set to speak) 2026-07-28: the CORS doctor checks that era's headers.
    pub fn speaks_modern(&self) -> bool {
        self.negotiated_version.as_deref() == Some(MODERN) || self.era == Era::Modern
    }

    /// The server asked for a token at connect (a 401 before any probe): the page may offer its
    /// demo token in one click when this endpoint is the demo server its own demo file names.
    pub fn offers_demo_token(&self, demo_endpoint: &str) -> bool {
        let (connect, connected) = connect_outcome(&self.records);
        let refused = connect.is_some_and(|r| r.assessment.verdict.http_status == Some(401));
        !connected && refused && self.endpoint == demo_endpoint
    }

    /// A report from recorded exchanges (examples, pasted captures): each exchange's step comes from
    /// its `intent` (A–D, `no_token`, `get`) or its JSON-RPC method.
    pub fn from_exchanges(endpoint: &str, exchanges: Vec<Exchange>) -> RunReport {
        let mut records = Vec::new();
        let mut negotiated = None;
        let mut server_info = None;
        let mut pages = 0;
        for ex in exchanges {
            let method = ex
                .request
                .body
                .as_deref()
                .and_then(|b| serde_json::from_str::<Value>(b).ok())
                .and_then(|v| v.get("method").and_then(Value::as_str).map(str::to_string));
            let probe = ex.intent.as_deref().and_then(ProbeName::parse);
            let step = match (
                ex.intent.as_deref(),
                method.as_deref(),
                ex.request.method.as_str(),
            ) {
                _ if let Some(p) = probe => Step::Probe(p),
                (Some("no_token"), ..) => Step::NoToken,
                (Some("get"), ..) | (_, _, "GET") => Step::Get,
                (_, _, "DELETE") => Step::Delete,
                (_, Some("initialize"), _) => Step::Initialize,
                (_, Some("server/discover"), _) => Step::Discover,
                (_, Some("notifications/initialized"), _) => Step::Initialized,
                (_, Some("tools/list"), _) => {
                    pages += 1;
                    Step::ToolsList(pages)
                }
                _ => Step::Reply(records.len() as u32),
            };
            if negotiated.is_none() {
                negotiated = ex.negotiated_version.clone();
            }
            let opts = Options {
                intent: ex.intent.clone(),
                negotiated_version: negotiated.clone(),
                limits: Limits::default(),
                missing_fields: Vec::new(),
            };
            let assessment = assess(&ex, &opts);
            if matches!(step, Step::Initialize | Step::Discover)
                && let Some(m) = &assessment.verdict.message
            {
                server_info = m
                    .pointer("/result/serverInfo")
                    .or_else(|| m.pointer("/result/_meta/io.modelcontextprotocol~1serverInfo"))
                    .cloned();
                if negotiated.is_none() {
                    negotiated = m
                        .pointer("/result/protocolVersion")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                }
            }
            records.push(Arc::new(Record {
                step,
                wave: 0,
                exchange: ex,
                assessment,
            }));
        }
        let version = negotiated
            .clone()
            .unwrap_or_else(|| DEFAULT_LEGACY.to_string());
        let (summary, origin, c_not_provoked) = conclusions(&records, &version);
        let headline = headline_of(&records, Some(RunEnd::Recorded), &summary);
        let notes = once_per_run_notes(&records);
        RunReport {
            endpoint: endpoint.to_string(),
            headline,
            era: Era::Legacy(version),
            mode: Mode::Quick,
            negotiated_version: negotiated,
            server_info,
            session: false,
            probes: std::array::from_fn(|i| planned(ProbeName::ALL[i])),
            records,
            summary,
            origin,
            c_not_provoked,
            waves: None,
            ended: Some(RunEnd::Recorded),
            interrupted_by: None,
            notes,
            tools: Vec::new(),
        }
    }
}
