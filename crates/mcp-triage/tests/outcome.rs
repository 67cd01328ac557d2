//! `classify_outcome` against `classify`: every public capture of a `tools/call` is turned into what
//! an SDK hands an agent (the result or the error object our response carried, else the HTTP status
//! or the transport failure), and the two entry points must agree on channel, cause and action,
//! except where the SDK form provably lacks what decided on the wire; those are listed with why.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;

use mcp_triage::advice::fitted;
use mcp_triage::verdict::{
    AgentCall, ClientError, RetrySafety, RpcError, TransportFailure, VERDICT_FORMAT,
    classify_outcome, message_for_model, should_retry,
};
use mcp_triage::verdict::{VerdictDoc, verdict_schema};
use mcp_triage::{Exchange, Options, Verdict, assess, classify};
use serde_json::{Value, json};

/// The SDK-level form of a captured `tools/call`: what the client library hands the agent.
fn sdk_form(ex: &Exchange, v: &Verdict) -> Option<AgentCall> {
    let body: Value = serde_json::from_str(ex.request.body.as_deref()?).ok()?;
    if body["method"] != "tools/call" {
        return None;
    }
    let mut call = AgentCall {
        tool: body["params"]["name"].as_str()?.to_string(),
        arguments: body["params"]["arguments"].clone(),
        ..AgentCall::default()
    };
    let message = v.message.as_ref();
    let status = ex.response.as_ref().map(|r| r.status);
    if let Some(status) = status.filter(|s| !matches!(s, 200 | 202)) {
        // The TypeScript SDK 1.32.2 (client/streamableHttp.js send): a non-2xx answer is a
        // StreamableHTTPError with the status as its code and the body's text in its message.
        let body = ex
            .response
            .as_ref()
            .and_then(|r| r.body.clone())
            .unwrap_or_default();
        call.transport = Some(TransportFailure {
            status: Some(status),
            kind: None,
            message: Some(format!("Error POSTing to endpoint: {body}")),
        });
        return Some(call);
    }
    if let Some(result) = message
        .and_then(|m| m.get("result"))
        .filter(|_| v.response_matched)
    {
        call.result = Some(result.clone());
    } else if let Some(error) = message.and_then(|m| m.get("error")) {
        call.error = Some(RpcError {
            code: error["code"].as_i64()?,
            message: error["message"].as_str().unwrap_or_default().to_string(),
            data: error.get("data").cloned(),
        });
    } else {
        call.transport = Some(TransportFailure {
            status: ex.response.as_ref().map(|r| r.status),
            kind: ex.transport_error.map(|t| t.as_str().to_string()),
            message: None,
        });
    }
    Some(call)
}

/// Why the SDK form cannot carry what decided on the wire, when it cannot.
fn lost(ex: &Exchange, v: &Verdict, call: &AgentCall) -> Option<&'static str> {
    let headers_decided = v.evidence.first().is_some_and(|e| {
        let fact = e.fact.to_lowercase();
        fact.contains("header") || fact.contains("content-type") || fact.contains("session")
    });
    if ex.request.header("mcp-session-id").is_some() && v.cause.as_str().starts_with("session") {
        return Some(
            "the session id our request sent decided; an agent's call names no request headers",
        );
    }
    if call.transport.is_some() && headers_decided {
        return Some(
            "the response's headers decided; an SDK hands over the status and the body's text",
        );
    }
    if v.flags
        .iter()
        .any(|f| f.as_str().contains("sse") || f.as_str().contains("stream"))
        || ex.response.as_ref().is_some_and(|r| r.body_end.is_some())
    {
        return Some("how the stream ended decided; an SDK hands over the object alone");
    }
    None
}

