//! Prose rules: the phrases servers put on the wire, what each one most likely means, and where it was
//! seen. Used only after structure has said what it can; every match is reported as `text` evidence.
//!
//! Phrases are matched case-insensitively (ASCII) as substrings. Each rule cites the server strings it
//! was written from; the strings are data quoted from the wire, not code.

use crate::cause::Cause;

/// A phrase rule.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PhraseRule {
    /// Stable id, reported in evidence.
    pub id: &'static str,
    /// The cause the phrase points to.
    pub cause: Cause,
    /// Lower-case phrase to find.
    pub phrase: &'static str,
    /// Where the phrase was seen on the wire: provenance for people reading and reviewing the
    /// table; no code decides on it.
    #[allow(dead_code, reason = "provenance kept beside each rule, read by people")]
    pub seen_in: &'static str,
}

/// Phrases pointing at an unknown tool. Tool-name patterns are in [`find_unknown_tool`].
pub(crate) const UNKNOWN_TOOL: &[PhraseRule] = &[
    PhraseRule {
        id: "unknown_tool.unknown_tool",
        cause: Cause::UnknownTool,
        phrase: "unknown tool",
        seen_in: "Python mcp 2.3.0 MCPServer \"Unknown tool: lead_delete\" (captured)",
    },
    PhraseRule {
        id: "unknown_tool.tool_not_found",
        cause: Cause::UnknownTool,
        phrase: "tool not found",
        seen_in: "SDKs that answer \"tool not found\" / \"Tool not found: X\"",
    },
    PhraseRule {
        id: "unknown_tool.no_such_tool",
        cause: Cause::UnknownTool,
        phrase: "no such tool",
        seen_in: "generic wording",
    },
    PhraseRule {
        id: "unknown_tool.no_tool_named",
        cause: Cause::UnknownTool,
        phrase: "no tool named",
        seen_in: "generic wording",
    },
];

/// Phrases pointing at arguments that do not fit the schema.
pub(crate) const INVALID_ARGUMENTS: &[PhraseRule] = &[
    PhraseRule {
        id: "invalid_arguments.input_validation_error",
        cause: Cause::InvalidArguments,
        phrase: "input validation error",
        seen_in: "TS SDK 1.29.0 \"MCP error -32602: Input validation error: Invalid arguments for tool lead_get\" (captured)",
    },
    PhraseRule {
        id: "invalid_arguments.invalid_arguments",
        cause: Cause::InvalidArguments,
        phrase: "invalid arguments",
        seen_in: "TS SDK \"Invalid arguments for tool X\" (captured)",
    },
    PhraseRule {
        id: "invalid_arguments.validation_error",
        cause: Cause::InvalidArguments,
        phrase: "validation error",
        seen_in: "Python mcp 2.3.0 \"1 validation error for lead_getArguments\" (pydantic, captured)",
    },
    PhraseRule {
        id: "invalid_arguments.invalid_params",
        cause: Cause::InvalidArguments,
        phrase: "invalid params",
        seen_in: "JSON-RPC's own name for -32602",
    },
    PhraseRule {
        id: "invalid_arguments.invalid_request_parameters",
        cause: Cause::InvalidArguments,
        phrase: "invalid request parameters",
        seen_in: "Python mcp 2.3.0 low-level Server -32602 \"Invalid request parameters\" (captured)",
    },
    PhraseRule {
        id: "invalid_arguments.invalid_parameters",
        cause: Cause::InvalidArguments,
        phrase: "invalid parameters",
        seen_in: "generic wording",
    },
    PhraseRule {
        id: "invalid_arguments.missing_required",
        cause: Cause::InvalidArguments,
        phrase: "missing required",
        seen_in: "JSON-schema validators (\"missing required property\")",
    },
    PhraseRule {
        id: "invalid_arguments.field_required",
        cause: Cause::InvalidArguments,
        phrase: "field required",
        seen_in: "pydantic \"Field required [type=missing]\" (captured)",
    },
    PhraseRule {
        id: "invalid_arguments.missing_field",
        cause: Cause::InvalidArguments,
        phrase: "missing field",
        seen_in: "serde \"missing field `id`\" (Rust servers)",
    },
    PhraseRule {
        id: "invalid_arguments.failed_to_deserialize",
        cause: Cause::InvalidArguments,
        phrase: "failed to deserialize",
        seen_in: "serde-based servers (\"failed to deserialize parameters\")",
    },
    PhraseRule {
        id: "invalid_arguments.invalid_type",
        cause: Cause::InvalidArguments,
        phrase: "invalid type:",
        seen_in: "serde \"invalid type: integer `42`, expected a string\"",
    },
    PhraseRule {
        id: "invalid_arguments.schema",
        cause: Cause::InvalidArguments,
        phrase: "does not match schema",
        seen_in: "JSON-schema validators",
    },
    PhraseRule {
        id: "invalid_arguments.missing_properties",
        cause: Cause::InvalidArguments,
        phrase: "missing propert",
        seen_in: "Go SDK 1.7.0 \"validating root: required: missing properties: [\\\"id\\\"]\" (synthetic, cited)",
    },
    PhraseRule {
        id: "invalid_arguments.required_property",
        cause: Cause::InvalidArguments,
        phrase: "required property",
        seen_in: "JSON-schema validators",
    },
    PhraseRule {
        id: "invalid_arguments.invalid_input",
        cause: Cause::InvalidArguments,
        phrase: "invalid input",
        seen_in: "zod \"Invalid input: expected string\"",
    },
];

