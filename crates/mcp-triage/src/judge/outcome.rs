//! What an agent's call came to, judged from what its MCP client library handed it (not the wire):
//! the `CallToolResult`, the JSON-RPC error the library raised with the server's code and words, a
//! transport failure, or an error the library made itself. The same decision table as an exchange's
//! (`classify`) reads the first three, as the one JSON-RPC answer they stand for; the last is read
//! by the client rules below, and named as made on the client. Whether the same call may be sent
//! again follows from the advice and, where the call may have run, the tool's annotations.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::judge::advice::AgentAction;
use crate::judge::classify::{Options, Verdict, classify};
use crate::judge::library_rules::{MAX_MESSAGE_CHARS, RAISED_RULES, RaisedAs, client_rule};
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Delivery, Evidence, EvidenceKind};
use crate::vocabulary::exchange::{Exchange, Request, Response, TransportError, Vantage};

labelled_enum! {
    /// Where the failure was decided.
    MadeOn {
        /// The server answered so.
        Server = "server",
        /// The agent's client library raised it, after or instead of the server's answer.
        Client = "client",
    }
}

labelled_enum! {
    /// Whether the same call may be sent again.
    RetrySafety {
        /// It worked: nothing to send again.
        NotNeeded = "not_needed",
        /// The same call cannot succeed as it is (another tool, other arguments, a person's help).
        Futile = "futile",
        /// Only after the action: a new token, or a new session.
        AfterAction = "after_action",
        /// Safe to send again after a wait: the call did not reach the tool, or the tool says it
        /// only reads or is idempotent.
        Safe = "safe",
        /// The call may have run and the tool does not say it is safe to run twice (or says it is
        /// destructive): never sent again automatically.
        OutcomeUnknown = "outcome_unknown",
    }
}

/// What an agent's client library handed it after a `tools/call`, as JSON: the tool's name and the
/// arguments sent, optionally the tool's definition from `tools/list`, and exactly one of
/// `result`, `error`, `transport`, `client_error`, or `raised` (whatever the library threw, when
/// the caller cannot tell which of the last three it is: the core reads it, see [`Raised`]).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentCall {
    /// The tool called.
    pub tool: String,
    /// The arguments sent.
    #[serde(default)]
    pub arguments: Value,
    /// The tool as `tools/list` described it (`inputSchema`, `annotations`).
    #[serde(default)]
    pub definition: Option<Value>,
    /// The `CallToolResult` returned.
    #[serde(default)]
    pub result: Option<Value>,
    /// The JSON-RPC error raised with the server's answer: `code`, `message`, `data`.
    #[serde(default)]
    pub error: Option<RpcError>,
    /// A transport failure: the HTTP status when a response came, and/or what broke.
    #[serde(default)]
    pub transport: Option<TransportFailure>,
    /// An error the client library raised itself (its code when it gave one, and its message).
    #[serde(default)]
    pub client_error: Option<ClientError>,
    /// Whatever the library threw, as it threw it.
    #[serde(default)]
    pub raised: Option<Raised>,
}

/// An exception a client library threw, as an adapter sees it: its class name, its `code` (a
/// JSON-RPC code, or an HTTP status for a transport's error), its message and `data`. Which kind of
/// outcome it stands for is decided here (`RAISED_RULES`, then the client rules).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(from = "RaisedJson")]
pub struct Raised {
    /// The exception's class (`McpError`, `StreamableHTTPError`, `TypeError`, `MCPError`, …).
    pub name: Option<String>,
    /// Its `code`, when it is a number.
    pub code: Option<i64>,
    /// Its `code`, when it is a name (`ECONNRESET`, `UND_ERR_SOCKET`, `REQUEST_TIMEOUT`): the
    /// JSON's `code` as text, cut at 64 characters.
    pub code_name: Option<String>,
    /// Its message.
    pub message: String,
    /// Its `data`.
    pub data: Option<Value>,
    /// What it was raised from, outermost first (`raise … from`, `cause`): the first link a
    /// rule reads (its class, the library's words, or a code) stands for the outcome, except that
    /// a bare network failure (`TypeError: fetch failed`) is read through to the link that says
    /// what broke; at most [`MAX_CAUSES`] are read.
    pub causes: Vec<Raised>,
}

/// The longest error code name kept.
const MAX_CODE_NAME_CHARS: usize = 64;