#[test]
fn an_sdks_form_of_every_capture_gets_the_verdict_of_its_exchange_or_says_why_not() {
    let dir = common::public_fixtures_dir();
    let mut written = Vec::new();
    let mut agreed = 0;
    let mut why_not: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut unexplained = Vec::new();
    for file in common::json_files(&dir) {
        let bytes = std::fs::read(dir.join(&file)).unwrap();
        let ex = Exchange::from_json(&bytes).unwrap();
        if ex.transport.is_some() {
            continue;
        }
        let v = classify(&ex, &Options::default());
        let Some(call) = sdk_form(&ex, &v) else {
            continue;
        };
        let doc = classify_outcome(&call).unwrap_or_else(|e| panic!("{file}: {e}"));
        written.push(serde_json::to_string(&doc).unwrap());
        let wire = (v.channel, v.cause, fitted(&v, &[]).action);
        if (doc.channel, doc.cause, doc.action) == wire {
            agreed += 1;
        } else if let Some(reason) = lost(&ex, &v, &call) {
            why_not.entry(reason).or_default().push(format!(
                "{file}: wire {} {} {}, SDK form {} {} {}",
                wire.0, wire.1, wire.2, doc.channel, doc.cause, doc.action
            ));
        } else {
            unexplained.push(format!(
                "{file}: wire {:?}, SDK form {:?}",
                wire,
                (doc.channel, doc.cause, doc.action)
            ));
        }
    }
    write_verdicts("outcome", &written);
    println!(
        "tools/call captures whose SDK form gets the same channel, cause and action: {agreed}"
    );
    for (reason, files) in &why_not {
        println!("{} where {reason}:", files.len());
        for f in files {
            println!("  {f}");
        }
    }
    assert!(
        unexplained.is_empty(),
        "{} disagree with no reason:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    assert!(agreed >= 300, "only {agreed} agreed");
}

fn call(value: Value) -> AgentCall {
    serde_json::from_value(value).unwrap()
}

#[test]
fn an_error_the_client_library_made_is_named_as_the_clients_and_read_by_its_rules() {
    for (raised, cause, rule, party) in [
        (
            json!({"code": -32602, "message": "Structured content does not match the tool's output schema: data/temp must be number"}),
            "malformed_response",
            Some("client-output-schema-mismatch"),
            "server_author",
        ),
        (
            json!({"message": "Tool weather has an output schema but did not return structured content"}),
            "malformed_response",
            Some("client-no-structured-content"),
            "server_author",
        ),
        (
            json!({"message": "Invalid structured content returned by tool weather: 'temp' is a required property"}),
            "malformed_response",
            Some("client-structured-content-invalid"),
            "server_author",
        ),
        (
            json!({"code": -32001, "message": "Request timed out"}),
            "timeout",
            Some("client-request-timeout"),
            "server_author",
        ),
        (
            json!({"message": "socket hang up"}),
            "unknown",
            None,
            "server_author",
        ),
    ] {
        let doc = classify_outcome(&call(
            json!({"tool": "weather", "arguments": {}, "client_error": raised}),
        ))
        .unwrap();
        assert_eq!(doc.made_on.as_str(), "client", "{raised}");
        assert_eq!(doc.cause.as_str(), cause, "{raised}");
        assert_eq!(doc.rule.as_deref(), rule, "{raised}");
        assert_eq!(doc.party.as_str(), party, "{raised}");
        assert!(doc.http_status.is_none() && doc.intent.is_none() && doc.spec.is_none());
        // The library's words are quoted as the library's, never as the server's.
        let line = message_for_model(&doc);
        assert!(
            line.contains("Raised by the MCP client library: \""),
            "{line}"
        );
        assert!(!line.contains("The server said"), "{line}");
    }
    // The same for a call that got no answer (Node's fetch failing): the words are the library's.
    let lost = classify_outcome(&call(
        json!({"tool": "weather", "raised": {"name": "TypeError", "message": "fetch failed"}}),
    ))
    .unwrap();
    let line = message_for_model(&lost);
    assert!(
        line.contains("(Raised by the MCP client library: \"fetch failed\".)")
            && !line.contains("The server said"),
        "{line}"
    );
    // A coded error no client rule knows is read as the server's frame would be, and still named
    // as the client's.
    let doc = classify_outcome(&call(json!({"tool": "weather", "client_error": {"code": -32602, "message": "Invalid arguments for tool weather: city: Required"}})))
        .unwrap();
    assert_eq!(
        (doc.made_on.as_str(), doc.cause.as_str()),
        ("client", "invalid_arguments")
    );
}

#[test]
fn retry_is_safe_only_where_the_call_cannot_have_run_twice_harmfully() {
    let timeout = |definition: Value| {
        classify_outcome(&call(json!({
            "tool": "transfer",
            "arguments": {"amount": 5},
            "definition": definition,
            "transport": {"kind": "timeout"},
        })))
        .unwrap()
    };
    // A timeout on a tool that only reads: safe, with a wait that doubles, until the attempts end.
    let read_only = timeout(json!({"annotations": {"readOnlyHint": true}}));
    assert_eq!(read_only.retry, RetrySafety::Safe);
    let waits: Vec<u64> = (1..=3)
        .map(|n| should_retry(&read_only, n, 4).after_ms)
        .collect();
    assert_eq!(waits, [1_000, 2_000, 4_000]);
    assert!(!should_retry(&read_only, 4, 4).retry, "no attempts left");
    // The same timeout on a tool that says nothing, or is destructive (even if idempotent): the
    // call may have run, so never sent again automatically.
    for definition in [
        json!({}),
        json!({"annotations": {"destructiveHint": true, "idempotentHint": true}}),
    ] {
        let doc = timeout(definition.clone());
        assert_eq!(doc.retry, RetrySafety::OutcomeUnknown, "{definition}");
        assert!(!should_retry(&doc, 1, 3).retry, "{definition}");
    }
    // A rate limit never reached the tool: safe whatever the tool, with a longer first wait.
    let limited = classify_outcome(&call(
        json!({"tool": "transfer", "transport": {"status": 429}}),
    ))
    .unwrap();
    assert_eq!(
        (limited.cause.as_str(), limited.retry),
        ("rate_limited", RetrySafety::Safe)
    );
    assert_eq!(should_retry(&limited, 1, 3).after_ms, 2_000);
    assert_eq!(
        limited.http_status,
        Some(429),
        "a status the call gave is kept"
    );
    // An unknown tool: futile; a refused token: only after signing in.
    let unknown = classify_outcome(&call(json!({"tool": "get_wether", "error": {"code": -32602, "message": "Unknown tool: get_wether"}}))).unwrap();
    assert_eq!(
        (unknown.cause.as_str(), unknown.retry),
        ("unknown_tool", RetrySafety::Futile)
    );
    let refused =
        classify_outcome(&call(json!({"tool": "x", "transport": {"status": 401}}))).unwrap();
    assert_eq!(refused.retry, RetrySafety::AfterAction);
    assert!(should_retry(&refused, 1, 3).why.contains("new token"));
}

#[test]
fn the_model_gets_a_line_for_its_failure_not_an_error_occurred() {
    let doc = classify_outcome(&call(json!({
        "tool": "get_forecast",
        "arguments": {},
        "definition": {"inputSchema": {"type": "object", "required": ["city"]}},
        "result": {"isError": true, "content": [{"type": "text", "text": "MCP error -32602: Input validation error: city is required"}]},
    })))
    .unwrap();
    assert_eq!(doc.cause.as_str(), "invalid_arguments");
    let line = message_for_model(&doc);
    assert!(
        line.contains("\"get_forecast\"") && line.contains("input schema"),
        "{line}"
    );
    assert!(
        line.contains("city is required"),
        "the server's words: {line}"
    );
    assert!(!line.to_lowercase().contains("an error occurred"));
    assert_eq!(doc.format, VERDICT_FORMAT);
    // A verdict reads back from its JSON as it was (a package hands it over as text).
    let text = serde_json::to_string(&doc).unwrap();
    assert_eq!(serde_json::from_str::<VerdictDoc>(&text).unwrap(), doc);
    // So does one whose optional lists are absent (no flags: the field is left out).
    let plain = classify_outcome(&call(json!({
        "tool": "get_forecast",
        "raised": {"name": "MCPError", "code": -32602, "message": "Unknown tool: get_forecast"},
    })))
    .unwrap();
    let text = serde_json::to_string(&plain).unwrap();
    assert!(
        plain.flags.is_empty() && !text.contains("\"flags\""),
        "{text}"
    );
    assert_eq!(serde_json::from_str::<VerdictDoc>(&text).unwrap(), plain);
}

#[test]
fn a_call_described_wrongly_is_refused_in_words() {
    for (value, said) in [
        (json!({"tool": "x"}), "exactly one"),
        (
            json!({"tool": "x", "result": {}, "error": {"code": 1, "message": ""}}),
            "exactly one",
        ),
        (json!({"tool": "", "result": {}}), "empty"),
    ] {
        let err = classify_outcome(&call(value.clone())).err().unwrap();
        assert!(err.contains(said), "{value}: {err}");
    }
    assert!(serde_json::from_value::<AgentCall>(json!({"tool": "x", "reslt": {}})).is_err());
    let _unused: Option<ClientError> = None;
}

/// Writes verdicts, one JSON object a line, to `target/verdicts/NAME.jsonl`: the test command's
/// schema check (`scripts/verdict-schema.mjs`) validates every one.
fn write_verdicts(name: &str, lines: &[String]) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/verdicts");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.jsonl")), lines.join("\n") + "\n").unwrap();
}

