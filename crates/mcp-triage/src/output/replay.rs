//! Replay: the engine run again over recorded answers instead of a network. Both shells (the CLI's
//! `mcp-triage replay`, the page's pasted captures) call [`replay`], so the same captures give the
//! same report, byte for byte, natively and in wasm.
//!
//! The engine plans as it would live (`poll`); every request it sends is answered by the recorded
//! exchange that fits it best (`handle`); nothing is sent anywhere and no clock runs (time stays at
//! zero, so no deadline passes: the recordings carry their own). How a recorded answer is matched to
//! a request:
//!
//! 1. It must have the same HTTP method and JSON-RPC method, carry an `Authorization` header exactly
//!    when the request does, and, when it has an `intent` (`A`–`D`, `no_token`, `get`: the project's
//!    own recordings), the same intent.
//! 2. A `tools/call` without an intent (public captures use their own tool names) must play the same
//!    part against the catalogue the replay has read: a tool not in it (probe A), arguments the
//!    tool's schema refuses (B: a required one missing or of the wrong JSON type), or arguments it
//!    accepts to the same tool (C, D).
//!    Without a catalogue (no `tools/list` recorded) only a recorded intent can name a probe.
//! 3. Among those, the best: the same intent, then the same tool, then (to the same tool) the same
//!    arguments, then the same `protocolVersion` asked for, then the same other `params` (a
//!    `tools/list` cursor, say), then the most request headers sent alike
//!    (a session id counts when both have one or neither does), then an ordinary `Origin` (none or a
//!    loopback page's) where the request sent none of its own, then for connect steps an answer that
//!    succeeded, then the first given. Each recorded answer answers one request.
//!
//! A request nothing fits gets an exchange that says so ([`crate::vocabulary::cause::StopReason::NotRecorded`]).
//! The era is the one a report names, else it comes from the recordings: `initialize` and
//! `server/discover` both recorded → auto;
//! `server/discover` only → 2026-07-28; else the `protocolVersion` the first `initialize` asked for
//! (2025-11-25 when several were recorded and it is among them). The token is assumed when a recorded
//! request carries `Authorization`. Probe A names the tool the recorded run's probe A named when it
//! was one of ours (`mcp_triage_no_such_tool_…`). The consent step is answered yes exactly when a recorded call
//! fits one of its proposals (the recording shows the calls were made); replies to server requests
//! are not sent again. A `resource_metadata` fetch (made on the user's click) is never asked for, so
//! it stays unused.
//!
//! Which plan: a report records its run's (`mode`, and each probe's call or why it was skipped), and
//! the replay plans the same: Quick check, or Review first with the recorded calls (the page's
//! review, or `--plan`). Exchanges alone record no plan: they replay as a Quick check, and the report
//! says so in a note.
//!
//! One run only: captures of different runs (two run ids, two sessions, two servers; see
//! [`crate::output::runs`]) are refused, naming the captures of each.

use serde_json::Value;

pub use crate::output::runs::{MixedRuns, OneRun, RunGroup};

use crate::run::catalogue::{SkipReason, ToolInfo};
use crate::run::engine::{
    ERA_CHOICES, Engine, EngineConfig, Era, MODERN, Mode, Outgoing, ProbeEdit, RunReport, Step,
};
use crate::secrets::redact::Credentials;
use crate::vocabulary::cause::ProbeName;
use crate::vocabulary::exchange::{Exchange, TransportError, Vantage};
use crate::vocabulary::limits::Limits;

/// The most recorded exchanges one replay (or one paste) reads.
pub const MAX_CAPTURES: usize = 4096;

/// A finished replay.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// The report, as a live run with these answers would have made it.
    pub report: RunReport,
    /// How many recorded exchanges answered a request.
    pub used: usize,
    /// The recorded exchanges that answered nothing (their positions in the input).
    pub unused: Vec<usize>,
    /// The requests no recorded exchange fitted, in the order they were planned.
    pub unanswered: Vec<Step>,
    /// The plan replayed: the recording's, or `None` when it holds none (then a Quick check).
    pub plan: Option<Mode>,
    /// How the captures were found to be one run.
    pub one_run: OneRun,
}

