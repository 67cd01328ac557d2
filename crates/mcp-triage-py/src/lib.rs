//! The `mcp-triage-verdict` Python package's binding of the core (`mcp_triage_verdict._core`):
//! four functions, every value crossing as JSON text (the core's `verdict::*_text`, the one
//! boundary both packages use), so the boundary stays small and stable (the package's Python
//! parses and types it). It decides nothing: each function is the core's.

use mcp_triage::verdict;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// An error as the package raises it (`ValueError`, for a captured exchange that is not one): the
/// core's words.
fn refuse(why: String) -> PyErr {
    PyValueError::new_err(why)
}

/// A captured exchange (`mcp-exchange/1`, JSON text) → its verdict (`mcp-triage-verdict/2`,
/// JSON text); `intent` (`A`..`D`) and `protocol_version` as `mcp-triage classify` takes them.
#[pyfunction]
#[pyo3(signature = (exchange, intent=None, protocol_version=None))]
fn classify(
    exchange: &str,
    intent: Option<String>,
    protocol_version: Option<String>,
) -> PyResult<String> {
    verdict::classify_text(exchange, intent, protocol_version).map_err(refuse)
}

/// What an agent's MCP client library handed it after a call (JSON text, the core's
/// `AgentCall`) → its verdict (JSON text); a call it cannot read → the `unknown` verdict that
/// says why, never an exception (the core's one decision, `verdict_text`).
#[pyfunction(name = "classify_outcome")]
fn classify_outcome_json(call: &str) -> String {
    verdict::classify_outcome_text(call)
}

/// The `unknown` verdict for a call the package could not turn into JSON (its `tool` when it named
/// one, and why), as the core words it.
#[pyfunction(name = "unreadable")]
#[pyo3(signature = (tool, why))]
fn unreadable_json(tool: Option<String>, why: &str) -> String {
    verdict::unreadable_text(tool, why)
}

/// Whether to send the same call again (JSON text: `retry`, `after_ms`, `why`).
#[pyfunction(name = "should_retry")]
fn should_retry_json(verdict_json: &str, attempt: u32, max_attempts: u32) -> String {
    verdict::should_retry_text(verdict_json, attempt, max_attempts)
}

/// One line for the model in place of "An error occurred".
#[pyfunction(name = "message_for_model")]
fn message_for_model_json(verdict_json: &str) -> String {
    verdict::message_for_model_text(verdict_json)
}

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(classify, m)?)?;
    m.add_function(wrap_pyfunction!(classify_outcome_json, m)?)?;
    m.add_function(wrap_pyfunction!(should_retry_json, m)?)?;
    m.add_function(wrap_pyfunction!(unreadable_json, m)?)?;
    m.add_function(wrap_pyfunction!(message_for_model_json, m)?)?;
    m.add("VERDICT_FORMAT", mcp_triage::verdict::VERDICT_FORMAT)?;
    Ok(())
}
