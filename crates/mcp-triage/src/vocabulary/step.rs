//! The steps of a run and the request a shell is asked to send: the names both the engine and the
//! readers use, so neither has to know the other.

use serde::Serialize;
use serde_json::Value;

use crate::vocabulary::cause::ProbeName;

/// One step of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "step", content = "n", rename_all = "snake_case")]
pub enum Step {
    /// `server/discover` (2026-07-28 and auto).
    Discover,
    /// `initialize`.
    Initialize,
    /// `notifications/initialized`.
    Initialized,
    /// `tools/list`, page n (1-based).
    ToolsList(u32),
    /// Probe A..D.
    Probe(ProbeName),
    /// The connect request again, without the token.
    NoToken,
    /// GET on the endpoint.
    Get,
    /// DELETE to end the session.
    Delete,
    /// Our reply to server-to-client request number n.
    Reply(u32),
    /// The protected resource metadata a 401 names (`resource_metadata`), fetched on the user's click.
    ResourceMetadata,
}

impl ProbeName {
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// What the probe asks, for people: "A · Unknown tool".
    pub fn title(self) -> &'static str {
        match self {
            ProbeName::A => "A · Unknown tool",
            ProbeName::B => "B · Schema-invalid arguments",
            ProbeName::C => "C · A call whose backend fails",
            ProbeName::D => "D · A call that succeeds",
        }
    }
}

impl Step {
    /// The title of its card, for people.
    pub fn title(&self) -> &'static str {
        match self {
            Step::Probe(p) => p.title(),
            Step::NoToken => "Check · the same request without the token",
            Step::Get => "Check · GET on the endpoint",
            Step::Initialize => "Connect · initialize",
            Step::Discover => "Connect · server/discover",
            Step::Initialized => "Connect · notifications/initialized",
            Step::ToolsList(_) => "Connect · tools/list",
            Step::Delete => "Close · DELETE session",
            Step::Reply(_) => "Reply to a server request",
            Step::ResourceMetadata => "Auth · protected resource metadata (resource_metadata)",
        }
    }

    /// The title for a step as a share link names it (`A`..`D`, `no_token`, `get`, …).
    pub fn title_of_id(id: &str) -> &'static str {
        match (ProbeName::parse(id), id) {
            (Some(p), _) => p.title(),
            (None, "no_token") => Step::NoToken.title(),
            (None, "get") => Step::Get.title(),
            _ => "Connect",
        }
    }

    /// A label for people and logs.
    pub fn label(&self) -> String {
        match self {
            Step::Discover => "server/discover".into(),
            Step::Initialize => "initialize".into(),
            Step::Initialized => "notifications/initialized".into(),
            Step::ToolsList(n) => format!("tools/list (page {n})"),
            Step::Probe(p) => format!("probe {}", p.as_str()),
            Step::NoToken => "check: no token".into(),
            Step::Get => "check: GET".into(),
            Step::Delete => "DELETE session".into(),
            Step::Reply(n) => format!("reply to server request {n}"),
            Step::ResourceMetadata => "resource_metadata".into(),
        }
    }
}

/// A request the shell should send now.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outgoing {
    /// Which step it is.
    pub step: Step,
    /// HTTP method.
    pub method: &'static str,
    /// The endpoint URL.
    pub url: String,
    /// Headers to send (never `Authorization`: the shell adds it when `with_token`).
    pub headers: Vec<(String, String)>,
    /// Body text.
    pub body: Option<String>,
    /// Add `Authorization: Bearer <token>` (and extra secret headers).
    pub with_token: bool,
    /// The JSON-RPC id of the response to wait for.
    pub expect_id: Option<Value>,
    /// Stop after the response headers (a GET that may hold a stream open).
    pub headers_only: bool,
    /// The probe or check this request is, for the record.
    pub intent: Option<String>,
    /// The sequential round this request belongs to.
    pub wave: u32,
}
