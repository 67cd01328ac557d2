//! Component tests in headless Chromium: mount, tick, and read the DOM by `data-testid`.

#![cfg(target_arch = "wasm32")]
// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use leptos::prelude::*;
use mcp_triage::cause::Channel;
use mcp_triage::engine::Mode;
use mcp_triage::engine::RunReport;
use mcp_triage::exchange::Exchange;
use mcp_triage::view::CardView;
use mcp_triage_web::components::badge::badge;
use mcp_triage_web::components::card::Card;
use mcp_triage_web::components::markup::render;
use mcp_triage_web::components::shared_view::SharedView;
use mcp_triage_web::components::target_form::{FormState, TargetForm};
use mcp_triage_web::components::visible_text::VisibleText;
use mcp_triage_web::pages::boot::Handoff;
use mcp_triage_web::state::form::{FormValues, run_config};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn container() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div.dyn_into().unwrap()
}

fn by_testid(root: &web_sys::HtmlElement, id: &str) -> Option<web_sys::HtmlElement> {
    root.query_selector(&format!("[data-testid='{id}']"))
        .unwrap()
        .map(|e| e.dyn_into().unwrap())
}

/// Opens every card under `root`, as a reader does (cards open closed, to their one line).
fn open_cards(root: &web_sys::HtmlElement) {
    let cards = root.query_selector_all("details.card").unwrap();
    for i in 0..cards.length() {
        let card: web_sys::Element = cards.item(i).unwrap().dyn_into().unwrap();
        card.set_attribute("open", "").unwrap();
    }
}

const SEED_A: &str =
    include_str!("../../fixtures/exchanges/ts-1.29.0-stateless/A_unknown_tool.pv2025-06-18.json");
/// The seed's four probes, and answers of other stacks (a JSON-RPC error frame, a 401, a
/// Python server), for the surface test of the page and the share view.
const SURFACE_CAPTURES: [(&str, &str); 8] = [
    ("A", SEED_A),
    (
        "B",
        include_str!(
            "../../fixtures/exchanges/ts-1.29.0-stateless/B_missing_required_arg.pv2025-06-18.json"
        ),
    ),
    (
        "C",
        include_str!(
            "../../fixtures/exchanges/ts-1.29.0-stateless/C_tool_throws.pv2025-06-18.json"
        ),
    ),
    (
        "D",
        include_str!("../../fixtures/exchanges/ts-1.29.0-stateless/D_success.pv2025-06-18.json"),
    ),
    (
        "A",
        include_str!(
            "../../fixtures/exchanges/py-mcp-2.3.0-lowlevel-stateless/A_unknown_tool.pv2025-06-18.json"
        ),
    ),
    (
        "B",
        include_str!(
            "../../fixtures/exchanges/ts-1.32.2-stateless/B_missing_required_arg.pv2025-11-25.json"
        ),
    ),
    (
        "C",
        include_str!(
            "../../fixtures/exchanges/py-mcp-2.3.0-mcpserver-stateless/C_tool_throws.pv2025-06-18.json"
        ),
    ),
    (
        "D",
        include_str!("../../fixtures/exchanges/ts-1.32.2-auth/AUTH1_no_token.pv2025-06-18.json"),
    ),
];

#[wasm_bindgen_test]
async fn visible_text_shows_controls_and_truncates_with_show_all() {
    let root = container();
    let text = format!("abc\u{202E}def{}", "x".repeat(600));
    leptos::mount::mount_to(
        root.clone(),
        move || view! { <VisibleText text=text.clone() cap=100 /> },
    )
    .forget();
    leptos::task::tick().await;
    let shown = root.text_content().unwrap();
    assert!(shown.contains("⟨U+202E⟩"), "{shown}");
    assert!(!shown.contains('\u{202E}'));
    assert!(shown.contains("truncated"));
    assert!(
        shown.matches('x').count() < 600,
        "cut at the cap before show all"
    );
    let button: web_sys::HtmlElement = root
        .query_selector("button")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    button.click();
    leptos::task::tick().await;
    assert!(root.text_content().unwrap().matches('x').count() >= 600);
}

