//! The rules for what client libraries raise, as data with provenance: the exception classes
//! (`RAISED_RULES`: what a class stands for) and the errors a library makes itself (`CLIENT_RULES`:
//! its words, and for the Python SDK's stand-ins its code, since it raises them and the server's
//! errors as one class). `client_rule` is the one matcher both readers use.

use crate::vocabulary::cause::{Cause, Channel, Delivery};

/// What a thrown exception stands for, by its class (and, for a bare `TypeError`, its words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RaisedAs {
    /// A transport's error: its `code` is the HTTP status.
    Transport,
    /// `fetch` itself failed: no response, and nothing says whether the request was written.
    Network,
    /// The connection never opened: the request was not sent.
    Unreached,
    /// The server's JSON-RPC error, relayed with its code.
    ServerError,
    /// The library gave up waiting.
    Timeout,
    /// The caller let go of the call (an abort signal): the request may have been written.
    Aborted,
}

/// The classes of the exceptions client libraries throw, with where they are thrown.
pub(crate) const RAISED_RULES: &[(&str, Option<&str>, RaisedAs, &str)] = &[
    (
        "StreamableHTTPError",
        None,
        RaisedAs::Transport,
        "@modelcontextprotocol/sdk 1.32.2 client/streamableHttp.js (code: the HTTP status)",
    ),
    (
        "SseError",
        None,
        RaisedAs::Transport,
        "@modelcontextprotocol/sdk 1.32.2 client/sse.js",
    ),
    (
        "TypeError",
        Some("fetch failed"),
        RaisedAs::Network,
        "Node's fetch (undici), under every TypeScript client",
    ),
    (
        "McpError",
        None,
        RaisedAs::ServerError,
        "@modelcontextprotocol/sdk 1.32.2 types.js (code: the JSON-RPC code)",
    ),
    (
        "ProtocolError",
        None,
        RaisedAs::ServerError,
        "@modelcontextprotocol/client 2.x",
    ),
    (
        "MCPError",
        None,
        RaisedAs::ServerError,
        "mcp 2.3.0 (Python) shared/exceptions.py",
    ),
    (
        "ConnectError",
        None,
        RaisedAs::Unreached,
        "httpx (under mcp's streamable_http_client, Python)",
    ),
    (
        "McpErrorPy",
        None,
        RaisedAs::ServerError,
        "mcp 1.x (Python) McpError",
    ),
    (
        "HTTPStatusError",
        None,
        RaisedAs::Transport,
        "httpx / httpx2 (Python; the adapter hands response.status_code as the code)",
    ),
    (
        "ReadError",
        None,
        RaisedAs::Network,
        "httpx / httpx2 (Python)",
    ),
    (
        "RemoteProtocolError",
        None,
        RaisedAs::Network,
        "httpx / httpx2 (Python)",
    ),
    (
        "ConnectTimeout",
        None,
        RaisedAs::Unreached,
        "httpx / httpx2 (Python)",
    ),
    (
        "ReadTimeout",
        None,
        RaisedAs::Timeout,
        "httpx / httpx2 (Python)",
    ),
    (
        "WriteTimeout",
        None,
        RaisedAs::Timeout,
        "httpx / httpx2 (Python)",
    ),
    (
        "DOMException",
        Some("due to timeout"),
        RaisedAs::Timeout,
        "WHATWG AbortSignal.timeout()'s reason (a DOMException named TimeoutError, \"The operation was aborted due to timeout\"), under ai 7.0.173's tool timeout and @ai-sdk/mcp 2.0.99's \"Request was aborted\"",
    ),
    (
        "DOMException",
        None,
        RaisedAs::Aborted,
        "WHATWG AbortController.abort()'s reason (a DOMException named AbortError; its numeric code is the DOM's, not JSON-RPC's)",
    ),
    (
        "CancelledError",
        None,
        RaisedAs::Aborted,
        "Python's asyncio.CancelledError, raised into a call whose task was cancelled (anyio's cancel scopes raise the same class under asyncio; the OpenAI Agents SDK 0.24.0 cancels a pending MCP call this way when its session ends)",
    ),
    (
        "PoolTimeout",
        None,
        RaisedAs::Unreached,
        "httpx / httpx2 (Python)",
    ),
];

