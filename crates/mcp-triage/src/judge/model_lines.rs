//! What to tell the model that made a call, by cause: one line in place of "An error occurred"
//! (`message_for_model`), a table apart from detection like the advice.

use crate::vocabulary::cause::{Cause, Delivery};

/// One line per cause for the model that made the call, in place of "An error occurred": what
/// happened and what to do instead (`{tool}` is the tool's name). In the order of [`Cause::ALL`].
pub(crate) const MODEL_LINES: &[(Cause, &str)] = &[
    (
        Cause::UnknownTool,
        "The tool \"{tool}\" does not exist on this server. Pick another tool from the current tool list; do not call \"{tool}\" again.",
    ),
    (
        Cause::InvalidArguments,
        "The arguments for \"{tool}\" were rejected. Correct them to match the tool's input schema, then call it again.",
    ),
    (
        Cause::ToolExecution,
        "\"{tool}\" ran and failed. Calling it again with the same arguments will most likely fail the same way; tell the user or try another approach.",
    ),
    (
        Cause::MethodNotFound,
        "This server does not support the request that was made. Do not repeat it; tell the user.",
    ),
    (
        Cause::InvalidRequest,
        "The MCP client sent a request this server could not accept. This is not something to fix in the arguments; tell the user.",
    ),
    (
        Cause::ParseError,
        "The server could not read the request the MCP client sent. Do not repeat it; tell the user.",
    ),
    (
        Cause::InternalError,
        "The server failed internally while handling \"{tool}\". It may work later; do not assume it ran or did not run.",
    ),
    (
        Cause::Unauthenticated,
        "The server needs the user to sign in (or a new token) before \"{tool}\" can be called. Ask the user to sign in; do not retry until then.",
    ),
    (
        Cause::InsufficientScope,
        "The user's sign-in does not allow \"{tool}\". The user must grant more access; do not retry until then.",
    ),
    (
        Cause::Forbidden,
        "The server refuses \"{tool}\" for this user. Retrying will not help; tell the user.",
    ),
    (
        Cause::OriginRejected,
        "The server refused the request because of where it came from. This is a configuration problem; tell the user.",
    ),
    (
        Cause::MethodNotAllowed,
        "The server does not accept requests the way the MCP client sent them. Tell the user; retrying will not help.",
    ),
    (
        Cause::NotAcceptable,
        "The server and the MCP client disagree on the response format. Tell the user; retrying will not help.",
    ),
    (
        Cause::UnsupportedMediaType,
        "The server did not accept the MCP client's request format. Tell the user; retrying will not help.",
    ),
    (
        Cause::SessionRequired,
        "The server needs a session first. The MCP client must reconnect; then \"{tool}\" can be called again.",
    ),
    (
        Cause::SessionNotFound,
        "The server's session expired. The MCP client must reconnect; then \"{tool}\" can be called again.",
    ),
    (
        Cause::ProtocolVersionUnsupported,
        "The server and the MCP client speak different protocol versions. Tell the user; retrying will not help.",
    ),
    (
        Cause::HeaderMismatch,
        "The MCP client's request headers disagree with its body. The client must be fixed; tell the user.",
    ),
    (
        Cause::RateLimited,
        "The server is rate-limiting requests. Wait before calling \"{tool}\" again.",
    ),
    (
        Cause::ServerError,
        "The server failed while handling \"{tool}\". It may work later; do not assume it ran or did not run.",
    ),
    (
        Cause::Redirect,
        "The server redirected the request elsewhere, which MCP clients do not follow. Tell the user; retrying will not help.",
    ),
    (
        Cause::Timeout,
        "\"{tool}\" did not answer in time. It may still have run; check before calling it again.",
    ),
    (
        Cause::NetworkOrCors,
        "The server could not be reached. Tell the user; it may be a network or configuration problem.",
    ),
    (
        Cause::BodyTooLarge,
        "The server's answer to \"{tool}\" was too large to read. Ask for less (a narrower query), or tell the user.",
    ),
    (
        Cause::MalformedResponse,
        "The server's answer to \"{tool}\" could not be read as a valid result. The tool may have run; tell the user rather than retrying.",
    ),
    (
        Cause::Aborted,
        "The call to \"{tool}\" was cancelled before an answer came. It may have run.",
    ),
    (
        Cause::ConnectionLost,
        "The connection dropped before \"{tool}\" answered. It may have run; check before calling it again.",
    ),
    (
        Cause::EndpointNotFound,
        "The server's address is wrong or gone. Tell the user; retrying will not help.",
    ),
    (
        Cause::LegacySseTransport,
        "The server speaks an older MCP transport that this client does not use. Tell the user.",
    ),
    (
        Cause::ServerExited,
        "The MCP server process stopped while handling \"{tool}\". It may have run; tell the user.",
    ),
    (Cause::None, "\"{tool}\" succeeded."),
    (
        Cause::Unknown,
        "The call to \"{tool}\" failed for an unknown reason. Do not assume it ran or did not run; tell the user.",
    ),
];

/// The lines a connection failure gets once it is known whether the request was sent, in place of
/// the cause's ("could not be reached" is false for a request that was written): for the model,
/// and for the agent's author.
const NETWORK_BY_DELIVERY: [(Delivery, &str, &str); 2] = [
    (
        Delivery::MayHaveRun,
        "No answer came for \"{tool}\", and the request may have reached the server: it may have run. Check before calling it again.",
        "No complete answer came, and the request may have reached the server, so the tool may have run: send it again only to a tool declared read-only or idempotent; otherwise check its effect first.",
    ),
    (
        Delivery::NotSent,
        "\"{tool}\" was not called: the server could not be reached, so nothing ran. Trying again later may work; tell the user if it keeps failing.",
        "The request was not sent (the connection never opened), so nothing ran: send it again later, and check the server's address if it keeps failing.",
    ),
];

/// For a connection failure whose delivery is known: the model's line and the agent's advice.
pub(crate) fn network_lines(
    delivery: Delivery,
    cause: Cause,
) -> Option<(&'static str, &'static str)> {
    if cause != Cause::NetworkOrCors {
        return None;
    }
    NETWORK_BY_DELIVERY
        .iter()
        .find(|(d, _, _)| *d == delivery)
        .map(|(_, model, agent)| (*model, *agent))
}

/// The model's line for a cause ([`MODEL_LINES`]).
pub(crate) fn model_line(cause: Cause) -> &'static str {
    MODEL_LINES
        .iter()
        .find(|(c, _)| *c == cause)
        .map_or(MODEL_LINES[MODEL_LINES.len() - 1].1, |(_, line)| line)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn every_cause_has_one_line_for_the_model_in_table_order() {
        let causes: Vec<Cause> = MODEL_LINES.iter().map(|(c, _)| *c).collect();
        assert_eq!(causes, Cause::ALL);
        for (cause, line) in MODEL_LINES {
            assert!(!line.is_empty() && line.ends_with('.'), "{cause}");
        }
    }
}