#[wasm_bindgen_test]
async fn channel_badge_has_a_symbol_and_a_word() {
    let root = container();
    let mut ex = Exchange::from_json(SEED_A.as_bytes()).unwrap();
    ex.intent = Some("A".into());
    let report = RunReport::from_exchanges("http://127.0.0.1:8701/mcp", vec![ex]);
    let b = CardView::of_record(&report.records[0], &[])
        .channel
        .unwrap();
    assert_eq!(b.id, Channel::ToolError.as_str());
    leptos::mount::mount_to(root.clone(), move || {
        render(badge(b.clone(), "channel"), None)
    })
    .forget();
    leptos::task::tick().await;
    let shown = by_testid(&root, "channel").unwrap();
    assert_eq!(shown.inner_text(), "◆ tool error");
    assert_eq!(
        shown.get_attribute("data-id").as_deref(),
        Some("tool_error")
    );
}

#[wasm_bindgen_test]
async fn record_card_shows_the_seed_verdict() {
    let root = container();
    let mut ex = Exchange::from_json(SEED_A.as_bytes()).unwrap();
    ex.intent = Some("A".into());
    let report = RunReport::from_exchanges("http://127.0.0.1:8701/mcp", vec![ex]);
    let card = CardView::of_record(&report.records[0], &[]);
    leptos::mount::mount_to(root.clone(), move || view! { <Card card=card.clone() /> }).forget();
    leptos::task::tick().await;
    open_cards(&root);
    let cause = by_testid(&root, "cause").unwrap();
    assert_eq!(cause.inner_text(), "unknown tool");
    assert_eq!(
        cause.get_attribute("data-id").as_deref(),
        Some("unknown_tool")
    );
    assert!(
        by_testid(&root, "agent-advice")
            .unwrap()
            .inner_text()
            .contains("pick another tool")
    );
    assert!(
        by_testid(&root, "verdict")
            .unwrap()
            .inner_text()
            .contains("deviates")
    );
    assert!(
        root.query_selector("mark").unwrap().is_some(),
        "the matched phrase is highlighted"
    );
}

#[wasm_bindgen_test]
async fn shared_view_marks_a_decoded_link_unverified_and_shows_nothing_from_a_damaged_one() {
    let root = container();
    let payload = mcp_triage::share::Share {
        v: mcp_triage::share::VERSION,
        tool: "0.1.0".into(),
        date: "2026-12-02".into(),
        endpoint: "https://mcp.example.com".into(),
        version: None,
        server: None,
        score: Some(0),
        pairs: Some(3),
        finding: "finding text".into(),
        rows: vec![],
        notes: vec![],
        ended: Some("complete".into()),
        auth: None,
        browser: None,
        compare: None,
    };
    let link = mcp_triage::share::encode(&payload);
    let ok = mcp_triage::share::decode(&link);
    let damaged = mcp_triage::share::decode(&link[..link.len() - 3]);
    let leave = Callback::new(|_| {});
    leptos::mount::mount_to(root.clone(), move || {
        view! {
            <SharedView shared=ok.clone() on_leave=leave />
            <SharedView shared=damaged.clone() on_leave=leave />
        }
    })
    .forget();
    leptos::task::tick().await;
    let shared = by_testid(&root, "shared-view").unwrap();
    assert!(
        by_testid(&shared, "shared-banner")
            .unwrap()
            .inner_text()
            .contains("not verified by this page")
    );
    assert_eq!(
        by_testid(&shared, "finding").unwrap().inner_text(),
        "finding text"
    );
    assert!(by_testid(&shared, "damaged-link").is_none());
    let damaged = by_testid(&root, "damaged-link").unwrap();
    assert_eq!(damaged.get_attribute("role").as_deref(), Some("alert"));
    // The page shows the problem's message; its stable id is what a test matches.
    let problem = mcp_triage::share::decode(&link[..link.len() - 3]).unwrap_err();
    assert!(problem.id.as_str().starts_with("link_"), "{problem:?}");
    assert!(damaged.inner_text().contains(&problem.message));
    assert!(
        by_testid(&damaged, "finding").is_none() && by_testid(&damaged, "shared-banner").is_none(),
        "nothing from a damaged link is shown"
    );
}

/// The target form, mounted on its own, and its endpoint field.
async fn mount_form() -> (web_sys::HtmlElement, web_sys::HtmlInputElement) {
    let (root, input, _) = mount_form_with(FormValues::default()).await;
    (root, input)
}

