//! The probe plan driven by recorded exchanges: given these responses, these requests come next.
//! Responses are real captures (their ids rewritten to the engine's), or small variations of them.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use mcp_triage::Check;
use mcp_triage::cause::{Cause, Channel, RunEnd, StopReason};
use mcp_triage::engine::{
    ConsentPolicy, DECLINED_WITHOUT_A_PERSON, Engine, EngineConfig, Era, Mode, Outgoing, ProbeEdit,
    ProbeName, RunPhase, Step, Unattended, WentOn,
};
use mcp_triage::exchange::{Exchange, Response, Vantage};
use mcp_triage::plan_file::PlanEntry;
use mcp_triage::redact::Secrets;
use mcp_triage::{Limits, SkipReason};
use serde_json::{Value, json};

fn fixture(stack: &str, case: &str) -> Exchange {
    let path = common::public_fixtures_dir().join(stack).join(case);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Exchange::from_json(&bytes).unwrap()
}

/// A captured response with its JSON-RPC id replaced by the one the engine expects, the captured
/// unknown tool's name replaced by the one probe A sent, and (the captured servers declare no
/// annotations) every listed tool declared read-only, so the default plan has safe choices.
fn answer(out: &Outgoing, captured: &Exchange) -> Exchange {
    let mut resp = captured.response.clone().unwrap();
    let sent_tool = out
        .body
        .as_deref()
        .and_then(|b| serde_json::from_str::<Value>(b).ok())
        .and_then(|v| v["params"]["name"].as_str().map(str::to_string));
    if let (Some(body), Some(id)) = (resp.body.as_mut(), out.expect_id.as_ref()) {
        let rewrite = |json_text: &str| -> String {
            let mut v: Value = serde_json::from_str(json_text).unwrap();
            if v.get("id").is_some_and(|i| !i.is_null()) {
                v["id"] = id.clone();
            }
            if let Some(tools) = v.pointer_mut("/result/tools").and_then(Value::as_array_mut) {
                for t in tools {
                    t["annotations"] = json!({"readOnlyHint": true});
                }
            }
            let text = v.to_string();
            match &sent_tool {
                Some(name) => text.replace("lead_delete", name),
                None => text,
            }
        };
        *body = if body.contains("data: ") {
            body.split('\n')
                .map(|l| match l.strip_prefix("data: ") {
                    Some(d) if d.trim_end().starts_with('{') => {
                        format!("data: {}", rewrite(d.trim_end()))
                    }
                    _ => l.to_string(),
                })
                .collect::<Vec<_>>()
                .join("\n")
        } else if body.trim_start().starts_with('{') {
            rewrite(body)
        } else {
            body.clone()
        };
    }
    exchange(out, Some(resp))
}

fn exchange(out: &Outgoing, response: Option<Response>) -> Exchange {
    Exchange {
        format: "mcp-exchange/1".into(),
        case: None,
        description: None,
        server: None,
        vantage: Vantage::Browser,
        protocol_version: None,
        request: mcp_triage::testing::recorded_request(out, &[], &[], true),
        response,
        transport_error: None,
        transport_error_detail: None,
        elapsed_ms: Some(1.0),
        negotiated_version: None,
        intent: out.intent.clone(),
        transport: None,
        stdio: None,
        run_id: None,
    }
}

fn config(era: Era, mode: Mode, has_token: bool) -> EngineConfig {
    EngineConfig {
        endpoint: mcp_triage::endpoint::parse_endpoint("http://127.0.0.1:8787/mcp").unwrap(),
        era,
        mode,
        has_token,
        random: 0xabcdef,
        limits: Limits::default(),
        client_version: "test".into(),
        secrets: Secrets::new([TOKEN]),
        transport: mcp_triage::exchange::Transport::Http,
    }
}

/// The run's token in these tests: printable ASCII with the characters escapers change.
const TOKEN: &str = r#"engine+test/token"with\escapes-0123456789"#;

/// Answers every request from one captured stack, like that server would.
fn serve(stack: &str, suffix: &str, out: &Outgoing) -> Exchange {
    let body: Value = out
        .body
        .as_deref()
        .map(|b| serde_json::from_str(b).unwrap())
        .unwrap_or(Value::Null);
    let method = body["method"].as_str().unwrap_or("");
    let case = match (out.method, method) {
        ("GET", _) => "H_get",
        ("DELETE", _) => "M_delete_session",
        (_, "initialize") => "init",
        (_, "notifications/initialized") => "initialized",
        (_, "tools/list") => "tools_list",
        (_, "server/discover") => "X0_server_discover",
        (_, "tools/call") => match body["params"]["name"].as_str().unwrap_or("") {
            "lead_get" if body["params"]["arguments"].get("id").is_some() => "C_tool_throws",
            "lead_get" | "echo" => "B_missing_required_arg",
            "icp_list" => "D_success",
            _ => "A_unknown_tool",
        },
        _ => "E_unknown_method",
    };
    // The 2026-07-28 captures are the X* cases; discover only exists there.
    let file = match (suffix, case) {
        (_, "X0_server_discover") => format!("{case}.pv2026-07-28.json"),
        ("pv2026-07-28", "tools_list") => "X1_tools_list.pv2026-07-28.json".into(),
        ("pv2026-07-28", "H_get") => "H_get.pv2025-06-18.json".into(),
        ("pv2026-07-28", c) => format!("X{c}.pv2026-07-28.json"),
        (s, c) => format!("{c}.{s}.json"),
    };
    answer(out, &fixture(stack, &file))
}

/// Runs a whole engine against a captured stack; returns the engine and the waves of sends.
fn run(mut engine: Engine, stack: &str, suffix: &str) -> (Engine, Vec<Vec<Outgoing>>) {
    let mut waves = Vec::new();
    let mut now = 0.0;
    loop {
        let poll = engine.poll(now);
        if poll.done {
            break;
        }
        assert!(
            !poll.send.is_empty(),
            "stalled: nothing to send and not done"
        );
        for out in &poll.send {
            let ex = serve(stack, suffix, out);
            engine.handle(out.step, ex);
        }
        waves.push(poll.send);
        now += 10.0;
        assert!(waves.len() < 20);
    }
    (engine, waves)
}

/// Polls and answers until the engine is done, with `respond` playing the server.
fn drive(mut engine: Engine, mut respond: impl FnMut(&Outgoing) -> Exchange) -> Engine {
    let mut now = 0.0;
    for _ in 0..50 {
        let poll = engine.poll(now);
        if poll.done {
            return engine;
        }
        for out in poll.send {
            let ex = respond(&out);
            engine.handle(out.step, ex);
        }
        now += 1.0;
    }
    panic!("the engine never finished");
}

fn response(status: u16, content_type: &str, body: String) -> Response {
    Response {
        status,
        headers: vec![("content-type".into(), content_type.into())],
        body: Some(body),
        body_complete: Some(true),
        body_end: None,
        body_base64: None,
    }
}

fn outcome(engine: &Engine, p: ProbeName) -> (Channel, Cause) {
    let r = engine
        .records()
        .iter()
        .find(|r| r.step == Step::Probe(p))
        .unwrap();
    (r.assessment.verdict.channel, r.assessment.verdict.cause)
}

