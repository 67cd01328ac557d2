//! The vocabulary of a verdict: the channel a failure arrived on, its cause, the evidence, and flags.
//!
//! Identifiers are stable snake_case strings (serde and [`Cause::as_str`] agree): other tools parse them.
//! A cause names what happened; what to do about it lives elsewhere (advice is a separate table).

use serde::{Deserialize, Serialize};

labelled_enum! {
    /// How the answer reached the client: this decides what an SDK client's call does.
    #[non_exhaustive]
    Channel {
        /// No response at all (network error, CORS, timeout, aborted, redirect refused).
        Network = "network",
        /// HTTP status of 300 or more, whatever the body.
        Http = "http",
        /// 2xx with a JSON-RPC error frame for our id: an SDK client's call rejects.
        JsonrpcError = "jsonrpc_error",
        /// 2xx result with `isError: true`: the call resolves.
        ToolError = "tool_error",
        /// 2xx result, `isError` absent or false.
        Success = "success",
        /// 2xx but no valid JSON-RPC response to our id.
        Malformed = "malformed",
        /// 202 to a notification or response.
        Accepted = "accepted",
        /// An SSE stream held open (e.g. a GET).
        StreamOpen = "stream_open",
    }
}

labelled_enum! {
    /// Why a request got no answer that was read to its end: then nothing about the server's way
    /// of answering can be concluded from it.
    #[non_exhaustive]
    StopReason {
        /// The request's or the run's deadline passed.
        Deadline = "deadline",
        /// The answer was cut at the size cap.
        SizeCap = "size_cap",
        /// The user cancelled the run.
        Cancelled = "cancelled",
        /// The server answered with a redirect, which is never followed.
        Redirect = "redirect",
        /// The request failed before any answer (a browser: CORS, the network, a refused
        /// permission; a direct client: a refused connection, DNS, TLS, a reset).
        Blocked = "blocked",
        /// Replay: the recording holds no answer to this request.
        NotRecorded = "not_recorded",
        /// The connection broke before the answer ended (a reset, a body cut short).
        ConnectionLost = "connection_lost",
        /// A signal (Ctrl-C, SIGTERM) interrupted the command line's run while it waited.
        Interrupted = "interrupted",
    }
}

impl StopReason {
    /// What stopped it, for people.
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Deadline => "the deadline passed before the answer was read",
            StopReason::SizeCap => "the answer was cut at the size cap",
            StopReason::Cancelled => "you cancelled the run",
            StopReason::Redirect => "the server answered with a redirect, which is never followed",
            StopReason::NotRecorded => "the recording holds no answer to this request",
            StopReason::ConnectionLost => {
                "the connection broke before the answer ended (a reset, or a body cut short)"
            }
            StopReason::Interrupted => "the run was interrupted before the answer was read",
            StopReason::Blocked => "the request failed before the server answered",
        }
    }

    /// What a probe's card (and its shared row) says instead of advice.
    pub fn not_answered(self) -> String {
        format!(
            "Not answered: {}. Nothing about how the server answers follows from it, so there is no advice.",
            self.describe()
        )
    }
}

labelled_enum! {
    /// How a run ended.
    RunEnd {
        /// Everything planned was sent and answered (or refused).
        Complete = "complete",
        /// The user cancelled.
        Cancelled = "cancelled",
        /// The run's own deadline passed; what was in flight was aborted.
        DeadlinePassed = "deadline_passed",
        /// `initialize` / `server/discover` failed, so no probe could be planned.
        ConnectFailed = "connect_failed",
        /// A report made from recorded exchanges (examples, pasted captures): no run took place.
        Recorded = "recorded",
        /// A signal (Ctrl-C, SIGTERM) stopped the command line's run; what was in flight was
        /// aborted and what was recorded is reported.
        Interrupted = "interrupted",
    }
}

labelled_enum! {
    /// The signal that interrupted a run (the command line's; a page has Cancel instead).
    Interrupt {
        /// Ctrl-C in a terminal, or `kill -INT`.
        Sigint = "sigint",
        /// `kill`, a CI runner's cancel, a container stopping.
        Sigterm = "sigterm",
    }
}

impl Interrupt {
    /// The signal's conventional name.
    pub fn signal_name(self) -> &'static str {
        match self {
            Interrupt::Sigint => "SIGINT",
            Interrupt::Sigterm => "SIGTERM",
        }
    }
}