/// The target form showing `initial`; the starts it asks for land in the returned signal.
async fn mount_form_with(
    initial: FormValues,
) -> (
    web_sys::HtmlElement,
    web_sys::HtmlInputElement,
    RwSignal<Vec<(Mode, FormValues)>>,
) {
    let root = container();
    let started = RwSignal::new(Vec::new());
    leptos::mount::mount_to(root.clone(), move || {
        let demo = RwSignal::new(None);
        let form = FormState::new(initial);
        let on_start = Callback::new(move |run| started.update(|s| s.push(run)));
        view! { <TargetForm form=form demo=demo busy=Signal::derive(|| false) on_start=on_start /> }
    })
    .forget();
    leptos::task::tick().await;
    let input = by_testid(&root, "endpoint").unwrap().dyn_into().unwrap();
    (root, input, started)
}

/// The boot page sends a run's first wave, and the app's engine must ask for the same requests to
/// read them: the same values and seed give the same wave; other values (another era) do not.
#[wasm_bindgen_test]
fn the_same_values_and_seed_give_the_same_first_wave_and_other_values_do_not() {
    let values = FormValues {
        endpoint: "https://mcp.example.com/mcp".into(),
        token: "a-token-from-the-boot-page".into(),
        ..FormValues::default()
    };
    let wave = |era: &str, random: u64| {
        let values = FormValues {
            era: era.into(),
            ..values.clone()
        };
        let (_, cfg, _) = run_config(Mode::Quick, &values, random).unwrap();
        mcp_triage::engine::Engine::first_requests(cfg)
            .iter()
            .map(|o| format!("{} {} {:?} {:?}", o.method, o.url, o.headers, o.body))
            .collect::<Vec<_>>()
    };
    let first = wave("2025-11-25", 42);
    assert!(!first.is_empty());
    assert_eq!(first, wave("2025-11-25", 42));
    assert_ne!(first, wave("2026-07-28", 42));
}

#[wasm_bindgen_test]
async fn the_form_shows_handed_over_values_and_starts_with_exactly_them() {
    let values = FormValues {
        endpoint: "https://mcp.example.com/mcp".into(),
        token: "a-token-from-the-boot-page".into(),
        era: "2025-06-18".into(),
        run_seconds: "42".into(),
        extras: vec![("X-Tenant".into(), "acme".into(), false)],
    };
    // What the boot page sends is what the app reads back.
    let handoff = Handoff {
        form: values.clone(),
        demo: None,
        start: Some((Mode::Review, values.clone(), u64::MAX - 1)),
        details_open: true,
        started_at: Some(1234.5),
    };
    let text = serde_json::to_string(&handoff).unwrap();
    assert_eq!(serde_json::from_str::<Handoff>(&text).unwrap(), handoff);
    let (root, input, started) = mount_form_with(values.clone()).await;
    assert_eq!(input.value(), values.endpoint);
    let review: web_sys::HtmlButtonElement = by_testid(&root, "review-first")
        .unwrap()
        .dyn_into()
        .unwrap();
    review.click();
    leptos::task::tick().await;
    assert_eq!(started.get_untracked(), vec![(Mode::Review, values)]);
}

#[wasm_bindgen_test]
async fn target_form_validates_inline() {
    let (root, input) = mount_form().await;
    input.set_value("http://example.com/mcp");
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    leptos::task::tick().await;
    assert!(
        by_testid(&root, "endpoint-error")
            .unwrap()
            .inner_text()
            .contains("https://")
    );
    let quick: web_sys::HtmlButtonElement =
        by_testid(&root, "quick-check").unwrap().dyn_into().unwrap();
    assert!(quick.disabled());
    input.set_value("https://mcp.example.com/mcp");
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    leptos::task::tick().await;
    assert_eq!(
        by_testid(&root, "endpoint-host").unwrap().inner_text(),
        "https://mcp.example.com"
    );
    assert!(!quick.disabled());
}