#[test]
fn every_capture_gets_a_verdict_of_the_one_format_written_for_the_schema_check() {
    let dir = common::public_fixtures_dir();
    let mut lines = Vec::new();
    for file in common::json_files(&dir) {
        let ex = Exchange::from_json(&std::fs::read(dir.join(&file)).unwrap()).unwrap();
        // The probe a capture was, from its name (`A_unknown_tool…`), so the spec verdict is made
        // and written too.
        let name = file.rsplit('/').next().unwrap_or_default();
        let intent = ["A_", "B", "C_", "D_"]
            .iter()
            .find(|p| {
                name.starts_with(**p)
                    && name
                        .as_bytes()
                        .get(1)
                        .is_some_and(|b| *b == b'_' || b.is_ascii_digit())
            })
            .map(|p| p[..1].to_string());
        let opts = Options {
            intent,
            ..Options::default()
        };
        let doc = VerdictDoc::of_assessment(&assess(&ex, &opts));
        assert_eq!(doc.format, VERDICT_FORMAT);
        // Null is never written: what is not known is absent.
        let text = serde_json::to_string(&doc).unwrap();
        assert!(!text.contains(":null"), "{file}: {text}");
        lines.push(text);
    }
    assert!(lines.len() >= 900, "{} captures", lines.len());
    let judged = lines.iter().filter(|l| l.contains("\"spec\":")).count();
    assert!(judged >= 100, "only {judged} verdicts with a spec verdict");
    write_verdicts("classify", &lines);
}