/// An error code name as the rules read it: cut at [`MAX_CODE_NAME_CHARS`].
fn capped_code_name(name: &str) -> String {
    name.chars().take(MAX_CODE_NAME_CHARS).collect()
}

/// A thrown exception as JSON: its `code` a number or a name.
#[derive(Deserialize)]
struct RaisedJson {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    code: Option<Value>,
    #[serde(default)]
    message: String,
    #[serde(default)]
    data: Option<Value>,
    #[serde(default)]
    causes: Vec<Raised>,
}

impl From<RaisedJson> for Raised {
    fn from(r: RaisedJson) -> Raised {
        Raised {
            code: r.code.as_ref().and_then(Value::as_i64),
            code_name: r
                .code
                .as_ref()
                .and_then(Value::as_str)
                .map(capped_code_name),
            name: r.name,
            message: r.message,
            data: r.data,
            causes: r.causes,
        }
    }
}

/// The most links of a chain of causes read.
pub const MAX_CAUSES: usize = 8;

/// The call with a thrown exception read as the outcome it stands for (the call itself otherwise).
pub(crate) fn resolved(call: &AgentCall) -> AgentCall {
    let mut read = match &call.raised {
        Some(raised) => read_raised(call, raised),
        None => call.clone(),
    };
    read.tool = capped_tool(&read.tool);
    read
}

/// The longest tool name a verdict carries, in bytes.
const MAX_TOOL_BYTES: usize = 1024;

/// A tool's name cut at [`MAX_TOOL_BYTES`] (on a character's edge): a longer name is still judged,
/// so a call that ran always gets its verdict.
pub(crate) fn capped_tool(tool: &str) -> String {
    let mut end = tool.len().min(MAX_TOOL_BYTES);
    while !tool.is_char_boundary(end) {
        end -= 1;
    }
    tool[..end].to_string()
}

/// The client rule a link of a chain matches.
fn link_rule(r: &Raised) -> bool {
    client_rule(&r.message, r.code, r.code_name.as_deref()).is_some()
}

/// The link of a thrown exception's chain that stands for the outcome: the first a rule reads (a
/// class in `RAISED_RULES`, a client rule's words or code name, or a code), else the exception
/// itself. A bare network failure (`TypeError: fetch failed`) says nothing of when the connection
/// broke: a later link a client rule reads (undici's `UND_ERR_SOCKET`, `ECONNRESET`) decides.
fn deciding_link(raised: &Raised) -> &Raised {
    let links = || std::iter::once(raised).chain(raised.causes.iter().take(MAX_CAUSES));
    let first = links()
        .find(|r| r.code.is_some() || class_rule(r).is_some() || link_rule(r))
        .unwrap_or(raised);
    if class_rule(first) == Some(RaisedAs::Network) && !link_rule(first) {
        return links().skip(1).find(|r| link_rule(r)).unwrap_or(first);
    }
    first
}

/// What a raised exception's class stands for, by `RAISED_RULES`.
fn class_rule(raised: &Raised) -> Option<RaisedAs> {
    let name = raised.name.as_deref()?;
    let lower = raised
        .message
        .chars()
        .take(MAX_MESSAGE_CHARS)
        .collect::<String>()
        .to_lowercase();
    RAISED_RULES
        .iter()
        .find(|(class, words, _, _)| *class == name && words.is_none_or(|w| lower.contains(w)))
        .map(|r| r.2)
}

