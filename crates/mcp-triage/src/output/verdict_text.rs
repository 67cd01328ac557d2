//! The packages' boundary, once: every verdict function with JSON text in and JSON text out, and
//! a refusal in words, so each binding (npm, Python) only turns its language's values into text
//! and its errors into its own exceptions.

use crate::judge::assess::assess;
use crate::judge::classify::Options;
use crate::judge::outcome::AgentCall;
use crate::output::verdict_doc::{VerdictDoc, classify_outcome, message_for_model, should_retry};
use crate::vocabulary::exchange::Exchange;

fn verdict(text: &str) -> Result<VerdictDoc, String> {
    serde_json::from_str(text).map_err(|e| format!("not an mcp-triage-verdict/1: {e}"))
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

/// What an agent's MCP client library handed it after a call ([`AgentCall`]) → its verdict.
pub fn classify_outcome_text(call: &str) -> Result<String, String> {
    let call: AgentCall = serde_json::from_str(call).map_err(|e| e.to_string())?;
    serde_json::to_string(&classify_outcome(&call)?).map_err(|e| e.to_string())
}

/// Whether to send the same call again (`retry`, `after_ms`, `why`).
pub fn should_retry_text(
    verdict_json: &str,
    attempt: u32,
    max_attempts: u32,
) -> Result<String, String> {
    serde_json::to_string(&should_retry(
        &verdict(verdict_json)?,
        attempt,
        max_attempts,
    ))
    .map_err(|e| e.to_string())
}

/// One line for the model in place of "An error occurred".
pub fn message_for_model_text(verdict_json: &str) -> Result<String, String> {
    Ok(message_for_model(&verdict(verdict_json)?))
}