#[test]
fn the_committed_schema_is_the_one_the_code_makes() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/mcp-triage-verdict-2.schema.json");
    let made = serde_json::to_string_pretty(&verdict_schema()).unwrap() + "\n";
    if std::env::var_os("MCP_TRIAGE_WRITE_SCHEMA").is_some() {
        std::fs::write(&path, &made).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == made,
        "{} differs from verdict_schema(): rewrite it with MCP_TRIAGE_WRITE_SCHEMA=1 cargo test -p mcp-triage --test outcome",
        path.display()
    );
}

#[test]
fn whatever_a_library_threw_is_read_as_the_outcome_it_stands_for() {
    for (raised, made_on, cause, status) in [
        // The TypeScript SDK's McpError for the server's error frame…
        (
            json!({"name": "McpError", "code": -32602, "message": "MCP error -32602: Tool get_wether not found"}),
            "server",
            "unknown_tool",
            None,
        ),
        // …and the same class for an error the client made (output schema): the phrase decides.
        (
            json!({"name": "McpError", "code": -32602, "message": "MCP error -32602: Structured content does not match the tool's output schema: data/temp must be number"}),
            "client",
            "malformed_response",
            None,
        ),
        // Its transport's error carries the HTTP status as its code.
        (
            json!({"name": "StreamableHTTPError", "code": 401, "message": "Streamable HTTP error: Error POSTing to endpoint: {\"error\":\"invalid_token\"}"}),
            "server",
            "unauthenticated",
            Some(401),
        ),
        // Node's fetch failing: no answer at all, so the library raised it, not the server.
        (
            json!({"name": "TypeError", "message": "fetch failed"}),
            "client",
            "network_or_cors",
            None,
        ),
        // The Python SDK (mcp 2.3.0) raises MCPError for the server's frames…
        (
            json!({"name": "MCPError", "code": -32602, "message": "Unknown tool: no_such_tool_3f9"}),
            "server",
            "unknown_tool",
            None,
        ),
        // …and for its own stand-ins, which its words tell apart.
        (
            json!({"name": "MCPError", "code": -32001, "message": "Request 'tools/call' timed out"}),
            "client",
            "timeout",
            None,
        ),
        (
            json!({"name": "MCPError", "code": -32000, "message": "Connection closed"}),
            "client",
            "connection_lost",
            None,
        ),
        (
            json!({"name": "MCPError", "code": -32600, "message": "Session terminated"}),
            "client",
            "session_not_found",
            None,
        ),
        (
            json!({"name": "MCPError", "code": -32603, "message": "Server returned an error response"}),
            "client",
            "unknown",
            None,
        ),
        // httpx failing to connect: no answer at all.
        (
            json!({"name": "ConnectError", "message": "All connection attempts failed"}),
            "client",
            "network_or_cors",
            None,
        ),
        // Anything else is the library's own, unknown.
        (
            json!({"name": "Error", "message": "boom"}),
            "client",
            "unknown",
            None,
        ),
    ] {
        let doc = classify_outcome(&call(json!({"tool": "get_wether", "raised": raised}))).unwrap();
        assert_eq!(
            (doc.made_on.as_str(), doc.cause.as_str(), doc.http_status),
            (made_on, cause, status),
            "{raised}"
        );
    }
}

