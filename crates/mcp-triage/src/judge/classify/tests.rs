//! Unit tests of the classifier's decisions that no capture shows.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Flag};
use crate::vocabulary::exchange::{BodyEnd, Exchange};

fn exchange(status: u16, ct: &str, body: &str) -> Exchange {
    let doc = serde_json::json!({
        "format": "mcp-exchange/1", "vantage": "browser",
        "request": {"method": "POST", "url": "https://x/mcp",
            "headers": [["Content-Type", "application/json"], ["Accept", "application/json, text/event-stream"]],
            "body": "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"icp_list\",\"arguments\":{}}}"},
        "response": {"status": status, "headers": [["content-type", ct]], "body": body}
    });
    Exchange::from_json(doc.to_string().as_bytes()).unwrap()
}

#[test]
fn soft_failures_in_a_success_are_flagged() {
    let json_error = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"error\": \"quota\"}"}]}}"#;
    let v = classify(
        &exchange(200, "application/json", json_error),
        &Options::default(),
    );
    assert_eq!((v.channel, v.cause), (Channel::Success, Cause::None));
    assert!(v.flags.contains(&Flag::SoftFailureSuspected));
    let prose = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Error: upstream timed out"}]}}"#;
    let v = classify(
        &exchange(200, "application/json", prose),
        &Options::default(),
    );
    assert!(v.flags.contains(&Flag::SoftFailureSuspected));
    let fine =
        r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"ok\":true}"}]}}"#;
    let v = classify(
        &exchange(200, "application/json", fine),
        &Options::default(),
    );
    assert!(v.flags.is_empty() || v.flags == [Flag::HeadersMayBeHidden]);
}

fn call_with(args: &str, status: u16, ct: &str, body: &str) -> Exchange {
    let mut ex = exchange(status, ct, body);
    ex.request.body = Some(format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{{\"name\":\"session_get\",\"arguments\":{args}}}}}"
    ));
    ex
}

#[test]
fn a_tool_quoting_our_argument_is_not_a_transport_or_unknown_tool_refusal() {
    let args = r#"{"session_id":"mcp-triage-probe-nonexistent"}"#;
    let frame = r#"{"jsonrpc":"2.0","id":7,"error":{"code":0,"message":"Session mcp-triage-probe-nonexistent not found"}}"#;
    let v = classify(
        &call_with(args, 200, "application/json", frame),
        &Options::default(),
    );
    assert_eq!(
        (v.channel, v.cause),
        (Channel::JsonrpcError, Cause::ToolExecution)
    );
    let registry = r#"{"jsonrpc":"2.0","id":7,"result":{"isError":true,"content":[{"type":"text","text":"Tool not found: mcp-triage-probe-nonexistent"}]}}"#;
    let v = classify(
        &call_with(
            r#"{"name":"mcp-triage-probe-nonexistent"}"#,
            200,
            "application/json",
            registry,
        ),
        &Options::default(),
    );
    assert_eq!(v.cause, Cause::ToolExecution);
    // Without our argument in it, a session refusal on a tools/call frame still counts.
    let go = r#"{"jsonrpc":"2.0","id":7,"error":{"code":0,"message":"method \"tools/call\" is invalid during session initialization"}}"#;
    let v = classify(
        &call_with("{}", 200, "application/json", go),
        &Options::default(),
    );
    assert_eq!(v.cause, Cause::SessionRequired);
}

#[test]
fn soft_failure_highlight_after_leading_whitespace_and_non_ascii() {
    let body = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"\n\n❌ Not found"}]}}"#;
    let v = classify(
        &exchange(200, "application/json", body),
        &Options::default(),
    );
    let e = v
        .evidence
        .iter()
        .find(|e| e.rule.as_deref() == Some("soft_failure.not_found"))
        .unwrap();
    assert_eq!(e.matched.as_deref(), Some("Not found"));
}

#[test]
fn a_stream_the_client_cut_is_not_said_to_have_ended_inside_an_event() {
    let partial =
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"";
    let problems = |complete: bool| {
        let mut ex = exchange(200, "text/event-stream", partial);
        if let Some(r) = ex.response.as_mut() {
            r.body_complete = Some(complete);
        }
        classify(&ex, &Options::default()).problems.join(" | ")
    };
    // The server closed the stream mid-event: that is the server's doing, and it is said.
    assert!(problems(true).contains("the stream ended inside the event"));
    // The page stopped reading a stream that stayed open: not the server's doing.
    assert!(
        !problems(false).contains("ended inside the event"),
        "{}",
        problems(false)
    );
}