#[test]
fn first_requests_are_the_first_polls_connect_requests_in_every_era_mode_and_transport() {
    use mcp_triage::exchange::Transport;
    let eras = [
        Era::Legacy("2025-11-25".into()),
        Era::Legacy("2025-06-18".into()),
        Era::Legacy("2025-03-26".into()),
        Era::Modern,
        Era::Auto,
    ];
    let mut checked = 0;
    for era in eras {
        for &mode in Mode::ALL {
            for has_token in [true, false] {
                for &transport in Transport::ALL {
                    let cfg = EngineConfig {
                        transport,
                        ..config(era.clone(), mode, has_token)
                    };
                    let first = Engine::first_requests(cfg.clone());
                    let poll = Engine::new(cfg).poll(0.0).send;
                    assert!(!first.is_empty(), "{era:?} {mode:?}");
                    assert!(first.len() <= poll.len());
                    assert_eq!(
                        first[..],
                        poll[..first.len()],
                        "{era:?} {mode:?} {transport:?}"
                    );
                    assert!(
                        first.iter().all(|o| matches!(
                            o.step,
                            Step::Initialize | Step::Discover | Step::Check(Check::NoToken)
                        )),
                        "{first:?}"
                    );
                    // The rest of a first poll waits for the engine: only a 2026-07-28 run asks
                    // for more in its first wave (the tool list, the GET check, probe A).
                    let rest = &poll[first.len()..];
                    assert_eq!(rest.is_empty(), era != Era::Modern, "{era:?} {rest:?}");
                    assert!(rest.iter().all(|o| matches!(
                        o.step,
                        Step::ToolsList(_) | Step::Check(Check::Get) | Step::Probe(ProbeName::A)
                    )));
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 40);
}

#[test]
fn legacy_stateless_seed_in_three_waves() {
    let (engine, waves) = run(
        Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true)),
        "ts-1.29.0-stateless",
        "pv2025-06-18",
    );
    let steps: Vec<Vec<Step>> = waves
        .iter()
        .map(|w| w.iter().map(|o| o.step).collect())
        .collect();
    assert_eq!(
        steps[0],
        vec![Step::Initialize, Step::Check(Check::NoToken)]
    );
    assert!(!waves[0][1].with_token && waves[0][0].with_token);
    assert!(
        steps[1].contains(&Step::Initialized)
            && steps[1].contains(&Step::ToolsList(1))
            && steps[1].contains(&Step::Probe(ProbeName::A))
    );
    assert_eq!(steps[2].len(), 3, "B, C, D together: {:?}", steps[2]);
    assert_eq!(
        outcome(&engine, ProbeName::A),
        (Channel::ToolError, Cause::UnknownTool)
    );
    assert_eq!(
        outcome(&engine, ProbeName::B),
        (Channel::ToolError, Cause::InvalidArguments)
    );
    assert_eq!(
        outcome(&engine, ProbeName::C),
        (Channel::ToolError, Cause::ToolExecution)
    );
    assert_eq!(
        outcome(&engine, ProbeName::D),
        (Channel::Success, Cause::None)
    );
    let report = engine.report();
    assert_eq!(report.waves, Some(3));
    assert_eq!(report.summary.score, Some(0));
    assert_eq!(report.negotiated_version.as_deref(), Some("2025-06-18"));
    // Every request after initialize carries the negotiated version.
    assert!(waves[2].iter().all(|o| {
        o.headers
            .contains(&("MCP-Protocol-Version".into(), "2025-06-18".into()))
    }));
}

#[test]
fn legacy_stateful_waits_for_initialized_and_sends_the_session() {
    let mut engine = Engine::new(config(Era::Legacy("2025-06-18".into()), Mode::Quick, false));
    let first = engine.poll(0.0);
    assert_eq!(first.send.len(), 1, "no token, so no no-token check");
    engine.handle(
        Step::Initialize,
        serve("ts-1.29.0-stateful", "pv2025-06-18", &first.send[0]),
    );
    let second = engine.poll(1.0);
    assert_eq!(
        second.send.iter().map(|o| o.step).collect::<Vec<_>>(),
        vec![Step::Initialized]
    );
    let sid = second.send[0]
        .headers
        .iter()
        .find(|(k, _)| k == "Mcp-Session-Id")
        .map(|(_, v)| v.clone());
    assert!(sid.is_some());
    // Nothing overtakes notifications/initialized.
    assert!(engine.poll(2.0).send.is_empty());
    engine.handle(
        Step::Initialized,
        serve("ts-1.29.0-stateful", "pv2025-06-18", &second.send[0]),
    );
    let (engine, waves) = run(engine, "ts-1.29.0-stateful", "pv2025-06-18");
    assert!(waves.iter().flatten().all(|o| {
        o.headers
            .iter()
            .any(|(k, v)| k == "Mcp-Session-Id" && Some(v) == sid.as_ref())
    }));
    assert!(
        waves
            .last()
            .unwrap()
            .iter()
            .any(|o| o.step == Step::Delete && o.method == "DELETE")
    );
    assert_eq!(engine.report().waves, Some(4));
}

#[test]
fn modern_era_in_two_waves_with_meta_and_headers() {
    let (engine, waves) = run(
        Engine::new(config(Era::Modern, Mode::Quick, false)),
        "py-mcp-2.3.0-mcpserver-stateless",
        "pv2026-07-28",
    );
    let a = waves[0]
        .iter()
        .find(|o| o.step == Step::Probe(ProbeName::A))
        .unwrap();
    assert!(
        a.headers
            .contains(&("Mcp-Method".into(), "tools/call".into()))
    );
    assert!(
        a.headers
            .iter()
            .any(|(k, v)| k == "Mcp-Name" && v.starts_with("mcp_triage_no_such_tool_"))
    );
    let body: Value = serde_json::from_str(a.body.as_deref().unwrap()).unwrap();
    assert_eq!(
        body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(engine.report().waves, Some(2));
    assert_eq!(
        outcome(&engine, ProbeName::A),
        (Channel::ToolError, Cause::UnknownTool)
    );
    assert_eq!(
        outcome(&engine, ProbeName::D),
        (Channel::Success, Cause::None)
    );
}

#[test]
fn auto_falls_back_to_initialize_for_one_more_round() {
    let (engine, waves) = run(
        Engine::new(config(Era::Auto, Mode::Quick, false)),
        "ts-1.29.0-stateless",
        "pv2025-06-18",
    );
    assert_eq!(waves[0][0].step, Step::Discover);
    assert_eq!(waves[1][0].step, Step::Initialize);
    let report = engine.report();
    assert_eq!(report.waves, Some(4));
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("server/discover was refused (")
                && n.contains("fell back to initialize")),
        "the note says why: {:?}",
        report.notes
    );
    // Discover goes out as 2026-07-28 shapes it: _meta, the version and method headers.
    let discover = &waves[0][0];
    let body: Value = serde_json::from_str(discover.body.as_deref().unwrap()).unwrap();
    assert_eq!(
        body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    let header = |name: &str| {
        discover
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(header("MCP-Protocol-Version"), Some("2026-07-28"));
    assert_eq!(header("Mcp-Method"), Some("server/discover"));
    // After the fallback, requests are legacy-shaped again.
    let init = &waves[1][0];
    assert!(
        !init
            .headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("Mcp-Method"))
    );
}

#[test]
fn auto_sends_the_no_token_check_in_the_era_discover_found() {
    for (stack, suffix, era_method, wave) in [
        ("ts-1.29.0-stateless", "pv2025-06-18", "initialize", 2),
        (
            "py-mcp-2.3.0-lowlevel-stateless",
            "pv2026-07-28",
            "server/discover",
            2,
        ),
    ] {
        let (engine, _) = run(
            Engine::new(config(Era::Auto, Mode::Quick, true)),
            stack,
            suffix,
        );
        let report = engine.report();
        let no_token = report
            .records
            .iter()
            .find(|r| r.step == Step::Check(Check::NoToken))
            .unwrap_or_else(|| panic!("{stack}: no no-token check"));
        assert_eq!(
            no_token.assessment.verdict.request_method.as_deref(),
            Some(era_method),
            "{stack}"
        );
        assert_eq!(no_token.wave, wave, "{stack}");
        assert_ne!(
            no_token.assessment.verdict.cause,
            Cause::MethodNotFound,
            "{stack}: the check is about the token, not the method"
        );
    }
}

#[test]
fn pagination_follows_next_cursor() {
    let mut pages = 0;
    let engine = drive(
        Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, false)),
        |out| {
            if !matches!(out.step, Step::ToolsList(_)) {
                return serve("ts-1.29.0-stateless", "pv2025-06-18", out);
            }
            pages += 1;
            let body: Value = serde_json::from_str(out.body.as_deref().unwrap()).unwrap();
            let tools = if body["params"]["cursor"].is_null() {
                json!({"tools": [{"name": "t1", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}], "nextCursor": "p2"})
            } else {
                assert_eq!(body["params"]["cursor"], "p2");
                json!({"tools": [{"name": "t2", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}, "annotations": {"readOnlyHint": true}}]})
            };
            let text = json!({"jsonrpc": "2.0", "id": out.expect_id, "result": tools}).to_string();
            exchange(out, Some(response(200, "application/json", text)))
        },
    );
    assert_eq!(pages, 2);
    let plan = engine.plan();
    assert_eq!(plan[1].choice.as_ref().unwrap().tool, "t2");
    assert_eq!(plan[3].choice.as_ref().unwrap().tool, "t1");
    assert_eq!(
        engine.report().waves,
        Some(3),
        "paging beyond the first page is not a wave"
    );
}