#[test]
fn the_python_sdks_stand_ins_need_their_code_and_whole_words_and_a_chain_is_read_to_its_deciding_link()
 {
    let judge = |raised: Value| {
        let d = classify_outcome(&call(json!({"tool": "q", "raised": raised}))).unwrap();
        (d.made_on.as_str(), d.cause.as_str())
    };
    // The stand-ins, with the codes the SDK raises them with.
    for (message, code, cause) in [
        (
            "Failed to parse JSON response: expected value",
            -32700,
            "malformed_response",
        ),
        (
            "SSE stream ended without a response",
            -32000,
            "connection_lost",
        ),
        (
            "Redirect to https://elsewhere.example/ not followed",
            -32600,
            "redirect",
        ),
        ("Not Found", -32601, "endpoint_not_found"),
    ] {
        assert_eq!(
            judge(json!({"name": "MCPError", "code": code, "message": message})),
            ("client", cause),
            "{message}"
        );
    }
    // The same words from a server (another code, or inside a longer sentence) stay the server's.
    for (message, code) in [
        ("Upstream connection closed", -32000),
        ("Query 'leads' timed out", -32603),
        ("User session terminated, sign in again", -32600),
        ("Connection closed", -32603),
    ] {
        assert_eq!(
            judge(json!({"name": "MCPError", "code": code, "message": message})).0,
            "server",
            "{message}"
        );
    }
    // A wrapper raised from the SDK's error: the chain's first link a rule reads decides.
    assert_eq!(
        judge(json!({
            "name": "AgentsException",
            "message": "Error invoking MCP tool q on server 'x': Unknown tool: q",
            "causes": [{"name": "MCPError", "code": -32602, "message": "Unknown tool: q"}],
        })),
        ("server", "unknown_tool")
    );
    assert_eq!(
        judge(json!({
            "name": "RuntimeError",
            "message": "Invalid structured content returned by tool q: 'temp' is a required property",
            "causes": [{"name": "ValidationError", "message": "'temp' is a required property"}],
        })),
        ("client", "malformed_response")
    );
    // httpx's status error carries the status; its timeouts are timeouts.
    let d = classify_outcome(&call(json!({"tool": "q", "raised": {"name": "HTTPStatusError", "code": 401, "message": "Client error '401 Unauthorized' for url 'https://mcp.example/mcp?api_key=sk_live_abcdefghijklmnopqrstuvwx'"}})))
        .unwrap();
    assert_eq!(
        (d.cause.as_str(), d.http_status),
        ("unauthenticated", Some(401))
    );
    // The library's words reach the model without the key the URL carried.
    let said = d.said.clone().unwrap();
    assert!(!said.contains("sk_live_abcdefghijklmnopqrstuvwx"), "{said}");
    assert!(!message_for_model(&d).contains("sk_live_abcdefghijklmnopqrstuvwx"));
    assert_eq!(
        judge(json!({"name": "ReadTimeout", "message": "timed out"})),
        ("client", "timeout")
    );
}

