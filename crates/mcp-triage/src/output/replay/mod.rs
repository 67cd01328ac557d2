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
//!
//! One concern a file: `outcome` holds what a replay gives back ([`Replayed`], [`ReplayProblem`]),
//! `recording` the recordings as read (with the plan and era a report names), `era` the era they
//! speak, `matching` how well a recorded exchange answers a request, `replaying` the engine driven
//! over them, and `paste` what a pasted text becomes. Files import their siblings by name, never
//! this file; it only gathers what the crate uses.
//!
//! May import: `vocabulary`, `secrets`, `judge`, `run`, and `output`'s export and runs files.

mod era;
mod matching;
mod outcome;
mod paste;
mod recording;
mod replaying;

pub use crate::output::runs::{MixedRuns, OneRun, RunGroup};
pub use outcome::{MAX_CAPTURES, ReplayProblem, Replayed};
// What only tests reach (`crate::testing`) reads a paste this way.
#[cfg(any(test, feature = "testing"))]
pub(crate) use paste::exchanges_of_paste;
pub use paste::{Pasted, from_paste, openable_endpoint};
pub use recording::{RecordedPlan, Recording, read_captures};
pub use replaying::{replay, replay_recording};