impl Replayed {
    /// What the replay used, for people (the page's source line, the CLI's standard error).
    pub fn summary(&self) -> String {
        let mut out = format!(
            "{} of {} recorded exchanges answered a request ({} not used).",
            self.used,
            self.used + self.unused.len(),
            self.unused.len()
        );
        if !self.unanswered.is_empty() {
            let steps: Vec<String> = self.unanswered.iter().map(Step::label).collect();
            out.push_str(&format!(" No recorded answer for: {}.", steps.join(", ")));
        }
        out.push_str(match self.plan {
            Some(Mode::Quick) => " The recorded plan was replayed: a Quick check.",
            Some(Mode::Review) => {
                " The recorded plan was replayed: Review first, with the calls it made."
            }
            None => " The recordings hold no plan: a Quick check was replayed.",
        });
        if let Some(caveat) = self.one_run.caveat() {
            out.push(' ');
            out.push_str(caveat);
        }
        out
    }
}

/// Why a set of recordings cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayProblem {
    /// No exchanges at all.
    Empty,
    /// More than [`MAX_CAPTURES`].
    TooMany(usize),
    /// Nothing recorded opens a run (`initialize` or `server/discover`).
    NoConnect,
    /// The captures come from different runs.
    MixedRuns(MixedRuns),
    /// The recorded plan cannot run against the recorded catalogue.
    Plan(String),
}

impl std::fmt::Display for ReplayProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayProblem::Empty => write!(f, "no recorded exchanges to replay"),
            ReplayProblem::TooMany(n) => write!(
                f,
                "{n} recorded exchanges: a replay reads at most {MAX_CAPTURES}"
            ),
            ReplayProblem::NoConnect => write!(
                f,
                "nothing recorded opens a run (no initialize or server/discover request): classify the exchanges one by one instead"
            ),
            ReplayProblem::MixedRuns(mixed) => write!(f, "{mixed}"),
            ReplayProblem::Plan(why) => write!(f, "the recorded plan cannot be replayed: {why}"),
        }
    }
}

/// The JSON-RPC message of a request body, if it is one object.
fn message(ex_body: Option<&str>) -> Option<Value> {
    ex_body
        .and_then(|b| serde_json::from_str::<Value>(b).ok())
        .filter(Value::is_object)
}

fn rpc_method(msg: Option<&Value>) -> Option<&str> {
    msg.and_then(|m| m.get("method")).and_then(Value::as_str)
}

fn has_header(headers: &[(String, String)], name: &str) -> bool {
    headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name))
}

/// The part a `tools/call` plays against the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    UnknownTool,
    RefusedArguments,
    AcceptedArguments,
}

fn json_type_fits(declared: &str, v: &Value) -> bool {
    match declared {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.as_i64().is_some() || v.as_u64().is_some(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "null" => v.is_null(),
        _ => true,
    }
}

fn part_of(msg: &Value, tools: &[ToolInfo]) -> Option<(Part, String)> {
    // Without a catalogue no call can be told to be unknown or refused.
    if tools.is_empty() {
        return None;
    }
    let params = msg.get("params")?;
    let name = params.get("name").and_then(Value::as_str)?;
    let Some(tool) = tools.iter().find(|t| t.name == name) else {
        return Some((Part::UnknownTool, name.to_string()));
    };
    let empty = serde_json::Map::new();
    let args = match params.get("arguments") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(m)) => m,
        Some(_) => return Some((Part::RefusedArguments, name.to_string())),
    };
    let missing = tool.required.iter().any(|r| !args.contains_key(r));
    let mistyped = tool
        .properties
        .iter()
        .any(|(k, t)| args.get(k).is_some_and(|v| !json_type_fits(t, v)));
    let part = if missing || mistyped {
        Part::RefusedArguments
    } else {
        Part::AcceptedArguments
    };
    Some((part, name.to_string()))
}