/// Phrases that say a tool ran and failed, and which parts are only a framework prefix.
pub(crate) const TOOL_EXECUTION: &[PhraseRule] = &[
    PhraseRule {
        id: "tool_execution.error_executing_tool",
        cause: Cause::ToolExecution,
        phrase: "error executing tool",
        seen_in: "Python mcp 2.3.0 MCPServer \"Error executing tool lead_get\" (captured)",
    },
    PhraseRule {
        id: "tool_execution.error_calling_tool",
        cause: Cause::ToolExecution,
        phrase: "error calling tool",
        seen_in: "fastmcp 2.14.5 \"Error calling tool 'lead_get': …\" (synthetic, cited)",
    },
    PhraseRule {
        id: "tool_execution.error_occurred_invoking",
        cause: Cause::ToolExecution,
        phrase: "an error occurred invoking",
        seen_in: "C# SDK 2.2.0 \"An error occurred invoking 'lead_get'.\" (synthetic, cited; message withheld)",
    },
];

/// Phrases for transport refusals, found in error messages or plain-text bodies.
pub(crate) const TRANSPORT: &[PhraseRule] = &[
    PhraseRule {
        id: "origin.invalid_origin",
        cause: Cause::OriginRejected,
        phrase: "invalid origin",
        seen_in: "Python mcp 2.3.0 403 \"Invalid Origin header\" (captured)",
    },
    PhraseRule {
        id: "origin.origin_not_allowed",
        cause: Cause::OriginRejected,
        phrase: "origin not allowed",
        seen_in: "generic wording",
    },
    PhraseRule {
        id: "origin.disallowed_cors_origin",
        cause: Cause::OriginRejected,
        phrase: "disallowed cors origin",
        seen_in: "Starlette CORSMiddleware preflight \"Disallowed CORS origin\" (captured)",
    },
    PhraseRule {
        id: "session.missing_session_id",
        cause: Cause::SessionRequired,
        phrase: "missing session id",
        seen_in: "Python mcp 2.3.0 \"Bad Request: Missing session ID\" (captured)",
    },
    PhraseRule {
        id: "session.no_valid_session_id",
        cause: Cause::SessionRequired,
        phrase: "no valid session id",
        seen_in: "TS SDK 1.29.0 \"Bad Request: No valid session ID provided\" (captured)",
    },
    PhraseRule {
        id: "session.session_id_required",
        cause: Cause::SessionRequired,
        phrase: "session id required",
        seen_in: "generic wording",
    },
    PhraseRule {
        id: "session.session_not_found",
        cause: Cause::SessionNotFound,
        phrase: "session not found",
        seen_in: "Python mcp 2.3.0 404 \"Session not found\" (captured)",
    },
    PhraseRule {
        id: "session.invalid_session_id",
        cause: Cause::SessionNotFound,
        phrase: "invalid session",
        seen_in: "mcp-go 0.58.0 404 \"Invalid session ID\" (synthetic, cited)",
    },
    PhraseRule {
        id: "session.initialize_request",
        cause: Cause::SessionRequired,
        phrase: "initialize request",
        seen_in: "rmcp 3.1.4 422 \"Unexpected message, expect initialize request\"; C# SDK 2.2.0 \"A new session can only be created by an initialize request\" (synthetic, cited)",
    },
    PhraseRule {
        id: "session.server_not_initialized",
        cause: Cause::SessionRequired,
        phrase: "server not initialized",
        seen_in: "Kotlin SDK 0.14.0 400 \"Bad Request: Server not initialized\" (synthetic, cited)",
    },
    PhraseRule {
        id: "session.during_session_initialization",
        cause: Cause::SessionRequired,
        phrase: "during session initialization",
        seen_in: "Go SDK 1.7.0 code 0 \"method \\\"tools/call\\\" is invalid during session initialization\" (synthetic, cited)",
    },
    PhraseRule {
        id: "version.unsupported_protocol_version",
        cause: Cause::ProtocolVersionUnsupported,
        phrase: "unsupported protocol version",
        seen_in: "TS SDK 1.29.0 \"Bad Request: Unsupported protocol version: 2026-07-28\" (captured)",
    },
    PhraseRule {
        id: "scope.insufficient_scope",
        cause: Cause::InsufficientScope,
        phrase: "insufficient scope",
        seen_in: "Go SDK 1.7.0 403 \"insufficient scope\"; TS SDK \"Insufficient scope\" (captured)",
    },
    PhraseRule {
        id: "envelope.meta_required",
        cause: Cause::InvalidRequest,
        phrase: "params._meta must be",
        seen_in: "Python mcp 2.3.0 \"params._meta must be an object carrying the required … envelope keys\" (captured)",
    },
    PhraseRule {
        id: "media.content_type",
        cause: Cause::UnsupportedMediaType,
        phrase: "content-type",
        seen_in: "Python mcp 2.3.0 400 \"Invalid Content-Type header\" (captured)",
    },
    PhraseRule {
        id: "accept.not_acceptable",
        cause: Cause::NotAcceptable,
        phrase: "not acceptable",
        seen_in: "TS and Python SDKs \"Not Acceptable: Client must accept …\" (captured)",
    },
    // Last: any other refusal that talks about the session id.
    PhraseRule {
        id: "session.mentions_session_id",
        cause: Cause::SessionRequired,
        phrase: "session id",
        seen_in: "generic: refusals naming the session id",
    },
    PhraseRule {
        id: "session.mentions_session_header",
        cause: Cause::SessionRequired,
        phrase: "mcp-session-id",
        seen_in: "C# SDK 2.2.0 \"The Mcp-Session-Id header is not supported in stateless mode\" (synthetic, cited)",
    },
];