#[test]
fn skip_reasons_when_nothing_is_safe_or_the_catalogue_fails() {
    // A catalogue of tools none of which is declared read-only: B, C and D each say why they skipped.
    let unsafe_only = drive(
        Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, false)),
        |out| {
            if out.step != Step::ToolsList(1) {
                return serve("ts-1.29.0-stateless", "pv2025-06-18", out);
            }
            let tools = json!({"tools": [
                {"name": "write_note", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
                {"name": "lead_delete_all", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}}
            ]});
            let text = json!({"jsonrpc": "2.0", "id": out.expect_id, "result": tools}).to_string();
            exchange(out, Some(response(200, "application/json", text)))
        },
    );
    let reasons: Vec<_> = unsafe_only.plan()[1..].iter().map(|p| p.skipped).collect();
    assert_eq!(
        reasons,
        vec![
            Some(SkipReason::NoSafeToolWithRequiredArgument),
            Some(SkipReason::NoSafeToolWithIdArgument),
            Some(SkipReason::NoSafeToolWithoutRequiredArguments),
        ]
    );
    assert!(
        unsafe_only.records().iter().all(|r| !matches!(
            r.step,
            Step::Probe(ProbeName::B | ProbeName::C | ProbeName::D)
        )),
        "no unsafe tool was called"
    );

    let engine = drive(
        Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, false)),
        |out| {
            if out.step != Step::ToolsList(1) {
                return serve("ts-1.29.0-stateless", "pv2025-06-18", out);
            }
            let text = json!({"jsonrpc": "2.0", "id": out.expect_id, "error": {"code": -32603, "message": "boom"}}).to_string();
            exchange(out, Some(response(200, "application/json", text)))
        },
    );
    for p in &engine.plan()[1..] {
        assert_eq!(p.skipped, Some(SkipReason::CatalogueUnavailable));
    }
    assert!(
        engine
            .records()
            .iter()
            .any(|r| r.step == Step::Probe(ProbeName::A)),
        "A does not need the catalogue"
    );
    assert_eq!(engine.report().summary.score, None);
}

#[test]
fn review_first_waits_validates_and_applies_edits() {
    let mut engine = Engine::new(config(
        Era::Legacy("2025-11-25".into()),
        Mode::Review,
        false,
    ));
    let mut now = 0.0;
    while engine.phase() != RunPhase::Review {
        let poll = engine.poll(now);
        assert!(!poll.done);
        for out in poll.send {
            assert!(
                !matches!(out.step, Step::Probe(_)),
                "no probe before review"
            );
            let ex = serve("ts-1.29.0-stateless", "pv2025-06-18", &out);
            engine.handle(out.step, ex);
        }
        now += 1.0;
    }
    assert!(engine.poll(now).send.is_empty());
    let plan = engine.plan();
    assert!(plan.iter().all(|p| p.payload.is_some()));
    let err = engine.apply_review(&[(
        ProbeName::D,
        ProbeEdit::Replace {
            tool: "lead_delete_all".into(),
            arguments: json!({}),
            opt_in: false,
        },
    )]);
    // The fixture catalogue has no lead_delete_all, so an unknown name needs no opt-in; a known unsafe one does.
    assert!(err.is_ok());
    let bad = engine.apply_review(&[(
        ProbeName::B,
        ProbeEdit::Replace {
            tool: "echo".into(),
            arguments: json!([1]),
            opt_in: false,
        },
    )]);
    assert!(bad.unwrap_err().contains("JSON object"));
    engine
        .apply_review(&[(ProbeName::D, ProbeEdit::Skip)])
        .unwrap();
    let (engine, _) = run(engine, "ts-1.29.0-stateless", "pv2025-06-18");
    assert_eq!(engine.plan()[3].skipped, Some(SkipReason::SkippedByUser));
    assert!(
        !engine
            .records()
            .iter()
            .any(|r| r.step == Step::Probe(ProbeName::D))
    );
    assert!(
        engine
            .records()
            .iter()
            .any(|r| r.step == Step::Probe(ProbeName::C))
    );
}

#[test]
fn run_deadline_with_synthetic_time_aborts_and_skips() {
    let mut engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, false));
    let first = engine.poll(0.0);
    assert_eq!(first.send.len(), 1);
    let late = engine.poll(Limits::default().run_total_ms as f64 + 1.0);
    assert!(late.abort_all);
    assert!(!late.done, "initialize is still in flight");
    let mut timed_out = exchange(&first.send[0], None);
    timed_out.transport_error = Some(mcp_triage::exchange::TransportError::Timeout);
    engine.handle(Step::Initialize, timed_out);
    assert!(engine.poll(200_000.0).done);
    let headline = engine.report().headline;
    assert_eq!(
        headline,
        "The server's answer to initialize was not read: the deadline passed before the answer was read."
    );
    assert_eq!(
        engine.ended(),
        Some(mcp_triage::cause::RunEnd::DeadlinePassed)
    );
    assert!(
        engine
            .plan()
            .iter()
            .all(|p| p.skipped == Some(SkipReason::RunEnded))
    );
    // What a person reads says it once: one card for the four probes; JUnit keeps a case each.
    let report = engine.report();
    let read = mcp_triage::view::ReportView::for_reading(&report, &[]);
    let skipped: Vec<&str> = read.probes.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(skipped, ["card-not-sent"]);
    assert_eq!(read.probes[0].title, "Probes A, B, C and D · not sent");
    let each = mcp_triage::view::ReportView::of_report(&report, &[]);
    assert_eq!(
        each.probes.len(),
        4,
        "one card per probe where every probe is listed"
    );
    let text = mcp_triage::export::text(
        &report,
        &mcp_triage::endpoint::parse_endpoint("http://127.0.0.1:9/mcp").unwrap(),
        true,
    );
    assert_eq!(text.matches("the run ended before").count(), 1, "{text}");
}

#[test]
fn server_requests_get_answers() {
    let mut engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, false));
    let ping = json!({"jsonrpc": "2.0", "id": "s1", "method": "ping"});
    let out = engine.reply(&ping).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(out.body.as_deref().unwrap()).unwrap(),
        json!({"jsonrpc": "2.0", "id": "s1", "result": {}})
    );
    let sampling =
        json!({"jsonrpc": "2.0", "id": 4, "method": "sampling/createMessage", "params": {}});
    let out = engine.reply(&sampling).unwrap();
    assert!(out.body.unwrap().contains("-32601"));
    assert!(
        engine
            .reply(&json!({"jsonrpc": "2.0", "method": "notifications/progress"}))
            .is_none()
    );
}

#[test]
fn an_old_http_sse_endpoint_is_recognised_and_named() {
    let engine = drive(
        Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, false)),
        |out| {
            let mut resp = if out.method == "GET" {
                response(
                    200,
                    "text/event-stream",
                    "event: endpoint\ndata: /messages?sessionId=abc\n\n".into(),
                )
            } else {
                response(405, "text/plain", "Method Not Allowed".into())
            };
            if out.method == "GET" {
                resp.body_end = Some(mcp_triage::exchange::BodyEnd::StoppedAfterResponse);
            }
            exchange(out, Some(resp))
        },
    );
    let report = engine.report();
    let get = report
        .records
        .iter()
        .find(|r| r.step == Step::Check(Check::Get))
        .unwrap();
    assert_eq!(get.assessment.verdict.cause, Cause::LegacySseTransport);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("old HTTP+SSE transport"))
    );
    assert_eq!(report.ended, Some(mcp_triage::cause::RunEnd::ConnectFailed));
    assert!(
        report
            .probes
            .iter()
            .all(|p| p.skipped == Some(SkipReason::RunEnded))
    );
}