/// Whether a recording answered as a connect step hopes: by its classification (a result, or a
/// notification accepted), not by its wording.
fn answered_well(ex: &Exchange) -> bool {
    let v = crate::classify(ex, &crate::Options::default());
    matches!(
        v.channel,
        crate::Channel::Success | crate::Channel::Accepted
    )
}

/// The same `params`, leaving out what differs between any two clients (`_meta`, `clientInfo`,
/// `capabilities`).
fn same_params(a: Option<&Value>, b: Option<&Value>) -> bool {
    let ignored = |k: &str| matches!(k, "_meta" | "clientInfo" | "capabilities");
    match (
        a.and_then(|m| m.get("params")),
        b.and_then(|m| m.get("params")),
    ) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => x
            .iter()
            .filter(|(k, _)| !ignored(k))
            .eq(y.iter().filter(|(k, _)| !ignored(k))),
        (x, y) => x == y,
    }
}

/// How well `ex` (whose request body parsed as `theirs`) answers `out` (whose body parsed as
/// `ours`): `None` when it cannot, else a score (higher is better). `answered_well` is asked only
/// for connect steps, and only of a recording that could answer.
fn fit(
    out: &Outgoing,
    ours: Option<&Value>,
    sends_token: bool,
    ex: &Exchange,
    theirs: Option<&Value>,
    tools: &[ToolInfo],
    answered_well: &mut dyn FnMut() -> bool,
) -> Option<[u32; 8]> {
    if !ex.request.method.eq_ignore_ascii_case(out.method) {
        return None;
    }
    if has_header(&ex.request.headers, "authorization") != sends_token {
        return None;
    }
    let method = rpc_method(ours);
    if method != rpc_method(theirs) {
        return None;
    }
    let intent_same = match (&ex.intent, &out.intent) {
        (Some(a), Some(b)) if a == b => 1,
        (Some(_), _) => return None,
        (None, _) => 0,
    };
    let (mut same_tool, mut same_args) = (0, 0);
    if method == Some("tools/call") {
        let (Some(o), Some(t)) = (ours, theirs) else {
            return None;
        };
        if intent_same == 0 {
            let (our_part, our_tool) = part_of(o, tools)?;
            let (their_part, their_tool) = part_of(t, tools)?;
            if our_part != their_part {
                return None;
            }
            // Two accepted calls are C or D only to the same tool (the parts differ by tool).
            if our_part == Part::AcceptedArguments && our_tool != their_tool {
                return None;
            }
            same_tool = u32::from(our_tool == their_tool);
        }
        // The same arguments count for the same tool only (probe A's name is ours alone).
        same_args = u32::from(
            (intent_same == 1 || same_tool == 1)
                && o.pointer("/params/arguments") == t.pointer("/params/arguments"),
        );
    }
    let version = |m: Option<&Value>| {
        m.and_then(|m| m.pointer("/params/protocolVersion"))
            .cloned()
    };
    let same_version = u32::from(version(ours) == version(theirs));
    // The same parameters otherwise (a page cursor of tools/list, say).
    let same_params = u32::from(same_params(ours, theirs));
    let session = crate::vocabulary::header::SESSION_ID;
    let mut alike =
        u32::from(has_header(&out.headers, session) == has_header(&ex.request.headers, session));
    for (name, value) in &out.headers {
        if name.eq_ignore_ascii_case(session) {
            continue;
        }
        if ex.request.header(name) == Some(value.as_str()) {
            alike += 1;
        }
    }
    // Where the request sent no Origin of its own, an ordinary one: none, or a loopback page's
    // (public captures test foreign and `null` origins on purpose).
    let ordinary_origin = u32::from(
        has_header(&out.headers, "origin")
            || ex.request.header("origin").is_none_or(|o| {
                o.starts_with("http://localhost")
                    || o.starts_with("http://127.0.0.1")
                    || o.starts_with("https://localhost")
            }),
    );
    let connect_ok = u32::from(!matches!(out.step, Step::Probe(_)) && answered_well());
    Some([
        intent_same,
        same_tool,
        same_args,
        same_version,
        same_params,
        alike,
        ordinary_origin,
        connect_ok,
    ])
}