#[wasm_bindgen_test]
async fn the_host_the_form_shows_is_the_host_the_browser_sends_to_for_urls_it_reads_differently() {
    let (root, input) = mount_form().await;
    // (typed, accepted): backslash, short and hex IPv4 forms, a trailing dot, a percent-escape in
    // the host, an IDN, and a trailing-dot loopback name the page's CSP does not cover.
    let cases = [
        ("https://a.example\\b.example/mcp", true),
        ("http://127.1:8080/mcp", true),
        ("http://0x7f.0.0.1:8080/mcp", true),
        ("https://mcp.example.com./mcp", true),
        ("http://127.0.0.%31:8080/mcp", true),
        ("https://bücher.example/mcp", true),
        ("http://localhost.:8080/mcp", false),
        ("http://127.0.0.2/mcp", false),
    ];
    for (typed, accepted) in cases {
        input.set_value(typed);
        input
            .dispatch_event(&web_sys::Event::new("input").unwrap())
            .unwrap();
        leptos::task::tick().await;
        let browser = web_sys::Url::new(typed).unwrap();
        let shown = by_testid(&root, "endpoint-host").map(|h| h.inner_text());
        if accepted {
            assert_eq!(shown.as_deref(), Some(browser.origin().as_str()), "{typed}");
            if browser.href() != typed {
                assert_eq!(
                    by_testid(&root, "endpoint-read").map(|r| r.inner_text()),
                    Some(browser.href()),
                    "{typed}"
                );
            }
        } else {
            assert_eq!(shown, None, "{typed} is refused");
            assert!(
                by_testid(&root, "endpoint-error")
                    .unwrap()
                    .inner_text()
                    .contains("https://"),
                "{typed}"
            );
        }
    }
}

#[wasm_bindgen_test]
async fn a_2_mib_body_of_controls_shows_as_one_collapsed_run_and_show_all_keeps_the_node_count_bounded()
 {
    use mcp_triage_web::components::visible_text::MAX_PIECES;
    let root = container();
    let run = "\u{1}".repeat(2 * 1024 * 1024);
    let mixed = "\u{200B}a\u{1}b".repeat(50_000);
    leptos::mount::mount_to(root.clone(), move || {
        view! {
            <div id="run"><VisibleText text=run.clone() cap=4000 /></div>
            <div id="mixed"><VisibleText text=mixed.clone() cap=4000 /></div>
        }
    })
    .forget();
    leptos::task::tick().await;
    let part = |id: &str| -> web_sys::HtmlElement {
        root.query_selector(&format!("#{id}"))
            .unwrap()
            .unwrap()
            .dyn_into()
            .unwrap()
    };
    for id in ["run", "mixed"] {
        let show: web_sys::HtmlElement = part(id)
            .query_selector("button")
            .unwrap()
            .unwrap()
            .dyn_into()
            .unwrap();
        show.click();
    }
    leptos::task::tick().await;
    let nodes = |el: &web_sys::HtmlElement| el.query_selector_all("*").unwrap().length() as usize;
    let run_view = part("run");
    assert!(
        run_view
            .text_content()
            .unwrap()
            .contains("⟨U+0001⟩ × 16,384"),
        "a page of the run is one collapsed token"
    );
    assert!(
        nodes(&run_view) < 20,
        "{} nodes for a run",
        nodes(&run_view)
    );
    let mixed_view = part("mixed");
    assert!(
        nodes(&mixed_view) <= MAX_PIECES + 10,
        "{} nodes on a page (cap {MAX_PIECES})",
        nodes(&mixed_view)
    );
    // The whole text stays reachable: the download holds it all, and the pager says how much shows.
    let pager = mixed_view
        .query_selector("[data-testid=pager]")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    assert!(pager.contains("of 200,000 characters"), "{pager}");
    assert!(
        mixed_view
            .query_selector("[data-testid=download-body]")
            .unwrap()
            .is_some()
    );
}

