//! What a run is asked to do (era, mode, limits, the shell's randomness) and what one poll answers.

use serde::Serialize;

use crate::vocabulary::exchange::Transport;
use crate::vocabulary::limits::Limits;
use crate::vocabulary::step::Outgoing;

/// The version a legacy connection asks for by default.
pub(crate) const DEFAULT_LEGACY: &str = "2025-11-25";
/// The stateless era.
pub(crate) const MODERN: &str = "2026-07-28";

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

    /// The revision the OAuth doctor judges a 401 against (a 401 at connect means nothing was
    /// negotiated), and why: the version asked for, or in `auto` the newest one the client offers.
    pub fn judged_revision(&self) -> (String, &'static str) {
        match self {
            Era::Legacy(v) => (v.clone(), "the version this run asked for"),
            Era::Modern => (MODERN.to_string(), "the version this run asked for"),
            Era::Auto => (
                MODERN.to_string(),
                "auto: the newest version the client offers (a 401 means nothing was negotiated)",
            ),
        }
    }

    /// The value [`Era::parse`] reads back: a version, `2026-07-28`, or `auto`.
    pub fn choice(&self) -> &str {
        match self {
            Era::Legacy(v) => v,
            Era::Modern => MODERN,
            Era::Auto => "auto",
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
    /// The run's secrets: every exchange is redacted with them the moment [`Engine::handle`](super::state::Engine::handle) gets it.
    pub secrets: crate::secrets::redact::Secrets,
    /// Streamable HTTP, or a child process over stdio (then there are no headers, no token, no
    /// GET stream and no session to close: only the JSON-RPC lines).
    pub transport: Transport,
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