/// The era the recordings speak (see the module's rules).
fn era_of(methods: &[Option<Value>]) -> Era {
    let has = |m: &str| methods.iter().any(|v| rpc_method(v.as_ref()) == Some(m));
    match (has("initialize"), has("server/discover")) {
        (true, true) => Era::Auto,
        (false, true) => Era::Modern,
        _ => {
            let asked: Vec<&str> = methods
                .iter()
                .filter(|v| rpc_method(v.as_ref()) == Some("initialize"))
                .filter_map(|v| v.as_ref()?.pointer("/params/protocolVersion")?.as_str())
                .filter(|v| *v != MODERN && ERA_CHOICES.iter().any(|(c, _)| c == v))
                .collect();
            let default = ERA_CHOICES[0].0;
            let chosen = if asked.contains(&default) {
                Some(default)
            } else {
                asked.first().copied()
            };
            chosen
                .and_then(Era::parse)
                .unwrap_or_else(Era::default_choice)
        }
    }
}

/// The randomness of the recorded run, where its probe A names a tool the way ours do (so the
/// replayed plan names the same tool); else 0.
fn recorded_random(captures: &[Exchange], recorded: &[Option<Value>]) -> u64 {
    captures
        .iter()
        .zip(recorded)
        .filter(|(c, _)| c.intent.as_deref() == Some("A"))
        .find_map(|(_, m)| {
            m.as_ref()?
                .pointer("/params/name")
                .and_then(Value::as_str)
                .and_then(crate::run::catalogue::random_of_unknown_name)
        })
        .unwrap_or(0)
}

/// The exchange for a request no recording answers: the request as it would have gone (the token
/// marked where it would have been sent), and why nothing came back.
fn not_recorded(out: &Outgoing, sends_token: bool) -> Exchange {
    let creds = Credentials::new(String::new(), Vec::new(), Vec::new());
    let mut ex = crate::secrets::recorded::unanswered_exchange(out, &creds, Vantage::Direct);
    ex.request = crate::secrets::recorded::recorded_request(out, &[], &[], sends_token);
    ex.transport_error = Some(TransportError::NotRecorded);
    ex.transport_error_detail = Some("replay: no recorded exchange fits this request".into());
    ex
}

/// Recorded exchanges as read from files or a paste, with the era and the plan a report names.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    /// The exchanges, in the order given.
    pub exchanges: Vec<Exchange>,
    /// A label for each exchange, for messages that name captures (a file name, `exchange 3`).
    pub sources: Vec<String>,
    /// The era the run spoke, when the text is a report that says so (else inferred).
    pub era: Option<Era>,
    /// The plan the run made, when the text is a report (exchanges alone record none).
    pub plan: Option<RecordedPlan>,
}

impl Recording {
    /// Adds what one file held, its exchanges labelled with the file's `name`.
    pub fn add(&mut self, name: &str, read: Recording) {
        let one = read.exchanges.len() == 1;
        self.sources.extend(read.sources.iter().map(|s| {
            if one || s.is_empty() {
                name.to_string()
            } else {
                format!("{name} ({s})")
            }
        }));
        self.exchanges.extend(read.exchanges);
        self.era = self.era.take().or(read.era);
        self.plan = self.plan.take().or(read.plan);
    }
}

/// How a recorded run chose its probes, for a replay to choose them again.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedPlan {
    /// Quick check, or Review first (the page's review, or `--plan`).
    pub mode: Mode,
    /// Review first's edits as the run applied them: each call the person chose, each probe they
    /// skipped, the rest kept as the engine planned them (empty for a Quick check, whose consent
    /// is read from the calls).
    pub edits: Vec<(ProbeName, ProbeEdit)>,
}