#[test]
fn a_connection_lost_mid_call_may_have_run_and_only_a_repeatable_tool_is_retried() {
    let read_only = json!({"name": "get_forecast", "annotations": {"readOnlyHint": true}});
    let idempotent = json!({"name": "set_flag", "annotations": {"idempotentHint": true}});
    let unannotated = json!({"name": "send_invoice"});
    // What each client library threw when the server died while the tool ran (its cause chain as
    // the adapters hand it on), and the cause it stands for.
    for (raised, cause) in [
        // Node's fetch, JSON-response mode: the socket closed before the response's headers.
        (
            json!({"name": "TypeError", "message": "fetch failed", "causes": [
                {"name": "SocketError", "code": "UND_ERR_SOCKET", "message": "other side closed"}]}),
            "connection_lost",
        ),
        (
            json!({"name": "TypeError", "message": "fetch failed", "causes": [
                {"name": "Error", "code": "ECONNRESET", "message": "read ECONNRESET"}]}),
            "connection_lost",
        ),
        // Node's fetch, an SSE response: the body's read was cut.
        (
            json!({"name": "TypeError", "message": "terminated", "causes": [
                {"name": "SocketError", "code": "UND_ERR_SOCKET", "message": "other side closed"}]}),
            "connection_lost",
        ),
        // The TypeScript SDK v1 once its transport closed with the request pending.
        (
            json!({"name": "McpError", "code": -32000, "message": "MCP error -32000: Connection closed"}),
            "connection_lost",
        ),
        // The TypeScript v2 client's own timeout: its code is a name, not a number.
        (
            json!({"name": "SdkError", "code": "REQUEST_TIMEOUT", "message": "Request timed out"}),
            "timeout",
        ),
        // httpx (Python) after the request was written.
        (
            json!({"name": "RemoteProtocolError", "message": "Server disconnected without sending a response."}),
            "connection_lost",
        ),
    ] {
        for (definition, retry) in [
            (&read_only, "safe"),
            (&idempotent, "safe"),
            (&unannotated, "outcome_unknown"),
        ] {
            let doc = classify_outcome(&call(json!({
                "tool": definition["name"], "arguments": {}, "definition": definition, "raised": raised,
            })))
            .unwrap_or_else(|e| panic!("{raised}: {e}"));
            assert_eq!(
                (doc.made_on.as_str(), doc.cause.as_str(), doc.retry.as_str()),
                ("client", cause, retry),
                "{raised} on {definition}"
            );
            assert_eq!(should_retry(&doc, 1, 3).retry, retry == "safe", "{raised}");
            if cause == "connection_lost" {
                let line = message_for_model(&doc);
                assert!(line.contains("may have run"), "{line}");
            }
        }
    }
}

