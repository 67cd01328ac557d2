//! The OAuth doctor's machine, fed answers by hand: the order it looks in per revision, what it
//! refuses to fetch, and each check's verdict with the revisions that judge otherwise. (The CLI's
//! tests run it against the TypeScript SDK's OAuth example and a hostile metadata server.)

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_triage::Conformance;
use mcp_triage::auth::{
    AuthCheck, AuthDoctor, AuthReport, AuthStep, BrowserAccess, MAX_FETCHES,
    ROUND_TRIP_MAX_AGE_SECONDS, Renewal, ReturnTo, SIGN_IN_RANDOM_BYTES, SignIn, SignInInput,
    SignInNext,
};
use mcp_triage::endpoint::{Endpoint, parse_endpoint};
use mcp_triage::engine::{Era, RunReport};
use mcp_triage::exchange::{Exchange, TransportError, Vantage};
use mcp_triage::redact::Secrets;
use serde_json::{Value, json};

/// An exchange: a GET of `url` answered with `status`, `headers` and `body`.
fn answer(url: &str, status: u16, headers: &[(&str, &str)], body: &str) -> Exchange {
    let headers: Vec<Value> = headers.iter().map(|(k, v)| json!([k, v])).collect();
    let doc = json!({
        "format": "mcp-exchange/1",
        "vantage": "direct",
        "request": {"method": "GET", "url": url, "headers": [["Accept", "application/json"]]},
        "response": {"status": status, "headers": headers, "body": body},
    });
    Exchange::from_json(doc.to_string().as_bytes()).unwrap()
}

