//! All user-facing advice in one table: what an agent should do about each cause, who must act, and
//! what the server author could change (with the spec section). The rules that find causes live in
//! `classify.rs` and `text_rules.rs`; this file only says what to do about them.

use serde::Serialize;

use crate::vocabulary::cause::{Cause, Flag};
use crate::vocabulary::protocol::ProtocolVersion;

labelled_enum! {
    /// What an agent (or its client library) should do with this answer.
    AgentAction {
        /// Get a new token (or ask the user to sign in), then retry.
        Reauthenticate = "reauthenticate",
        /// Show the failure to the user; retrying the same call will not help.
        ShowUserDoNotRetry = "show_user_do_not_retry",
        /// Give the error text to the model so it can fix the arguments and call again.
        GiveTextToModel = "give_text_to_model",
        /// Pick another tool or refresh `tools/list`; never retry the same name.
        PickAnotherTool = "pick_another_tool",
        /// Retry later, with backoff.
        RetryWithBackoff = "retry_with_backoff",
        /// Start a new session (`initialize` again), then retry.
        Reinitialize = "reinitialize",
        /// The client sent something wrong: fix the client, not the call.
        FixClientRequest = "fix_client_request",
        /// Nothing to do: it worked.
        Proceed = "proceed",
    }
}

labelled_enum! {
    /// Who must act.
    Party {
        /// The agent or its MCP client.
        AgentClient = "agent_client",
        /// Whoever writes or runs the server.
        ServerAuthor = "server_author",
        /// Network, proxy, CORS or deployment configuration.
        NetworkConfig = "network_config",
        /// The person using the agent (credentials, permissions).
        User = "user",
        /// Nobody: not a failure.
        Nobody = "nobody",
    }
}

/// The advice for one cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Advice {
    /// The cause this row is for.
    pub cause: Cause,
    /// What the agent should do.
    pub action: AgentAction,
    /// Who must act to make the call succeed.
    pub party: Party,
    /// One sentence for the agent author.
    pub agent: &'static str,
    /// One line for the server author.
    pub server: &'static str,
    /// The spec page (path under `/specification/<version>/`) and anchor the server line rests on.
    pub spec_section: &'static str,
}

macro_rules! row {
    ($cause:ident, $action:ident, $party:ident, $agent:literal, $server:literal, $spec:literal) => {
        Advice {
            cause: Cause::$cause,
            action: AgentAction::$action,
            party: Party::$party,
            agent: $agent,
            server: $server,
            spec_section: $spec,
        }
    };
}