#[test]
fn a_call_that_got_no_answer_says_whether_it_was_sent_and_retries_by_that() {
    let read_only = json!({"name": "t", "annotations": {"readOnlyHint": true}});
    let unannotated = json!({"name": "t"});
    let judge = |outcome: Value, definition: &Value| {
        let mut c = json!({"tool": "t", "arguments": {}, "definition": definition});
        for (k, v) in outcome.as_object().unwrap() {
            c[k] = v.clone();
        }
        classify_outcome(&call(c)).unwrap()
    };
    for (outcome, delivery, cause, retry_unannotated, retry_read_only) in [
        // Nothing listens: the connection never opened.
        (
            json!({"raised": {"name": "TypeError", "message": "fetch failed", "causes": [
                {"name": "Error", "code": "ECONNREFUSED", "message": "connect ECONNREFUSED 127.0.0.1:9"}]}}),
            Some("not_sent"),
            "network_or_cors",
            "safe",
            "safe",
        ),
        (
            json!({"raised": {"name": "ConnectError", "message": "All connection attempts failed"}}),
            Some("not_sent"),
            "network_or_cors",
            "safe",
            "safe",
        ),
        // A framework's own refusals before any request: their cause, never sent again as is.
        (
            json!({"raised": {"name": "UserError", "message": "Failed to call tool 't' on MCP server 'x': missing required parameters: id"}}),
            Some("not_sent"),
            "invalid_arguments",
            "futile",
            "futile",
        ),
        (
            json!({"raised": {"name": "ModelBehaviorError", "message": "Tool t not found in agent triage"}}),
            Some("not_sent"),
            "unknown_tool",
            "futile",
            "futile",
        ),
        (
            json!({"raised": {"name": "AI_NoSuchToolError", "message": "Model tried to call unavailable tool 't'. Available tools: a, b."}}),
            Some("not_sent"),
            "unknown_tool",
            "futile",
            "futile",
        ),
        (
            json!({"raised": {"name": "InvalidToolInputError", "message": "Invalid input for tool t: JSON parsing failed: Text: {\"id\":.", "causes": [
                {"name": "JSONParseError", "message": "JSON parsing failed: Text: {\"id\":."}]}}),
            Some("not_sent"),
            "invalid_arguments",
            "futile",
            "futile",
        ),
        // The AI SDK's tool timeout: its MCP client's "Request was aborted", for the signal's
        // reason (a DOMException whose code, 23, is the DOM's, not JSON-RPC's).
        (
            json!({"raised": {"name": "MCPClientError", "message": "Request was aborted", "causes": [
                {"name": "DOMException", "code": 23, "message": "The operation was aborted due to timeout"}]}}),
            Some("may_have_run"),
            "timeout",
            "outcome_unknown",
            "safe",
        ),
        // mcp 1.x (Python): its read timeout, a McpError with code 408 (the adapter reads the
        // code from the error's ErrorData).
        (
            json!({"raised": {"name": "McpError", "code": 408, "message": "Timed out while waiting for response to ClientRequest. Waited 3.0 seconds."}}),
            Some("may_have_run"),
            "timeout",
            "outcome_unknown",
            "safe",
        ),
        // The caller's own abort: its choice, not a failure to retry.
        (
            json!({"raised": {"name": "MCPClientError", "message": "Request was aborted", "causes": [
                {"name": "DOMException", "code": 20, "message": "This operation was aborted"}]}}),
            Some("may_have_run"),
            "aborted",
            "not_needed",
            "not_needed",
        ),
        // Python: a call whose task was cancelled (an Agents SDK server's session ending, or the
        // caller's cancel scope): cancelled, and it may have run.
        (
            json!({"raised": {"name": "CancelledError", "message": "Cancelled by cancel scope 7f3a2c1d9e80"}}),
            Some("may_have_run"),
            "aborted",
            "not_needed",
            "not_needed",
        ),
        // The AI SDK's MCP client over a JSON answer whose connection closed: the socket's code
        // two links down decides.
        (
            json!({"raised": {"name": "MCPClientError", "message": "Failed to process server response", "causes": [
                {"name": "TypeError", "message": "fetch failed"},
                {"name": "SocketError", "code": "UND_ERR_SOCKET", "message": "other side closed"}]}}),
            Some("may_have_run"),
            "connection_lost",
            "outcome_unknown",
            "safe",
        ),
        // A bare fetch failure says nothing of when it broke: the request may have been written.
        (
            json!({"raised": {"name": "TypeError", "message": "fetch failed"}}),
            Some("may_have_run"),
            "network_or_cors",
            "outcome_unknown",
            "safe",
        ),
        (
            json!({"transport": {"kind": "network", "message": "socket hang up"}}),
            Some("may_have_run"),
            "network_or_cors",
            "outcome_unknown",
            "safe",
        ),
        (
            json!({"raised": {"name": "SdkError", "code": "REQUEST_TIMEOUT", "message": "Request timed out"}}),
            Some("may_have_run"),
            "timeout",
            "outcome_unknown",
            "safe",
        ),
        // An answer came: no delivery, and the advice decides.
        (
            json!({"transport": {"status": 503, "message": "Service Unavailable"}}),
            None,
            "server_error",
            "outcome_unknown",
            "safe",
        ),
        (
            json!({"result": {"content": [{"type": "text", "text": "ok"}]}}),
            None,
            "none",
            "not_needed",
            "not_needed",
        ),
    ] {
        for (definition, retry) in [
            (&unannotated, retry_unannotated),
            (&read_only, retry_read_only),
        ] {
            let doc = judge(outcome.clone(), definition);
            assert_eq!(
                (
                    doc.delivery.map(|d| d.as_str()),
                    doc.cause.as_str(),
                    doc.retry.as_str()
                ),
                (delivery, cause, retry),
                "{outcome} on {definition}"
            );
            let line = message_for_model(&doc);
            match delivery {
                Some("may_have_run") => {
                    assert!(line.contains("may") && line.contains("run"), "{line}")
                }
                Some("not_sent") if cause == "network_or_cors" => {
                    assert!(
                        line.contains("nothing ran") && !line.contains("may have run"),
                        "{line}"
                    )
                }
                _ => {}
            }
        }
    }
    // No sentence says "could not be reached" of a request that may have been written.
    let lost = judge(
        json!({"raised": {"name": "TypeError", "message": "fetch failed"}}),
        &unannotated,
    );
    assert!(!message_for_model(&lost).contains("could not be reached"));
    assert!(!lost.agent_advice.contains("CORS"), "{}", lost.agent_advice);
}