/// A thrown exception as the outcome it stands for: a client rule's words first (the library
/// made it), then its class, then a code (the server's), else the library's own unknown error.
fn read_raised(call: &AgentCall, raised: &Raised) -> AgentCall {
    let mut read = AgentCall {
        raised: None,
        ..call.clone()
    };
    let raised = deciding_link(raised);
    let client_made = link_rule(raised);
    let transport = |status: Option<u16>, kind: Option<&str>| TransportFailure {
        status,
        kind: kind.map(str::to_string),
        message: Some(raised.message.clone()),
    };
    match (client_made, class_rule(raised), raised.code) {
        (false, Some(RaisedAs::Transport), code) => {
            read.transport = Some(transport(
                code.and_then(|c| u16::try_from(c).ok())
                    .filter(|c| (100..=599).contains(c)),
                None,
            ));
        }
        (false, Some(RaisedAs::Network), _) => {
            read.transport = Some(transport(None, Some("network")));
        }
        (false, Some(RaisedAs::Unreached), _) => {
            read.transport = Some(transport(None, Some(NOT_SENT)));
        }
        (false, Some(RaisedAs::Timeout), _) => {
            read.transport = Some(transport(None, Some("timeout")));
        }
        (false, Some(RaisedAs::Aborted), _) => {
            read.transport = Some(transport(None, Some("aborted")));
        }
        (false, Some(RaisedAs::ServerError) | None, Some(code)) => {
            // The server's frame as it came: its message without the library's wording.
            read.error = Some(RpcError {
                code,
                message: crate::judge::library_rules::server_words(&raised.message)
                    .unwrap_or(&raised.message)
                    .to_string(),
                data: raised.data.clone(),
            });
        }
        (_, _, code) => {
            read.client_error = Some(ClientError {
                code,
                code_name: raised.code_name.clone(),
                message: raised.message.clone(),
            });
        }
    }
    read
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RpcError {
    /// `code`.
    pub code: i64,
    /// `message`.
    #[serde(default)]
    pub message: String,
    /// `data`.
    #[serde(default)]
    pub data: Option<Value>,
}

/// A transport failure as a client library reports it.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct TransportFailure {
    /// The HTTP status, when a response came.
    #[serde(default)]
    pub status: Option<u16>,
    /// What broke when no response came: `network`, `timeout`, `aborted`, or `not_sent` (the
    /// connection never opened: the request was not written).
    #[serde(default)]
    pub kind: Option<String>,
    /// The library's words.
    #[serde(default)]
    pub message: Option<String>,
}

/// An error the client library raised itself.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ClientError {
    /// Its JSON-RPC code, when it gave one (the TypeScript SDK's `McpError` does).
    #[serde(default)]
    pub code: Option<i64>,
    /// Its code when that is a name (`ECONNRESET`, `REQUEST_TIMEOUT`).
    #[serde(default)]
    pub code_name: Option<String>,
    /// Its message.
    pub message: String,
}

/// The transport failure's kind for a connection that never opened.
const NOT_SENT: &str = "not_sent";

/// A call judged: the verdict, where it was made, whether the request reached the server when no
/// answer came, and whether to send the call again.
pub(crate) struct Judged {
    pub verdict: Verdict,
    pub made_on: MadeOn,
    pub delivery: Option<Delivery>,
    pub missing_fields: Vec<String>,
}

/// The required arguments the tool's input schema names that the call did not send.
fn missing_fields(call: &AgentCall) -> Vec<String> {
    let sent = call.arguments.as_object();
    call.definition
        .as_ref()
        .and_then(|d| d.pointer("/inputSchema/required"))
        .and_then(Value::as_array)
        .map(|required| {
            required
                .iter()
                .filter_map(Value::as_str)
                .filter(|name| !sent.is_some_and(|s| s.contains_key(*name)))
                .take(64)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The one JSON-RPC exchange an SDK-level outcome stands for: our `tools/call`, and the answer
/// (`body`, `status`) or the failure.
fn exchange(call: &AgentCall, answer: Option<(u16, Option<String>)>) -> Exchange {
    let request = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": call.tool, "arguments": call.arguments},
    });
    let mut ex = Exchange::sent(
        Vantage::Direct,
        Request {
            method: "POST".into(),
            url: "agent-call:tools/call".into(),
            // As every SDK sends it: nothing of our own request is to blame.
            headers: vec![
                ("Content-Type".into(), "application/json".into()),
                (
                    "Accept".into(),
                    "application/json, text/event-stream".into(),
                ),
            ],
            body: Some(request.to_string()),
        },
    );
    ex.response = answer.map(|(status, body)| Response {
        status,
        headers: body
            .is_some()
            .then(|| ("Content-Type".to_string(), "application/json".to_string()))
            .into_iter()
            .collect(),
        body,
        body_complete: None,
        body_end: None,
        body_base64: None,
    });
    ex
}

/// The frame a JSON-RPC answer of ours would have been.
fn frame(key: &str, value: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 1, key: value}).to_string()
}