/// The plan a `mcp-triage-report/1` recorded (`mode` and `probes`), if it says.
fn plan_of_report(report: &Value) -> Option<RecordedPlan> {
    let mode = report
        .get("mode")
        .and_then(Value::as_str)
        .and_then(Mode::parse)?;
    // `skipped` read as the report wrote it (a deserializer would be bundle the page does not need).
    let by_user = serde_json::to_value(SkipReason::SkippedByUser).ok();
    let edits = match mode {
        Mode::Quick => Vec::new(),
        Mode::Review => report
            .get("probes")?
            .as_array()?
            .iter()
            .filter_map(|p| {
                let probe = ProbeName::parse(p.get("probe")?.as_str()?)?;
                let skipped_by_user = p
                    .get("skipped")
                    .is_some_and(|s| Some(s) == by_user.as_ref());
                // A call the person chose says so; one the engine chose is kept as it was.
                let chosen = p.get("choice").filter(|c| {
                    c.get("why").and_then(Value::as_str) == Some(crate::run::engine::CHOSEN_BY_YOU)
                });
                let edit = match (chosen, skipped_by_user) {
                    (_, true) => ProbeEdit::Skip,
                    (Some(c), false) => ProbeEdit::Replace {
                        tool: c.get("tool")?.as_str()?.to_string(),
                        arguments: c
                            .get("arguments")
                            .cloned()
                            .unwrap_or_else(|| serde_json::json!({})),
                        // The recorded run called it: the person who ran it agreed. Nothing is
                        // sent by a replay.
                        opt_in: true,
                    },
                    (None, false) => ProbeEdit::Keep,
                };
                Some((probe, edit))
            })
            .collect(),
    };
    Some(RecordedPlan { mode, edits })
}

/// Replays `captures` through the engine (see the module's rules), speaking `era` when given.
pub fn replay(captures: &[Exchange], era: Option<Era>) -> Result<Replayed, ReplayProblem> {
    replay_with_secrets(captures, era, crate::secrets::redact::Secrets::default())
}

/// [`replay`], redacting `secrets` (values the recordings may hold: a token, a key) from every
/// recorded exchange as a live run redacts its own.
pub fn replay_with_secrets(
    captures: &[Exchange],
    era: Option<Era>,
    secrets: crate::secrets::redact::Secrets,
) -> Result<Replayed, ReplayProblem> {
    let recording = Recording {
        exchanges: captures.to_vec(),
        ..Recording::default()
    };
    replay_recording(&recording, era, secrets)
}

