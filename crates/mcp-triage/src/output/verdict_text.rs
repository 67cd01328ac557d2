//! The packages' boundary, once: every verdict function with JSON text in and JSON text out. One
//! decision for input a binding cannot read, made here for both: a call that cannot be read gets
//! the `unknown` verdict that says what was missing ([`VerdictDoc::unreadable`]), never an
//! exception, because an agent calls these on its error path, where a second exception would hide
//! the first. Only a captured exchange that is not one (`classify_text`) is refused in words: that
//! is a developer's input, not an agent's outcome.

use crate::judge::assess::assess;
use crate::judge::classify::Options;
use crate::judge::outcome::AgentCall;
use crate::output::verdict_doc::{VerdictDoc, classify_outcome, message_for_model, should_retry};
use crate::vocabulary::exchange::Exchange;

/// A verdict read back; one that cannot be read stands as the unreadable verdict (never sent
/// again, and the model told the outcome is unknown).
fn verdict(text: &str) -> VerdictDoc {
    serde_json::from_str(text).unwrap_or_else(|e| {
        VerdictDoc::unreadable(None, &format!("not an mcp-triage-verdict/2: {e}"))
    })
}

/// A captured exchange (`mcp-exchange/1`) → its verdict (`mcp-triage-verdict/1`); `intent`
/// (`A`..`D`) and `protocol_version` as `mcp-triage classify` takes them.
pub fn classify_text(
    exchange: &str,
    intent: Option<String>,
    protocol_version: Option<String>,
) -> Result<String, String> {
    let ex = Exchange::from_json(exchange.as_bytes()).map_err(|e| e.to_string())?;
    let opts = Options {
        intent,
        negotiated_version: protocol_version,
        ..Options::default()
    };
    serde_json::to_string(&VerdictDoc::of_assessment(&assess(&ex, &opts)))
        .map_err(|e| e.to_string())
}

/// What an agent's MCP client library handed it after a call ([`AgentCall`]) → its verdict; a
/// call that cannot be read → the `unknown` verdict that says why.
pub fn classify_outcome_text(call: &str) -> String {
    let doc = match serde_json::from_str::<AgentCall>(call) {
        Ok(call) => classify_outcome(&call)
            .unwrap_or_else(|why| VerdictDoc::unreadable(Some(call.tool.clone()), &why)),
        Err(e) => {
            let tool = serde_json::from_str::<serde_json::Value>(call)
                .ok()
                .and_then(|v| v.get("tool")?.as_str().map(str::to_string));
            VerdictDoc::unreadable(tool, &e.to_string())
        }
    };
    serde_json::to_string(&doc).unwrap_or_default()
}

/// The `unknown` verdict for a call a binding could not even turn into JSON text (a Python value
/// with no JSON form): `tool` when it named one, and why.
pub fn unreadable_text(tool: Option<String>, why: &str) -> String {
    serde_json::to_string(&VerdictDoc::unreadable(tool, why)).unwrap_or_default()
}

/// Whether to send the same call again (`retry`, `after_ms`, `why`).
pub fn should_retry_text(verdict_json: &str, attempt: u32, max_attempts: u32) -> String {
    serde_json::to_string(&should_retry(&verdict(verdict_json), attempt, max_attempts))
        .unwrap_or_default()
}

/// One line for the model in place of "An error occurred".
pub fn message_for_model_text(verdict_json: &str) -> String {
    message_for_model(&verdict(verdict_json))
}