#[test]
fn an_echoed_token_is_redacted_at_capture_flagged_and_a_session_id_holding_it_is_not_sent_back() {
    // System.Text.Json writes `+` as \u002B; PHP writes `/` as \/: the engine must see through both.
    let escaped = TOKEN
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('+', "\\u002B")
        .replace('/', "\\/");
    let engine = drive(
        Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true)),
        |out| {
            let body: Value = out
                .body
                .as_deref()
                .and_then(|b| serde_json::from_str(b).ok())
                .unwrap_or(Value::Null);
            let id = body.get("id").cloned().unwrap_or(Value::Null);
            let text = match body.get("method").and_then(Value::as_str) {
                Some("initialize") => format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"protocolVersion":"2025-11-25","capabilities":{{"tools":{{}}}},"serverInfo":{{"name":"echo {escaped}","version":"1"}}}}}}"#
                ),
                Some("tools/list") => {
                    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[]}}}}"#)
                }
                _ => format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"isError":true,"content":[{{"type":"text","text":"bad token {escaped}"}}]}}}}"#
                ),
            };
            let mut resp = response(200, "application/json", text);
            // The session id is the token itself: it must never be sent back.
            resp.headers
                .push(("mcp-session-id".into(), TOKEN.replace(['"', '\\', ' '], "")));
            exchange(out, Some(resp))
        },
    );
    let secrets_in = |s: &str| {
        s.contains("engine+test") || s.contains("engine\\u002Btest") || s.contains("0123456789")
    };
    for r in engine.records() {
        let ex = serde_json::to_string(&r.exchange).unwrap();
        assert!(!secrets_in(&ex), "{:?}: {ex}", r.step);
    }
    let report = engine.report();
    let name = report
        .server_info
        .as_ref()
        .and_then(|i| i.get("name"))
        .and_then(Value::as_str);
    assert_eq!(name, Some("echo [REDACTED]"));
    let a = engine
        .records()
        .iter()
        .find(|r| r.step == Step::Probe(ProbeName::A))
        .unwrap();
    assert!(
        a.assessment
            .verdict
            .flags
            .contains(&mcp_triage::cause::Flag::SecretEchoed)
    );
    // The server author's advice says what the flag says, though the capture found the echo
    // after the answer was assessed.
    let mcp_triage::advice::ServerAdvice::Changes(changes) = &a.assessment.server else {
        panic!("{:?}", a.assessment.server);
    };
    assert!(
        changes.iter().any(|c| c.id == "secret_echoed"),
        "{changes:?}"
    );
    // No later request carried the session id the server chose (it held the token).
    for r in engine.records() {
        assert!(
            r.exchange
                .request
                .headers
                .iter()
                .all(|(k, _)| !k.eq_ignore_ascii_case("mcp-session-id")),
            "{:?} sent a session id",
            r.step
        );
    }
}

#[test]
fn a_run_answers_at_most_sixteen_server_requests_and_says_so() {
    let mut engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, false));
    let answered = (0..40)
        .filter_map(|i| engine.reply(&json!({"jsonrpc": "2.0", "id": i, "method": "ping"})))
        .count();
    assert_eq!(answered, Limits::default().max_replies_per_run as usize);
    let notes = engine.report().notes.join("\n");
    assert!(
        notes.contains("24 more requests to the client than a run answers (16)"),
        "{notes}"
    );
}

#[test]
fn the_run_budget_keeps_heads_but_never_changes_a_verdict_or_blames_a_body() {
    let whole = config(Era::Legacy("2025-11-25".into()), Mode::Quick, true);
    let (unlimited, _) = run(
        Engine::new(whole.clone()),
        "ts-1.29.0-stateless",
        "pv2025-06-18",
    );
    let mut cfg = whole;
    cfg.limits.max_kept_bytes_per_run = 600;
    let (engine, _) = run(Engine::new(cfg), "ts-1.29.0-stateless", "pv2025-06-18");
    let kept: usize = engine
        .records()
        .iter()
        .filter_map(|r| r.exchange.response.as_ref()?.body.as_ref().map(String::len))
        .sum();
    assert!(kept <= 600, "kept {kept} bytes");
    // Each verdict is the one an unlimited run gives: the budget is the run's, not the body's.
    for p in ProbeName::ALL {
        assert_eq!(outcome(&engine, *p), outcome(&unlimited, *p), "probe {p:?}");
    }
    for r in engine.records() {
        assert_eq!(r.exchange.stop_reason(), None, "{:?} was blamed", r.step);
    }
    let report = engine.report();
    assert_eq!(
        report.exit_status(None, false, false),
        unlimited.report().exit_status(None, false, false)
    );
    let notes = report.notes.join("\n");
    assert!(
        notes.contains("later bodies keep only their head"),
        "{notes}"
    );
}

#[test]
fn a_report_made_after_every_exchange_shares_the_records_instead_of_copying_their_bodies() {
    let cfg = config(Era::Legacy("2025-11-25".into()), Mode::Quick, true);
    let (engine, _) = run(Engine::new(cfg), "ts-1.29.0-stateless", "pv2025-06-18");
    let first = engine.report();
    let second = engine.report();
    assert!(!first.records.is_empty());
    assert_eq!(first.records.len(), engine.records().len());
    for ((a, b), c) in first
        .records
        .iter()
        .zip(&second.records)
        .zip(engine.records())
    {
        assert!(
            std::sync::Arc::ptr_eq(a, b) && std::sync::Arc::ptr_eq(a, c),
            "{:?} was copied",
            a.step
        );
    }
}

/// Plays the server until the engine waits for review, with `tools_list` answering `tools/list`.
fn until_review(
    mut engine: Engine,
    mut tools_list: impl FnMut(&Outgoing, u32) -> Exchange,
) -> Engine {
    let mut now = 0.0;
    for _ in 0..60 {
        if engine.phase() == RunPhase::Review {
            return engine;
        }
        for out in engine.poll(now).send {
            let ex = match out.step {
                Step::ToolsList(page) => tools_list(&out, page),
                _ => serve("ts-1.29.0-stateless", "pv2025-06-18", &out),
            };
            engine.handle(out.step, ex);
        }
        now += 1.0;
    }
    panic!("the engine never waited for review");
}