labelled_enum! {
    /// What most likely happened.
    #[non_exhaustive]
    Cause {
        /// The tool name is not one the server has.
        UnknownTool = "unknown_tool",
        /// The arguments do not fit the tool's input schema.
        InvalidArguments = "invalid_arguments",
        /// The tool ran and failed (an exception, an API or business error).
        ToolExecution = "tool_execution",
        /// The JSON-RPC method is not one the server serves.
        MethodNotFound = "method_not_found",
        /// The request was not a valid request (shape, missing field, wrong envelope).
        InvalidRequest = "invalid_request",
        /// The server could not parse the request body.
        ParseError = "parse_error",
        /// An internal error with no more detail.
        InternalError = "internal_error",
        /// No credentials, or credentials refused (401).
        Unauthenticated = "unauthenticated",
        /// Valid credentials without the scope needed.
        InsufficientScope = "insufficient_scope",
        /// Refused for another reason (403).
        Forbidden = "forbidden",
        /// The request's Origin is not allowed (DNS-rebinding protection).
        OriginRejected = "origin_rejected",
        /// The HTTP method is not served on this endpoint (405).
        MethodNotAllowed = "method_not_allowed",
        /// The Accept header was refused (406).
        NotAcceptable = "not_acceptable",
        /// The Content-Type was refused (415).
        UnsupportedMediaType = "unsupported_media_type",
        /// The server needs an `Mcp-Session-Id` and none was sent.
        SessionRequired = "session_required",
        /// The session id sent is unknown or expired.
        SessionNotFound = "session_not_found",
        /// The protocol version (header or `_meta`) is not supported.
        ProtocolVersionUnsupported = "protocol_version_unsupported",
        /// A standard header does not match the body (2026-07-28).
        HeaderMismatch = "header_mismatch",
        /// Too many requests (429).
        RateLimited = "rate_limited",
        /// The server failed (5xx).
        ServerError = "server_error",
        /// A redirect answered; it is never followed.
        Redirect = "redirect",
        /// A deadline passed.
        Timeout = "timeout",
        /// The request never got a readable answer: CORS, DNS, refused connection, mixed content.
        NetworkOrCors = "network_or_cors",
        /// The body passed the size cap before our response.
        BodyTooLarge = "body_too_large",
        /// The answer is not a valid JSON-RPC response to our request.
        MalformedResponse = "malformed_response",
        /// The request was cancelled before an answer.
        Aborted = "aborted",
        /// The connection broke after the head, before our response arrived (a reset, a body cut
        /// short of its length or chunked encoding).
        ConnectionLost = "connection_lost",
        /// Nothing serves MCP at this URL (404 with no JSON-RPC frame and no session involved).
        EndpointNotFound = "endpoint_not_found",
        /// The endpoint speaks the old HTTP+SSE transport (2024-11-05): a GET stream that opens with an
        /// `endpoint` event.
        LegacySseTransport = "legacy_sse_transport",
        /// A stdio server's process exited (or crashed) before it answered.
        ServerExited = "server_exited",
        /// Not a failure.
        None = "none",
        /// The wire does not say.
        Unknown = "unknown",
    }
}

labelled_enum! {
    /// Which kind of fact decided the cause.
    DecidedBy {
        /// Status, JSON-RPC code, `isError`, a header, a challenge parameter, the request's shape.
        Structure = "structure",
        /// A phrase in the server's prose.
        Text = "text",
        /// The probe's intent, given by the caller: a tie-break where the wire reads the same for
        /// two causes (a bare -32602 answering probe A or C).
        Intent = "intent",
    }
}

/// Evidence kind: the same split as [`DecidedBy`] (`intent` evidence is what the caller said).
pub type EvidenceKind = DecidedBy;

labelled_enum! {
    /// Observations that do not change the cause but matter to an agent author.
    #[non_exhaustive]
    Flag {
        /// The server hid the exception text (e.g. "Error executing tool X" alone).
        MessageWithheld = "message_withheld",
        /// A success whose content reads like an error, or `{"error": …}` in a success.
        SoftFailureSuspected = "soft_failure_suspected",
        /// A JSON-RPC code appears only inside prose (e.g. "MCP error -32602: …").
        CodeInText = "code_in_text",
        /// Messages that were not our response arrived first (notifications, server requests).
        UnrelatedMessagesFirst = "unrelated_messages_first",
        /// Response headers a browser cannot see may be missing (CORS exposes only some).
        HeadersMayBeHidden = "headers_may_be_hidden",
        /// The answer held one of the run's secrets (the token or a secret header), in some encoding.
        SecretEchoed = "secret_echoed",
        /// A stdio server wrote lines that are not JSON to stdout (logging there breaks clients).
        NonJsonStdout = "non_json_stdout",
        /// The refusal names a fault our request did not have (a 400 "no session" although we sent
        /// one, a 406 although our Accept listed both types): the cause says what really happened.
        RefusalMislabelled = "refusal_mislabelled",
    }
}

impl Flag {
    /// A flag that holds for every answer of a run alike (it comes from where the run was made,
    /// not from the answer): the report says it once instead of on every card and row.
    pub fn once_per_run(self) -> bool {
        matches!(self, Flag::HeadersMayBeHidden)
    }
}

/// One fact that contributed to the verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// Structure or text.
    pub kind: EvidenceKind,
    /// What was seen, in words (e.g. `HTTP status 401`, `result.isError is true`).
    pub fact: String,
    /// For text evidence: the JSON pointer into the decoded message (or `/body` for a non-JSON body).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// For text evidence: the matched range in that string, in characters (Unicode scalar values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<[usize; 2]>,
    /// For text evidence: the matched phrase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched: Option<String>,
    /// For text evidence: the id of the rule that matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

impl Evidence {
    /// A structural fact.
    pub fn structure(fact: impl Into<String>) -> Evidence {
        Evidence {
            kind: DecidedBy::Structure,
            fact: fact.into(),
            pointer: None,
            range: None,
            matched: None,
            rule: None,
        }
    }
}

labelled_enum! {
    /// Whether the request reached the server, for a call that got no answer.
    Delivery {
        /// Refused before the request was written (by the client library or the agent's
        /// framework), or the connection never opened: the tool did not run.
        NotSent = "not_sent",
        /// The request was (or may have been) written, and no answer came: the tool may have run.
        MayHaveRun = "may_have_run",
    }
}

impl Delivery {
    /// The causes a call of this delivery can have: what no answer leaves (may have run), and what
    /// stops a call before it is sent (the connection, a framework's own checks). Every client
    /// rule's pair is one of these (a test holds them), and the schema's retry table is made from
    /// them.
    pub(crate) fn fits(self, cause: Cause) -> bool {
        match self {
            Delivery::MayHaveRun => matches!(
                cause,
                Cause::NetworkOrCors
                    | Cause::Timeout
                    | Cause::Aborted
                    | Cause::ConnectionLost
                    | Cause::ServerExited
            ),
            Delivery::NotSent => matches!(
                cause,
                Cause::NetworkOrCors | Cause::UnknownTool | Cause::InvalidArguments
            ),
        }
    }
}