#[test]
fn json_nested_too_deep_is_named_as_such() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let v = classify(
        &exchange(200, "application/json", &deep),
        &Options::default(),
    );
    assert_eq!(v.channel, Channel::Malformed);
    let said: Vec<String> = v.evidence.iter().map(|e| e.fact.clone()).collect();
    assert!(
        said.iter()
            .any(|f| f.contains("nests deeper than 128 levels")),
        "{said:?}"
    );
    assert!(
        !said
            .iter()
            .any(|f| f.contains("no JSON-RPC response with our id")),
        "{said:?}"
    );
}

#[test]
fn ids_must_match_exactly_and_unrelated_messages_are_skipped() {
    let wrong_type = r#"{"jsonrpc":"2.0","id":"7","result":{"content":[]}}"#;
    let v = classify(
        &exchange(200, "application/json", wrong_type),
        &Options::default(),
    );
    assert_eq!(
        (v.channel, v.cause),
        (Channel::Malformed, Cause::MalformedResponse)
    );
    let float = r#"{"jsonrpc":"2.0","id":7.0,"result":{"content":[]}}"#;
    assert_eq!(
        classify(
            &exchange(200, "application/json", float),
            &Options::default()
        )
        .channel,
        Channel::Malformed
    );
    let stream = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n\
                  data: {\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}\n\n\
                  data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[],\"isError\":true}}\n\n";
    let v = classify(
        &exchange(200, "text/event-stream", stream),
        &Options::default(),
    );
    assert_eq!(v.channel, Channel::ToolError);
    assert_eq!(v.unrelated_messages, 2);
    assert_eq!(v.server_requests, ["ping"]);
    assert!(v.flags.contains(&Flag::UnrelatedMessagesFirst));
}

#[test]
fn html_502_is_a_server_error_a_deadline_cut_stream_a_timeout_and_batches_need_2025_03_26() {
    let v = classify(
        &exchange(502, "text/html", "<html>bad gateway</html>"),
        &Options::default(),
    );
    assert_eq!((v.channel, v.cause), (Channel::Http, Cause::ServerError));
    let mut ex = exchange(200, "text/event-stream", ": keepalive\n\n");
    if let Some(r) = ex.response.as_mut() {
        r.body_end = Some(BodyEnd::Deadline);
    }
    let v = classify(&ex, &Options::default());
    assert_eq!((v.channel, v.cause), (Channel::Malformed, Cause::Timeout));
    let legacy = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[],"isError":true}}"#;
    let mut ex = exchange(200, "application/json", &format!("[{legacy}]"));
    assert_eq!(
        classify(&ex, &Options::default()).channel,
        Channel::Malformed
    );
    ex.negotiated_version = Some("2025-03-26".into());
    assert_eq!(
        classify(&ex, &Options::default()).channel,
        Channel::ToolError
    );
}