/// One row per cause, in the order of [`Cause::ALL`].
pub(crate) const ADVICE: &[Advice] = &[
    row!(
        UnknownTool,
        PickAnotherTool,
        AgentClient,
        "The tool does not exist: refresh tools/list and pick another tool; never retry the same name.",
        "Answer an unknown tool with a JSON-RPC error (-32602), not an isError result, so clients can tell it from a failed run.",
        "server/tools#error-handling"
    ),
    row!(
        InvalidArguments,
        GiveTextToModel,
        AgentClient,
        "The arguments do not fit the tool's schema: give the error text to the model and let it fix them.",
        "Return schema validation failures as an isError result whose text names each bad field (SEP-1303, 2025-11-25).",
        "server/tools#error-handling"
    ),
    row!(
        ToolExecution,
        ShowUserDoNotRetry,
        ServerAuthor,
        "The tool ran and failed: show the text to the model or the user; retrying the same call is unlikely to help unless the text says it is transient.",
        "Report execution failures as isError results with an actionable message; never hide them in a JSON-RPC error.",
        "server/tools#error-handling"
    ),
    row!(
        MethodNotFound,
        FixClientRequest,
        AgentClient,
        "The server does not serve this method: check its capabilities and do not call it again.",
        "Answer unknown methods with -32601 (and, in 2026-07-28, HTTP 404).",
        "basic/index#responses"
    ),
    row!(
        InvalidRequest,
        FixClientRequest,
        AgentClient,
        "The request itself was malformed: fix the client; the model cannot repair this.",
        "Answer malformed requests with a JSON-RPC error (-32600 or -32602) that says which field is wrong.",
        "basic/index#responses"
    ),
    row!(
        ParseError,
        FixClientRequest,
        AgentClient,
        "The server could not parse the body: fix the client's serialisation.",
        "Answer unparseable bodies with HTTP 400 and a JSON-RPC -32700 error (with CORS headers), not an HTML page.",
        "basic/transports#sending-messages-to-the-server"
    ),
    row!(
        InternalError,
        RetryWithBackoff,
        ServerAuthor,
        "An internal error without detail: retry once with backoff, then show it to the user.",
        "Say what failed: for a tool, return an isError result with the message instead of a bare -32603.",
        "server/tools#error-handling"
    ),
    row!(
        Unauthenticated,
        Reauthenticate,
        User,
        "The token is missing, invalid or expired: re-authenticate (follow resource_metadata), then retry.",
        "Send 401 with WWW-Authenticate: Bearer resource_metadata=… (and scope=…) so clients can discover how to sign in.",
        "basic/authorization#authorization-server-location"
    ),
    row!(
        InsufficientScope,
        Reauthenticate,
        User,
        "The token lacks a scope: ask for the scope named in the challenge, then retry.",
        "Send 403 with WWW-Authenticate: Bearer error=\"insufficient_scope\", scope=… naming what is needed.",
        "basic/authorization#scope-challenge-handling"
    ),
    row!(
        Forbidden,
        ShowUserDoNotRetry,
        User,
        "The server refuses this caller: show the message to the user; retrying will not help.",
        "Say why in the body (and use insufficient_scope when a scope is the problem).",
        "basic/authorization#error-handling"
    ),
    row!(
        OriginRejected,
        FixClientRequest,
        ServerAuthor,
        "The server refuses this page's Origin: nothing an agent can change from here.",
        "Allow exactly this origin in the server's Origin check (never '*', never turn the check off).",
        "basic/transports#security-warning"
    ),
    row!(
        MethodNotAllowed,
        Proceed,
        Nobody,
        "The server does not offer this HTTP method (e.g. no GET stream): that is allowed; do not use it.",
        "Nothing to change: 405 is a valid answer to GET and DELETE when the server offers no stream or session termination.",
        "basic/transports#listening-for-messages-from-the-server"
    ),
    row!(
        NotAcceptable,
        FixClientRequest,
        AgentClient,
        "The client's Accept header was refused: send Accept: application/json, text/event-stream.",
        "Nothing to change if the client really omitted a required media type.",
        "basic/transports#sending-messages-to-the-server"
    ),
    row!(
        UnsupportedMediaType,
        FixClientRequest,
        AgentClient,
        "The client's Content-Type was refused: send Content-Type: application/json.",
        "Answer with 415 and a JSON-RPC error body.",
        "basic/transports#sending-messages-to-the-server"
    ),
    row!(
        SessionRequired,
        Reinitialize,
        AgentClient,
        "The server needs a session: initialize, keep the Mcp-Session-Id it returns, and send it on every request.",
        "Answer a missing session id with 400 (and expose Mcp-Session-Id through CORS so browsers can read it).",
        "basic/transports#session-management"
    ),
    row!(
        SessionNotFound,
        Reinitialize,
        AgentClient,
        "The session is unknown or expired: initialize again, then retry the call.",
        "Answer unknown or ended sessions with 404, as the spec requires, so clients know to re-initialize.",
        "basic/transports#session-management"
    ),
    row!(
        ProtocolVersionUnsupported,
        FixClientRequest,
        AgentClient,
        "The server does not speak this protocol version: use a version it supports (see the error or initialize).",
        "List the supported versions in the error (2026-07-28: -32022 with data.supported).",
        "basic/lifecycle#version-negotiation"
    ),
    row!(
        HeaderMismatch,
        FixClientRequest,
        AgentClient,
        "A standard header disagrees with the body: make Mcp-Method / Mcp-Name / MCP-Protocol-Version match.",
        "Answer mismatches with 400 and -32020, naming the header.",
        "basic/transports/streamable-http"
    ),
    row!(
        RateLimited,
        RetryWithBackoff,
        AgentClient,
        "Rate limited: wait (Retry-After when given) and retry with backoff.",
        "Send Retry-After with 429.",
        "basic/transports"
    ),
    row!(
        ServerError,
        RetryWithBackoff,
        ServerAuthor,
        "The server failed: retry with backoff; report it if it persists.",
        "Fix the failure; a 5xx says nothing an agent can act on.",
        "basic/transports"
    ),
    row!(
        Redirect,
        FixClientRequest,
        NetworkConfig,
        "The endpoint redirects: use the final URL directly (redirects are not followed with a token).",
        "Serve MCP at a stable URL without redirects.",
        "basic/transports"
    ),
    row!(
        Timeout,
        RetryWithBackoff,
        ServerAuthor,
        "No answer in time: retry with backoff; if it repeats, the server or the network is stuck.",
        "Answer within a bounded time; send a result or an error even when the tool hangs or panics.",
        "basic/lifecycle#timeouts"
    ),
    row!(
        NetworkOrCors,
        FixClientRequest,
        NetworkConfig,
        "The request never got a readable answer (network, DNS, CORS or mixed content): check the URL and the server's CORS.",
        "Allow this page's origin in CORS: the request headers MCP uses and the response headers it reads.",
        "basic/transports"
    ),
    row!(
        BodyTooLarge,
        ShowUserDoNotRetry,
        ServerAuthor,
        "The answer was too large to read: do not retry the same call.",
        "Keep responses small; paginate large results.",
        "server/utilities/pagination"
    ),
    row!(
        MalformedResponse,
        ShowUserDoNotRetry,
        ServerAuthor,
        "The answer was not a valid JSON-RPC response: report it to the server author.",
        "Send exactly one JSON-RPC response per request, with the request's id, jsonrpc \"2.0\", and one of result/error.",
        "basic/index#responses"
    ),
    row!(
        Aborted,
        Proceed,
        Nobody,
        "Cancelled before an answer arrived.",
        "Nothing to change.",
        "basic/utilities/cancellation"
    ),
    row!(
        ConnectionLost,
        RetryWithBackoff,
        ServerAuthor,
        "The connection broke before the answer ended: retry with backoff; if it repeats, the server or a proxy in front of it cuts responses.",
        "Finish every response: a crash or a proxy that cuts the body leaves the client with no answer at all.",
        "basic/transports"
    ),
    row!(
        EndpointNotFound,
        FixClientRequest,
        User,
        "Nothing serves MCP at this URL: check the endpoint path.",
        "Serve the MCP endpoint at the documented path.",
        "basic/transports"
    ),
    row!(
        LegacySseTransport,
        FixClientRequest,
        AgentClient,
        "This endpoint speaks the old HTTP+SSE transport (2024-11-05): use a client that supports it, or the server's Streamable HTTP endpoint.",
        "Offer Streamable HTTP (2025-03-26 and later) next to the old transport.",
        "basic/transports#backwards-compatibility"
    ),
    row!(
        ServerExited,
        ShowUserDoNotRetry,
        ServerAuthor,
        "The server process is gone: every further call fails until the client starts it again; show the failure (and its stderr) to the user instead of retrying on the dead pipe.",
        "Catch failures inside tool handlers and answer with isError: true; a stdio server must never exit while a client is connected.",
        "basic/transports#stdio"
    ),
    row!(
        None,
        Proceed,
        Nobody,
        "It worked: use the result.",
        "Nothing to change.",
        "server/tools#calling-tools"
    ),
    row!(
        Unknown,
        ShowUserDoNotRetry,
        ServerAuthor,
        "The answer does not say what happened: show it to the user.",
        "Use a JSON-RPC error code or an isError result that says what failed.",
        "server/tools#error-handling"
    ),
];