#[test]
fn a_tool_the_run_could_not_see_needs_opt_in_when_the_catalogue_was_cut_or_failed() {
    let replace = |tool: &str, opt_in: bool| {
        [(
            ProbeName::D,
            ProbeEdit::Replace {
                tool: tool.into(),
                arguments: json!({}),
                opt_in,
            },
        )]
    };
    let review = || {
        Engine::new(config(
            Era::Legacy("2025-11-25".into()),
            Mode::Review,
            false,
        ))
    };
    // tools/list fails: nothing is known, so any named tool needs opt-in.
    let mut failed = until_review(review(), |out, _| {
        let text = json!({"jsonrpc": "2.0", "id": out.expect_id, "error": {"code": -32603, "message": "boom"}}).to_string();
        exchange(out, Some(response(200, "application/json", text)))
    });
    assert!(failed.needs_opt_in("lead_delete_all").is_some());
    let err = failed
        .apply_review(&replace("lead_delete_all", false))
        .unwrap_err();
    assert!(err.contains("not in the part of the catalogue"), "{err}");
    assert_eq!(
        failed.unlisted_tool_note("lead_delete_all"),
        Some("not in the part of the catalogue we could read: needs your opt-in")
    );
    failed
        .apply_review(&replace("lead_delete_all", true))
        .unwrap();

    // Cut at the page limit: every page has one read-only tool and a next cursor.
    let mut cut = until_review(review(), |out, page| {
        let tools = json!({
            "tools": [{"name": format!("ro_{page}"), "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}],
            "nextCursor": format!("c{page}"),
        });
        let text = json!({"jsonrpc": "2.0", "id": out.expect_id, "result": tools}).to_string();
        exchange(out, Some(response(200, "application/json", text)))
    });
    assert!(
        cut.report()
            .notes
            .iter()
            .any(|n| n.contains("cut at 20 pages"))
    );
    assert_eq!(cut.needs_opt_in("ro_3"), None, "a listed read-only tool");
    assert!(
        cut.apply_review(&replace("lead_delete_all", false))
            .is_err()
    );
    cut.apply_review(&replace("ro_3", false)).unwrap();

    // Read to its end: a name not in it tests an unknown tool and needs no opt-in.
    let complete = until_review(review(), |out, _| {
        let tools = json!({"tools": [{"name": "write_note", "inputSchema": {"type": "object"}}]});
        let text = json!({"jsonrpc": "2.0", "id": out.expect_id, "result": tools}).to_string();
        exchange(out, Some(response(200, "application/json", text)))
    });
    assert_eq!(complete.needs_opt_in("lead_delete_all"), None);
    assert_eq!(
        complete.unlisted_tool_note("lead_delete_all"),
        Some("not in tools/list: this will test an unknown tool")
    );
    assert_eq!(complete.unlisted_tool_note("write_note"), None, "listed");
    assert!(complete.needs_opt_in("write_note").is_some());
}

/// The seed's tools with every annotation removed (how most servers in the wild list them).
fn unannotated_tools(out: &Outgoing) -> Exchange {
    let tools = json!({"tools": [
        {"name": "lead_get", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
        {"name": "icp_list", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
        {"name": "crm_sync", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "lead_delete_all", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}}
    ]});
    let text = json!({"jsonrpc": "2.0", "id": out.expect_id, "result": tools}).to_string();
    exchange(out, Some(response(200, "application/json", text)))
}

/// Plays the seed's server with unannotated tools until the engine asks for consent or is done.
fn until_consent(engine: &mut Engine, sent: &mut Vec<Outgoing>) {
    let mut now = 0.0;
    for _ in 0..40 {
        if engine.phase() == RunPhase::Consent {
            return;
        }
        let poll = engine.poll(now);
        if poll.done {
            return;
        }
        for out in poll.send {
            let ex = match out.step {
                Step::ToolsList(_) => unannotated_tools(&out),
                _ => serve("ts-1.29.0-stateless", "pv2025-06-18", &out),
            };
            engine.handle(out.step, ex);
            sent.push(out);
        }
        now += 1.0;
    }
    panic!("neither consent nor done");
}

#[test]
fn quick_check_on_unannotated_tools_asks_once_then_sends_exactly_the_proposed_payloads() {
    let mut engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true));
    let mut sent = Vec::new();
    until_consent(&mut engine, &mut sent);
    assert!(
        engine.phase() == RunPhase::Consent,
        "Quick check stops at the consent step"
    );
    // What needs no consent went as usual: A and the transport checks; nothing of B, C or D.
    let steps: Vec<Step> = sent.iter().map(|o| o.step).collect();
    for s in [
        Step::Probe(ProbeName::A),
        Step::Check(Check::NoToken),
        Step::Check(Check::Get),
    ] {
        assert!(steps.contains(&s), "{s:?} was sent before the consent step");
    }
    assert!(
        !steps
            .iter()
            .any(|s| matches!(s, Step::Probe(ProbeName::B | ProbeName::C | ProbeName::D)))
    );
    let rows = engine.consent_rows();
    let proposed: Vec<(ProbeName, String)> = rows
        .iter()
        .map(|r| (r.probe, r.proposal.as_ref().unwrap().choice.tool.clone()))
        .collect();
    assert_eq!(
        proposed,
        vec![
            (ProbeName::B, "lead_get".to_string()),
            (ProbeName::C, "lead_get".to_string()),
            (ProbeName::D, "icp_list".to_string()),
        ]
    );
    let payloads: Vec<String> = rows
        .iter()
        .map(|r| r.proposal.as_ref().unwrap().payload.clone())
        .collect();
    engine.answer_consent(true);
    assert!(engine.phase() != RunPhase::Consent);
    let mut after = Vec::new();
    until_consent(&mut engine, &mut after);
    let bodies: Vec<String> = after
        .iter()
        .filter(|o| matches!(o.step, Step::Probe(_)))
        .filter_map(|o| o.body.clone())
        .collect();
    assert_eq!(bodies, payloads, "the exact payloads shown were sent");
    let report = engine.report();
    assert!(report.summary.score.is_some(), "A to D give a score");
    assert_eq!(outcome(&engine, ProbeName::D).0, Channel::Success);
}

#[test]
fn the_consent_step_is_asked_once_probe_a_and_the_catalogue_are_in_while_the_transport_checks_wait()
{
    // A server that keeps its GET stream open holds the GET check up to its first-event window:
    // the person is asked without waiting for it (nor for the no-token check).
    let mut engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true));
    let mut held: Vec<Outgoing> = Vec::new();
    let mut now = 0.0;
    for _ in 0..40 {
        if engine.phase() == RunPhase::Consent {
            break;
        }
        let poll = engine.poll(now);
        assert!(!poll.done, "the run waits for consent");
        let (checks, rest): (Vec<Outgoing>, Vec<Outgoing>) = poll.send.into_iter().partition(|o| {
            matches!(
                o.step,
                Step::Check(Check::Get) | Step::Check(Check::NoToken)
            )
        });
        held.extend(checks);
        for out in rest {
            if out.step == Step::Probe(ProbeName::A) {
                assert_ne!(
                    engine.phase(),
                    RunPhase::Consent,
                    "never asked while probe A is in flight"
                );
            }
            let ex = match out.step {
                Step::ToolsList(_) => unannotated_tools(&out),
                _ => serve("ts-1.29.0-stateless", "pv2025-06-18", &out),
            };
            engine.handle(out.step, ex);
        }
        now += 1.0;
    }
    assert_eq!(
        engine.phase(),
        RunPhase::Consent,
        "asked with the checks in flight"
    );
    let held_steps: Vec<Step> = held.iter().map(|o| o.step).collect();
    assert_eq!(
        held_steps,
        vec![Step::Check(Check::NoToken), Step::Check(Check::Get)]
    );
    assert_eq!(engine.in_flight(), 2);
    // Answered before the checks are back: B, C and D go out beside them.
    engine.answer_consent(true);
    let poll = engine.poll(now);
    let probes: Vec<Step> = poll.send.iter().map(|o| o.step).collect();
    assert_eq!(
        probes,
        vec![
            Step::Probe(ProbeName::B),
            Step::Probe(ProbeName::C),
            Step::Probe(ProbeName::D)
        ]
    );
    for out in poll.send.into_iter().chain(held) {
        let ex = serve("ts-1.29.0-stateless", "pv2025-06-18", &out);
        engine.handle(out.step, ex);
    }
    let poll = engine.poll(now + 1.0);
    assert!(poll.done && poll.send.is_empty());
    assert_eq!(engine.phase(), RunPhase::Ended(RunEnd::Complete));
    assert!(
        engine.report().summary.score.is_some(),
        "A to D give a score"
    );
}

#[test]
fn a_stateful_session_stays_open_while_the_consent_step_waits_and_closes_after_the_calls_it_allowed()
 {
    let mut engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true));
    let mut sent: Vec<Step> = Vec::new();
    let mut now = 0.0;
    let mut asked_at = None;
    for _ in 0..40 {
        // Like a shell: poll after every answer; the user answers once nothing else goes out.
        let poll = engine.poll(now);
        if poll.done {
            break;
        }
        if poll.send.is_empty() && engine.phase() == RunPhase::Consent {
            asked_at = Some(sent.len());
            engine.answer_consent(true);
            continue;
        }
        for out in poll.send {
            let ex = match out.step {
                Step::ToolsList(_) => unannotated_tools(&out),
                _ => serve("ts-1.29.0-stateful", "pv2025-11-25", &out),
            };
            engine.handle(out.step, ex);
            sent.push(out.step);
        }
        now += 1.0;
    }
    let asked_at = asked_at.expect("the consent step was reached");
    let at = |s: Step| {
        sent.iter()
            .position(|x| *x == s)
            .unwrap_or_else(|| panic!("{s:?} never sent: {sent:?}"))
    };
    assert!(
        at(Step::Delete) > asked_at,
        "DELETE went out before the consent step was answered: {sent:?}"
    );
    for p in [ProbeName::B, ProbeName::C, ProbeName::D] {
        assert!(
            at(Step::Probe(p)) < at(Step::Delete),
            "{p:?} after the session closed: {sent:?}"
        );
    }
}