/// Judges what a client library handed an agent after a call; `Err` says in words what is wrong
/// with the description of the call.
pub(crate) fn judge_call(call: &AgentCall) -> Result<Judged, String> {
    let given = [
        call.result.is_some(),
        call.error.is_some(),
        call.transport.is_some(),
        call.client_error.is_some(),
        call.raised.is_some(),
    ]
    .iter()
    .filter(|g| **g)
    .count();
    if given != 1 {
        return Err(format!(
            "exactly one of result, error, transport, client_error and raised describes how the call ended ({given} given)"
        ));
    }
    if call.tool.is_empty() {
        return Err("the tool's name is empty".into());
    }
    if let Some(raised) = &call.raised {
        return judge_call(&read_raised(call, raised));
    }
    let missing = missing_fields(call);
    let opts = Options {
        missing_fields: missing.clone(),
        ..Options::default()
    };
    let judged = |verdict, made_on, delivery| Judged {
        verdict,
        made_on,
        delivery,
        missing_fields: missing.clone(),
    };
    if let Some(result) = &call.result {
        let ex = exchange(call, Some((200, Some(frame("result", result.clone())))));
        return Ok(judged(classify(&ex, &opts), MadeOn::Server, None));
    }
    if let Some(e) = &call.error {
        let mut error = json!({"code": e.code, "message": e.message});
        if let (Some(data), Some(map)) = (&e.data, error.as_object_mut()) {
            map.insert("data".into(), data.clone());
        }
        let ex = exchange(call, Some((200, Some(frame("error", error)))));
        return Ok(judged(classify(&ex, &opts), MadeOn::Server, None));
    }
    if let Some(t) = &call.transport {
        // The library's words stand for the body it read (the TypeScript SDK puts the body's text
        // in its message): the JSON object in them when there is one, else the words.
        let words = t.message.as_deref().map(capped);
        let body = words.as_deref().map(|w| {
            w.find('{')
                .map(|at| &w[at..])
                .filter(|json| serde_json::from_str::<Value>(json).is_ok())
                .unwrap_or(w)
                .to_string()
        });
        let mut ex = exchange(call, t.status.map(|s| (s, body.clone())));
        if let (Some(response), Some(body)) = (&mut ex.response, &body) {
            let json = serde_json::from_str::<Value>(body).is_ok();
            response.headers = vec![(
                "Content-Type".into(),
                if json {
                    "application/json"
                } else {
                    "text/plain"
                }
                .into(),
            )];
        }
        let not_sent = t.kind.as_deref() == Some(NOT_SENT);
        if t.status.is_none() {
            ex.transport_error = Some(
                t.kind
                    .as_deref()
                    .and_then(TransportError::parse)
                    .unwrap_or(TransportError::Network),
            );
            ex.transport_error_detail = words;
        }
        // No answer: the request was written unless the connection never opened.
        let delivery = t.status.is_none().then_some(if not_sent {
            Delivery::NotSent
        } else {
            Delivery::MayHaveRun
        });
        // No answer came: the library raised it, not the server (its words are the library's).
        let made_on = if delivery.is_some() {
            MadeOn::Client
        } else {
            MadeOn::Server
        };
        return Ok(judged(classify(&ex, &opts), made_on, delivery));
    }
    let Some(raised) = &call.client_error else {
        return Err("no outcome given".into());
    };
    let (verdict, delivery) = client_verdict(call, raised, &opts);
    Ok(judged(verdict, MadeOn::Client, delivery))
}

fn capped(text: &str) -> String {
    text.chars().take(MAX_MESSAGE_CHARS).collect()
}

/// An error the client library made: its rule when one matches (with whether the request was
/// sent, as the rule says); else, with a code, the error read as the server's frame would be;
/// else unknown.
fn client_verdict(
    call: &AgentCall,
    raised: &ClientError,
    opts: &Options,
) -> (Verdict, Option<Delivery>) {
    let message = capped(&raised.message);
    let code_name = raised.code_name.as_deref().map(capped_code_name);
    let rule = client_rule(&message, raised.code, code_name.as_deref());
    if let Some(code) = raised.code
        && rule.is_none()
    {
        let error = json!({"code": code, "message": message});
        let mut v = classify(
            &exchange(call, Some((200, Some(frame("error", error))))),
            opts,
        );
        v.evidence.insert(
            0,
            Evidence::structure("the client library raised this error itself"),
        );
        return (v, None);
    }
    // A skeleton verdict (no answer at all), filled in below.
    let mut ex = exchange(call, None);
    ex.transport_error = Some(TransportError::Network);
    let mut v = classify(&ex, opts);
    v.http_status = None;
    v.jsonrpc_code = raised.code;
    v.problems.clear();
    v.flags.clear();
    let said = Evidence::structure("the client library raised this error itself");
    match rule {
        Some((rule, _)) if rule.code_name.is_some() => {
            v.channel = rule.channel;
            v.cause = rule.cause;
            v.decided_by = DecidedBy::Structure;
            v.rule = None;
            v.fired = vec![rule.id];
            v.evidence = vec![
                Evidence::structure(format!(
                    "the client library's error code {} ({})",
                    code_name.as_deref().unwrap_or_default(),
                    rule.provenance
                )),
                said,
            ];
        }
        Some((rule, from)) => {
            v.channel = rule.channel;
            v.cause = rule.cause;
            v.decided_by = DecidedBy::Text;
            v.rule = Some(rule.id);
            v.fired = vec![rule.id];
            v.evidence = vec![
                Evidence {
                    kind: EvidenceKind::Text,
                    fact: format!("the client library said so ({})", rule.provenance),
                    pointer: Some("/client_error/message".into()),
                    range: Some([from, from + rule.phrase.chars().count()]),
                    matched: Some(rule.phrase.into()),
                    rule: Some(rule.id.into()),
                },
                said,
            ];
        }
        None => {
            v.channel = Channel::Network;
            v.cause = Cause::Unknown;
            v.decided_by = DecidedBy::Structure;
            v.rule = None;
            v.fired = Vec::new();
            v.evidence = vec![said];
        }
    }
    (v, rule.and_then(|(rule, _)| rule.delivery))
}