/// A rule for an error a client library makes itself: its phrase, what it means, and where the
/// library says it.
pub(crate) struct ClientRule {
    pub(crate) id: &'static str,
    /// Lower case: the message is compared lower-cased.
    pub(crate) phrase: &'static str,
    /// The code the library raises it with, when the rule needs it (the Python SDK raises its own
    /// stand-ins and the server's errors as one class: the code and the whole words tell them apart).
    pub(crate) code: Option<i64>,
    /// The name the library gives its error (`err.code` as text: Node's `ECONNRESET`, undici's
    /// `UND_ERR_SOCKET`, the TypeScript v2 client's `REQUEST_TIMEOUT`); a rule with one matches on
    /// the name alone, and its phrase is empty.
    pub(crate) code_name: Option<&'static str>,
    /// The phrase must be the whole message (trimmed), or its start when it ends in `:` or a space.
    pub(crate) whole: bool,
    pub(crate) channel: Channel,
    pub(crate) cause: Cause,
    /// Whether the request was sent, when no answer came: `None` when the library raised it over
    /// an answer (an output schema's check, a refusal's status).
    pub(crate) delivery: Option<Delivery>,
    /// Where the phrase is raised (package, version, file).
    pub(crate) provenance: &'static str,
}

/// The client rules, checked in order on the library's message (case-insensitive).
const CLIENT_RULES: &[ClientRule] = &[
    ClientRule {
        id: "client-no-structured-content",
        phrase: "has an output schema but did not return structured content",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Malformed,
        cause: Cause::MalformedResponse,
        delivery: None,
        provenance: "@modelcontextprotocol/sdk 1.32.2 client/index.js callTool; mcp 2.3.0 client/session.py",
    },
    ClientRule {
        id: "client-output-schema-mismatch",
        phrase: "does not match the tool's output schema",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Malformed,
        cause: Cause::MalformedResponse,
        delivery: None,
        provenance: "@modelcontextprotocol/sdk 1.32.2 client/index.js callTool",
    },
    ClientRule {
        id: "client-structured-content-invalid",
        phrase: "invalid structured content returned by tool",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Malformed,
        cause: Cause::MalformedResponse,
        delivery: None,
        provenance: "mcp 2.3.0 client/session.py _validate_tool_result",
    },
    ClientRule {
        id: "client-structured-content-unvalidated",
        phrase: "failed to validate structured content",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Malformed,
        cause: Cause::MalformedResponse,
        delivery: None,
        provenance: "@modelcontextprotocol/sdk 1.32.2 client/index.js callTool",
    },
    ClientRule {
        id: "client-request-timeout",
        phrase: "request timed out",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Network,
        cause: Cause::Timeout,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "@modelcontextprotocol/sdk 1.32.2 shared/protocol.js request (RequestTimeout)",
    },
    ClientRule {
        id: "client-total-timeout",
        phrase: "maximum total timeout exceeded",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Network,
        cause: Cause::Timeout,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "@modelcontextprotocol/sdk 1.32.2 shared/protocol.js request (maxTotalTimeout)",
    },
    ClientRule {
        id: "client-unsupported-protocol-version",
        phrase: "unsupported protocol version from the server",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Malformed,
        cause: Cause::ProtocolVersionUnsupported,
        delivery: None,
        provenance: "mcp 2.3.0 client/session.py initialize",
    },
    ClientRule {
        id: "client-py-request-timeout",
        phrase: "' timed out",
        code: Some(-32001),
        code_name: None,
        whole: false,
        channel: Channel::Network,
        cause: Cause::Timeout,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "mcp 2.3.0 (Python) shared/jsonrpc_dispatcher.py (REQUEST_TIMEOUT, \"Request 'tools/call' timed out\")",
    },
    ClientRule {
        id: "client-py1-request-timeout",
        phrase: "timed out while waiting for response to ",
        code: Some(408),
        code_name: None,
        whole: true,
        channel: Channel::Network,
        cause: Cause::Timeout,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "mcp 1.30.0 (Python) shared/session.py:291-303 (McpError with ErrorData code 408, its read timeout)",
    },
    ClientRule {
        id: "client-py-connection-closed",
        phrase: "connection closed",
        code: Some(-32000),
        code_name: None,
        whole: true,
        channel: Channel::Network,
        cause: Cause::ConnectionLost,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "mcp 2.3.0 (Python) shared/jsonrpc_dispatcher.py (CONNECTION_CLOSED)",
    },
    ClientRule {
        id: "client-py-session-terminated",
        phrase: "session terminated",
        code: Some(-32600),
        code_name: None,
        whole: true,
        channel: Channel::Http,
        cause: Cause::SessionNotFound,
        delivery: None,
        provenance: "mcp 2.3.0 (Python) client/streamable_http.py (a 404 once a session exists)",
    },
    ClientRule {
        id: "client-py-http-error-status-lost",
        phrase: "server returned an error response",
        code: Some(-32603),
        code_name: None,
        whole: true,
        channel: Channel::Http,
        cause: Cause::Unknown,
        delivery: None,
        provenance: "mcp 2.3.0 (Python) client/streamable_http.py (any other status >= 400 without a JSON-RPC body; the status is not kept)",
    },
    ClientRule {
        id: "client-py-202-for-a-request",
        phrase: "server answered a request with 202 accepted",
        code: Some(-32600),
        code_name: None,
        whole: true,
        channel: Channel::Malformed,
        cause: Cause::MalformedResponse,
        delivery: None,
        provenance: "mcp 2.3.0 (Python) client/streamable_http.py",
    },
    ClientRule {
        id: "client-py-unexpected-content-type",
        phrase: "unexpected content type:",
        code: Some(-32600),
        code_name: None,
        whole: false,
        channel: Channel::Malformed,
        cause: Cause::MalformedResponse,
        delivery: None,
        provenance: "mcp 2.3.0 (Python) client/streamable_http.py",
    },
    ClientRule {
        id: "client-task-execution-required",
        phrase: "requires task-based execution",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Malformed,
        cause: Cause::InvalidRequest,
        delivery: None,
        provenance: "@modelcontextprotocol/sdk 1.32.2 client/index.js callTool",
    },
    ClientRule {
        id: "client-py-json-unparsed",
        phrase: "failed to parse json response:",
        code: Some(-32700),
        code_name: None,
        whole: true,
        channel: Channel::Malformed,
        cause: Cause::MalformedResponse,
        delivery: None,
        provenance: "mcp 2.3.0 (Python) client/streamable_http.py (a response body that is not JSON-RPC)",
    },
    ClientRule {
        id: "client-py-sse-unparsed",
        phrase: "failed to parse sse message:",
        code: Some(-32700),
        code_name: None,
        whole: true,
        channel: Channel::Malformed,
        cause: Cause::MalformedResponse,
        delivery: None,
        provenance: "mcp 2.3.0 (Python) client/streamable_http.py",
    },
    ClientRule {
        id: "client-py-sse-ended",
        phrase: "sse stream ended without a response",
        code: Some(-32000),
        code_name: None,
        whole: true,
        channel: Channel::Network,
        cause: Cause::ConnectionLost,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "mcp 2.3.0 (Python) client/streamable_http.py",
    },
    ClientRule {
        id: "client-py-sse-failed",
        phrase: "sse stream failed:",
        code: Some(-32000),
        code_name: None,
        whole: true,
        channel: Channel::Network,
        cause: Cause::ConnectionLost,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "mcp 2.3.0 (Python) client/streamable_http.py",
    },
    ClientRule {
        id: "client-py-redirect-not-followed",
        phrase: "redirect to ",
        code: Some(-32600),
        code_name: None,
        whole: true,
        channel: Channel::Http,
        cause: Cause::Redirect,
        delivery: None,
        provenance: "mcp 2.3.0 (Python) client/streamable_http.py (a redirect off the endpoint's origin is not followed)",
    },
    ClientRule {
        id: "client-py-404-before-session",
        phrase: "not found",
        code: Some(-32601),
        code_name: None,
        whole: true,
        channel: Channel::Http,
        cause: Cause::EndpointNotFound,
        delivery: None,
        provenance: "mcp 2.3.0 (Python) client/streamable_http.py (a 404 before any session)",
    },
    ClientRule {
        id: "client-connection-closed",
        phrase: "mcp error -32000: connection closed",
        code: Some(-32000),
        code_name: None,
        whole: true,
        channel: Channel::Network,
        cause: Cause::ConnectionLost,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "@modelcontextprotocol/sdk 1.32.2 shared/protocol.js _onclose (McpError ConnectionClosed, \"MCP error -32000: Connection closed\")",
    },
    ClientRule {
        id: "client-node-socket-closed",
        phrase: "",
        code: None,
        code_name: Some("UND_ERR_SOCKET"),
        whole: false,
        channel: Channel::Network,
        cause: Cause::ConnectionLost,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "undici (Node's fetch) SocketError \"other side closed\", the cause of TypeError: fetch failed or terminated once the request was written",
    },
    ClientRule {
        id: "client-node-connection-reset",
        phrase: "",
        code: None,
        code_name: Some("ECONNRESET"),
        whole: false,
        channel: Channel::Network,
        cause: Cause::ConnectionLost,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "Node net (errno ECONNRESET), the cause of TypeError: fetch failed",
    },
    ClientRule {
        id: "client-node-broken-pipe",
        phrase: "",
        code: None,
        code_name: Some("EPIPE"),
        whole: false,
        channel: Channel::Network,
        cause: Cause::ConnectionLost,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "Node net (errno EPIPE), the cause of TypeError: fetch failed",
    },
    ClientRule {
        id: "client-node-headers-timeout",
        phrase: "",
        code: None,
        code_name: Some("UND_ERR_HEADERS_TIMEOUT"),
        whole: false,
        channel: Channel::Network,
        cause: Cause::Timeout,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "undici (Node's fetch) HeadersTimeoutError, the cause of TypeError: fetch failed",
    },
    ClientRule {
        id: "client-node-body-timeout",
        phrase: "",
        code: None,
        code_name: Some("UND_ERR_BODY_TIMEOUT"),
        whole: false,
        channel: Channel::Network,
        cause: Cause::Timeout,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "undici (Node's fetch) BodyTimeoutError, the cause of TypeError: terminated",
    },
    ClientRule {
        id: "client-ts2-request-timeout",
        phrase: "",
        code: None,
        code_name: Some("REQUEST_TIMEOUT"),
        whole: false,
        channel: Channel::Network,
        cause: Cause::Timeout,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "@modelcontextprotocol/client 2.x SdkError (its own request timeout, code \"REQUEST_TIMEOUT\")",
    },
    ClientRule {
        id: "client-node-body-cut",
        phrase: "terminated",
        code: None,
        code_name: None,
        whole: true,
        channel: Channel::Network,
        cause: Cause::ConnectionLost,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "undici (Node's fetch) lib/web/fetch: reading a body whose connection ended (TypeError: terminated)",
    },
    ClientRule {
        id: "client-node-other-side-closed",
        phrase: "other side closed",
        code: None,
        code_name: None,
        whole: true,
        channel: Channel::Network,
        cause: Cause::ConnectionLost,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "undici (Node's fetch) SocketError, the cause of TypeError: fetch failed",
    },
    ClientRule {
        id: "client-httpx-server-disconnected",
        phrase: "server disconnected without sending a response",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Network,
        cause: Cause::ConnectionLost,
        delivery: Some(Delivery::MayHaveRun),
        provenance: "httpcore / httpx (Python) RemoteProtocolError, once the request was written",
    },
    ClientRule {
        id: "client-node-connection-refused",
        phrase: "",
        code: None,
        code_name: Some("ECONNREFUSED"),
        whole: false,
        channel: Channel::Network,
        cause: Cause::NetworkOrCors,
        delivery: Some(Delivery::NotSent),
        provenance: "Node net (errno ECONNREFUSED), the cause of TypeError: fetch failed: nothing listens there",
    },
    ClientRule {
        id: "client-node-host-not-found",
        phrase: "",
        code: None,
        code_name: Some("ENOTFOUND"),
        whole: false,
        channel: Channel::Network,
        cause: Cause::NetworkOrCors,
        delivery: Some(Delivery::NotSent),
        provenance: "Node dns (ENOTFOUND), the cause of TypeError: fetch failed",
    },
    ClientRule {
        id: "client-node-connect-timeout",
        phrase: "",
        code: None,
        code_name: Some("UND_ERR_CONNECT_TIMEOUT"),
        whole: false,
        channel: Channel::Network,
        cause: Cause::NetworkOrCors,
        delivery: Some(Delivery::NotSent),
        provenance: "undici (Node's fetch) ConnectTimeoutError, the cause of TypeError: fetch failed",
    },
    ClientRule {
        id: "client-agents-missing-parameters",
        phrase: "missing required parameters: ",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Network,
        cause: Cause::InvalidArguments,
        delivery: Some(Delivery::NotSent),
        provenance: "openai-agents 0.24.0 agents/mcp/server.py (UserError raised before the call is sent)",
    },
    ClientRule {
        id: "client-agents-tool-not-found",
        phrase: " not found in agent ",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Network,
        cause: Cause::UnknownTool,
        delivery: Some(Delivery::NotSent),
        provenance: "openai-agents 0.24.0 agents/run_internal/turn_resolution.py:3848 (ModelBehaviorError \"Tool … not found in agent …\", raised from Runner.run before any MCP request)",
    },
    ClientRule {
        id: "client-ai-sdk-no-such-tool",
        phrase: "model tried to call unavailable tool",
        code: None,
        code_name: None,
        whole: false,
        channel: Channel::Network,
        cause: Cause::UnknownTool,
        delivery: Some(Delivery::NotSent),
        provenance: "ai 7.0.173 dist/index.js:346 NoSuchToolError (AI_NoSuchToolError), raised before any MCP request",
    },
    ClientRule {
        id: "client-ai-sdk-invalid-tool-input",
        phrase: "invalid input for tool ",
        code: None,
        code_name: None,
        whole: true,
        channel: Channel::Network,
        cause: Cause::InvalidArguments,
        delivery: Some(Delivery::NotSent),
        provenance: "ai 7.0.173 dist/index.js:108 InvalidToolInputError (AI_InvalidToolInputError: the model's input is not JSON, or fails a schema given to client.tools()), raised before any MCP request",
    },
];