#[test]
fn only_probe_a_skips_the_proposals_and_a_write_like_catalogue_proposes_nothing() {
    let mut engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true));
    let mut sent = Vec::new();
    until_consent(&mut engine, &mut sent);
    engine.answer_consent(false);
    until_consent(&mut engine, &mut sent);
    for p in [ProbeName::B, ProbeName::C, ProbeName::D] {
        assert_eq!(
            engine.plan()[p as usize].skipped,
            Some(SkipReason::SkippedByUser)
        );
    }
    assert!(!sent.iter().any(|o| matches!(
        o.step,
        Step::Probe(ProbeName::B | ProbeName::C | ProbeName::D)
    )));

    // Tools that would fit B, C and D best by schema, all with a write word in their names.
    let write_like = drive(
        Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, false)),
        |out| {
            if out.step != Step::ToolsList(1) {
                return serve("ts-1.29.0-stateless", "pv2025-06-18", out);
            }
            let tools = json!({"tools": [
                {"name": "delete_lead", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
                {"name": "sendEmail", "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]}},
                {"name": "crm-sync", "inputSchema": {"type": "object"}}
            ]});
            let text = json!({"jsonrpc": "2.0", "id": out.expect_id, "result": tools}).to_string();
            exchange(out, Some(response(200, "application/json", text)))
        },
    );
    assert!(
        write_like
            .consent_rows()
            .iter()
            .all(|r| r.proposal.is_none())
    );
    assert!(!write_like.records().iter().any(|r| matches!(
        r.step,
        Step::Probe(ProbeName::B | ProbeName::C | ProbeName::D)
    )));
}

#[test]
fn a_401_at_connect_is_the_headline_in_words_not_probes_that_did_not_run() {
    let challenge = r#"Bearer error="invalid_token", resource_metadata="http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp""#;
    let refused = |token_sent: bool, status: u16, challenge: &str| {
        let challenge = challenge.to_string();
        drive(
            Engine::new(config(
                Era::Legacy("2025-11-25".into()),
                Mode::Quick,
                token_sent,
            )),
            move |out| {
                let mut r = response(
                    status,
                    "application/json",
                    r#"{"error":"invalid_token"}"#.into(),
                );
                r.headers
                    .push(("www-authenticate".into(), challenge.clone()));
                let mut ex = exchange(out, Some(r));
                ex.request = mcp_triage::testing::recorded_request(out, &[], &[], token_sent);
                ex
            },
        )
        .report()
        .headline
    };
    // A token refused, and a scope missing, are not a token missing.
    assert_eq!(
        refused(true, 401, challenge),
        "The server refused the token (401 invalid_token): it is expired, revoked, or made for another server."
    );
    assert_eq!(
        refused(
            true,
            403,
            r#"Bearer error="insufficient_scope", scope="files:read""#
        ),
        "The token lacks a scope the server wants (403 insufficient_scope; it asks for \"files:read\"): use a token granted that scope."
    );
    let engine = drive(
        Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, false)),
        |out| {
            let mut r = response(
                401,
                "application/json",
                r#"{"error":"invalid_token"}"#.into(),
            );
            r.headers
                .push(("www-authenticate".into(), challenge.into()));
            let mut ex = exchange(out, Some(r));
            ex.request = mcp_triage::testing::recorded_request(out, &[], &[], false);
            ex
        },
    );
    let report = engine.report();
    // In words (the challenge's fields are the card's evidence): no token was sent.
    assert_eq!(
        report.headline,
        "The server needs a token (401) and this run sent none: paste one in the Token field, or sign in.",
    );
    let connect = report
        .records
        .iter()
        .find(|r| r.step == Step::Initialize)
        .unwrap();
    assert!(
        connect
            .assessment
            .verdict
            .evidence
            .iter()
            .any(|e| e.fact.contains("invalid_token")),
        "{:?}",
        connect.assessment.verdict.evidence
    );
    assert!(
        !report.headline.contains("did not run"),
        "{}",
        report.headline
    );
    // The page offers its demo token only for the demo endpoint, and only when it asked for one.
    assert!(report.offers_demo_token(&report.endpoint));
    assert!(!report.offers_demo_token("http://127.0.0.1:9/mcp"));
    let (ok, _) = run(
        Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true)),
        "ts-1.29.0-stateless",
        "pv2025-06-18",
    );
    let ok = ok.report();
    assert!(!ok.offers_demo_token(&ok.endpoint));
}

#[test]
fn answers_cut_by_cancel_or_the_size_cap_are_not_compared_and_the_headline_says_what_stopped_them()
{
    use mcp_triage::exchange::{BodyEnd, TransportError};
    // C's answer is cut at the size cap; B never gets headers (cancelled).
    let engine = drive(
        Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true)),
        |out| {
            let mut ex = serve("ts-1.29.0-stateless", "pv2025-06-18", out);
            match out.step {
                Step::Probe(ProbeName::C) => {
                    if let Some(r) = ex.response.as_mut() {
                        r.body_end = Some(BodyEnd::SizeCap);
                        r.body_complete = Some(false);
                    }
                }
                Step::Probe(ProbeName::B) => {
                    ex.response = None;
                    ex.transport_error = Some(TransportError::Aborted);
                }
                _ => {}
            }
            ex
        },
    );
    let report = engine.report();
    assert_eq!(
        report.summary.score, None,
        "nothing is compared with answers that did not come"
    );
    let finding = &report.summary.finding;
    assert!(
        finding.starts_with("Probe B not answered: you cancelled the run; probe C not answered: the answer was cut at the size cap"),
        "{finding}"
    );
    assert!(
        !finding.contains("malformed") && !finding.contains("arrive as"),
        "{finding}"
    );
    assert_eq!(&report.headline, finding);
}

#[test]
fn a_probe_pointed_at_a_tool_not_in_tools_list_is_not_blamed_on_the_server() {
    let review = Engine::new(config(
        Era::Legacy("2025-11-25".into()),
        Mode::Review,
        false,
    ));
    let mut engine = until_review(review, |out, _| {
        serve("ts-1.29.0-stateless", "pv2025-06-18", out)
    });
    engine
        .apply_review(&[(
            ProbeName::D,
            ProbeEdit::Replace {
                tool: "no_such_tool_here".into(),
                arguments: json!({}),
                opt_in: false,
            },
        )])
        .unwrap();
    let (engine, _) = run(engine, "ts-1.29.0-stateless", "pv2025-06-18");
    let d = engine
        .records()
        .iter()
        .find(|r| r.step == Step::Probe(ProbeName::D))
        .unwrap();
    assert_eq!(d.assessment.verdict.cause, Cause::UnknownTool);
    let spec = d.assessment.spec.as_ref().unwrap();
    assert_eq!(
        spec.conformance,
        mcp_triage::Conformance::NotApplicable,
        "{}",
        spec.reason
    );
    assert!(
        spec.reason.contains("tools/list does not list"),
        "{}",
        spec.reason
    );
}

#[test]
fn what_the_shell_aborts_after_the_run_deadline_is_recorded_as_stopped_by_the_deadline_not_by_the_user()
 {
    // Cancelled by the user: the aborted request stays "cancelled". Ended by the run's deadline:
    // the same aborted request is a deadline stop (the shell aborts both the same way).
    for (deadline, want) in [(false, StopReason::Cancelled), (true, StopReason::Deadline)] {
        let mut engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true));
        let first = engine.poll(0.0);
        if deadline {
            assert!(
                engine
                    .poll(Limits::default().run_total_ms as f64 + 1.0)
                    .abort_all
            );
        } else {
            engine.cancel();
        }
        let mut aborted = exchange(&first.send[0], None);
        aborted.transport_error = Some(mcp_triage::exchange::TransportError::Aborted);
        engine.handle(Step::Initialize, aborted);
        let report = engine.report();
        let connect = &report.records[0];
        assert_eq!(
            connect.exchange.stop_reason(),
            Some(want),
            "deadline={deadline}"
        );
        let lead = if deadline {
            "The server's answer to initialize was not read: the deadline passed"
        } else {
            "You cancelled the run"
        };
        assert!(report.headline.starts_with(lead), "{}", report.headline);
    }
}

#[test]
fn a_get_stream_that_opened_was_answered_even_when_cancel_closes_it_but_a_cut_post_was_not() {
    let mut engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true));
    let out = engine.poll(0.0).send.remove(0);
    let mut cut = exchange(
        &out,
        Some(response(
            200,
            "text/event-stream",
            "event: message\n".into(),
        )),
    );
    cut.response.as_mut().unwrap().body_end = Some(mcp_triage::exchange::BodyEnd::Aborted);
    assert_eq!(cut.stop_reason(), Some(StopReason::Cancelled), "a POST");
    cut.request.method = "GET".into();
    assert_eq!(cut.stop_reason(), None, "a GET stream that opened");
    cut.response.as_mut().unwrap().status = 405;
    assert_eq!(
        cut.stop_reason(),
        Some(StopReason::Cancelled),
        "a GET refused"
    );
}