/// Whether a captured exchange's request reached the server, from its verdict: an answer that did
/// not come, or came cut short, may have run (a page or a command line cannot tell a request the
/// network refused from one it lost); absent when an answer came.
pub(crate) fn delivery_of_verdict(v: &Verdict) -> Option<Delivery> {
    let unanswered = Delivery::MayHaveRun.fits(v.cause)
        && !matches!(v.channel, Channel::Http | Channel::JsonrpcError);
    unanswered.then_some(Delivery::MayHaveRun)
}

/// The tool's annotations say it only reads, or that running it twice does what running it once
/// does (and not that it is destructive).
fn repeatable(definition: Option<&Value>) -> bool {
    let hint = |name: &str| {
        definition
            .and_then(|d| d.pointer(&format!("/annotations/{name}")))
            .and_then(Value::as_bool)
    };
    hint("destructiveHint") != Some(true)
        && (hint("readOnlyHint") == Some(true) || hint("idempotentHint") == Some(true))
}

/// Causes after which the call may have run (the answer came from the tool, or never came).
fn may_have_run(cause: Cause) -> bool {
    matches!(
        cause,
        Cause::ToolExecution
            | Cause::InternalError
            | Cause::ServerError
            | Cause::Timeout
            | Cause::ConnectionLost
            | Cause::Aborted
            | Cause::BodyTooLarge
            | Cause::MalformedResponse
            | Cause::ServerExited
            | Cause::NetworkOrCors
            | Cause::Unknown
    )
}

/// Whether the same call may be sent again, from whether the request was sent (when no answer
/// came), the advice's action, the cause and (where the call may have run) the tool's
/// annotations; `definition` is the tool's, when known. A call that may have run is sent again
/// only to a tool declared read-only or idempotent; one never sent, when nothing but the
/// connection stopped it.
pub(crate) fn retry_safety(
    delivery: Option<Delivery>,
    action: AgentAction,
    cause: Cause,
    definition: Option<&Value>,
) -> RetrySafety {
    match delivery {
        // A call the agent itself let go of (aborted: proceed) is its own choice, not a failure.
        Some(Delivery::MayHaveRun) if action == AgentAction::Proceed => {}
        Some(Delivery::MayHaveRun) if !repeatable(definition) => {
            return RetrySafety::OutcomeUnknown;
        }
        Some(Delivery::MayHaveRun) => return RetrySafety::Safe,
        Some(Delivery::NotSent) if cause == Cause::NetworkOrCors => return RetrySafety::Safe,
        _ => {}
    }
    match action {
        AgentAction::Proceed => RetrySafety::NotNeeded,
        AgentAction::PickAnotherTool
        | AgentAction::GiveTextToModel
        | AgentAction::ShowUserDoNotRetry
        | AgentAction::FixClientRequest => RetrySafety::Futile,
        AgentAction::Reauthenticate | AgentAction::Reinitialize => RetrySafety::AfterAction,
        AgentAction::RetryWithBackoff if may_have_run(cause) && !repeatable(definition) => {
            RetrySafety::OutcomeUnknown
        }
        AgentAction::RetryWithBackoff => RetrySafety::Safe,
    }
}