#[wasm_bindgen_test]
fn demo_json_is_read_by_the_browser_parser_as_serde_would_read_it() {
    use mcp_triage_web::net::{DemoConfig, parse_demo_config};
    let good = r#"{"endpoint":"http://127.0.0.1:8765/mcp","token_hint":"demo-token","server":"TypeScript SDK demo"}"#;
    let cases = [
        good,
        r#"{"server":"s","endpoint":"http://localhost:1/mcp","token_hint":""}"#,
        r#"{"endpoint":"e","token_hint":"t"}"#,
        r#"{"endpoint":"e","token_hint":"t","server":"s","extra":1}"#,
        r#"{"endpoint":"e","token_hint":"t","server":5}"#,
        r#"{"endpoint":"e","token_hint":null,"server":"s"}"#,
        "null",
        "\"text\"",
        "{",
        "",
    ];
    for text in cases {
        let ours = parse_demo_config(text);
        let serde = serde_json::from_str::<DemoConfig>(text).ok();
        assert_eq!(ours, serde, "{text}");
    }
    // serde would also read an array in field order; the file is always an object, and an array
    // is refused.
    assert_eq!(parse_demo_config(r#"["e","t","s"]"#), None);
    assert_eq!(
        parse_demo_config(good).map(|c| c.server),
        Some("TypeScript SDK demo".to_string())
    );
}

/// What a rendered card shows of a verdict: each badge's identifier and words, and the agent's
/// action (the words after the action badge's symbol).
fn facts_shown(card: &web_sys::HtmlElement) -> Vec<(String, Option<String>, Option<String>)> {
    ["channel", "cause", "decided-by", "action", "verdict"]
        .iter()
        .map(|t| {
            let el = by_testid(card, t);
            (
                t.to_string(),
                el.as_ref().and_then(|e| e.get_attribute("data-id")),
                el.map(|e| e.inner_text().replace("decided by", "").trim().to_string()),
            )
        })
        .collect()
}

#[wasm_bindgen_test]
async fn a_live_card_and_its_shared_card_show_the_same_facts_by_their_labels() {
    for (intent, capture) in SURFACE_CAPTURES {
        let mut ex = Exchange::from_json(capture.as_bytes()).unwrap();
        ex.intent = Some(intent.into());
        let report = RunReport::from_exchanges("http://127.0.0.1:8701/mcp", vec![ex]);
        let a = &report.records[0].assessment;
        let live = container();
        let card = CardView::of_record(&report.records[0], &[]);
        leptos::mount::mount_to(live.clone(), move || view! { <Card card=card.clone() /> })
            .forget();
        let ep = mcp_triage::endpoint::parse_endpoint("http://127.0.0.1:8701/mcp").unwrap();
        let made = mcp_triage::share::make_link(
            &report,
            &ep,
            mcp_triage::share::BuildOptions {
                include_path: true,
                include_secret_shaped: true,
            },
            &mcp_triage::redact::Secrets::default(),
            "2026-12-06",
            "test",
            "",
        );
        let shared = container();
        let opened = mcp_triage::share::decode(&made.link.unwrap().url);
        leptos::mount::mount_to(shared.clone(), move || {
            view! { <SharedView shared=opened.clone() on_leave=Callback::new(|_| {}) /> }
        })
        .forget();
        leptos::task::tick().await;
        open_cards(&live);
        open_cards(&shared);
        let id = format!("card-{intent}");
        let live_card = by_testid(&live, &id).unwrap();
        let shared_card = by_testid(&shared, &id).unwrap();
        let live_facts = facts_shown(&live_card);
        // Both show what the core decided, by identifier and by the words of its table.
        let v = &a.verdict;
        let want = [
            ("channel", v.channel.as_str(), v.channel.label()),
            ("cause", v.cause.as_str(), v.cause.label()),
            ("decided-by", v.decided_by.as_str(), v.decided_by.label()),
            ("action", a.advice.action.as_str(), a.advice.action.label()),
        ];
        for (t, id, label) in want {
            let (_, shown_id, shown) = live_facts.iter().find(|f| f.0 == t).unwrap();
            assert_eq!(shown_id.as_deref(), Some(id), "{intent} {t}");
            assert!(
                shown.as_deref().is_some_and(|s| s.ends_with(&label)),
                "{intent} {t}: {shown:?}"
            );
        }
        let spec = a.spec.as_ref().map(|s| s.conformance.label());
        let (_, _, verdict) = live_facts.iter().find(|f| f.0 == "verdict").unwrap();
        assert_eq!(
            verdict
                .as_ref()
                .map(|v| v.ends_with(spec.as_deref().unwrap_or("?"))),
            spec.as_ref().map(|_| true),
            "{intent} verdict"
        );
        assert_eq!(
            facts_shown(&shared_card),
            live_facts,
            "{intent}: the shared card shows what the live one does"
        );
    }
}
