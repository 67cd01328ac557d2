//! What a run is asked to do (era, mode, limits, the shell's randomness) and what one poll answers.

use serde::Serialize;

use crate::run::endpoint::Endpoint;
use crate::secrets::redact::{Credentials, Secrets};
use crate::vocabulary::exchange::Transport;
use crate::vocabulary::limits::Limits;
use crate::vocabulary::protocol::ProtocolVersion;
use crate::vocabulary::step::Outgoing;

/// The version a legacy connection asks for by default.
pub(crate) const DEFAULT_LEGACY: &str = ProtocolVersion::DEFAULT_LEGACY.as_str();
/// The stateless era.
pub(crate) const MODERN: &str = ProtocolVersion::MODERN.as_str();
/// The era that tries the stateless revision first and falls back.
const AUTO: &str = "auto";
/// The versions a run may ask for with the `initialize` handshake, the default first.
const LEGACY_CHOICES: [ProtocolVersion; 3] = [
    ProtocolVersion::DEFAULT_LEGACY,
    ProtocolVersion::V2025_06_18,
    ProtocolVersion::V2025_03_26,
];

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

/// The values of the eras a user can pick ([`Era::parse`] reads each), the default first: the
/// legacy versions, the stateless one, `auto`.
pub const ERA_VALUES: [&str; 5] = [
    LEGACY_CHOICES[0].as_str(),
    LEGACY_CHOICES[1].as_str(),
    LEGACY_CHOICES[2].as_str(),
    MODERN,
    AUTO,
];

/// The eras a user can pick: the value (one of [`ERA_VALUES`]) and its label, the default first.
pub fn era_choices() -> Vec<(&'static str, String)> {
    let mut choices: Vec<(&'static str, String)> = LEGACY_CHOICES
        .iter()
        .map(|v| {
            let default = if *v == ProtocolVersion::DEFAULT_LEGACY {
                " (default: what servers speak today)"
            } else {
                ""
            };
            (
                v.as_str(),
                format!("{v}, with the initialize handshake{default}"),
            )
        })
        .collect();
    choices.push((
        MODERN,
        format!("{MODERN}, stateless: server/discover, no handshake"),
    ));
    choices.push((
        AUTO,
        format!("Auto: try {MODERN}, fall back to {DEFAULT_LEGACY} if refused"),
    ));
    choices
}

impl Era {
    /// Parses a value of [`era_choices`]: a version, `2026-07-28`, or `auto`.
    pub fn parse(text: &str) -> Option<Era> {
        match text {
            AUTO => Some(Era::Auto),
            MODERN => Some(Era::Modern),
            _ => ProtocolVersion::parse(text)
                .filter(|v| LEGACY_CHOICES.contains(v))
                .map(|v| Era::Legacy(v.as_str().to_string())),
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
            Era::Auto => AUTO,
        }
    }

    /// The era of the first (default) choice.
    pub fn default_choice() -> Era {
        Era::Legacy(DEFAULT_LEGACY.to_string())
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

/// The engine's configuration: made by [`EngineConfig::new`] from a checked endpoint and the
/// run's credentials (or by [`check_run`](crate::run::input::check_run) from what a person typed).
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// The endpoint: an [`Endpoint`] exists only once its rules were checked (or it was
    /// recorded by a run that checked them).
    pub endpoint: Endpoint,
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
    pub secrets: Secrets,
    /// Streamable HTTP, or a child process over stdio (then there are no headers, no token, no
    /// GET stream and no session to close: only the JSON-RPC lines).
    pub transport: Transport,
}

impl EngineConfig {
    /// The configuration of a run against `endpoint` with `credentials`: whether a token is
    /// sent (which enables the no-token check), the secrets every exchange is redacted with and
    /// the transport follow from them, so no shell derives them again; the version sent as
    /// clientInfo is this build's.
    pub fn new(
        endpoint: Endpoint,
        credentials: &Credentials,
        era: Era,
        mode: Mode,
        limits: Limits,
        random: u64,
    ) -> EngineConfig {
        let transport = if endpoint.scheme == "stdio" {
            Transport::Stdio
        } else {
            Transport::Http
        };
        EngineConfig {
            endpoint,
            era,
            mode,
            has_token: credentials.has_token(),
            random,
            limits,
            client_version: env!("CARGO_PKG_VERSION").into(),
            secrets: credentials.secrets(),
            transport,
        }
    }

    /// The same run with other credentials (a token from a sign-in) and fresh randomness.
    pub fn for_credentials(&self, credentials: &Credentials, random: u64) -> EngineConfig {
        EngineConfig::new(
            self.endpoint.clone(),
            credentials,
            self.era.clone(),
            self.mode,
            self.limits.clone(),
            random,
        )
    }

    /// The same configuration, also redacting `more` (values the run never sends but may see: a
    /// key a stdio server was given, a sign-in's codes and tokens).
    pub fn with_secrets(mut self, more: &[String]) -> EngineConfig {
        self.secrets = self.secrets.and(more);
        self
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

impl Progress {
    /// The symbol a progress list shows beside the step (for sight only: the words say it all).
    pub fn symbol(&self) -> &'static str {
        match self {
            Progress::Sending => "…",
            Progress::Streaming => "⇣",
            Progress::Done(_) => "✓",
            Progress::TimedOut => "⏱",
            Progress::Aborted => "✕",
        }
    }

    /// Where the request stands, in the words every shell shows: `sending`, `waiting for the
    /// stream`, its verdict once read (`tool_error / unknown_tool`), `timed out` or `aborted`.
    pub fn words(&self) -> String {
        match self {
            Progress::Sending => "sending".into(),
            Progress::Streaming => "waiting for the stream".into(),
            Progress::Done(verdict) => verdict.clone(),
            Progress::TimedOut => "timed out".into(),
            Progress::Aborted => "aborted".into(),
        }
    }
}