/// The advice row for a cause.
pub fn for_cause(cause: Cause) -> &'static Advice {
    ADVICE
        .iter()
        .find(|a| a.cause == cause)
        .unwrap_or(&ADVICE[ADVICE.len() - 1])
}

/// One line for the server author about a flag.
pub fn for_flag(flag: Flag) -> &'static str {
    match flag {
        Flag::MessageWithheld => {
            "The server hid the failure's message: include a safe, actionable message in the isError text."
        }
        Flag::SoftFailureSuspected => {
            "A success that reads like a failure: set isError: true so clients and models see the failure."
        }
        Flag::CodeInText => {
            "A JSON-RPC code is written into prose: clients cannot read it; use a JSON-RPC error frame or drop the code."
        }
        Flag::UnrelatedMessagesFirst => {
            "Other messages arrived before the response: fine, but clients must match responses by id."
        }
        Flag::HeadersMayBeHidden => {
            "Seen from a browser: headers the server does not expose through CORS are invisible here."
        }
        Flag::SecretEchoed => {
            "The answer repeats the client's credential (redacted here): never echo tokens or secret headers into responses or logs."
        }
        Flag::NonJsonStdout => {
            "Stdout is the protocol channel of a stdio server: log to stderr. Clients drop or choke on every line that is not a JSON-RPC message."
        }
        Flag::RefusalMislabelled => {
            "The refusal blames something the request did right, so clients fix the wrong thing: say what was really wrong (an unknown session is 404 \"Session not found\"; parse Accept and Content-Type as media types, case-insensitively; check the version header before anything that depends on it)."
        }
    }
}

/// The full URL of a spec section for a version.
pub(crate) fn spec_url(version: &str, section: &str) -> String {
    let section = if ProtocolVersion::parse(version) == Some(ProtocolVersion::MODERN) {
        section.replace("basic/transports#", "basic/transports/streamable-http#")
    } else {
        section.to_string()
    };
    format!("https://modelcontextprotocol.io/specification/{version}/{section}")
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn every_cause_has_exactly_one_row_in_order() {
        assert_eq!(ADVICE.len(), Cause::ALL.len());
        for (row, cause) in ADVICE.iter().zip(Cause::ALL) {
            assert_eq!(row.cause, *cause);
            assert!(!row.agent.is_empty() && !row.server.is_empty());
        }
    }

    #[test]
    fn the_seed_causes_get_the_three_different_actions() {
        assert_eq!(
            for_cause(Cause::UnknownTool).action,
            AgentAction::PickAnotherTool
        );
        assert_eq!(
            for_cause(Cause::InvalidArguments).action,
            AgentAction::GiveTextToModel
        );
        assert_eq!(
            for_cause(Cause::ToolExecution).action,
            AgentAction::ShowUserDoNotRetry
        );
        assert_eq!(
            for_cause(Cause::SessionNotFound).action,
            AgentAction::Reinitialize
        );
        assert_eq!(
            for_cause(Cause::Unauthenticated).action,
            AgentAction::Reauthenticate
        );
        assert_eq!(
            for_cause(Cause::RateLimited).action,
            AgentAction::RetryWithBackoff
        );
    }
}
