//! The payload a link carries: [`Share`], its rows, a successful result's [`ResultShape`], and
//! [`NO_ACTION`].

use serde::{Deserialize, Serialize};

use super::cap::{self, clip};

/// A shared run, in the current payload version ([`VERSION`](super::VERSION)); older versions are
/// migrated into this structure when they are opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Share {
    /// The payload version: the link's declared version while it is validated, and
    /// [`VERSION`](super::VERSION) once migrated and in every link this build makes.
    pub v: u8,
    /// The MCP Triage version that made the link.
    pub tool: String,
    /// When the run was made (ISO 8601, from the shell's clock).
    pub date: String,
    /// The endpoint: its origin, or the full URL when the user opted in.
    pub endpoint: String,
    /// The protocol version the run spoke.
    pub version: Option<String>,
    /// `serverInfo` name and version.
    pub server: Option<(String, String)>,
    /// Distinguishability: how many of the judged pairs differ by structure alone.
    pub score: Option<u8>,
    /// v4: how many of the pairs (A,B), (A,C), (B,C) were judged (both probes answered). Earlier
    /// versions scored only when all three were, so they migrate to 3 with a score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<u8>,
    /// The finding.
    pub finding: String,
    /// Probes A–D and the transport checks, in order.
    pub rows: Vec<ShareRow>,
    /// Notes about the run.
    pub notes: Vec<String>,
    /// v10: how the run ended (a [`RunEnd`] identifier: `complete`, `interrupted`…). Earlier
    /// versions said it only in the finding, so they migrate to none.
    ///
    /// [`RunEnd`]: crate::vocabulary::cause::RunEnd
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// v11: what the OAuth doctor found (`--auth-check`). Earlier versions never carried it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<ShareAuth>,
    /// v12: what CORS let a page do in the OAuth doctor's sign-in check (beside `auth`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<ShareBrowser>,
    /// v13: the run this one is compared with (the baseline, "before"), itself a payload of this
    /// version that carries no comparison of its own. The page opens such a link as the
    /// comparison of the two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<Box<Share>>,
}

/// v11: the OAuth doctor's verdicts: the revision judged, then its cards in order. No URL: a link
/// holds verdicts and evidence, and the server's words only as the findings quote them.
pub type ShareAuth = (String, Vec<ShareAuthCard>);

/// One card of the OAuth doctor in a link: an [`AuthStep`] identifier, what happened, and its
/// findings (check identifier, conformance identifier, what was seen).
///
/// [`AuthStep`]: crate::vocabulary::auth_step::AuthStep
pub type ShareAuthCard = (String, String, Vec<(String, String, String)>);

/// v12: the doctor's CORS verdicts: what a page-based client meets (a sentence with origins only),
/// then per card that has one its [`AuthStep`] identifier, a [`BrowserAccess`] identifier and what
/// was seen.
///
/// [`AuthStep`]: crate::vocabulary::auth_step::AuthStep
/// [`BrowserAccess`]: crate::run::auth::BrowserAccess
pub type ShareBrowser = (String, Vec<(String, String, String)>);

/// One probe or check in a shared run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareRow {
    /// `A`..`D`, `no_token`, `get`, `connect`.
    pub step: String,
    /// The tool called.
    pub tool: Option<String>,
    /// HTTP status.
    pub status: Option<u16>,
    /// Channel identifier.
    pub channel: String,
    /// Cause identifier.
    pub cause: String,
    /// JSON-RPC code.
    pub code: Option<i64>,
    /// `structure` or `text`.
    pub decided_by: String,
    /// Evidence facts, with the matched phrase for text evidence.
    pub evidence: Vec<(String, Option<String>)>,
    /// The advice key for the agent.
    pub action: String,
    /// Flag identifiers.
    pub flags: Vec<String>,
    /// Spec verdict: conformance, version, link, reason.
    pub spec: Option<(String, String, String, String)>,
    /// A short redacted excerpt of the envelope.
    pub excerpt: Option<String>,
    /// Why the probe was skipped.
    pub skipped: Option<String>,
    /// v3: for a successful result, its shape instead of its content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<ResultShape>,
    /// v5: what kept this probe from being answered (a [`StopReason`] identifier); then `action`
    /// is [`NO_ACTION`].
    ///
    /// [`StopReason`]: crate::vocabulary::cause::StopReason
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// v14: what the server author could change, as ids the reader's build words: `true` and the
    /// one id of why there is nothing to change, or `false` and the changes' ids, the most
    /// important first. Earlier versions never carried it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<ShareServer>,
}

/// v14: the server author's advice of a row: nothing to change (`true`, one id) or changes
/// (`false`, their ids), each id a cause's row, a fitted line or a flag's change.
pub type ShareServer = (bool, Vec<String>);

/// The `action` of a row that carries no advice (a probe skipped or not answered), from v5 on.
pub const NO_ACTION: &str = "none";

/// What a successful result looked like, without what it said: all a verdict needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultShape {
    /// Content blocks: their `type` and, for text, its length in characters.
    pub blocks: Vec<(String, Option<u32>)>,
    /// How many content blocks there were (the list above is capped).
    pub block_count: u32,
    /// The top-level keys of `structuredContent`, if any.
    pub structured_keys: Vec<String>,
    /// `result.isError`.
    pub is_error: bool,
}

impl ResultShape {
    /// The shape of a JSON-RPC result (`None` when it is not an object).
    pub fn of(result: &serde_json::Value) -> Option<ResultShape> {
        let obj = result.as_object()?;
        let content = obj.get("content").and_then(|c| c.as_array());
        let blocks = content
            .map(|c| {
                c.iter()
                    .take(cap::ITEMS)
                    .map(|b| {
                        let kind = b.get("type").and_then(|t| t.as_str()).unwrap_or("?");
                        let len = b
                            .get("text")
                            .and_then(|t| t.as_str())
                            .map(|t| u32::try_from(t.chars().count()).unwrap_or(u32::MAX));
                        (clip(kind, cap::SHORT), len)
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(ResultShape {
            blocks,
            block_count: content.map_or(0, |c| u32::try_from(c.len()).unwrap_or(u32::MAX)),
            structured_keys: obj
                .get("structuredContent")
                .and_then(|s| s.as_object())
                .map(|m| {
                    m.keys()
                        .take(cap::ITEMS)
                        .map(|k| clip(k, cap::SHORT))
                        .collect()
                })
                .unwrap_or_default(),
            is_error: obj
                .get("isError")
                .and_then(|e| e.as_bool())
                .unwrap_or(false),
        })
    }
}
