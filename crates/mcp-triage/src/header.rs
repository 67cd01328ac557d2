//! The HTTP header names MCP uses, spelled once (header names compare case-insensitively; these are
//! the spellings the spec uses and we send).

/// The session id a stateful server hands out and expects back.
pub(crate) const SESSION_ID: &str = "Mcp-Session-Id";
/// The negotiated protocol version, on every request after `initialize`.
pub(crate) const PROTOCOL_VERSION: &str = "MCP-Protocol-Version";
/// 2026-07-28: the JSON-RPC method, repeated as a header.
pub(crate) const METHOD: &str = "Mcp-Method";
/// 2026-07-28: the tool (or other) name a request is about.
pub(crate) const NAME: &str = "Mcp-Name";
/// Resuming an SSE stream.
pub(crate) const LAST_EVENT_ID: &str = "Last-Event-ID";

/// Headers a run sets itself (or a browser owns): a user's extra header may not replace them.
pub(crate) const SET_BY_THE_RUN: &[&str] = &[
    "Authorization",
    "Content-Type",
    "Accept",
    "Host",
    "Origin",
    "Cookie",
    "Content-Length",
    SESSION_ID,
    PROTOCOL_VERSION,
    METHOD,
    NAME,
    "Referer",
];