/// Runs an engine against a captured stack, answering one request at a time: of those in flight,
/// the one `rank` puts first. Requests of different waves are in flight together whenever the
/// engine allows it, so answers cross waves as they can on a real network.
fn run_in_order(
    mut engine: Engine,
    stack: &str,
    suffix: &str,
    rank: &dyn Fn(Step) -> usize,
) -> Engine {
    let mut in_flight: Vec<Outgoing> = Vec::new();
    let mut now = 0.0;
    for _ in 0..500 {
        let poll = engine.poll(now);
        in_flight.extend(poll.send);
        if in_flight.is_empty() {
            assert!(poll.done, "stalled: nothing in flight and not done");
            return engine;
        }
        in_flight.sort_by_key(|o| rank(o.step));
        let out = in_flight.remove(0);
        let ex = serve(stack, suffix, &out);
        engine.handle(out.step, ex);
        now += 1.0;
    }
    panic!("the engine never finished");
}

/// A report as JSON with what may differ between arrival orders taken out: the records' order and
/// the elapsed times.
fn comparable(engine: &Engine) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove("elapsed_ms");
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(engine.report()).unwrap();
    strip(&mut v);
    if let Some(records) = v.get_mut("records").and_then(Value::as_array_mut) {
        records.sort_by_key(|r| r["step"].to_string());
    }
    v
}

/// Every permutation of `items` when there are at most 5,040 of them, otherwise 200 seeded ones.
fn orders<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    let n = items.len();
    if (1..=n).product::<usize>() <= 5_040 {
        let mut out = Vec::new();
        let mut idx: Vec<usize> = (0..n).collect();
        // Heap's algorithm, iterative.
        let mut c = vec![0usize; n];
        out.push(idx.iter().map(|&i| items[i].clone()).collect());
        let mut i = 0;
        while i < n {
            if c[i] < i {
                if i % 2 == 0 {
                    idx.swap(0, i);
                } else {
                    idx.swap(c[i], i);
                }
                out.push(idx.iter().map(|&i| items[i].clone()).collect());
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        return out;
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    (0..200)
        .map(|_| {
            let mut v = items.to_vec();
            for k in (1..n).rev() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                v.swap(k, (seed % (k as u64 + 1)) as usize);
            }
            v
        })
        .collect()
}

#[test]
fn the_same_answers_in_any_arrival_order_give_the_same_report() {
    for (era, stack, suffix, token) in [
        (
            Era::Legacy("2025-11-25".into()),
            "ts-1.29.0-stateless",
            "pv2025-06-18",
            true,
        ),
        (
            Era::Legacy("2025-11-25".into()),
            "ts-1.29.0-stateful",
            "pv2025-06-18",
            true,
        ),
        (Era::Auto, "ts-1.29.0-stateless", "pv2025-06-18", true),
        (
            Era::Modern,
            "py-mcp-2.3.0-lowlevel-stateless",
            "pv2026-07-28",
            true,
        ),
    ] {
        let fresh = || Engine::new(config(era.clone(), Mode::Quick, token));
        let (reference_engine, _) = run(fresh(), stack, suffix);
        let reference = comparable(&reference_engine);
        let steps: Vec<Step> = reference_engine.records().iter().map(|r| r.step).collect();
        let all = orders(&steps);
        assert!(all.len() >= 200.min((1..=steps.len()).product()), "{stack}");
        for order in &all {
            let rank = |s: Step| order.iter().position(|o| *o == s).unwrap_or(order.len());
            let got = comparable(&run_in_order(fresh(), stack, suffix, &rank));
            if got != reference {
                let (a, b) = (reference.to_string(), got.to_string());
                let at = a
                    .bytes()
                    .zip(b.bytes())
                    .position(|(x, y)| x != y)
                    .unwrap_or(0);
                panic!(
                    "{stack} ({era:?}): order {order:?} gives another report; first difference at {at}:\n  want …{}\n  got  …{}",
                    &a[at.saturating_sub(200)..(at + 200).min(a.len())],
                    &b[at.saturating_sub(200)..(at + 200).min(b.len())]
                );
            }
        }
    }
}

#[test]
fn what_holds_for_every_answer_seen_from_a_browser_is_said_once_per_run_not_per_row() {
    let (engine, _) = run(
        Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true)),
        "ts-1.29.0-stateless",
        "pv2025-06-18",
    );
    let report = engine.report();
    assert!(
        report
            .records
            .iter()
            .filter(|r| r
                .assessment
                .verdict
                .flags
                .contains(&mcp_triage::cause::Flag::HeadersMayBeHidden))
            .count()
            > 1,
        "the control: every browser answer carries the flag"
    );
    let once = report
        .notes
        .iter()
        .filter(|n| n.starts_with("every answer: Seen from a browser"))
        .count();
    assert_eq!(once, 1, "{:?}", report.notes);
    let ep = mcp_triage::endpoint::parse_endpoint("http://127.0.0.1:8787/mcp").unwrap();
    let built = mcp_triage::share::build(
        &report,
        &ep,
        Default::default(),
        &Secrets::default(),
        "d",
        "t",
    );
    assert!(
        built
            .payload
            .rows
            .iter()
            .all(|r| !r.flags.iter().any(|f| f == "headers_may_be_hidden"))
    );
    assert_eq!(
        built
            .payload
            .notes
            .iter()
            .filter(|n| n.starts_with("every answer:"))
            .count(),
        1
    );
}

#[test]
fn the_engine_says_where_each_request_stands_and_how_many_are_in_flight() {
    use mcp_triage::engine::Progress;
    let mut engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true));
    let sent = engine.poll(0.0).send;
    assert_eq!(engine.in_flight(), sent.len());
    assert!(
        engine
            .progress()
            .iter()
            .all(|(_, p)| *p == Progress::Sending)
    );
    engine.headers_arrived(sent[0].step);
    assert_eq!(engine.progress_of(sent[0].step), Progress::Streaming);
    engine.handle(
        sent[0].step,
        serve("ts-1.29.0-stateless", "pv2025-06-18", &sent[0]),
    );
    assert_eq!(
        engine.progress_of(sent[0].step),
        Progress::Done("success / none".into())
    );
    let mut aborted = exchange(&sent[1], None);
    aborted.transport_error = Some(mcp_triage::exchange::TransportError::Aborted);
    engine.handle(sent[1].step, aborted);
    assert_eq!(engine.progress_of(sent[1].step), Progress::Aborted);
    assert_eq!(engine.in_flight(), sent.len() - 2);
    assert_eq!(
        engine
            .progress()
            .iter()
            .map(|(s, _)| *s)
            .collect::<Vec<_>>(),
        sent.iter().map(|o| o.step).collect::<Vec<_>>(),
        "in send order"
    );
}

#[test]
fn poll_timeout_names_the_run_deadline_so_a_shell_wakes_for_it_without_any_answer() {
    let mut engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, false));
    assert_eq!(engine.poll_timeout(), None, "not started");
    engine.poll(500.0);
    let at = engine.poll_timeout().unwrap();
    assert_eq!(at, 500.0 + Limits::default().run_total_ms as f64 + 1.0);
    assert!(!engine.poll(at - 2.0).abort_all, "not yet");
    let woke = engine.poll(at);
    assert!(woke.abort_all, "the deadline, with nothing answered");
    assert_eq!(engine.poll_timeout(), None, "ended");
}

/// Every distinct phase a run passes through, in order, with `respond` playing the server and
/// `at_consent` answering the consent step.
fn phases(mut engine: Engine, at_consent: Option<bool>) -> Vec<RunPhase> {
    let mut seen = vec![engine.phase()];
    let note = |p: RunPhase, seen: &mut Vec<RunPhase>| {
        if seen.last() != Some(&p) {
            seen.push(p);
        }
    };
    let mut now = 0.0;
    for _ in 0..50 {
        if engine.phase() == RunPhase::Consent
            && let Some(answer) = at_consent
        {
            engine.answer_consent(answer);
            note(engine.phase(), &mut seen);
        }
        let poll = engine.poll(now);
        note(engine.phase(), &mut seen);
        if poll.done || poll.send.is_empty() {
            break;
        }
        for out in poll.send {
            let ex = match out.step {
                Step::ToolsList(_) => unannotated_tools(&out),
                _ => serve("ts-1.29.0-stateless", "pv2025-06-18", &out),
            };
            engine.handle(out.step, ex);
            note(engine.phase(), &mut seen);
        }
        now += 1.0;
    }
    seen
}