#[test]
fn a_call_a_package_cannot_read_gets_the_unknown_verdict_that_says_why() {
    use mcp_triage::verdict::{classify_outcome_text, message_for_model_text, should_retry_text};
    for (input, says, tool) in [
        ("not json", "expected", None),
        (
            r#"{"tool": "get_forecast"}"#,
            "exactly one of",
            Some("get_forecast"),
        ),
        (
            r#"{"tool": "t", "error": {"code": "x"}}"#,
            "invalid type",
            Some("t"),
        ),
        (r#"[1, 2]"#, "invalid type", None),
    ] {
        let text = classify_outcome_text(input);
        let doc: VerdictDoc =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{input}: {e}: {text}"));
        assert_eq!(doc.format, VERDICT_FORMAT);
        assert_eq!(
            (doc.made_on.as_str(), doc.cause.as_str(), doc.retry.as_str()),
            ("client", "unknown", "futile"),
            "{input}"
        );
        assert!(
            doc.said.as_deref().unwrap_or_default().contains(says),
            "{input}: {:?}",
            doc.said
        );
        assert_eq!(doc.tool.as_deref(), tool, "{input}");
    }
    // A verdict that cannot be read back is not retried, and the model hears the outcome is unknown.
    let decision: Value = serde_json::from_str(&should_retry_text("{}", 1, 3)).unwrap();
    assert_eq!(decision["retry"], false);
    assert!(message_for_model_text("nope").contains("unknown reason"));
    // The control: a readable call is judged, not turned into the unknown verdict.
    let good: VerdictDoc = serde_json::from_str(&classify_outcome_text(
        r#"{"tool": "t", "error": {"code": -32602, "message": "Unknown tool: t"}}"#,
    ))
    .unwrap();
    assert_eq!(good.cause.as_str(), "unknown_tool");
}

#[test]
fn an_error_code_given_as_a_name_is_read_not_refused() {
    // The v2 client's codes are names: the call is read, and the name is kept for the rules.
    let doc = classify_outcome(&call(json!({"tool": "t", "raised": {"name": "SdkError", "code": "SOMETHING_NEW", "message": "odd"}})))
        .unwrap();
    assert_eq!(
        (doc.made_on.as_str(), doc.cause.as_str()),
        ("client", "unknown")
    );
    // A name past the cap is cut, never refused.
    let long = "X".repeat(10_000);
    assert!(
        classify_outcome(&call(
            json!({"tool": "t", "raised": {"code": long, "message": "m"}})
        ))
        .is_ok()
    );
}

/// What a library raised for a verdict the server made quotes the server's words only: the
/// TypeScript SDK's wording around them (`Streamable HTTP error: Error POSTing to endpoint: `,
/// `MCP error -32602: `) is the library's and is never "the server said". Words no rule knows are
/// quoted whole (the Python SDK's MCPError carries the server's message as it came).
#[test]
fn a_server_made_verdict_quotes_the_servers_words_not_the_librarys_wrapping() {
    let cases = [
        (
            json!({"name": "StreamableHTTPError", "code": 401, "message": "Streamable HTTP error: Error POSTing to endpoint: {\"error\":\"invalid_token\"}"}),
            "{\"error\":\"invalid_token\"}",
        ),
        (
            json!({"name": "Error", "message": "Error POSTing to endpoint (HTTP 403): insufficient scope"}),
            "insufficient scope",
        ),
        (
            json!({"name": "McpError", "code": -32602, "message": "MCP error -32602: Unknown tool: no_such_tool_3f9"}),
            "Unknown tool: no_such_tool_3f9",
        ),
        (
            json!({"name": "MCPError", "code": -32602, "message": "Unknown tool: no_such_tool_3f9"}),
            "Unknown tool: no_such_tool_3f9",
        ),
    ];
    for (raised, words) in cases {
        let doc = classify_outcome(&call(json!({"tool": "weather", "raised": raised}))).unwrap();
        let line = message_for_model(&doc);
        if doc.made_on.as_str() != "server" {
            continue;
        }
        assert!(
            line.contains(&format!("The server said: \"{words}\".")),
            "{raised}: {line}"
        );
        assert!(
            !line.contains("MCP error -")
                && !line.contains("Streamable HTTP error")
                && !line.contains("POSTing"),
            "{raised}: {line}"
        );
    }
    // The first case is a server's verdict (its status): the test is not empty.
    let doc = classify_outcome(&call(json!({"tool": "weather", "raised": {"name": "StreamableHTTPError", "code": 401, "message": "Streamable HTTP error: Error POSTing to endpoint: x"}}))).unwrap();
    assert_eq!(doc.made_on.as_str(), "server");
}
