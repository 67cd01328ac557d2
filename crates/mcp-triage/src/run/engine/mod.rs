//! The probe plan as a sans-IO state machine: given what has been received and the time now, which
//! requests to send next. The shell (browser module or a test) sends them and hands back exchanges.
//!
//! Connect per era, then run probe A alongside `tools/list` and B, C, D together once the catalogue is
//! known, with the transport checks (no token, GET) beside them. Wave targets (sequential rounds of
//! non-OPTIONS requests up to the last probe response, leaving out paging beyond the first page and the
//! closing DELETE): legacy stateless 3, legacy stateful 4, +1 with auto, 2026-07-28 2.
//!
//! One concern a file: `config` (what a run is asked), `state` (the engine and the requests it
//! builds), `poll` (the loop), `plan` (choices, consent, review, the end), `phase` (where the run is), `handle` (what came back),
//! `record`, `report` and `report_view` (what the run found), `exit` (the command line's statuses),
//! `unattended` (the pauses of a run no person watches).
//! Files import their siblings by name, never this file; it only gathers what the crate uses.
//!
//! May import: `vocabulary`, `secrets`, `decode`, `judge`, and `run`'s catalogue, consent and plan files.
//!
//! # The shell contract
//!
//! A shell (the page's `state/run.rs` and `net.rs`; the CLI's `run/drive.rs` with
//! `transports/http.rs` or `transports/stdio.rs`; `replay::replay` in the core) moves bytes and keeps
//! time, and decides nothing the core could. Its loop:
//!
//! 1. `Engine::poll(now)` gives a `Poll`: send every `Outgoing` in `send` as it is (the token only
//!    when `with_token`), abort everything in flight on `abort_all`, and on `done` take
//!    `Engine::report()`.
//! 2. Read each request through a `RequestReader` (see `decode::reader`), then hand the record back,
//!    whatever happened to it, with `Engine::handle(step, exchange)`; tell the engine when headers
//!    arrive (`Engine::headers_arrived`) and answer the server requests the reader hands out with
//!    `Engine::reply`.
//! 3. Between answers, wake at `Engine::poll_timeout()` (the run's deadline) and poll again.
//! 4. Render where the run is from `Engine::phase()` alone (`Connecting`, `Running`, `Review`,
//!    `Consent`, `Stopping(how)`, `Ended(how)`). At `Review` and `Consent` a person answers through
//!    `apply_plan` / `answer_consent`; a run nobody watches calls `Engine::go_on` with who speaks
//!    for the person (`Unattended`: no plan, a committed `--plan`, a census), the same for every
//!    native loop.
//! 5. Render what the core says: `progress()`, `report()`, the CORS doctor when
//!    `RunReport::cors_doctor()`, and the exports, share link and replays of `output`.
//!
//! A run starts from `run::input::check_run` (what a person typed, read by the shell's URL parser)
//! or, for an endpoint already checked (a census target, a stdio command), `EngineConfig::new`.
//! Over stdio the engine plans no headers, no token, no GET stream, no no-token check and no DELETE.

mod config;
pub mod exit;
mod handle;
mod phase;
mod plan;
mod poll;
mod record;
mod report;
mod report_view;
mod state;
mod unattended;

pub use crate::run::catalogue::{Choice, ToolInfo};
pub(crate) use crate::run::consent::CHOSEN_BY_YOU;
pub use crate::run::consent::{
    ConsentPolicy, ConsentRow, DECLINED_WITHOUT_A_PERSON, PlannedProbe, ProbeEdit, Proposal,
};
pub use crate::vocabulary::probe::ProbeName;
pub use crate::vocabulary::step::{Outgoing, Step};
pub use config::{ERA_VALUES, EngineConfig, Era, Mode, Poll, Progress, era_choices};
pub use handle::ReadAnswer;
pub use phase::RunPhase;
pub use record::Record;
pub(crate) use report::is_vantage_note;
pub use report::{CardGroups, RunReport};
pub(crate) use report_view::NOT_NEGOTIATED;
pub use state::Engine;
pub use unattended::{Unattended, WentOn};