#[test]
fn the_words_of_an_http_error_body_structured_content_and_error_data_decide_alike() {
    // A 400 text/plain body on our tools/call.
    let v = classify(
        &exchange(400, "text/plain", "Unknown tool: icp_list"),
        &Options::default(),
    );
    assert_eq!(
        (v.channel, v.cause, v.decided_by),
        (Channel::Http, Cause::UnknownTool, DecidedBy::Text)
    );
    assert_eq!(v.deciding_rule(), Some("unknown_tool.unknown_tool"));
    // The same status and words on a request that is not a tools/call stay a plain refusal.
    let mut list = exchange(400, "text/plain", "Unknown tool: icp_list");
    list.request.body = Some(r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#.into());
    assert_eq!(
        classify(&list, &Options::default()).cause,
        Cause::InvalidRequest
    );
    // An isError result whose only words are in structuredContent.
    let structured = r#"{"jsonrpc":"2.0","id":7,"result":{"isError":true,"content":[],"structuredContent":{"error":{"detail":"Tool not found: icp_list"}}}}"#;
    let v = classify(
        &exchange(200, "application/json", structured),
        &Options::default(),
    );
    assert_eq!(
        (v.cause, v.decided_by),
        (Cause::UnknownTool, DecidedBy::Text)
    );
    let e = v
        .evidence
        .iter()
        .find(|e| e.kind == DecidedBy::Text)
        .unwrap();
    assert_eq!(
        e.pointer.as_deref(),
        Some("/result/structuredContent/error/detail")
    );
    // error.data as an object, not only a string.
    let data = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params","data":{"reason":"Tool not found: icp_list"}}}"#;
    let v = classify(
        &exchange(200, "application/json", data),
        &Options::default(),
    );
    assert_eq!(
        (v.cause, v.decided_by),
        (Cause::UnknownTool, DecidedBy::Text)
    );
}

#[test]
fn a_bare_minus_32602_is_decided_by_the_probes_intent_and_says_so() {
    let bare = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Bad request"}}"#;
    let ex = exchange(200, "application/json", bare);
    let without = classify(&ex, &Options::default());
    assert_eq!(
        (without.cause, without.decided_by),
        (Cause::InvalidArguments, DecidedBy::Structure)
    );
    let with = classify(
        &ex,
        &Options {
            intent: Some("A".into()),
            ..Options::default()
        },
    );
    assert_eq!(
        (with.cause, with.decided_by),
        (Cause::UnknownTool, DecidedBy::Intent)
    );
    assert!(with.evidence.iter().any(|e| e.kind == DecidedBy::Intent));
}

#[test]
fn nested_strings_stay_bounded_on_a_hostile_key_over_a_wide_array() {
    use super::prose::nested_strings;
    use crate::judge::rules::Place;
    // A 1 MB key above 200,000 values: unbounded, every child would copy the key into its pointer.
    let key = "k".repeat(1 << 20);
    let wide = serde_json::json!({ key: vec![0; 200_000] });
    assert!(nested_strings(&wide, "/error/data", Place::Data).is_empty());
    // 200,000 strings: at most 16 are read, the first ones, in document order, and no more
    // pointers are built than the visit budget allows.
    let strings = serde_json::json!({ "a": vec!["x"; 200_000] });
    let (got, built) = super::prose::nested_strings_counted(&strings, "/error/data", Place::Data);
    assert!(built <= 256, "{built} pointers built");
    assert_eq!(got.len(), 16);
    assert_eq!(got[0].pointer, "/error/data/a/0");
    assert_eq!(got[15].pointer, "/error/data/a/15");
    // The control: a small document is read whole.
    let small = serde_json::json!({ "m": "Tool not found: x", "n": ["y"] });
    assert_eq!(nested_strings(&small, "/d", Place::Data).len(), 2);
}

/// A GET in the 2026-07-28 revision, answered `status` with `body`.
fn get_2026(status: u16, body: &str) -> Exchange {
    let doc = serde_json::json!({
        "format": "mcp-exchange/1", "vantage": "direct",
        "request": {"method": "GET", "url": "https://x/mcp",
            "headers": [["Accept", "text/event-stream"], ["MCP-Protocol-Version", "2026-07-28"]]},
        "response": {"status": status, "headers": [["content-type", "application/json"]], "body": body}
    });
    Exchange::from_json(doc.to_string().as_bytes()).unwrap()
}

#[test]
fn a_refused_revision_is_a_refused_revision_on_a_get_too() {
    // The words of a 404's body say the version, not a wrong path.
    let v = classify(
        &get_2026(
            404,
            r#"{"error":"Unsupported protocol version: 2026-07-28"}"#,
        ),
        &Options::default(),
    );
    assert_eq!(v.cause, Cause::ProtocolVersionUnsupported);
    let spec = crate::judge::spec::verdict(
        crate::vocabulary::probe::Probe::Check(crate::vocabulary::probe::Check::Get),
        "2026-07-28",
        &v,
    );
    assert_eq!(
        spec.conformance,
        crate::judge::spec::Conformance::NotApplicable
    );
    // The control: without words, a 404 is a path that does not exist, and the GET rule deviates.
    let v = classify(&get_2026(404, "{}"), &Options::default());
    assert_eq!(v.cause, Cause::EndpointNotFound);
    let spec = crate::judge::spec::verdict(
        crate::vocabulary::probe::Probe::Check(crate::vocabulary::probe::Check::Get),
        "2026-07-28",
        &v,
    );
    assert_eq!(spec.conformance, crate::judge::spec::Conformance::Deviates);
}

#[test]
fn asking_for_a_session_in_a_revision_without_sessions_refuses_the_revision() {
    let v = classify(
        &get_2026(400, r#"{"error":"Bad Request: Missing session ID"}"#),
        &Options::default(),
    );
    assert_eq!(v.cause, Cause::ProtocolVersionUnsupported);
    assert!(
        v.evidence
            .iter()
            .any(|e| e.fact.contains("which has no sessions"))
    );
    // The control: the same refusal in 2025-11-25 asks for a session.
    let mut ex = get_2026(400, r#"{"error":"Bad Request: Missing session ID"}"#);
    for h in &mut ex.request.headers {
        if h.0 == "MCP-Protocol-Version" {
            h.1 = "2025-11-25".into();
        }
    }
    assert_eq!(
        classify(&ex, &Options::default()).cause,
        Cause::SessionRequired
    );
}

#[test]
fn probe_b_is_accused_of_not_validating_only_when_words_say_the_tool_ran() {
    use crate::judge::spec::{Conformance, verdict};
    use crate::vocabulary::probe::Probe;
    let b = |text: &str| {
        let body = serde_json::json!({"jsonrpc": "2.0", "id": 7, "result": {
            "content": [{"type": "text", "text": text}], "isError": true}});
        let mut ex = exchange(200, "application/json", &body.to_string());
        ex.intent = Some("B".into());
        classify(&ex, &Options::default())
    };
    // Words no rule knows: not judged, never an accusation.
    let unknown = b("lead not found in this organization");
    assert_eq!(unknown.cause, Cause::ToolExecution);
    let spec = verdict(
        Probe::Call(crate::vocabulary::probe::ProbeName::B),
        "2025-06-18",
        &unknown,
    );
    assert_eq!(spec.conformance, Conformance::NotApplicable);
    assert!(spec.reason.starts_with("not judged"), "{}", spec.reason);
    // The control: the seeded bug accuses from the guess, and this test would see it.
    let seeded = crate::vocabulary::seeded_bug::with(
        crate::vocabulary::seeded_bug::SeededBug::AccuseFromAGuess,
        || {
            verdict(
                Probe::Call(crate::vocabulary::probe::ProbeName::B),
                "2025-06-18",
                &unknown,
            )
        },
    );
    assert_eq!(seeded.conformance, Conformance::Deviates);
    // Words that say the tool ran while executing: it did not validate.
    let ran = b("Error executing tool lead_get: KeyError 'id'");
    assert!(
        ran.fired_rules()
            .iter()
            .any(|r| r.starts_with("tool_execution."))
    );
    assert_eq!(
        verdict(
            Probe::Call(crate::vocabulary::probe::ProbeName::B),
            "2025-06-18",
            &ran
        )
        .conformance,
        Conformance::Deviates
    );
    // From 2025-11-25 a JSON-RPC error deviates either way (a refusal belongs in isError, and a
    // tool that ran did not validate): said, with both readings.
    let mut frame = exchange(
        200,
        "application/json",
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":0,"message":"lead not found in this organization"}}"#,
    );
    frame.intent = Some("B".into());
    let v = classify(&frame, &Options::default());
    assert_eq!(v.cause, Cause::ToolExecution);
    let spec = verdict(
        Probe::Call(crate::vocabulary::probe::ProbeName::B),
        "2025-11-25",
        &v,
    );
    assert_eq!(spec.conformance, Conformance::Deviates);
    assert!(
        spec.reason.contains("whether it refused"),
        "{}",
        spec.reason
    );
    assert_eq!(
        verdict(
            Probe::Call(crate::vocabulary::probe::ProbeName::B),
            "2025-06-18",
            &v
        )
        .conformance,
        Conformance::NotApplicable
    );
}

#[test]
fn a_redirect_that_only_adds_a_trailing_slash_suggests_that_address() {
    let redirect = |location: &str| {
        let doc = serde_json::json!({
            "format": "mcp-exchange/1", "vantage": "direct",
            "request": {"method": "POST", "url": "http://127.0.0.1:9/mcp",
                "headers": [["Content-Type", "application/json"]], "body": "{}"},
            "response": {"status": 307, "headers": [["location", location]]},
            "transport_error": "redirect_refused"
        });
        classify(
            &Exchange::from_json(doc.to_string().as_bytes()).unwrap(),
            &Options::default(),
        )
    };
    for location in ["/mcp/", "http://127.0.0.1:9/mcp/"] {
        let v = redirect(location);
        assert_eq!((v.channel, v.cause), (Channel::Network, Cause::Redirect));
        let facts: Vec<&str> = v.evidence.iter().map(|e| e.fact.as_str()).collect();
        assert!(facts.contains(&format!("Location: {location} (not followed)").as_str()));
        assert!(facts.contains(&super::status::SLASH_HINTS[0]), "{facts:?}");
    }
    // The control: a redirect elsewhere names its target and suggests nothing.
    for location in ["/login", "https://other.example/mcp/"] {
        let v = redirect(location);
        assert!(
            !v.evidence
                .iter()
                .any(|e| super::status::SLASH_HINTS.contains(&e.fact.as_str())),
            "{location}"
        );
    }
}
