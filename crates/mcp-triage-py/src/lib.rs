//! The `mcp-triage-verdict` Python package's binding of the core (`mcp_triage_verdict._core`):
//! four functions, every value crossing as JSON text, as in the npm package's binding, so the
//! boundary stays small and stable (the package's Python parses and types it). It decides
//! nothing: each function is the core's.

use mcp_triage::verdict::{
    AgentCall, VerdictDoc, classify_outcome, message_for_model, should_retry,
};
use mcp_triage::{Exchange, Options, assess};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// An error as the package raises it (`ValueError`): the core's words.
fn refuse(why: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(why.to_string())
}

fn verdict(text: &str) -> PyResult<VerdictDoc> {
    serde_json::from_str(text).map_err(|e| refuse(format!("not an mcp-triage-verdict/1: {e}")))
}

/// A captured exchange (`mcp-exchange/1`, JSON text) → its verdict (`mcp-triage-verdict/1`,
/// JSON text); `intent` (`A`..`D`) and `protocol_version` as `mcp-triage classify` takes them.
#[pyfunction]
#[pyo3(signature = (exchange, intent=None, protocol_version=None))]
fn classify(
    exchange: &str,
    intent: Option<String>,
    protocol_version: Option<String>,
) -> PyResult<String> {
    let ex = Exchange::from_json(exchange.as_bytes()).map_err(refuse)?;
    let opts = Options {
        intent,
        negotiated_version: protocol_version,
        ..Options::default()
    };
    serde_json::to_string(&VerdictDoc::of_assessment(&assess(&ex, &opts))).map_err(refuse)
}

/// What an agent's MCP client library handed it after a call (JSON text, the core's
/// `AgentCall`) → its verdict (JSON text).
#[pyfunction(name = "classify_outcome")]
fn classify_outcome_json(call: &str) -> PyResult<String> {
    let call: AgentCall = serde_json::from_str(call).map_err(refuse)?;
    serde_json::to_string(&classify_outcome(&call).map_err(refuse)?).map_err(refuse)
}

/// Whether to send the same call again (JSON text: `retry`, `after_ms`, `why`).
#[pyfunction(name = "should_retry")]
fn should_retry_json(verdict_json: &str, attempt: u32, max_attempts: u32) -> PyResult<String> {
    let decision = should_retry(&verdict(verdict_json)?, attempt, max_attempts);
    serde_json::to_string(&decision).map_err(refuse)
}

/// One line for the model in place of "An error occurred".
#[pyfunction(name = "message_for_model")]
fn message_for_model_json(verdict_json: &str) -> PyResult<String> {
    Ok(message_for_model(&verdict(verdict_json)?))
}

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(classify, m)?)?;
    m.add_function(wrap_pyfunction!(classify_outcome_json, m)?)?;
    m.add_function(wrap_pyfunction!(should_retry_json, m)?)?;
    m.add_function(wrap_pyfunction!(message_for_model_json, m)?)?;
    m.add("VERDICT_FORMAT", mcp_triage::verdict::VERDICT_FORMAT)?;
    Ok(())
}