/// The longest message a rule reads (longer ones are read to here).
pub(crate) const MAX_MESSAGE_CHARS: usize = 4096;

/// The client rule a library's message (and code) matches, with where its phrase starts (in
/// characters): an anchored rule must match the whole message, or its start for a phrase that
/// ends in `:` or a space; the others anywhere.
pub(crate) fn client_rule(
    message: &str,
    code: Option<i64>,
    code_name: Option<&str>,
) -> Option<(&'static ClientRule, usize)> {
    let capped: String = message.chars().take(MAX_MESSAGE_CHARS).collect();
    let lower = capped.trim().to_lowercase();
    CLIENT_RULES.iter().find_map(|rule| {
        if rule.code.is_some() && rule.code != code {
            return None;
        }
        if let Some(name) = rule.code_name {
            return (code_name == Some(name)).then_some((rule, 0));
        }
        let at = if rule.whole {
            let open = rule.phrase.ends_with(':') || rule.phrase.ends_with(' ');
            let hit = if open {
                lower.starts_with(rule.phrase)
            } else {
                lower == rule.phrase
            };
            hit.then_some(0)?
        } else {
            lower.find(rule.phrase)?
        };
        Some((rule, lower[..at].chars().count()))
    })
}

/// How a client library words an error that quotes the server: the text it puts before the
/// server's own words (`{code}` stands for a JSON-RPC code), and where it is written. What follows
/// is quoted as the server's; the wrapping never is.
pub(crate) const QUOTING_RULES: &[(&str, &str)] = &[
    (
        "Streamable HTTP error: Error POSTing to endpoint: ",
        "@modelcontextprotocol/sdk 1.32.2 client/streamableHttp.js: a refused POST's body after \
         `Error POSTing to endpoint: `, and StreamableHTTPError's `Streamable HTTP error: `",
    ),
    (
        "Error POSTing to endpoint (HTTP {code}): ",
        "@modelcontextprotocol/sdk 1.32.2 client/sse.js: a refused POST's body after the status",
    ),
    (
        "MCP error {code}: ",
        "@modelcontextprotocol/sdk 1.32.2 types.js: McpError's message is `MCP error ${code}: ${message}`",
    ),
];

/// The server's words inside what a library raised, by [`QUOTING_RULES`]; `None` when no rule
/// knows the wording (the words are then the library's).
pub(crate) fn server_words(message: &str) -> Option<&str> {
    QUOTING_RULES.iter().find_map(|(wrapping, _)| {
        let (before, after) = wrapping.split_once("{code}").unwrap_or((wrapping, ""));
        let rest = message.strip_prefix(before)?;
        if after.is_empty() {
            return Some(rest);
        }
        let digits = rest.strip_prefix('-').unwrap_or(rest);
        let code_len = digits.bytes().take_while(u8::is_ascii_digit).count();
        (code_len > 0)
            .then(|| digits.get(code_len..)?.strip_prefix(after))
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::CLIENT_RULES;

    #[test]
    fn every_client_rules_delivery_fits_its_cause() {
        for rule in CLIENT_RULES {
            if let Some(d) = rule.delivery {
                assert!(
                    d.fits(rule.cause),
                    "{}: {d:?} with {:?}",
                    rule.id,
                    rule.cause
                );
            }
        }
        // The control: a pair no call can have is refused.
        assert!(
            !crate::vocabulary::cause::Delivery::NotSent
                .fits(crate::vocabulary::cause::Cause::ToolExecution)
        );
    }
}
