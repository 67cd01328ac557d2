//! The era a replay speaks: named by a report, or read from the recorded requests.

use serde_json::Value;

use super::matching::rpc_method;
use crate::run::engine::Era;

/// The era the recordings speak (see the module's rules).
pub(super) fn era_of(methods: &[Option<Value>]) -> Era {
    let has = |m: &str| methods.iter().any(|v| rpc_method(v.as_ref()) == Some(m));
    match (has("initialize"), has("server/discover")) {
        (true, true) => Era::Auto,
        (false, true) => Era::Modern,
        _ => {
            let asked: Vec<&str> = methods
                .iter()
                .filter(|v| rpc_method(v.as_ref()) == Some("initialize"))
                .filter_map(|v| v.as_ref()?.pointer("/params/protocolVersion")?.as_str())
                .filter(|v| matches!(Era::parse(v), Some(Era::Legacy(_))))
                .collect();
            let default = Era::default_choice();
            let default = default.choice();
            let chosen = if asked.contains(&default) {
                Some(default)
            } else {
                asked.first().copied()
            };
            chosen
                .and_then(Era::parse)
                .unwrap_or_else(Era::default_choice)
        }
    }
}

/// The era a report's `era` field names (`"auto"`, `"modern"`, `{"legacy": "2025-11-25"}`).
pub(super) fn era_named(v: &Value) -> Option<Era> {
    match v {
        Value::String(s) if s == "auto" => Some(Era::Auto),
        Value::String(s) if s == "modern" => Some(Era::Modern),
        Value::Object(m) => m.get("legacy")?.as_str().and_then(Era::parse),
        _ => None,
    }
}