/// Replays a recording: its exchanges, with the plan and era it recorded (`era` overrides the
/// era), refusing captures of more than one run (named by their sources).
pub fn replay_recording(
    recording: &Recording,
    era: Option<Era>,
    secrets: crate::secrets::redact::Secrets,
) -> Result<Replayed, ReplayProblem> {
    let captures = &recording.exchanges[..];
    let plan = recording.plan.as_ref();
    let era = era.or_else(|| recording.era.clone());
    if captures.is_empty() {
        return Err(ReplayProblem::Empty);
    }
    if captures.len() > MAX_CAPTURES {
        return Err(ReplayProblem::TooMany(captures.len()));
    }
    // Each recorded request body parsed once: the era, the connect and every match read them.
    let recorded: Vec<Option<Value>> = captures
        .iter()
        .map(|c| message(c.request.body.as_deref()))
        .collect();
    let connect = captures.iter().zip(&recorded).find(|(_, m)| {
        matches!(
            rpc_method(m.as_ref()),
            Some("initialize" | "server/discover")
        )
    });
    let Some((connect, _)) = connect else {
        return Err(ReplayProblem::NoConnect);
    };
    let methods: Vec<Option<&str>> = recorded.iter().map(|m| rpc_method(m.as_ref())).collect();
    let one_run = crate::output::runs::one_run(captures, &methods, &recording.sources)
        .map_err(ReplayProblem::MixedRuns)?;
    let has_token = captures
        .iter()
        .any(|c| has_header(&c.request.headers, "authorization"));
    let mut engine = Engine::new(EngineConfig {
        endpoint: connect.request.url.clone(),
        era: era.unwrap_or_else(|| era_of(&recorded)),
        mode: plan.map_or(Mode::Quick, |p| p.mode),
        has_token,
        random: recorded_random(captures, &recorded),
        limits: Limits::default(),
        client_version: env!("CARGO_PKG_VERSION").into(),
        secrets,
        transport: connect
            .transport
            .unwrap_or(crate::vocabulary::exchange::Transport::Http),
    });
    // What the replay itself records (an answer not recorded) belongs to the run it replays.
    engine.set_run_id(match &one_run {
        OneRun::RunId(id) => Some(id.clone()),
        _ => None,
    });
    // Whether a recording answered well, classified once and only when a connect step asks.
    let mut answered: Vec<Option<bool>> = vec![None; captures.len()];
    let mut free = vec![true; captures.len()];
    let mut unanswered = Vec::new();
    // Each round sends at least one request or answers the consent step; a run sends a bounded
    // number of requests, and the cap below is a backstop against a loop.
    for _ in 0..4 * MAX_CAPTURES {
        let poll = engine.poll(0.0);
        if poll.done {
            break;
        }
        if poll.send.is_empty() {
            if engine.awaiting_review() {
                let edits = plan.map(|p| &p.edits[..]).unwrap_or_default();
                engine.apply_review(edits).map_err(ReplayProblem::Plan)?;
                continue;
            }
            if engine.awaiting_consent() {
                let yes = engine.consent_rows().iter().any(|row| {
                    row.proposal.as_ref().is_some_and(|p| {
                        let ours = message(Some(&p.payload));
                        let name = ours.as_ref().and_then(|o| o.pointer("/params/name"));
                        name.is_some()
                            && recorded.iter().enumerate().any(|(i, t)| {
                                free[i]
                                    && t.as_ref().and_then(|t| t.pointer("/params/name")) == name
                            })
                    })
                });
                engine.answer_consent(yes);
                continue;
            }
            break;
        }
        // Connect and catalogue steps first, so a probe is matched against the catalogue the
        // same round reads (answers in any order make the same report: the engine's guarantee).
        let (probes, others): (Vec<Outgoing>, Vec<Outgoing>) = poll
            .send
            .into_iter()
            .partition(|o| matches!(o.step, Step::Probe(_)));
        for out in others.into_iter().chain(probes) {
            let sends_token = out.with_token && has_token;
            let tools = engine.tools().to_vec();
            let ours = message(out.body.as_deref());
            let best = captures
                .iter()
                .enumerate()
                .filter(|(i, _)| free[*i])
                .filter_map(|(i, c)| {
                    fit(
                        &out,
                        ours.as_ref(),
                        sends_token,
                        c,
                        recorded[i].as_ref(),
                        &tools,
                        &mut || *answered[i].get_or_insert_with(|| answered_well(c)),
                    )
                    .map(|s| (s, i))
                })
                // The highest score; the first given among equals.
                .max_by(|(a, i), (b, j)| a.cmp(b).then(j.cmp(i)));
            match best {
                Some((_, i)) => {
                    free[i] = false;
                    // The version a recording says it negotiated is the replay's to find again,
                    // as it was the live run's (the engine writes it into what it records).
                    let mut ex = captures[i].clone();
                    ex.negotiated_version = None;
                    engine.handle(out.step, ex);
                }
                None => {
                    unanswered.push(out.step);
                    engine.handle(out.step, not_recorded(&out, sends_token));
                }
            }
        }
    }
    let unused: Vec<usize> = free
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.then_some(i))
        .collect();
    let mut report = engine.report();
    if plan.is_none() {
        report.notes.push(
            "replay: the recordings hold no plan (they are exchanges, not a report), so a Quick check was replayed"
                .into(),
        );
    }
    Ok(Replayed {
        report,
        used: captures.len() - unused.len(),
        unused,
        unanswered,
        plan: plan.map(|p| p.mode),
        one_run,
    })
}

/// The era a report's `era` field names (`"auto"`, `"modern"`, `{"legacy": "2025-11-25"}`).
fn era_named(v: &Value) -> Option<Era> {
    match v {
        Value::String(s) if s == "auto" => Some(Era::Auto),
        Value::String(s) if s == "modern" => Some(Era::Modern),
        Value::Object(m) => m.get("legacy")?.as_str().and_then(Era::parse),
        _ => None,
    }
}