/// Session refusals mean "unknown session" when we sent an id, and "session required" when we did not,
/// whatever words the server chose.
pub(crate) fn session_cause(cause: Cause, sent_session_id: bool) -> Cause {
    match cause {
        Cause::SessionRequired | Cause::SessionNotFound if sent_session_id => {
            Cause::SessionNotFound
        }
        Cause::SessionRequired | Cause::SessionNotFound => Cause::SessionRequired,
        other => other,
    }
}

/// Phrases that make a successful result look like a failure.
pub(crate) const SOFT_FAILURE: &[&str] = &[
    "error:",
    "error -",
    "failed",
    "failure",
    "exception",
    "not found",
    "unauthorized",
    "forbidden",
    "traceback",
];

/// Generic messages that carry no detail: the server withheld what went wrong.
pub(crate) const GENERIC_MESSAGES: &[&str] = &[
    "internal error",
    "internal server error",
    "an error occurred",
    "an internal error occurred",
    "unknown error",
    "error",
];

/// A phrase found in a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Match {
    /// Rule id.
    pub rule: &'static str,
    /// The cause it points to.
    pub cause: Cause,
    /// Byte range in the searched string.
    pub bytes: (usize, usize),
}

impl Match {
    /// The range in characters, for display.
    pub(crate) fn char_range(&self, text: &str) -> [usize; 2] {
        let start = text[..self.bytes.0].chars().count();
        let len = text[self.bytes.0..self.bytes.1].chars().count();
        [start, start + len]
    }
}

/// The first rule in `rules` whose phrase occurs in `text`.
pub(crate) fn find(text: &str, rules: &[PhraseRule]) -> Option<Match> {
    let lower = text.to_ascii_lowercase();
    rules.iter().find_map(|r| {
        lower.find(r.phrase).map(|at| Match {
            rule: r.id,
            cause: r.cause,
            bytes: (at, at + r.phrase.len()),
        })
    })
}

/// Finds an unknown-tool statement: a phrase from [`UNKNOWN_TOOL`], or the requested tool's name
/// right after the word "tool" and right before "not found" / "does not exist" / "is not registered"
/// (TS SDK: "Tool lead_delete not found"), with optional quotes around the name.
///
/// Requiring the name to sit between "tool" and the verb keeps "Error executing tool lead_get: lead
/// not found in this organization" (a tool that ran and failed) out.
pub(crate) fn find_unknown_tool(text: &str, tool_name: Option<&str>) -> Option<Match> {
    if let Some(m) = find(text, UNKNOWN_TOOL) {
        return Some(m);
    }
    // A bounded name keeps the search linear: each "tool" occurrence costs at most 128 comparisons.
    let name =
        tool_name.filter(|n| !n.is_empty() && n.len() <= crate::limits::MAX_TOOL_NAME_CHARS)?;
    let lower = text.to_ascii_lowercase();
    let lower_name = name.to_ascii_lowercase();
    const TAILS: &[&str] = &[
        " not found",
        " was not found",
        " does not exist",
        " is not registered",
        " not registered",
        " is not available",
        " is unknown",
    ];
    let mut search_from = 0;
    while let Some(rel) = lower[search_from..].find("tool") {
        let at = search_from + rel;
        search_from = at + 4;
        let mut i = at + 4;
        let rest = &lower[i..];
        let skipped = rest.len() - rest.trim_start_matches([' ', ':']).len();
        if skipped == 0 {
            continue;
        }
        i += skipped;
        let quote = lower[i..]
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\'' | '`'));
        if let Some(q) = quote {
            i += q.len_utf8();
        }
        if !lower[i..].starts_with(&lower_name) {
            continue;
        }
        i += lower_name.len();
        if let Some(q) = quote {
            if !lower[i..].starts_with(q) {
                continue;
            }
            i += q.len_utf8();
        }
        if let Some(tail) = TAILS.iter().find(|t| lower[i..].starts_with(**t)) {
            return Some(Match {
                rule: "unknown_tool.tool_name_not_found",
                cause: Cause::UnknownTool,
                bytes: (at, i + tail.len()),
            });
        }
    }
    None
}