#[test]
fn the_phase_is_the_one_answer_from_the_first_request_to_the_end() {
    let quick = || Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Quick, true));
    assert_eq!(
        phases(quick(), Some(true)),
        vec![
            RunPhase::Connecting,
            RunPhase::Running,
            RunPhase::Consent,
            RunPhase::Running,
            RunPhase::Ended(RunEnd::Complete),
        ],
        "a Quick check that asks for consent and gets it"
    );
    // Nobody answers: the run waits at the consent step, and says so.
    assert_eq!(phases(quick(), None).last(), Some(&RunPhase::Consent));
    // Cancelled while waiting: it ends at once (nothing is in flight at the consent step).
    let mut engine = quick();
    let mut sent = Vec::new();
    until_consent(&mut engine, &mut sent);
    engine.cancel();
    assert_eq!(engine.phase(), RunPhase::Ended(RunEnd::Cancelled));
    // Cancelled with a request in flight: stopping until the shell hands it back.
    let mut engine = quick();
    let first = engine.poll(0.0).send;
    engine.cancel();
    assert_eq!(engine.phase(), RunPhase::Stopping(RunEnd::Cancelled));
    for out in first {
        let ex = exchange(&out, None);
        engine.handle(out.step, ex);
    }
    assert_eq!(engine.phase(), RunPhase::Ended(RunEnd::Cancelled));
}

#[test]
fn one_consent_policy_turns_a_plan_into_edits_for_the_page_and_a_committed_plan() {
    let engine = Engine::new(config(Era::Legacy("2025-11-25".into()), Mode::Review, true));
    let mut engine = until_review(engine, |out, _| unannotated_tools(out));
    assert_eq!(engine.phase(), RunPhase::Review);
    let a = engine.plan()[0]
        .choice
        .clone()
        .expect("A names an unknown tool");
    let row = |probe, tool: Option<&str>, arguments: Option<Value>, skip, opt_in| PlanEntry {
        probe,
        skip,
        tool: tool.map(str::to_string),
        arguments,
        opt_in,
    };
    let rows = vec![
        row(
            ProbeName::A,
            Some(&a.tool),
            Some(a.arguments.clone()),
            false,
            false,
        ),
        row(ProbeName::B, None, None, false, false),
        row(ProbeName::C, Some("anything"), None, true, false),
        row(ProbeName::D, Some("icp_list"), None, false, true),
    ];
    let replace = |tool: &str, opt_in| ProbeEdit::Replace {
        tool: tool.into(),
        arguments: json!({}),
        opt_in,
    };
    // A person's form: the call already planned is kept, an emptied name is a change (refused
    // below, saying why).
    assert_eq!(
        ConsentPolicy::Person.edits(engine.plan(), &rows),
        vec![
            (ProbeName::A, ProbeEdit::Keep),
            (ProbeName::B, replace("", false)),
            (ProbeName::C, ProbeEdit::Skip),
            (ProbeName::D, replace("icp_list", true)),
        ]
    );
    // A committed plan states every call it names, and a row without a tool keeps the plan.
    assert_eq!(
        ConsentPolicy::CommittedPlan.edits(engine.plan(), &rows),
        vec![
            (ProbeName::A, replace(&a.tool, false)),
            (ProbeName::B, ProbeEdit::Keep),
            (ProbeName::C, ProbeEdit::Skip),
            (ProbeName::D, replace("icp_list", true)),
        ]
    );
    // Only a committed plan speaks for its author; a person ticks for themselves.
    assert!(ConsentPolicy::CommittedPlan.keeps_file_opt_in());
    assert!(!ConsentPolicy::Person.keeps_file_opt_in());
    // Nobody there: proposals are declined; a person is asked.
    assert_eq!(
        ConsentPolicy::Unattended.answer_without_asking(),
        Some(false)
    );
    assert_eq!(ConsentPolicy::Person.answer_without_asking(), None);
    // The same rule decides what may run, and a refused plan changes nothing.
    let before = engine.plan().clone();
    let err = engine.apply_plan(ConsentPolicy::Person, &rows).unwrap_err();
    assert!(err.contains("1 to 128 characters"), "{err}");
    let mut rows = rows;
    rows[1].skip = true;
    rows[3].opt_in = false;
    let err = engine.apply_plan(ConsentPolicy::Person, &rows).unwrap_err();
    assert!(err.contains("tick the opt-in"), "{err}");
    assert_eq!(engine.plan(), &before);
    rows[3].opt_in = true;
    engine.apply_plan(ConsentPolicy::Person, &rows).unwrap();
    assert_eq!(
        engine.plan()[0].id,
        before[0].id,
        "a kept call keeps its id"
    );
    assert_eq!(engine.plan()[2].skipped, Some(SkipReason::SkippedByUser));
    assert_eq!(
        engine.plan()[3].choice.as_ref().map(|c| c.tool.as_str()),
        Some("icp_list")
    );
    assert_eq!(engine.phase(), RunPhase::Running, "the run goes on");
}

/// Every native loop (probe over HTTP or stdio, each census target) goes on at a pause by one
/// rule: nobody declines the consent step, a committed plan is applied (and one that cannot run
/// is refused, saying why), a census applies probe A alone, and a pause nobody can answer stops
/// the loop.
#[test]
fn a_run_no_person_watches_goes_on_at_its_pauses_by_one_rule() {
    // No plan: the consent step is declined, with the line the progress list shows.
    let mut engine = Engine::new(config(Era::default_choice(), Mode::Quick, false));
    until_consent(&mut engine, &mut Vec::new());
    assert_eq!(engine.phase(), RunPhase::Consent);
    assert_eq!(
        engine.go_on(Unattended::NoPlan),
        Ok(WentOn::Again(Some(DECLINED_WITHOUT_A_PERSON)))
    );
    assert_ne!(engine.phase(), RunPhase::Consent);
    // Nobody skipped them: each keeps why it had no tool.
    assert!(
        engine.plan()[1..].iter().all(|p| p
            .skipped
            .is_some_and(SkipReason::no_declared_read_only_tool)),
        "{:?}",
        engine.plan()
    );
    // A census at review: probe A only.
    let engine = Engine::new(config(Era::default_choice(), Mode::Review, false));
    let mut engine = until_review(engine, |out, _| unannotated_tools(out));
    assert_eq!(engine.go_on(Unattended::Census), Ok(WentOn::Again(None)));
    assert!(engine.plan()[0].choice.is_some());
    assert!(
        engine.plan()[1..]
            .iter()
            .all(|p| p.choice.is_none() && p.skipped == Some(SkipReason::SkippedByUser))
    );
    // A committed plan that cannot run is refused, saying why; one that can is applied.
    let engine = Engine::new(config(Era::default_choice(), Mode::Review, false));
    let mut engine = until_review(engine, |out, _| unannotated_tools(out));
    let rows = vec![PlanEntry {
        probe: ProbeName::D,
        skip: false,
        tool: Some("crm_sync".into()),
        arguments: None,
        opt_in: false,
    }];
    let refused = engine.go_on(Unattended::Plan(&rows)).unwrap_err();
    assert!(refused.starts_with("the plan cannot run: "), "{refused}");
    assert_eq!(
        engine.phase(),
        RunPhase::Review,
        "a refused plan changes nothing"
    );
    let rows = vec![PlanEntry {
        opt_in: true,
        ..rows[0].clone()
    }];
    assert_eq!(
        engine.go_on(Unattended::Plan(&rows)),
        Ok(WentOn::Again(Some("running the plan")))
    );
    assert_eq!(
        engine.plan()[3].choice.as_ref().map(|c| c.tool.as_str()),
        Some("crm_sync")
    );
    // Review first with nobody to speak for the person, or a run under way: the loop stops.
    let engine = Engine::new(config(Era::default_choice(), Mode::Review, false));
    let mut engine = until_review(engine, |out, _| unannotated_tools(out));
    assert_eq!(engine.go_on(Unattended::NoPlan), Ok(WentOn::Stuck));
    let mut engine = Engine::new(config(Era::default_choice(), Mode::Quick, false));
    assert_eq!(engine.go_on(Unattended::Census), Ok(WentOn::Stuck));
}