fn unauthorized(endpoint: &str, challenge: Option<&str>) -> Exchange {
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(c) = challenge {
        headers.push(("WWW-Authenticate", c));
    }
    let mut ex = answer(endpoint, 401, &headers, r#"{"error":"invalid_token"}"#);
    ex.request.method = "POST".into();
    ex.request.body = Some(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.into(),
    );
    ex
}

fn doctor(endpoint: &str, era: &str, challenge: Option<&str>) -> (AuthDoctor, Endpoint) {
    let ep = parse_endpoint(endpoint).unwrap();
    let mut report = RunReport::from_exchanges(endpoint, vec![unauthorized(endpoint, challenge)]);
    report.era = Era::parse(era).unwrap();
    (
        report.auth_doctor(&ep, Secrets::default(), None).unwrap(),
        ep,
    )
}

/// Runs the doctor to its end, answering each fetch with `serve(url)`; returns the report and the
/// URLs fetched, in order.
fn run(mut d: AuthDoctor, serve: impl Fn(&str) -> Exchange) -> (AuthReport, Vec<String>) {
    let mut fetched = Vec::new();
    while let Some(out) = d.next_fetch() {
        assert!(!out.with_token, "a discovery fetch never carries the token");
        assert_eq!(out.method, "GET");
        fetched.push(out.url.clone());
        assert!(fetched.len() <= MAX_FETCHES);
        d.answer(serve(&out.url));
    }
    assert!(d.is_done());
    (d.report(), fetched)
}

fn verdict(r: &AuthReport, check: AuthCheck) -> Conformance {
    r.findings()
        .find(|(_, f)| f.check == check)
        .map(|(_, f)| f.conformance)
        .unwrap_or_else(|| panic!("no finding {check}: {r:#?}"))
}

fn steps(r: &AuthReport) -> Vec<AuthStep> {
    r.cards.iter().map(|c| c.step).collect()
}

const MCP: &str = "http://localhost:3000/mcp";
const CHALLENGE: &str = r#"Bearer error="invalid_token", resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp""#;

fn prm(resource: &str, servers: &[&str]) -> String {
    json!({"resource": resource, "authorization_servers": servers, "scopes_supported": ["mcp:tools"]}).to_string()
}

fn as_doc(issuer: &str) -> Value {
    json!({
        "issuer": issuer,
        "authorization_endpoint": "http://localhost:3001/authorize",
        "token_endpoint": "http://localhost:3001/token",
        "registration_endpoint": "http://localhost:3001/register",
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
    })
}

/// A server that answers the TypeScript SDK example's documents, with `edit` applied to the
/// authorization server's.
fn demo(edit: impl Fn(&mut Value)) -> impl Fn(&str) -> Exchange {
    move |url| match url {
        "http://localhost:3000/.well-known/oauth-protected-resource/mcp" => answer(
            url,
            200,
            &[("Content-Type", "application/json")],
            &prm(MCP, &["http://localhost:3001/"]),
        ),
        "http://localhost:3001/.well-known/oauth-authorization-server" => {
            let mut doc = as_doc("http://localhost:3001/");
            edit(&mut doc);
            answer(
                url,
                200,
                &[("Content-Type", "application/json")],
                &doc.to_string(),
            )
        }
        _ => answer(url, 404, &[], "not found"),
    }
}

#[test]
fn an_endpoint_on_a_loopback_alias_is_off_the_issuers_origin() {
    // The issuer on 127.0.0.1, its token and registration endpoints on 127.0.0.2: both loopback
    // (127.0.0.0/8), so http is allowed, and another host, so another origin.
    let mcp = "http://127.0.0.1:3000/mcp";
    let challenge = r#"Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp""#;
    let serve = |url: &str| match url {
        "http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp" => answer(
            url,
            200,
            &[("Content-Type", "application/json")],
            &prm(mcp, &["http://127.0.0.1:3001/"]),
        ),
        "http://127.0.0.1:3001/.well-known/oauth-authorization-server" => {
            let mut doc = as_doc("http://127.0.0.1:3001/");
            doc["authorization_endpoint"] = json!("http://127.0.0.1:3001/authorize");
            doc["token_endpoint"] = json!("http://127.0.0.2:3001/token");
            doc["registration_endpoint"] = json!("http://127.0.0.2:3001/register");
            answer(
                url,
                200,
                &[("Content-Type", "application/json")],
                &doc.to_string(),
            )
        }
        _ => answer(url, 404, &[], "not found"),
    };
    let (d, _) = doctor(mcp, "2025-11-25", Some(challenge));
    let (r, _) = run(d, serve);
    assert_eq!(
        verdict(&r, AuthCheck::AsEndpointsHttps),
        Conformance::Conforms,
        "{r:#?}"
    );
    assert_eq!(
        verdict(&r, AuthCheck::AsEndpointsOnIssuerOrigin),
        Conformance::Deviates,
        "{r:#?}"
    );
    let (_, f) = r
        .findings()
        .find(|(_, f)| f.check == AuthCheck::AsEndpointsOnIssuerOrigin)
        .unwrap();
    assert!(
        f.detail.contains("token_endpoint") && f.detail.contains("registration_endpoint"),
        "{}",
        f.detail
    );
}

#[test]
fn a_conforming_setup_conforms_and_the_doctor_stops_once_it_has_what_a_client_needs() {
    let (d, _) = doctor(MCP, "2025-11-25", Some(CHALLENGE));
    let (r, fetched) = run(d, demo(|_| {}));
    assert_eq!(
        fetched,
        [
            "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
            "http://localhost:3001/.well-known/oauth-authorization-server",
        ]
    );
    assert_eq!(
        steps(&r),
        [
            AuthStep::Challenge,
            AuthStep::PrmFromChallenge,
            AuthStep::AsOauth,
            AuthStep::Registration,
            AuthStep::AuthorizationUrl,
        ]
    );
    for (_, f) in r.findings() {
        assert_ne!(f.conformance, Conformance::Deviates, "{f:#?}");
    }
    let url = r.cards.last().unwrap().url.clone().unwrap();
    assert!(
        url.starts_with("http://localhost:3001/authorize?response_type=code&"),
        "{url}"
    );
    assert!(url.contains("&code_challenge_method=S256&"), "{url}");
    assert!(
        url.contains("&resource=http%3A%2F%2Flocalhost%3A3000%2Fmcp"),
        "{url}"
    );
    assert!(url.contains("&scope=mcp%3Atools"), "{url}");
}

/// A case: its name, how it breaks the server metadata, the check that must see it.
type Broken = (&'static str, fn(&mut Value), AuthCheck);

#[test]
fn each_broken_field_of_the_server_metadata_deviates_with_its_rule() {
    let cases: [Broken; 5] = [
        (
            "issuer",
            |d| d["issuer"] = json!("http://localhost:3001/other"),
            AuthCheck::AsIssuerMatches,
        ),
        (
            "pkce",
            |d| {
                d.as_object_mut()
                    .unwrap()
                    .remove("code_challenge_methods_supported");
            },
            AuthCheck::AsPkceS256,
        ),
        (
            "code",
            |d| d["response_types_supported"] = json!(["token"]),
            AuthCheck::AsResponseTypeCode,
        ),
        (
            "javascript",
            |d| d["authorization_endpoint"] = json!("javascript:alert(1)"),
            AuthCheck::AsEndpointsHttps,
        ),
        (
            "elsewhere",
            |d| d["token_endpoint"] = json!("https://collector.example/token"),
            AuthCheck::AsEndpointsOnIssuerOrigin,
        ),
    ];
    for (name, edit, check) in cases {
        let (d, _) = doctor(MCP, "2025-11-25", Some(CHALLENGE));
        let (r, _) = run(d, demo(edit));
        assert_eq!(verdict(&r, check), Conformance::Deviates, "{name}");
        let others: Vec<AuthCheck> = r
            .findings()
            .filter(|(_, f)| f.conformance == Conformance::Deviates)
            .map(|(_, f)| f.check)
            .collect();
        assert_eq!(others, [check], "{name}: only the broken field deviates");
        let (_, f) = r.findings().find(|(_, f)| f.check == check).unwrap();
        assert!(
            f.rule
                .as_ref()
                .is_some_and(|r| r.link.starts_with("https://")),
            "{name}"
        );
    }
    // A javascript: authorization endpoint is never offered as a URL to open.
    let (d, _) = doctor(MCP, "2025-11-25", Some(CHALLENGE));
    let (r, _) = run(
        d,
        demo(|d| d["authorization_endpoint"] = json!("javascript:alert(1)")),
    );
    let last = r.cards.last().unwrap();
    assert_eq!(
        (last.step, last.url.as_deref()),
        (AuthStep::AuthorizationUrl, None)
    );
}

#[test]
fn without_a_challenge_url_the_well_known_urls_are_tried_in_order_and_their_absence_deviates() {
    let (d, _) = doctor(
        "https://api.example/v1/mcp",
        "2025-11-25",
        Some(r#"Bearer error="invalid_token""#),
    );
    let (r, fetched) = run(d, |url| answer(url, 404, &[], "no"));
    assert_eq!(
        fetched,
        [
            "https://api.example/.well-known/oauth-protected-resource/v1/mcp",
            "https://api.example/.well-known/oauth-protected-resource",
        ]
    );
    assert_eq!(verdict(&r, AuthCheck::PrmFound), Conformance::Deviates);
    // 2025-11-25 accepts a 401 without resource_metadata (the well-known URLs are enough);
    // 2025-06-18 does not, and the finding says so.
    let (_, f) = r
        .findings()
        .find(|(_, f)| f.check == AuthCheck::ChallengeNamesMetadata)
        .unwrap();
    assert_eq!(f.conformance, Conformance::NotApplicable);
    assert!(
        f.elsewhere
            .contains(&("2025-06-18".to_string(), Conformance::Deviates)),
        "{f:#?}"
    );
}

#[test]
fn a_redirect_is_an_outcome_never_followed() {
    let (d, _) = doctor(MCP, "2025-11-25", Some(CHALLENGE));
    let (r, fetched) = run(d, |url| {
        answer(
            url,
            302,
            &[("Location", "https://collector.example/steal")],
            "",
        )
    });
    assert!(
        fetched
            .iter()
            .all(|u| u.starts_with("http://localhost:3000/")),
        "{fetched:?}"
    );
    assert!(
        r.cards[1].outcome.contains("not followed"),
        "{:?}",
        r.cards[1].outcome
    );
    assert_eq!(verdict(&r, AuthCheck::PrmFound), Conformance::Deviates);
}

#[test]
fn what_a_server_names_is_fetched_only_within_the_rules() {
    // A public endpoint's metadata naming a private address, a cleartext host and a javascript:
    // URL: none is fetched, each card says why.
    for named in [
        "https://10.1.2.3/.well-known/x",
        "http://metadata.example/x",
        "javascript:alert(1)",
    ] {
        let challenge = format!(r#"Bearer resource_metadata="{named}""#);
        let (d, _) = doctor("https://mcp.example/mcp", "2025-11-25", Some(&challenge));
        let (r, fetched) = run(d, |url| answer(url, 404, &[], ""));
        assert!(!fetched.iter().any(|u| u == named), "{named} fetched");
        assert!(
            r.cards[1].outcome.starts_with("not fetched: "),
            "{:?}",
            r.cards[1]
        );
        assert!(r.cards[1].exchange.is_none());
    }
    // The PRM names an authorization server at a private literal: not fetched either.
    let (d, _) = doctor("https://mcp.example/mcp", "2025-11-25", None);
    let (r, fetched) = run(d, |url| {
        answer(
            url,
            200,
            &[],
            &prm("https://mcp.example/mcp", &["https://192.168.1.10/"]),
        )
    });
    assert_eq!(fetched.len(), 1, "{fetched:?}");
    assert!(
        r.cards.iter().any(|c| c.outcome.contains("private")),
        "{r:#?}"
    );
}

#[test]
fn the_fetch_rule_test_catches_a_doctor_that_fetches_what_a_server_names() {
    // The control of the test above: with the rule switched off, the same hostile names are
    // fetched, and the same checks see it.
    let named = "https://10.1.2.3/.well-known/x";
    let challenge = format!(r#"Bearer resource_metadata="{named}""#);
    let fetched = mcp_triage::testing::with_auth_fetch_rule_off(|| {
        let (d, _) = doctor("https://mcp.example/mcp", "2025-11-25", Some(&challenge));
        run(d, |url| answer(url, 404, &[], "")).1
    });
    assert!(fetched.iter().any(|u| u == named), "{fetched:?}");
}

#[test]
fn a_resource_that_is_not_the_endpoint_deviates_and_a_parent_is_named_as_such() {
    let (d, _) = doctor(MCP, "2025-11-25", Some(CHALLENGE));
    let (r, _) = run(d, |url| {
        answer(
            url,
            200,
            &[],
            &prm("http://localhost:3000/", &["http://localhost:3001/"]),
        )
    });
    let (_, f) = r
        .findings()
        .find(|(_, f)| f.check == AuthCheck::PrmResourceMatches)
        .unwrap();
    assert_eq!(f.conformance, Conformance::Deviates);
    assert!(
        f.detail.contains("a parent of the endpoint"),
        "{}",
        f.detail
    );
}

#[test]
fn the_revision_decides_the_order_and_the_verdicts() {
    // 2025-03-26: no resource metadata; the server's base URL is the authorization server, and
    // without its metadata a client uses the default endpoints.
    let (d, _) = doctor(MCP, "2025-03-26", None);
    let (r, fetched) = run(d, |url| answer(url, 404, &[], ""));
    assert_eq!(
        fetched,
        ["http://localhost:3000/.well-known/oauth-authorization-server"]
    );
    assert_eq!(
        verdict(&r, AuthCheck::AsMetadataFound),
        Conformance::Deviates
    );
    let url = r.cards.last().unwrap().url.clone().unwrap();
    assert!(url.starts_with("http://localhost:3000/authorize?"), "{url}");
    assert!(
        !url.contains("resource="),
        "2025-03-26 has no resource parameter: {url}"
    );
    // 2026-07-28: dynamic registration alone is deprecated; 2025-11-25 does not judge it.
    let (d, _) = doctor(MCP, "2026-07-28", Some(CHALLENGE));
    let (r, _) = run(d, demo(|_| {}));
    let (_, f) = r
        .findings()
        .find(|(_, f)| f.check == AuthCheck::RegistrationNotDcrOnly)
        .unwrap();
    assert_eq!(f.conformance, Conformance::Deviates);
    assert!(
        f.elsewhere
            .contains(&("2025-11-25".to_string(), Conformance::NotApplicable))
    );
    // auto judges the newest revision the client offers.
    let (d, _) = doctor(MCP, "auto", Some(CHALLENGE));
    assert_eq!(d.report().revision, "2026-07-28");
    // A 2025-11-25 issuer with a path: OAuth, then OpenID inserted, then appended.
    let (d, _) = doctor(MCP, "2025-11-25", Some(CHALLENGE));
    let (_, fetched) = run(d, |url| {
        if url.contains("oauth-protected-resource") {
            answer(url, 200, &[], &prm(MCP, &["http://localhost:3001/tenant"]))
        } else {
            answer(url, 404, &[], "")
        }
    });
    assert_eq!(
        &fetched[1..],
        [
            "http://localhost:3001/.well-known/oauth-authorization-server/tenant",
            "http://localhost:3001/.well-known/openid-configuration/tenant",
            "http://localhost:3001/tenant/.well-known/openid-configuration",
        ]
    );
}

#[test]
fn a_document_of_a_million_values_gives_findings_of_bounded_size() {
    // Lists from a server are quoted up to a cap, saying how many more there were; scopes are
    // compared through a set.
    let many: Vec<String> = (0..200_000).map(|i| format!("m{i}")).collect();
    let challenge = r#"Bearer scope="a b c", resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp""#;
    let (d, _) = doctor(MCP, "2025-11-25", Some(challenge));
    let (r, _) = run(d, |url| {
        if url.contains("oauth-protected-resource") {
            let doc = json!({"resource": MCP, "authorization_servers": ["http://localhost:3001/"], "scopes_supported": many});
            answer(url, 200, &[], &doc.to_string())
        } else {
            let mut doc = as_doc("http://localhost:3001/");
            doc["code_challenge_methods_supported"] = json!(many);
            doc["response_types_supported"] = json!(many);
            answer(url, 200, &[], &doc.to_string())
        }
    });
    assert_eq!(
        verdict(&r, AuthCheck::ChallengeScopeSupported),
        Conformance::Deviates
    );
    for (_, f) in r.findings() {
        assert!(
            f.detail.len() < 8 * 1024,
            "{}: {} bytes",
            f.check,
            f.detail.len()
        );
    }
    let (_, f) = r
        .findings()
        .find(|(_, f)| f.check == AuthCheck::AsPkceS256)
        .unwrap();
    assert!(f.detail.contains("… 199984 more"), "{}", f.detail);
}

#[test]
fn a_run_without_a_401_has_nothing_to_diagnose() {
    let ok = answer(MCP, 200, &[("Content-Type", "application/json")], "{}");
    let mut report = RunReport::from_exchanges(MCP, vec![ok]);
    let ep = parse_endpoint(MCP).unwrap();
    let why = report
        .auth_doctor(&ep, Secrets::default(), None)
        .err()
        .unwrap();
    report.note_no_auth_check(why);
    assert!(
        report.notes.iter().any(|n| n.ends_with(why)),
        "{:?}",
        report.notes
    );
}

/// What the page's browser does with each request: `refuse(url, method)` says which requests it
/// rejects as a network error (CORS); `host_down` says the no-cors question fails too.
struct Browser {
    refuse: fn(&str, &str) -> bool,
    host_down: bool,
    /// Whether the preflight is what refuses (a request without one gets through).
    preflight_only: bool,
}

impl Browser {
    /// A browser that rejects what `refuse` says, at a host that answers, preflight or not.
    fn refusing(refuse: fn(&str, &str) -> bool) -> Browser {
        Browser {
            refuse,
            host_down: false,
            preflight_only: false,
        }
    }
}

const PAGE: &str = "http://127.0.0.1:8080";

/// Runs the doctor as the page does: fetches, then the CORS doctor's questions; returns the report
/// and the order of events (`fetch METHOD URL`, `ask STEP`).
fn run_in_page(mut d: AuthDoctor, browser: &Browser) -> (AuthReport, Vec<String>) {
    use mcp_triage::cors::DiagOutcome;
    let serve = demo(|_| {});
    let mut events = Vec::new();
    for _ in 0..100 {
        if let Some(out) = d.next_fetch() {
            assert!(!out.with_token);
            events.push(format!("fetch {} {}", out.method, out.url));
            let mut ex = if out.method == "GET" {
                serve(&out.url)
            } else {
                answer(&out.url, 400, &[], r#"{"error":"invalid_request"}"#)
            };
            ex.request.method = out.method.into();
            ex.request.body = out.body.clone();
            ex.vantage = Vantage::Browser;
            if (browser.refuse)(&out.url, out.method) {
                ex.response = None;
                ex.transport_error = Some(TransportError::Network);
            }
            d.answer(ex);
        } else if let Some((url, q)) = d.next_cors_check() {
            events.push(format!("ask {} {url}", q.step));
            assert!(
                q.headers
                    .iter()
                    .all(|(k, _)| !k.eq_ignore_ascii_case("authorization"))
            );
            let refused = match q.step {
                "host_answers" => browser.host_down,
                _ => !browser.preflight_only,
            };
            d.answer_cors(if refused {
                DiagOutcome::Rejected {
                    detail: "TypeError: Failed to fetch".into(),
                }
            } else {
                DiagOutcome::Answered { status: 0 }
            });
        } else {
            break;
        }
    }
    assert!(d.is_done(), "{events:#?}");
    (d.report(), events)
}

fn page_doctor(challenge: Option<&str>) -> AuthDoctor {
    let ep = parse_endpoint(MCP).unwrap();
    let mut ex = unauthorized(MCP, challenge);
    ex.vantage = Vantage::Browser;
    let mut report = RunReport::from_exchanges(MCP, vec![ex]);
    report.era = Era::parse("2025-11-25").unwrap();
    report
        .auth_doctor(&ep, Secrets::default(), Some(PAGE))
        .unwrap()
}

fn access(r: &AuthReport, step: AuthStep) -> Option<BrowserAccess> {
    r.cards
        .iter()
        .find(|c| c.step == step)
        .and_then(|c| c.browser.as_ref())
        .map(|b| b.access)
}

#[test]
fn from_a_page_the_registration_endpoint_without_cors_is_named_as_the_stop() {
    // As oidc-provider: discovery open, registration without CORS, the token endpoint open.
    let browser = Browser::refusing(|url, _| url.ends_with("/register"));
    let (r, events) = run_in_page(page_doctor(Some(CHALLENGE)), &browser);
    assert_eq!(
        events,
        [
            "fetch GET http://localhost:3000/.well-known/oauth-protected-resource/mcp",
            "fetch GET http://localhost:3001/.well-known/oauth-authorization-server",
            "fetch POST http://localhost:3001/register",
            "ask host_answers http://localhost:3001/register",
            "ask allow_origin http://localhost:3001/register",
            "fetch POST http://localhost:3001/token",
        ]
    );
    assert_eq!(
        steps(&r),
        [
            AuthStep::Challenge,
            AuthStep::PrmFromChallenge,
            AuthStep::AsOauth,
            AuthStep::Registration,
            AuthStep::TokenEndpoint,
            AuthStep::AuthorizationUrl,
        ]
    );
    assert_eq!(r.fetches, 4, "the calls count; the questions do not");
    assert_eq!(
        access(&r, AuthStep::Challenge),
        Some(BrowserAccess::Allowed)
    );
    assert_eq!(access(&r, AuthStep::AsOauth), Some(BrowserAccess::Allowed));
    assert_eq!(
        access(&r, AuthStep::Registration),
        Some(BrowserAccess::NoAllowOrigin)
    );
    assert_eq!(
        access(&r, AuthStep::TokenEndpoint),
        Some(BrowserAccess::Allowed)
    );
    assert!(
        r.browser.contains("stopped at client registration")
            && r.browser
                .contains("the registration endpoint refuses this origin"),
        "{}",
        r.browser
    );
    // The body the page sent is one no server takes for a registration, and nothing is secret.
    let reg = r
        .cards
        .iter()
        .find(|c| c.step == AuthStep::Registration)
        .unwrap();
    assert_eq!(
        reg.exchange.as_ref().unwrap().request.body.as_deref(),
        Some("[]")
    );

    // A preflight that refuses JSON while simple requests get through is named as such.
    let preflight = Browser {
        preflight_only: true,
        ..browser
    };
    let (r, _) = run_in_page(page_doctor(Some(CHALLENGE)), &preflight);
    assert_eq!(
        access(&r, AuthStep::Registration),
        Some(BrowserAccess::PreflightRefused)
    );

    // A token endpoint without CORS stops sign-in after registration.
    let token = Browser::refusing(|url, _| url.ends_with("/token"));
    let (r, events) = run_in_page(page_doctor(Some(CHALLENGE)), &token);
    assert_eq!(
        events.last().unwrap(),
        "ask host_answers http://localhost:3001/token",
        "a form POST needs no preflight: one question"
    );
    assert!(r.browser.contains("stopped at token endpoint: the host answers, without an Access-Control-Allow-Origin for http://127.0.0.1:8080 — a browser client cannot complete sign-in here"), "{}", r.browser);

    // A host that does not answer at all is not a CORS matter.
    let down = Browser {
        refuse: |url, _| url.contains(":3001"),
        host_down: true,
        preflight_only: false,
    };
    let (r, _) = run_in_page(page_doctor(Some(CHALLENGE)), &down);
    assert_eq!(
        access(&r, AuthStep::AsOauth),
        Some(BrowserAccess::Unreachable)
    );
    assert!(
        r.browser.contains("CORS let through every call"),
        "{}",
        r.browser
    );
}

#[test]
fn from_a_page_a_refused_place_is_no_stop_when_the_next_one_answers() {
    // The root well-known URL lets the page read it; the path one does not.
    let browser = Browser::refusing(|url, _| url.ends_with("oauth-protected-resource/mcp"));
    let ep = parse_endpoint(MCP).unwrap();
    let mut ex = unauthorized(MCP, None);
    ex.vantage = Vantage::Browser;
    let report = RunReport::from_exchanges(MCP, vec![ex]);
    let d = report
        .auth_doctor(&ep, Secrets::default(), Some(PAGE))
        .unwrap();
    let (r, _) = run_in_page(d, &browser);
    // No challenge reached the page: said on the challenge's card.
    assert_eq!(
        access(&r, AuthStep::Challenge),
        Some(BrowserAccess::ChallengeHidden)
    );
    assert_eq!(
        access(&r, AuthStep::PrmPathWellKnown),
        Some(BrowserAccess::NoAllowOrigin)
    );
    // The demo serves no root document: nothing was read, so the refusal is the stop.
    assert!(
        r.browser
            .contains("stopped at resource metadata (path well-known)"),
        "{}",
        r.browser
    );
}

#[test]
fn outside_a_page_cors_is_not_judged_and_the_registration_card_says_so() {
    let (d, _) = doctor(MCP, "2025-11-25", Some(CHALLENGE));
    let (r, fetched) = run(d, demo(|_| {}));
    assert_eq!(
        fetched.len(),
        2,
        "no calls of the registration or token endpoint"
    );
    assert!(!steps(&r).contains(&AuthStep::TokenEndpoint));
    assert_eq!(
        access(&r, AuthStep::Registration),
        Some(BrowserAccess::NotJudged)
    );
    assert!(
        r.cards
            .iter()
            .filter(|c| c.step != AuthStep::Registration)
            .all(|c| c.browser.is_none())
    );
    assert!(r.browser.starts_with("CORS not judged"), "{}", r.browser);
}

#[test]
fn a_share_link_carries_the_doctors_verdicts_and_no_metadata_value_beyond_origins() {
    use mcp_triage::share::{BuildOptions, build};
    // The page's run against the demo: the 401, both documents, the two calls.
    let browser = Browser::refusing(|url, _| url.ends_with("/register"));
    let (auth, _) = run_in_page(page_doctor(Some(CHALLENGE)), &browser);
    let ep = parse_endpoint(MCP).unwrap();
    let mut report = RunReport::from_exchanges(MCP, vec![unauthorized(MCP, Some(CHALLENGE))]);
    report.auth = Some(auth);
    let options = BuildOptions {
        include_path: true,
        include_secret_shaped: true,
    };
    let payload = build(
        &report,
        &ep,
        options,
        &Secrets::default(),
        "2026-12-06",
        "t",
    )
    .payload;
    let (_, cards) = payload.auth.clone().unwrap();
    let (conclusion, verdicts) = payload.browser.clone().unwrap();
    assert_eq!(cards.len(), 6);
    assert!(
        verdicts
            .iter()
            .any(|(s, a, _)| s == "registration" && a == "no_allow_origin")
    );
    assert!(
        conclusion.contains("stopped at client registration"),
        "{conclusion}"
    );
    // What the documents said beyond origins stays out, whatever the user opted into: paths,
    // scopes, methods, response types.
    let text = serde_json::to_string(&(payload.auth, payload.browser)).unwrap();
    for value in [
        "/.well-known",
        "/authorize",
        "/register",
        "mcp:tools",
        "S256",
        "\"code\"",
    ] {
        assert!(!text.contains(value), "{value} in the link: {text}");
    }
    assert!(
        text.contains("http://localhost:3001"),
        "origins stay: {text}"
    );
    // Control: the report itself (the JSON export) does carry them.
    let full = serde_json::to_string(&report.auth).unwrap();
    assert!(full.contains("/.well-known") && full.contains("S256"));
}

/// Unpadded base64url, written out here so the test does not check the core with its own code.
fn b64url(bytes: &[u8]) -> String {
    const T: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(char::from(T[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

/// The doctor, walked against `serve`, then a sign-in with fixed random bytes.
fn signing_in(
    era: &str,
    edit: impl Fn(&mut Value),
    client_id: Option<&str>,
) -> Result<SignIn, String> {
    signing_in_as(era, edit, |i| i.client_id = client_id.map(str::to_string))
}

/// [`signing_in`] with the shell's input as `input` leaves it.
fn signing_in_as(
    era: &str,
    edit: impl Fn(&mut Value),
    input: impl FnOnce(&mut SignInInput),
) -> Result<SignIn, String> {
    let (mut d, _) = doctor(MCP, era, Some(CHALLENGE));
    let serve = demo(edit);
    while let Some(out) = d.next_fetch() {
        d.answer(serve(&out.url));
    }
    let mut given = SignInInput {
        random: [7; SIGN_IN_RANDOM_BYTES],
        redirect_uri: "http://127.0.0.1:5555/callback".into(),
        client_id: None,
        client_name: "MCP Triage".into(),
        metadata_document: None,
    };
    input(&mut given);
    d.sign_in(given)
}

fn sent(next: SignInNext) -> mcp_triage::engine::Outgoing {
    match next {
        SignInNext::Send(out) => out,
        other => panic!("expected a request, got {other:?}"),
    }
}

/// The `state` of the authorization URL a sign-in asks the shell to open.
fn state_of(next: SignInNext) -> String {
    let SignInNext::Open(url) = next else {
        panic!("expected a URL, got {next:?}")
    };
    url.split("state=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_string()
}

fn query_of(url: &str) -> Vec<(String, String)> {
    url.split_once('?')
        .unwrap()
        .1
        .split('&')
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

#[test]
fn a_sign_in_registers_opens_checks_the_callback_and_redeems_the_code_as_the_revision_asks() {
    use sha2::{Digest, Sha256};
    let mut s = signing_in("2025-11-25", |_| {}, None).unwrap();
    // Registration: a native client with the loopback redirect, to the issuer's endpoint.
    let reg = sent(s.next_step());
    assert_eq!(
        (reg.method, reg.url.as_str()),
        ("POST", "http://localhost:3001/register")
    );
    assert!(!reg.with_token);
    let body: Value = serde_json::from_str(reg.body.as_deref().unwrap()).unwrap();
    assert_eq!(body["application_type"], "native");
    assert_eq!(
        body["redirect_uris"],
        json!(["http://127.0.0.1:5555/callback"])
    );
    assert_eq!(body["token_endpoint_auth_method"], "none");
    let mut ok = answer(&reg.url, 201, &[], r#"{"client_id":"c-1"}"#);
    ok.request.method = "POST".into();
    s.answer(&ok);
    // The authorization URL: S256 of the verifier, state, resource, scope; nothing else to open.
    let SignInNext::Open(url) = s.next_step() else {
        panic!("expected a URL")
    };
    assert!(url.starts_with("http://localhost:3001/authorize?"), "{url}");
    let q = query_of(&url);
    let get = |k: &str| {
        q.iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap()
    };
    assert_eq!(get("client_id"), "c-1");
    assert_eq!(get("code_challenge_method"), "S256");
    assert_eq!(get("resource"), "http%3A%2F%2Flocalhost%3A3000%2Fmcp");
    assert_eq!(
        get("scope"),
        "mcp%3Atools",
        "the resource metadata's scopes (the 401 names none)"
    );
    let state = get("state");
    // A callback with another state, or none, is refused (each in a sign-in of its own).
    for bad in [
        "/callback?code=x&state=other".to_string(),
        "/callback?code=x".to_string(),
        format!("/elsewhere?code=x&state={state}"),
        format!("/callback?code=x&state={state}&state={state}"),
    ] {
        let mut t = signing_in("2025-11-25", |_| {}, Some("c-1")).unwrap();
        let _ = t.next_step();
        let same_state = t
            .authorization_url()
            .split("state=")
            .nth(1)
            .unwrap()
            .split('&')
            .next()
            .unwrap()
            .to_string();
        t.callback(&bad.replace(&state, &same_state));
        assert!(matches!(t.next_step(), SignInNext::Failed(_)), "{bad}");
    }
    // The right one: the token request carries the verifier, the code, the same redirect URI and
    // the resource, to the issuer's token endpoint, without the token.
    s.callback(&format!("/callback?code=the-code&state={state}"));
    let token = sent(s.next_step());
    assert_eq!(token.url, "http://localhost:3001/token");
    let form = token.body.clone().unwrap();
    let verifier = form
        .split('&')
        .find_map(|p| p.strip_prefix("code_verifier="))
        .unwrap()
        .to_string();
    assert_eq!(
        b64url(&Sha256::digest(verifier.as_bytes())),
        get("code_challenge"),
        "the challenge is the verifier's S256"
    );
    for part in [
        "grant_type=authorization_code",
        "code=the-code",
        "redirect_uri=http%3A%2F%2F127.0.0.1%3A5555%2Fcallback",
        "client_id=c-1",
        "resource=http%3A%2F%2Flocalhost%3A3000%2Fmcp",
    ] {
        assert!(form.contains(part), "{part} in {form}");
    }
    let mut tokens = answer(
        &token.url,
        200,
        &[],
        r#"{"access_token":"at-123456789","refresh_token":"rt-123456789","token_type":"bearer","expires_in":60}"#,
    );
    tokens.request.method = "POST".into();
    s.answer(&tokens);
    assert_eq!(s.next_step(), SignInNext::Done);
    assert_eq!(s.access_token(), Some("at-123456789"));
    let secrets = s.secrets();
    for secret in [
        "at-123456789",
        "rt-123456789",
        "the-code",
        verifier.as_str(),
    ] {
        assert!(secrets.iter().any(|x| x == secret), "{secret} is redacted");
        assert!(
            !s.summary().join(" ").contains(secret),
            "the summary holds no secret"
        );
    }
    assert!(
        s.summary()[0].contains("registered dynamically"),
        "{:?}",
        s.summary()
    );
}

#[test]
fn a_sign_in_refuses_what_a_careful_client_refuses() {
    let refused = |edit: fn(&mut Value)| signing_in("2025-11-25", edit, None).err().unwrap();
    assert!(
        refused(|d| d
            .as_object_mut()
            .unwrap()
            .remove("code_challenge_methods_supported")
            .map(drop)
            .unwrap_or(()))
        .contains("PKCE")
    );
    assert!(
        refused(|d| d["token_endpoint"] = json!("http://localhost:4000/token"))
            .contains("token endpoint on the issuer's origin")
    );
    assert!(
        refused(|d| d["authorization_endpoint"] = json!("javascript:alert(1)"))
            .contains("no authorization endpoint that may be opened")
    );
    assert!(
        refused(|d| d["issuer"] = json!("http://localhost:3001/other")).contains("another issuer")
    );
    assert!(
        refused(|d| d
            .as_object_mut()
            .unwrap()
            .remove("registration_endpoint")
            .map(drop)
            .unwrap_or(()))
        .contains("--client-id")
    );
    // A client id given: no registration, straight to the URL.
    let mut s = signing_in(
        "2025-11-25",
        |d| {
            d.as_object_mut().unwrap().remove("registration_endpoint");
        },
        Some("mine"),
    )
    .unwrap();
    assert!(matches!(s.next_step(), SignInNext::Open(_)));
    // RFC 9207: a server that says it sends iss gets its absence refused from 2026-07-28, noted before.
    let supported =
        |d: &mut Value| d["authorization_response_iss_parameter_supported"] = json!(true);
    for (era, refused) in [("2026-07-28", true), ("2025-11-25", false)] {
        let mut s = signing_in(era, supported, Some("mine")).unwrap();
        let state = state_of(s.next_step());
        s.callback(&format!("/callback?code=c&state={state}"));
        assert_eq!(
            matches!(s.next_step(), SignInNext::Failed(_)),
            refused,
            "{era}"
        );
        if !refused {
            assert!(
                s.summary()
                    .iter()
                    .any(|l| l.contains("refused from 2026-07-28"))
            );
        }
        // Another issuer's iss is refused at any revision, without the server's error words.
        let mut s = signing_in(era, supported, Some("mine")).unwrap();
        let state = state_of(s.next_step());
        s.callback(&format!(
            "/callback?iss=https%3A%2F%2Fevil&error=x&error_description=click%20here&state={state}"
        ));
        let SignInNext::Failed(why) = s.next_step() else {
            panic!()
        };
        assert!(
            why.contains("mix-up") && !why.contains("click here"),
            "{why}"
        );
    }
}

/// A sign-in with a client id, signed in with `tokens` (the token endpoint's answer).
fn signed_in(tokens: &str) -> SignIn {
    let mut s = signing_in("2025-11-25", |_| {}, Some("c-1")).unwrap();
    let state = state_of(s.next_step());
    s.callback(&format!("/callback?code=code-one-1234&state={state}"));
    let out = sent(s.next_step());
    let mut ok = answer(&out.url, 200, &[], tokens);
    ok.request.method = "POST".into();
    s.answer(&ok);
    assert_eq!(s.next_step(), SignInNext::Done);
    s
}

/// The run's request for probe A, with the token or without.
fn probe_a(with_token: bool) -> mcp_triage::engine::Outgoing {
    mcp_triage::engine::Outgoing {
        step: mcp_triage::engine::Step::Probe(mcp_triage::engine::ProbeName::A),
        method: "POST",
        url: MCP.into(),
        headers: Vec::new(),
        body: Some("{}".into()),
        with_token,
        expect_id: None,
        headers_only: false,
        intent: None,
        wave: 1,
    }
}

fn refused(status: u16, challenge: &str) -> Exchange {
    answer(MCP, status, &[("WWW-Authenticate", challenge)], "{}")
}

fn token_answer(s: &mut SignIn, body: &str) -> mcp_triage::engine::Outgoing {
    let out = sent(s.next_step());
    let mut ok = answer(&out.url, 200, &[], body);
    ok.request.method = "POST".into();
    s.answer(&ok);
    out
}

#[test]
fn an_expired_token_is_refreshed_once_and_a_second_refusal_stands() {
    let mut s = signed_in(
        r#"{"access_token":"at-first-1234","refresh_token":"rt-first-1234","token_type":"Bearer","scope":"mcp:tools"}"#,
    );
    let expired = refused(401, r#"Bearer error="invalid_token""#);
    // A 401 to a request sent without the token on purpose is that check's answer, not expiry.
    assert_eq!(
        s.renewal(&probe_a(false), &expired, s.token_issue()),
        Renewal::None
    );
    let first = s.token_issue();
    assert_eq!(s.renewal(&probe_a(true), &expired, first), Renewal::Refresh);
    s.refresh();
    // The refresh: the refresh token, the client, the resource, to the token endpoint.
    let out = token_answer(
        &mut s,
        r#"{"access_token":"at-second-1234","token_type":"Bearer","expires_in":60}"#,
    );
    assert_eq!(out.url, "http://localhost:3001/token");
    assert!(!out.with_token);
    let form = out.body.unwrap();
    for part in [
        "grant_type=refresh_token",
        "refresh_token=rt-first-1234",
        "client_id=c-1",
        "resource=http%3A%2F%2Flocalhost%3A3000%2Fmcp",
    ] {
        assert!(form.contains(part), "{part} in {form}");
    }
    assert_eq!(s.next_step(), SignInNext::Done);
    assert_eq!(s.access_token(), Some("at-second-1234"));
    // The refresh token was not rotated, so the old one is kept; the old access token is still
    // redacted.
    for secret in [
        "at-first-1234",
        "at-second-1234",
        "rt-first-1234",
        "code-one-1234",
    ] {
        assert!(s.secrets().iter().any(|x| x == secret), "{secret}");
    }
    // A request of the same wave, sent with the first token before the refresh: sent again with
    // the new one, and nothing renewed or noted for it.
    let notes = s.summary().len();
    assert_eq!(
        s.renewal(&probe_a(true), &expired, first),
        Renewal::SendAgain
    );
    assert_eq!(s.summary().len(), notes);
    // Once per run: a second expiry stands, and the summary says both.
    assert_eq!(
        s.renewal(&probe_a(true), &expired, s.token_issue()),
        Renewal::None
    );
    let summary = s.summary().join("\n");
    assert!(summary.contains("probe A got HTTP 401 (error \"invalid_token\"); the token was refreshed once and the request sent again."), "{summary}");
    assert!(
        summary.contains("the token was refreshed once already, so the refusal stands"),
        "{summary}"
    );
    assert!(
        summary.contains("scope \"mcp:tools\""),
        "the granted scope is kept: {summary}"
    );
    for secret in s.secrets() {
        assert!(!summary.contains(&secret), "no secret in the summary");
    }
}

#[test]
fn without_a_refresh_token_or_when_the_refresh_is_refused_the_401_stands() {
    let mut s = signed_in(r#"{"access_token":"at-first-1234","token_type":"Bearer"}"#);
    let expired = refused(401, r#"Bearer error="invalid_token""#);
    assert_eq!(
        s.renewal(&probe_a(true), &expired, s.token_issue()),
        Renewal::None
    );
    assert!(
        s.summary()
            .join(" ")
            .contains("no refresh token was issued, so the refusal stands")
    );

    let mut s = signed_in(
        r#"{"access_token":"at-first-1234","refresh_token":"rt-first-1234","token_type":"Bearer"}"#,
    );
    assert_eq!(
        s.renewal(&probe_a(true), &expired, s.token_issue()),
        Renewal::Refresh
    );
    s.refresh();
    let out = sent(s.next_step());
    let mut no = answer(&out.url, 400, &[], r#"{"error":"invalid_grant"}"#);
    no.request.method = "POST".into();
    s.answer(&no);
    assert!(matches!(s.next_step(), SignInNext::Failed(_)));
    s.abandon("said once");
    let summary = s.summary().join("\n");
    assert!(
        summary.contains("renewing failed: the refresh failed: HTTP 400, error \"invalid_grant\". The refusal stands."),
        "{summary}"
    );
    assert!(
        !summary.contains("said once"),
        "a failure is noted once: {summary}"
    );
    assert_eq!(
        s.renewal(&probe_a(true), &expired, s.token_issue()),
        Renewal::None,
        "failed: no more renewals"
    );
}

#[test]
fn a_403_naming_more_scope_steps_up_once_with_fresh_pkce_and_the_same_redirect() {
    use sha2::{Digest, Sha256};
    let mut s = signed_in(
        r#"{"access_token":"at-first-1234","refresh_token":"rt-first-1234","token_type":"Bearer","scope":"mcp:tools"}"#,
    );
    let before = query_of(&s.authorization_url());
    // What does not call for a step-up: no scope named, or only scope the token holds.
    for (challenge, said) in [
        (r#"Bearer error="insufficient_scope""#, "naming no scope"),
        (
            r#"Bearer error="insufficient_scope", scope="mcp:tools""#,
            "that the token holds",
        ),
    ] {
        assert_eq!(
            s.renewal(&probe_a(true), &refused(403, challenge), s.token_issue()),
            Renewal::None
        );
        assert!(s.summary().join(" ").contains(said), "{:?}", s.summary());
    }
    // A 403 that is not about scope stands without a note.
    assert_eq!(
        s.renewal(&probe_a(true), &refused(403, "Bearer"), s.token_issue()),
        Renewal::None
    );
    let more = refused(
        403,
        r#"Bearer error="insufficient_scope", scope="mcp:call mcp:tools""#,
    );
    assert_eq!(
        s.renewal(&probe_a(true), &more, s.token_issue()),
        Renewal::StepUp("mcp:tools mcp:call".into()),
        "the union, held scopes first"
    );
    s.step_up("mcp:tools mcp:call", [9; SIGN_IN_RANDOM_BYTES]);
    let SignInNext::Open(url) = s.next_step() else {
        panic!("a new authorization")
    };
    let after = query_of(&url);
    let get = |q: &[(String, String)], k: &str| {
        q.iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap()
    };
    assert_eq!(get(&after, "scope"), "mcp%3Atools%20mcp%3Acall");
    assert_eq!(get(&after, "redirect_uri"), get(&before, "redirect_uri"));
    for fresh in ["state", "code_challenge"] {
        assert_ne!(get(&after, fresh), get(&before, fresh), "{fresh}");
    }
    // The old state is refused; the new one is redeemed with the new verifier.
    let old_state = get(&before, "state");
    let mut stale = signed_in(
        r#"{"access_token":"at-first-1234","refresh_token":"rt-first-1234","token_type":"Bearer","scope":"mcp:tools"}"#,
    );
    assert!(matches!(
        stale.renewal(&probe_a(true), &more, stale.token_issue()),
        Renewal::StepUp(_)
    ));
    stale.step_up("mcp:tools mcp:call", [9; SIGN_IN_RANDOM_BYTES]);
    let _ = stale.next_step();
    stale.callback(&format!("/callback?code=x&state={old_state}"));
    assert!(matches!(stale.next_step(), SignInNext::Failed(_)));
    s.callback(&format!(
        "/callback?code=code-two-1234&state={}",
        get(&after, "state")
    ));
    let out = token_answer(
        &mut s,
        r#"{"access_token":"at-wider-1234","refresh_token":"rt-wider-1234","token_type":"Bearer","scope":"mcp:tools mcp:call"}"#,
    );
    let form = out.body.unwrap();
    let verifier = form
        .split('&')
        .find_map(|p| p.strip_prefix("code_verifier="))
        .unwrap();
    assert_eq!(
        b64url(&Sha256::digest(verifier.as_bytes())),
        get(&after, "code_challenge")
    );
    assert!(form.contains("code=code-two-1234"));
    assert_eq!(s.access_token(), Some("at-wider-1234"));
    for secret in [
        "at-first-1234",
        "rt-first-1234",
        "code-one-1234",
        "at-wider-1234",
        "rt-wider-1234",
        "code-two-1234",
        verifier,
    ] {
        assert!(s.secrets().iter().any(|x| x == secret), "{secret}");
    }
    // Once per run.
    let even_more = refused(403, r#"Bearer error="insufficient_scope", scope="admin""#);
    assert_eq!(
        s.renewal(&probe_a(true), &even_more, s.token_issue()),
        Renewal::None
    );
    let summary = s.summary().join("\n");
    assert!(
        summary.contains("signed in again once with scope \"mcp:tools mcp:call\" (step-up)"),
        "{summary}"
    );
    assert!(
        summary.contains("one step-up per run was made already"),
        "{summary}"
    );
    assert!(
        summary.contains("scope \"mcp:tools mcp:call\""),
        "{summary}"
    );
}

fn form() -> ReturnTo {
    ReturnTo {
        endpoint: MCP.into(),
        era: "2025-11-25".into(),
        run_seconds: "60".into(),
    }
}

/// The value of `key` in a form or query text.
fn param(text: &str, key: &str) -> String {
    text.split(['?', '&'])
        .find_map(|p| p.strip_prefix(&format!("{key}=")))
        .unwrap()
        .to_string()
}

#[test]
fn a_page_leaves_with_one_record_and_comes_back_to_the_same_sign_in() {
    use sha2::{Digest, Sha256};
    let mut s = signing_in_as(
        "2025-11-25",
        |_| {},
        |i| {
            i.client_id = Some("c-1".into());
            i.redirect_uri = "http://127.0.0.1:8080/app/".into();
        },
    )
    .unwrap();
    let SignInNext::Open(url) = s.next_step() else {
        panic!("a URL to open")
    };
    let record = s.round_trip(&form(), 1_000.0).unwrap();
    // What it holds: the round trip's values and the form's, and nothing else.
    let doc: Value = serde_json::from_str(&record).unwrap();
    let mut keys: Vec<&str> = doc
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "client_from",
            "client_id",
            "form",
            "format",
            "iss_supported",
            "issuer",
            "redirect_uri",
            "resource",
            "revision",
            "scope",
            "state",
            "token_endpoint",
            "verifier",
            "written_ms"
        ]
    );
    // Back, a minute later: the callback to the page's own path, then the token request with the
    // verifier whose S256 the authorization URL carried.
    let (mut back, returned) = SignIn::resume(&record, 61_000.0).unwrap();
    assert_eq!(returned, form());
    assert!(
        matches!(back.next_step(), SignInNext::Failed(_)),
        "nothing to open once back"
    );
    back.callback(&format!(
        "/app/?code=code-page-1234&state={}",
        param(&url, "state")
    ));
    let out = sent(back.next_step());
    assert_eq!(out.url, "http://localhost:3001/token");
    let form_sent = out.body.unwrap();
    assert_eq!(
        b64url(&Sha256::digest(
            param(&form_sent, "code_verifier").as_bytes()
        )),
        param(&url, "code_challenge")
    );
    for part in [
        "code=code-page-1234",
        "client_id=c-1",
        "redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fapp%2F",
        "resource=http%3A%2F%2Flocalhost%3A3000%2Fmcp",
    ] {
        assert!(form_sent.contains(part), "{part} in {form_sent}");
    }
    let mut ok = answer(
        &out.url,
        200,
        &[],
        r#"{"access_token":"at-page-1234","token_type":"Bearer"}"#,
    );
    ok.request.method = "POST".into();
    back.answer(&ok);
    assert_eq!(back.access_token(), Some("at-page-1234"));
    assert!(
        back.summary()[0].contains("given by you"),
        "{:?}",
        back.summary()
    );
}

#[test]
fn a_record_that_is_stale_altered_or_unreadable_is_refused() {
    let mut s = signing_in("2025-11-25", |_| {}, Some("c-1")).unwrap();
    assert!(
        s.round_trip(&form(), 0.0).is_ok(),
        "waiting to open the URL is leaving time"
    );
    let _ = s.next_step();
    let record = s.round_trip(&form(), 1_000.0).unwrap();
    let max = ROUND_TRIP_MAX_AGE_SECONDS as f64 * 1000.0;
    assert!(
        SignIn::resume(&record, 1_000.0 + max).is_ok(),
        "at the limit"
    );
    let edited = |edit: &dyn Fn(&mut Value)| {
        let mut doc: Value = serde_json::from_str(&record).unwrap();
        edit(&mut doc);
        doc.to_string()
    };
    for (text, now, said) in [
        (record.clone(), 1_001.0 + max, "longer than 10 minutes"),
        (record.clone(), 999.0, "longer than 10 minutes"),
        (
            record[..record.len() / 2].to_string(),
            2_000.0,
            "unreadable",
        ),
        ("x".repeat(40_000), 2_000.0, "too large"),
        (
            edited(&|d| d["format"] = json!("mcp-triage-signin/2")),
            2_000.0,
            "another format",
        ),
        (edited(&|d| d["extra"] = json!(1)), 2_000.0, "unreadable"),
        (
            edited(&|d| d["token_endpoint"] = json!("https://elsewhere.example/token")),
            2_000.0,
            "not on the issuer's origin",
        ),
        (
            edited(&|d| d["token_endpoint"] = json!("javascript:alert(1)")),
            2_000.0,
            "may not be sent to",
        ),
        (
            edited(&|d| d["verifier"] = json!("short")),
            2_000.0,
            "verifier",
        ),
        (edited(&|d| d["state"] = json!("")), 2_000.0, "empty"),
        (
            edited(&|d| d["client_from"] = json!("stolen")),
            2_000.0,
            "no known kind",
        ),
    ] {
        match SignIn::resume(&text, now) {
            Err(why) => assert!(
                why.contains(said) && why.contains("start the sign-in again") || why.contains(said),
                "{said}: {why}"
            ),
            Ok(_) => panic!("{said}: accepted"),
        }
    }
    // A sign-in that is not waiting on the browser has nothing to leave for.
    let registering = signing_in("2025-11-25", |_| {}, None).unwrap();
    assert!(registering.round_trip(&form(), 0.0).is_err());
}

#[test]
fn a_page_uses_its_metadata_document_only_where_it_is_accepted_and_names_the_page() {
    let page = "https://triage.example/app/";
    let doc_url = "https://triage.example/app/client-metadata.json";
    let doc = |redirect: &str| {
        json!({
            "client_id": doc_url,
            "client_name": "MCP Triage",
            "redirect_uris": [redirect],
            "token_endpoint_auth_method": "none",
        })
        .to_string()
    };
    let accepts = |d: &mut Value| d["client_id_metadata_document_supported"] = json!(true);
    let with = |edit: &dyn Fn(&mut Value), document: Option<String>| {
        signing_in_as("2025-11-25", edit, |i| {
            i.redirect_uri = page.into();
            i.metadata_document = document.map(|t| (doc_url.to_string(), t));
        })
        .unwrap()
    };
    // Accepted and naming the page: its URL is the client id, no registration.
    let mut s = with(&accepts, Some(doc(page)));
    let SignInNext::Open(url) = s.next_step() else {
        panic!("straight to the authorization URL")
    };
    assert_eq!(
        param(&url, "client_id"),
        "https%3A%2F%2Ftriage.example%2Fapp%2Fclient-metadata.json"
    );
    // Not naming the page, or not accepted: dynamic registration, as a web client from https.
    for (s, note) in [
        (
            with(&accepts, Some(doc("https://other.example/"))),
            Some("do not name this page"),
        ),
        (with(&|_| {}, Some(doc(page))), None),
        (
            with(&accepts, None),
            Some("this build of the page has none"),
        ),
    ] {
        let mut s = s;
        let reg = sent(s.next_step());
        let body: Value = serde_json::from_str(reg.body.as_deref().unwrap()).unwrap();
        assert_eq!(body["application_type"], "web");
        if let Some(note) = note {
            assert!(s.summary().join(" ").contains(note), "{:?}", s.summary());
        }
    }
}

#[test]
fn a_refusal_on_the_callback_is_shown_as_text_only_after_its_issuer_is_checked() {
    let iss_supported =
        |d: &mut Value| d["authorization_response_iss_parameter_supported"] = json!(true);
    for (era, query, said) in [
        (
            "2025-11-25",
            "error=access_denied&error_description=No%20thanks&error_uri=javascript%3Aalert(1)",
            "error \"access_denied\" (\"No thanks\"), see \"javascript:alert(1)\"",
        ),
        (
            "2025-11-25",
            "error=access_denied&iss=http%3A%2F%2Fevil.example",
            "is not the expected issuer",
        ),
        ("2026-07-28", "error=access_denied", "the callback has none"),
    ] {
        let mut s = signing_in(era, iss_supported, Some("c-1")).unwrap();
        let state = state_of(s.next_step());
        s.callback(&format!("/callback?{query}&state={state}"));
        let SignInNext::Failed(why) = s.next_step() else {
            panic!("refused")
        };
        assert!(why.contains(said), "{era} {query}: {why}");
    }
}
