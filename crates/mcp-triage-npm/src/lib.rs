//! The `mcp-triage` npm package's binding of the core: four functions, every value crossing as
//! JSON text (the core's `verdict::*_text`, the one boundary both packages use), so the boundary
//! stays small and stable (the package's JavaScript parses and types it). It decides nothing.

use mcp_triage::verdict;
use wasm_bindgen::prelude::wasm_bindgen;

/// An error as the package throws it (a captured exchange that is not one): the core's words.
fn refuse(why: String) -> wasm_bindgen::JsError {
    wasm_bindgen::JsError::new(&why)
}

/// A captured exchange (`mcp-exchange/1`, JSON text) → its verdict (`mcp-triage-verdict/2`, JSON
/// text); `intent` (`A`..`D`) and `protocol_version` as `mcp-triage classify` takes them.
#[wasm_bindgen]
pub fn classify(
    exchange: &str,
    intent: Option<String>,
    protocol_version: Option<String>,
) -> Result<String, wasm_bindgen::JsError> {
    verdict::classify_text(exchange, intent, protocol_version).map_err(refuse)
}

/// What an agent's MCP client library handed it after a call (JSON text, see the core's
/// `AgentCall`) → its verdict (JSON text); a call it cannot read → the `unknown` verdict that
/// says why, never an exception (the core's one decision, `verdict_text`).
#[wasm_bindgen(js_name = classifyOutcome)]
pub fn classify_outcome_json(call: &str) -> String {
    verdict::classify_outcome_text(call)
}

/// The `unknown` verdict for a call the package could not turn into JSON text (a cycle, a BigInt):
/// its `tool` when it named one, and why, as the core words it.
#[wasm_bindgen]
pub fn unreadable(tool: Option<String>, why: &str) -> String {
    verdict::unreadable_text(tool, why)
}

/// Whether to send the same call again (JSON text: `retry`, `after_ms`, `why`).
#[wasm_bindgen(js_name = shouldRetry)]
pub fn should_retry_json(verdict_json: &str, attempt: u32, max_attempts: u32) -> String {
    verdict::should_retry_text(verdict_json, attempt, max_attempts)
}

/// One line for the model in place of "An error occurred".
#[wasm_bindgen(js_name = messageForModel)]
pub fn message_for_model_json(verdict_json: &str) -> String {
    verdict::message_for_model_text(verdict_json)
}
