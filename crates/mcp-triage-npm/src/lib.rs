//! The `mcp-triage` npm package's binding of the core: four functions, every value crossing as
//! JSON text so the boundary stays small and stable (the package's JavaScript parses and types
//! it). It decides nothing: each function is the core's.

use mcp_triage::verdict::{
    AgentCall, VerdictDoc, classify_outcome, message_for_model, should_retry,
};
use mcp_triage::{Exchange, Options, assess};
use wasm_bindgen::prelude::wasm_bindgen;

/// An error as the package throws it: the core's words.
fn refuse(why: impl std::fmt::Display) -> wasm_bindgen::JsError {
    wasm_bindgen::JsError::new(&why.to_string())
}

/// A captured exchange (`mcp-exchange/1`, JSON text) → its verdict (`mcp-triage-verdict/1`, JSON
/// text); `intent` (`A`..`D`) and `protocol_version` as `mcp-triage classify` takes them.
#[wasm_bindgen]
pub fn classify(
    exchange: &str,
    intent: Option<String>,
    protocol_version: Option<String>,
) -> Result<String, wasm_bindgen::JsError> {
    let ex = Exchange::from_json(exchange.as_bytes()).map_err(refuse)?;
    let opts = Options {
        intent,
        negotiated_version: protocol_version,
        ..Options::default()
    };
    serde_json::to_string(&VerdictDoc::of_assessment(&assess(&ex, &opts))).map_err(refuse)
}

/// What an agent's MCP client library handed it after a call (JSON text, see the core's
/// `AgentCall`) → its verdict (JSON text).
#[wasm_bindgen(js_name = classifyOutcome)]
pub fn classify_outcome_json(call: &str) -> Result<String, wasm_bindgen::JsError> {
    let call: AgentCall = serde_json::from_str(call).map_err(refuse)?;
    serde_json::to_string(&classify_outcome(&call).map_err(refuse)?).map_err(refuse)
}

fn verdict(text: &str) -> Result<VerdictDoc, wasm_bindgen::JsError> {
    serde_json::from_str(text).map_err(|e| refuse(format!("not an mcp-triage-verdict/1: {e}")))
}

/// Whether to send the same call again (JSON text: `retry`, `after_ms`, `why`).
#[wasm_bindgen(js_name = shouldRetry)]
pub fn should_retry_json(
    verdict_json: &str,
    attempt: u32,
    max_attempts: u32,
) -> Result<String, wasm_bindgen::JsError> {
    let decision = should_retry(&verdict(verdict_json)?, attempt, max_attempts);
    serde_json::to_string(&decision).map_err(refuse)
}

/// One line for the model in place of "An error occurred".
#[wasm_bindgen(js_name = messageForModel)]
pub fn message_for_model_json(verdict_json: &str) -> Result<String, wasm_bindgen::JsError> {
    Ok(message_for_model(&verdict(verdict_json)?))
}
