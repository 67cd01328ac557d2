//! The engine's state, and how it builds the requests it asks a shell to send.

use std::sync::Arc;

use crate::vocabulary::header;
use serde_json::{Value, json};

use super::config::{DEFAULT_LEGACY, EngineConfig, Era, MODERN};
use super::record::Record;
use crate::run::catalogue::ToolInfo;
use crate::run::consent::{PlannedProbe, Proposal, planned};
use crate::vocabulary::cause::{Interrupt, RunEnd};
use crate::vocabulary::exchange::Transport;
use crate::vocabulary::limits::Limits;
use crate::vocabulary::probe::ProbeName;
use crate::vocabulary::step::{Outgoing, Step};

/// The state of a run.
#[derive(Debug, Clone)]
pub struct Engine {
    pub(super) cfg: EngineConfig,
    pub(super) next_id: i64,
    pub(super) started_ms: Option<f64>,
    pub(super) sent: Vec<(Step, u32)>,
    pub(super) in_flight: Vec<Step>,
    /// In-flight steps whose response headers arrived (the shell says so).
    pub(super) streaming: Vec<Step>,
    pub(super) records: Vec<Arc<Record>>,
    pub(super) requested_version: String,
    pub(super) negotiated: Option<String>,
    pub(super) session: Option<String>,
    pub(super) session_header_hidden: bool,
    pub(super) speaking_modern: Option<bool>,
    pub(super) connect_failed: bool,
    pub(super) tools: Vec<ToolInfo>,
    pub(super) cursor: Option<String>,
    pub(super) pages: u32,
    pub(super) catalogue: CatalogueState,
    pub(super) planned: [PlannedProbe; 4],
    pub(super) review_applied: bool,
    /// Quick check's consent step: proposals for B, C and D where no declared read-only tool fits.
    pub(super) consent: ConsentState,
    pub(super) proposals: [Option<Proposal>; 4],
    pub(super) server_info: Option<Value>,
    pub(super) ended: Option<RunEnd>,
    pub(super) replies: u32,
    /// Server requests left unanswered because the run's reply cap was reached.
    pub(super) replies_refused: u32,
    /// Response body bytes kept so far in this run.
    pub(super) kept_bytes: usize,
    /// Bodies cut to their head because the run's kept-bytes cap was reached.
    pub(super) bodies_cut: u32,
    pub(super) notes: Vec<String>,
    /// The id every exchange this run records carries: 16 hex digits from the shell's randomness,
    /// so captures of different runs are told apart (a replay sets the recording's own, or none).
    pub(super) run_id: Option<String>,
    /// The signal that interrupted the run, if one did before it ended.
    pub(super) interrupted_by: Option<Interrupt>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ConsentState {
    /// Every probe had a declared read-only tool, or nothing could be proposed, or Review first.
    NotNeeded,
    /// Waiting for the user's answer.
    Asking,
    /// Answered: "Run with these" (true) or "Only probe A" (false).
    Answered(bool),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CatalogueState {
    Pending,
    /// Every page of `tools/list` was read.
    Complete,
    /// Cut at the page or tool limit: tools past the cut are unknown.
    Cut,
    Failed,
}

/// A run's id from the shell's randomness: 16 hex digits of a SplitMix64 step (mixed, but not secret:
/// it says what the randomness says, which the shells draw from the OS or the browser's crypto).
pub(super) fn run_id_of(random: u64) -> String {
    let mut z = random.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    crate::vocabulary::exchange::run_id_text(z ^ (z >> 31))
}

/// A session id we are willing to send back: visible ASCII, bounded.
pub(crate) fn usable_session_id(value: &str, limits: &Limits) -> bool {
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

    /// Replaces the run's id (a replay keeps the id of the run it replays, or has none).
    pub fn set_run_id(&mut self, id: Option<String>) {
        self.run_id = id;
    }

    pub(super) fn id(&mut self) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    pub(super) fn wave_of(&self, step: Step) -> Option<u32> {
        self.sent.iter().find(|(s, _)| *s == step).map(|(_, w)| *w)
    }

    pub(super) fn was_sent(&self, step: Step) -> bool {
        self.sent.iter().any(|(s, _)| *s == step)
    }

    pub(super) fn is_done(&self, step: Step) -> bool {
        self.was_sent(step) && !self.in_flight.contains(&step)
    }

    pub(super) fn modern(&self) -> bool {
        self.speaking_modern == Some(true)
    }

    pub(super) fn stdio(&self) -> bool {
        self.cfg.transport == Transport::Stdio
    }

    /// Requests are shaped as 2026-07-28 asks (`_meta`, `Mcp-Method`, the version header): when the
    /// run speaks it, and for auto's `server/discover`, which a server of that era only answers
    /// when it is shaped so.
    pub(super) fn shaped_modern(&self) -> bool {
        self.modern() || (self.cfg.era == Era::Auto && self.speaking_modern.is_none())
    }

    pub(super) fn meta() -> Value {
        json!({
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
        })
    }

    pub(super) fn headers(&self, method: &str, name: Option<&str>) -> Vec<(String, String)> {
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

    pub(super) fn request_body(&self, id: Option<i64>, method: &str, mut params: Value) -> String {
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

    pub(super) fn outgoing(
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
            url: self.cfg.endpoint.url.clone(),
            headers,
            body: Some(body),
            with_token: !stdio,
            expect_id: id.map(|i| json!(i)),
            headers_only: false,
            intent: step.intent().map(String::from),
            wave,
        }
    }

    pub(super) fn connect_params(&self) -> (&'static str, Value) {
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
}