/// Finds a JSON-RPC code written into prose, e.g. "MCP error -32602: …" or "error code -32603".
/// Returns the code and its byte range.
pub(crate) fn find_code_in_text(text: &str) -> Option<(i64, (usize, usize))> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 6 <= bytes.len() {
        if bytes[i] == b'-' && bytes[i + 1] == b'3' && bytes[i + 2] == b'2' {
            let end = (i + 1..bytes.len())
                .find(|&j| !bytes[j].is_ascii_digit())
                .unwrap_or(bytes.len());
            let digits = end - i - 1;
            let before_ok = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
            if digits == 5
                && before_ok
                && let Ok(code) = text[i..end].parse::<i64>()
            {
                return Some((code, (i, end)));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    None
}

/// True when `message` says nothing beyond a framework prefix and the tool's name, or is a
/// generic "internal error" phrase.
pub(crate) fn is_withheld(message: &str, tool_name: Option<&str>) -> bool {
    let trimmed = message.trim().trim_end_matches('.');
    let lower = trimmed.to_ascii_lowercase();
    if GENERIC_MESSAGES.contains(&lower.as_str()) {
        return true;
    }
    for rule in TOOL_EXECUTION {
        if let Some(rest) = lower.strip_prefix(rule.phrase) {
            let rest = rest.trim().trim_matches(['\'', '"', '`']);
            if rest.is_empty() || tool_name.is_some_and(|n| rest == n.to_ascii_lowercase()) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn a_tool_name_over_128_characters_is_never_searched_for() {
        let long = "x".repeat(100_000);
        let text = format!("tool {long} not found ").repeat(4);
        assert_eq!(find_unknown_tool(&text, Some(&long)), None);
        let ok = "y".repeat(128);
        assert!(find_unknown_tool(&format!("Tool {ok} not found"), Some(&ok)).is_some());
    }

    #[test]
    fn unknown_tool_by_name_is_strict_about_position() {
        let ts = "MCP error -32602: Tool lead_delete not found";
        let m = find_unknown_tool(ts, Some("lead_delete")).unwrap();
        assert_eq!(&ts[m.bytes.0..m.bytes.1], "Tool lead_delete not found");
        let quoted = "tool 'lead_delete' does not exist";
        assert!(find_unknown_tool(quoted, Some("lead_delete")).is_some());
        let ran = "Error executing tool lead_get: lead not found in this organization";
        assert_eq!(find_unknown_tool(ran, Some("lead_get")), None);
        assert!(find_unknown_tool("Unknown tool: x", None).is_some());
    }

    #[test]
    fn code_in_text() {
        assert_eq!(
            find_code_in_text("MCP error -32602: Tool x not found").map(|c| c.0),
            Some(-32602)
        );
        assert_eq!(find_code_in_text("order -3260212"), None);
        assert_eq!(find_code_in_text("no code"), None);
    }

    #[test]
    fn withheld() {
        assert!(is_withheld(
            "Error executing tool lead_get",
            Some("lead_get")
        ));
        assert!(is_withheld("Internal server error", None));
        assert!(is_withheld(
            "An error occurred invoking 'lead_get'.",
            Some("lead_get")
        ));
        assert!(!is_withheld(
            "Error calling tool 'lead_get': boom",
            Some("lead_get")
        ));
        assert!(!is_withheld(
            "Error executing tool lead_get: boom",
            Some("lead_get")
        ));
        assert!(!is_withheld(
            "lead not found in this organization",
            Some("lead_get")
        ));
    }

    #[test]
    fn char_ranges_count_characters() {
        let text = "é unknown tool";
        let m = find(text, UNKNOWN_TOOL).unwrap();
        assert_eq!(m.char_range(text), [2, 14]);
    }
}