/// Reads recordings from one JSON text: an `mcp-exchange/1` document, an array of them, or a
/// `mcp-triage-report/1` (its records' exchanges in order, and its era).
pub fn read_captures(text: &str) -> Result<Recording, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let is_report =
        value.get("format").and_then(Value::as_str) == Some(crate::output::export::REPORT_FORMAT);
    let (era, plan) = if is_report {
        (value.get("era").and_then(era_named), plan_of_report(&value))
    } else {
        (None, None)
    };
    let items = match value {
        Value::Array(items) => items,
        Value::Object(ref m) if is_report => m
            .get("records")
            .and_then(Value::as_array)
            .map(|rs| {
                rs.iter()
                    .filter_map(|r| r.get("exchange").cloned())
                    .collect()
            })
            .unwrap_or_default(),
        other => vec![other],
    };
    if items.len() > MAX_CAPTURES {
        return Err(ReplayProblem::TooMany(items.len()).to_string());
    }
    let exchanges = items
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            Exchange::from_json(v.to_string().as_bytes())
                .map_err(|e| format!("exchange {}: {e}", i + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let sources = if exchanges.len() == 1 {
        vec![String::new()]
    } else {
        (1..=exchanges.len())
            .map(|i| format!("exchange {i}"))
            .collect()
    };
    Ok(Recording {
        exchanges,
        sources,
        era,
        plan,
    })
}

/// A paste as the page shows it: the report, and a sentence on where it came from.
#[derive(Debug, Clone)]
pub struct Pasted {
    /// The report.
    pub report: RunReport,
    /// Where the report came from, for people.
    pub source: String,
}

/// What a paste becomes, decided once: two or more recordings that open a run (an `initialize` or
/// `server/discover` among them) are replayed through the engine, as `mcp-triage replay` does;
/// anything else (one exchange, a raw HTTP response) is classified exchange by exchange.
pub fn from_paste(capture: &str, request_body: &str) -> Result<Pasted, String> {
    let trimmed = capture.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let recording = read_captures(trimmed)?;
        // One exchange is classified as it is, even an initialize: a run needs more than one.
        let run = if recording.exchanges.len() > 1 {
            replay_recording(&recording, None, crate::secrets::redact::Secrets::default())
        } else {
            Err(ReplayProblem::NoConnect)
        };
        match run {
            Ok(r) => {
                return Ok(Pasted {
                    source: format!(
                        "Pasted recording, replayed through the engine in this page: {}",
                        r.summary()
                    ),
                    report: r.report,
                });
            }
            Err(ReplayProblem::NoConnect) => {}
            Err(other) => return Err(other.to_string()),
        }
    }
    let list = exchanges_of_paste(capture, request_body)?;
    let endpoint = list
        .first()
        .map(|e| e.request.url.clone())
        .unwrap_or_default();
    Ok(Pasted {
        report: RunReport::from_exchanges(&endpoint, list),
        source: "Pasted capture, classified in this page.".into(),
    })
}

/// The endpoint a recorded report can be opened with: the URL, or its origin where a report saved
/// with the path hidden recorded `origin/[path hidden]`.
pub fn openable_endpoint(recorded: &str) -> &str {
    if !recorded.contains("[path hidden]") {
        return recorded;
    }
    recorded
        .find("://")
        .map(|i| i + 3)
        .and_then(|start| recorded[start..].find('/').map(|j| &recorded[..start + j]))
        .unwrap_or(recorded)
}

/// What a user pasted: an `mcp-exchange/1` JSON (one, an array, or a report's records), or a raw HTTP response with the
/// request body they sent (its URL is a placeholder: a paste names no endpoint). Never empty on `Ok`.
pub(crate) fn exchanges_of_paste(
    capture: &str,
    request_body: &str,
) -> Result<Vec<Exchange>, String> {
    let trimmed = capture.trim_start();
    let list = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        read_captures(trimmed)?.exchanges
    } else {
        vec![crate::vocabulary::exchange::from_raw_http(
            trimmed,
            request_body,
            "https://pasted.invalid/mcp",
        )?]
    };
    if list.is_empty() {
        return Err("Nothing to classify.".into());
    }
    Ok(list)
}
