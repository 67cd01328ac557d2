//! The steps of a run and the request a shell is asked to send: the names both the engine and the
//! readers use, so neither has to know the other.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::vocabulary::auth_step::AuthStep;
use crate::vocabulary::probe::{Check, ProbeName};

/// The identifier of a connect request's card (a run that stopped there).
const CONNECT: &str = "connect";

/// One step of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// A transport check: the connect request again without the token, or GET on the endpoint.
    Check(Check),
    /// DELETE to end the session.
    Delete,
    /// Our reply to server-to-client request number n.
    Reply(u32),
    /// A fetch of the OAuth doctor.
    Auth(AuthStep),
}

/// As records and reports have always written a step: `{"step": "probe", "n": "A"}`,
/// `{"step": "no_token"}`, `{"step": "tools_list", "n": 1}`.
impl Serialize for Step {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut m = serializer.serialize_map(None)?;
        match self {
            Step::Discover => m.serialize_entry("step", "discover")?,
            Step::Initialize => m.serialize_entry("step", "initialize")?,
            Step::Initialized => m.serialize_entry("step", "initialized")?,
            Step::ToolsList(n) => {
                m.serialize_entry("step", "tools_list")?;
                m.serialize_entry("n", n)?;
            }
            Step::Probe(p) => {
                m.serialize_entry("step", "probe")?;
                m.serialize_entry("n", p)?;
            }
            Step::Check(c) => m.serialize_entry("step", c.as_str())?,
            Step::Delete => m.serialize_entry("step", "delete")?,
            Step::Reply(n) => {
                m.serialize_entry("step", "reply")?;
                m.serialize_entry("n", n)?;
            }
            Step::Auth(a) => {
                m.serialize_entry("step", "auth")?;
                m.serialize_entry("n", a)?;
            }
        }
        m.end()
    }
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
            Step::Check(Check::NoToken) => "Check · the same request without the token",
            Step::Check(Check::Get) => "Check · GET on the endpoint",
            Step::Initialize => "Connect · initialize",
            Step::Discover => "Connect · server/discover",
            Step::Initialized => "Connect · notifications/initialized",
            Step::ToolsList(_) => "Connect · tools/list",
            Step::Delete => "Close · DELETE session",
            Step::Reply(_) => "Reply to a server request",
            Step::Auth(a) => a.title(),
        }
    }

    /// Its name in a grid row: a probe's letter, a check in two words, anything else its title.
    pub(crate) fn short(&self) -> &'static str {
        match self {
            Step::Probe(p) => p.as_str(),
            Step::Check(Check::NoToken) => "no token",
            Step::Check(Check::Get) => "GET",
            other => other.title(),
        }
    }

    /// The steps a card stands for, in the order a reader meets them: probes A to D, then the
    /// checks.
    pub(crate) const CARDS: [Step; 6] = [
        Step::Probe(ProbeName::A),
        Step::Probe(ProbeName::B),
        Step::Probe(ProbeName::C),
        Step::Probe(ProbeName::D),
        Step::Check(Check::NoToken),
        Step::Check(Check::Get),
    ];

    /// A transport check (the no-token check, the GET check): it decides nothing of the plan, so
    /// the consent step may be shown while it is still in flight.
    pub(crate) fn is_transport_check(&self) -> bool {
        matches!(self, Step::Check(_))
    }

    /// The identifier a share link and a card name this step by: `A`..`D`, `no_token`, `get`,
    /// and `connect` for the connect request (`None` for the other steps).
    pub(crate) fn id(&self) -> Option<&'static str> {
        match self {
            Step::Probe(p) => Some(p.as_str()),
            Step::Check(c) => Some(c.as_str()),
            Step::Initialize | Step::Discover => Some(CONNECT),
            _ => None,
        }
    }

    /// The intent an exchange of this step records (its [`Step::id`], but never `connect`).
    pub(crate) fn intent(&self) -> Option<&'static str> {
        self.id().filter(|id| *id != CONNECT)
    }

    /// The step an exchange's recorded intent names (`A`..`D`, `no_token`, `get`).
    pub(crate) fn of_intent(intent: &str) -> Option<Step> {
        Step::CARDS.into_iter().find(|s| s.intent() == Some(intent))
    }

    /// Whether a share link's row may name this step.
    pub(crate) fn is_row_id(id: &str) -> bool {
        id == CONNECT || Step::of_intent(id).is_some()
    }

    /// The title for a step as a share link names it (`A`..`D`, `no_token`, `get`, `connect`).
    pub fn title_of_id(id: &str) -> &'static str {
        Step::CARDS
            .iter()
            .find(|s| s.id() == Some(id))
            .map(Step::title)
            .unwrap_or("Connect")
    }

    /// Where this step's card goes among the probes and checks (`None`: with the connection
    /// exchanges).
    pub(crate) fn card_rank(&self) -> Option<usize> {
        Step::CARDS.iter().position(|s| s == self)
    }

    /// Where a card of this identifier goes among the probes and checks (after them when it is
    /// none of them).
    pub(crate) fn rank_of_id(id: &str) -> usize {
        Step::CARDS
            .iter()
            .position(|s| s.id() == Some(id))
            .unwrap_or(Step::CARDS.len())
    }

    /// A label for people and logs.
    pub fn label(&self) -> String {
        match self {
            Step::Discover => "server/discover".into(),
            Step::Initialize => "initialize".into(),
            Step::Initialized => "notifications/initialized".into(),
            Step::ToolsList(n) => format!("tools/list (page {n})"),
            Step::Probe(p) => format!("probe {}", p.as_str()),
            Step::Check(Check::NoToken) => "check: no token".into(),
            Step::Check(Check::Get) => "check: GET".into(),
            Step::Delete => "DELETE session".into(),
            Step::Reply(n) => format!("reply to server request {n}"),
            Step::Auth(a) => a.as_str().into(),
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

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::{Check, ProbeName, Step};
    use crate::vocabulary::auth_step::AuthStep;

    /// Records and reports write a step as they always have (the serde derive's adjacently tagged
    /// form, snake case), whatever the enum's shape.
    #[test]
    fn a_step_is_written_as_reports_have_always_written_it() {
        let written: Vec<String> = [
            Step::Discover,
            Step::Initialize,
            Step::Initialized,
            Step::ToolsList(2),
            Step::Probe(ProbeName::C),
            Step::Check(Check::NoToken),
            Step::Check(Check::Get),
            Step::Delete,
            Step::Reply(3),
            Step::Auth(AuthStep::ALL[0]),
        ]
        .iter()
        .map(|s| serde_json::to_string(s).unwrap())
        .collect();
        let auth = format!(r#"{{"step":"auth","n":"{}"}}"#, AuthStep::ALL[0].as_str());
        assert_eq!(
            written,
            [
                r#"{"step":"discover"}"#,
                r#"{"step":"initialize"}"#,
                r#"{"step":"initialized"}"#,
                r#"{"step":"tools_list","n":2}"#,
                r#"{"step":"probe","n":"C"}"#,
                r#"{"step":"no_token"}"#,
                r#"{"step":"get"}"#,
                r#"{"step":"delete"}"#,
                r#"{"step":"reply","n":3}"#,
                &auth,
            ]
        );
    }
}
