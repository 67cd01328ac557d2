//! The JSON Schema (draft 2020-12) of a census line, made from the code's own names (the committed
//! copy is `docs/mcp-triage-census-1.schema.json`, checked equal to this by a test). Verdicts are
//! the verdict format's, by reference to its schema.

use serde_json::{Value, json};

use crate::output::census::line::{CENSUS_FORMAT, Reach};
use crate::vocabulary::cause::RunEnd;

const VERDICT_REF: &str =
    "https://github.com/mcp-triage/mcp-triage/blob/main/docs/mcp-triage-verdict-1.schema.json";

fn names(all: &[&'static str]) -> Value {
    Value::Array(all.iter().map(|v| Value::String((*v).into())).collect())
}

fn object(required: &[&str], properties: Value) -> Value {
    json!({"type": "object", "additionalProperties": false, "required": required, "properties": properties})
}

/// The schema of one `mcp-triage-census/1` line.
pub fn census_schema() -> Value {
    let text = json!({"type": "string"});
    let count = json!({"type": "integer", "minimum": 0});
    let verdict = json!({"$ref": VERDICT_REF});
    let reach: Vec<&'static str> = Reach::ALL.iter().map(|r| r.as_str()).collect();
    let ends: Vec<&'static str> = RunEnd::ALL.iter().map(|r| r.as_str()).collect();
    let mut schema = object(
        &[
            "format", "target", "sources", "reach", "session", "checks", "timings",
        ],
        json!({
            "format": {"const": CENSUS_FORMAT},
            "target": {"type": "string", "description": "The target's key: its URL as the HTTP client reads it (a refused one: as listed)."},
            "sources": {"type": "array", "minItems": 1, "items": text, "description": "Where it was listed: FILE:LINE, or FILE:LINE#NAME for a registry entry."},
            "reach": {"enum": names(&reach)},
            "refused": {"type": "string", "description": "refused_target only: why the URL cannot run."},
            "era": text,
            "protocol_version": text,
            "server": object(&["name"], json!({"name": text, "version": text})),
            "session": {"type": "boolean"},
            "tools": object(
                &["count", "read_only", "destructive", "undeclared"],
                json!({"count": count, "read_only": count, "destructive": count, "undeclared": count}),
            ),
            "probe_a": verdict,
            "checks": {"type": "array", "items": object(
                &["check", "verdict"],
                json!({"check": {"enum": ["connect", "tools_list", "get", "delete"]}, "verdict": verdict}),
            )},
            "auth": object(
                &["revision", "fetches", "findings"],
                json!({
                    "revision": text,
                    "fetches": count,
                    "findings": {"type": "array", "items": object(&["check", "conformance"], json!({"check": text, "conformance": text}))},
                }),
            ),
            "ended": {"enum": names(&ends)},
            "timings": object(
                &["elapsed_ms", "waited_ms", "requests"],
                json!({"elapsed_ms": count, "waited_ms": count, "requests": count}),
            ),
        }),
    );
    if let Some(map) = schema.as_object_mut() {
        map.insert(
            "$schema".into(),
            json!("https://json-schema.org/draft/2020-12/schema"),
        );
        map.insert(
            "$id".into(),
            json!("https://github.com/mcp-triage/mcp-triage/blob/main/docs/mcp-triage-census-1.schema.json"),
        );
        map.insert("title".into(), json!(CENSUS_FORMAT));
        map.insert(
            "description".into(),
            json!("One line of an MCP Triage census (mcp-triage census): what one listed server's run found. What is not known is absent, never null."),
        );
    }
    schema
}
