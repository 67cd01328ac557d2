//! Share links: decode(encode(r)) == fit(redact(r)) over generated payloads; a bounded fuzz smoke run
//! of the decoder (the long run is `cargo run --release --example fuzz_share`).

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_triage::redact::Secrets;
use mcp_triage::share::{self, Share, ShareRow};
use mcp_triage::testing::encodings;

mod common;

use common::Rng;

trait Text {
    fn text(&mut self, max: usize, secret: &str) -> String;
}

impl Text for Rng {
    fn text(&mut self, max: usize, secret: &str) -> String {
        let len = (self.next() % max as u64) as usize;
        let mut s: String = (0..len)
            .map(|_| char::from_u32(0x20 + (self.next() % 0x2000) as u32).unwrap_or('x'))
            .collect();
        if self.next().is_multiple_of(3) {
            // The secret in one of the forms a server might echo it in (not behind `Bearer`,
            // which the generic pattern would catch anyway).
            let forms = encodings(secret);
            let form = &forms[(self.next() % forms.len() as u64) as usize];
            s.push_str(&format!(" {form} "));
        }
        s.chars().take(max).collect()
    }
}

const SECRET: &str = r#"mcptriage+SENTINEL/qwe"rtyuiop\asdfghjklzxcvbnmQWERTY"#;

fn generated(rng: &mut Rng) -> Share {
    let rows = (0..(rng.next() % 9) as usize)
        .map(|i| ShareRow {
            step: ["A", "B", "C", "D", "no_token", "get"][i % 6].into(),
            tool: Some(rng.text(100, SECRET)),
            status: Some(200),
            channel: "tool_error".into(),
            cause: "tool_execution".into(),
            code: Some(-32602),
            decided_by: "text".into(),
            evidence: vec![(rng.text(200, SECRET), Some(rng.text(100, SECRET)))],
            action: "give_text_to_model".into(),
            flags: vec!["message_withheld".into()],
            spec: None,
            excerpt: Some(rng.text(1000, SECRET)),
            skipped: None,
            shape: None,
            stopped: None,
            server: Some((false, vec!["tool_execution".into()])),
        })
        .collect();
    Share {
        v: share::VERSION,
        tool: "0.1.0".into(),
        date: "2026-12-02".into(),
        endpoint: "https://mcp.example.com".into(),
        version: Some("2025-06-18".into()),
        server: Some((rng.text(100, SECRET), "1".into())),
        score: Some((rng.next() % 4) as u8),
        pairs: Some(3),
        finding: rng.text(400, SECRET),
        rows,
        notes: vec![rng.text(200, SECRET)],
        ended: Some("complete".into()),
        auth: Some((
            "2025-11-25".into(),
            vec![(
                "as_oauth".into(),
                rng.text(200, SECRET),
                vec![(
                    "as_issuer_matches".into(),
                    "deviates".into(),
                    rng.text(400, SECRET),
                )],
            )],
        )),
        browser: Some((
            rng.text(400, SECRET),
            vec![(
                "registration".into(),
                "no_allow_origin".into(),
                rng.text(400, SECRET),
            )],
        )),
        compare: None,
    }
}

/// Windows of 8 characters of any form of the secret found in `text`.
fn leaked(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for form in encodings(SECRET) {
        for w in 0..form.len().saturating_sub(7) {
            if text.contains(&form[w..w + 8]) {
                found.push(form[w..w + 8].to_string());
            }
        }
    }
    found
}

#[test]
fn decode_of_encode_is_fit_of_redact_and_carries_no_secret() {
    decode_of_encode_is_fit_of_redact(true);
}

#[test]
fn control_without_redaction_the_same_payloads_leak() {
    // The check above must be able to fail: with redaction off it flags the very same payloads.
    assert!(decode_of_encode_is_fit_of_redact(false) > 20);
}

/// Returns how many payloads leaked (always 0 when `redaction` is on, or the test fails).
fn decode_of_encode_is_fit_of_redact(redaction: bool) -> usize {
    let secrets = if redaction {
        Secrets::new([SECRET])
    } else {
        Secrets::default()
    };
    let mut leaks = 0;
    let mut rng = Rng(7);
    for _ in 0..120 {
        let p = generated(&mut rng);
        let expected = share::fit(&share::redact_payload(&p, &secrets), 60);
        match expected {
            Ok(fitted) => {
                let frag = share::encode(&fitted);
                assert!(frag.len() + 61 <= share::MAX_LINK);
                let back = share::decode(&frag).unwrap();
                assert_eq!(back, fitted);
                let json = serde_json::to_string(&back).unwrap();
                let found = [leaked(&json), leaked(&frag)].concat();
                if redaction {
                    assert!(found.is_empty(), "leaked: {found:?}");
                } else if !found.is_empty() {
                    leaks += 1;
                }
            }
            Err(e) => assert_eq!(e, share::ShareError::TooLargeToShare),
        }
    }
    leaks
}

#[test]
fn payloads_that_already_fit_round_trip_exactly() {
    let mut rng = Rng(11);
    let p = Share {
        rows: vec![],
        ..generated(&mut rng)
    };
    let p = share::redact_payload(&p, &Secrets::default());
    assert_eq!(share::fit(&p, 60).unwrap(), p);
    assert_eq!(share::decode(&share::encode(&p)).unwrap(), p);
}

/// The schema's caps (characters), written here apart from the decoder's own: the properties must
/// not share code with what they check.
const SHORT: usize = 32;
const NAME: usize = 128;
const LINE: usize = 256;
const TEXT: usize = 512;
const EXCERPT: usize = 1024;
const ENDPOINT: usize = 512;
const ITEMS: usize = 8;

/// What an opened link may hold: the current version, every string and list within its cap.
fn broken_caps(p: &Share) -> Vec<&'static str> {
    let within = |s: &str, max: usize| s.chars().count() <= max;
    let mut bad = Vec::new();
    let mut need = |ok: bool, what: &'static str| {
        if !ok {
            bad.push(what);
        }
    };
    need(p.v == share::VERSION, "version");
    need(
        within(&p.tool, SHORT) && within(&p.date, SHORT),
        "tool or date",
    );
    need(within(&p.endpoint, ENDPOINT), "endpoint");
    need(within(&p.finding, TEXT), "finding");
    need(p.score.is_none_or(|s| s <= 3), "score");
    need(
        p.notes.len() <= ITEMS && p.notes.iter().all(|n| within(n, LINE)),
        "notes",
    );
    need(p.rows.len() <= 2 * ITEMS, "rows");
    for row in &p.rows {
        need(row.tool.as_deref().is_none_or(|t| within(t, NAME)), "tool");
        need(
            row.evidence.len() <= ITEMS
                && row
                    .evidence
                    .iter()
                    .all(|(f, m)| within(f, LINE) && m.as_deref().is_none_or(|m| within(m, NAME))),
            "evidence",
        );
        need(row.flags.len() <= ITEMS, "flags");
        need(
            row.excerpt.as_deref().is_none_or(|e| within(e, EXCERPT)),
            "excerpt",
        );
    }
    bad
}

/// Links to open: generated payloads (a third with a finding over its cap, as a crafted link
/// would carry), each whole or mutated (a character changed, inserted, or the link cut).
/// Returns how many opened and how many of those broke a property; panics (failing the test) when
/// the decoder does.
fn fuzz_decoder(cases: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=.#r";
    let (mut opened, mut broken) = (0, 0);
    for i in 0..cases {
        let g = generated(&mut rng);
        let mut p = share::fit(&g, 0).unwrap_or(g);
        if i % 3 == 0 {
            p.finding = "x".repeat(TEXT + 1 + (rng.next() % 100) as usize);
        }
        let mut bytes = share::encode(&p).into_bytes();
        match i % 5 {
            0 | 1 => {}
            2 => {
                let at = (rng.next() as usize) % bytes.len();
                bytes[at] = alphabet[(rng.next() as usize) % alphabet.len()];
            }
            3 => bytes.truncate((rng.next() as usize) % bytes.len()),
            _ => {
                let at = (rng.next() as usize) % bytes.len();
                bytes.insert(at, alphabet[(rng.next() as usize) % alphabet.len()]);
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(got) = share::decode(&text) {
            opened += 1;
            let bad = broken_caps(&got);
            // What opens, opens again the same from its own link.
            let again = share::decode(&share::encode(&got));
            if !bad.is_empty() || again.as_ref() != Ok(&got) {
                broken += 1;
            }
        }
    }
    (opened, broken)
}

#[test]
fn decoder_fuzz_opens_only_links_within_the_caps_of_the_current_version() {
    let (opened, broken) = fuzz_decoder(600, 99);
    assert_eq!(
        broken, 0,
        "{broken} of {opened} opened links break a property"
    );
    assert!(
        opened > 100,
        "only {opened} links opened: the fuzz reaches little"
    );
}

#[test]
fn control_a_decoder_with_one_check_broken_fails_the_fuzz_properties() {
    let (opened, broken) =
        mcp_triage::testing::with_share_finding_cap_broken(|| fuzz_decoder(600, 99));
    assert!(
        broken > 40,
        "the finding's cap switched off: only {broken} of {opened} opened links were caught"
    );
}

#[test]
fn make_link_builds_redacts_fits_and_shows_exactly_what_the_link_opens_to() {
    let report = mcp_triage::engine::RunReport::from_exchanges(
        "https://mcp.example.com/mcp/secretpath",
        mcp_triage::testing::exchanges_of_paste(
            &format!("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer realm=\"{SECRET}\"\r\n\r\n{SECRET}"),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}",
        )
        .unwrap(),
    );
    let ep =
        mcp_triage::endpoint::parse_endpoint("https://mcp.example.com/mcp/secretpath").unwrap();
    let secrets = Secrets::new([SECRET]);
    let base = "https://triage.example/app/";
    let link = share::make_link(&report, &ep, Default::default(), &secrets, "d", "t", base)
        .link
        .unwrap();
    let fragment = link.url.strip_prefix(&format!("{base}#")).unwrap();
    let opened = share::decode(fragment).unwrap();
    assert_eq!(link.shown, serde_json::to_string_pretty(&opened).unwrap());
    assert!(link.url.len() <= share::MAX_LINK);
    assert!(leaked(&link.url).is_empty() && leaked(&link.shown).is_empty());
    assert!(
        !link.shown.contains("secretpath"),
        "the path is hidden by default"
    );
}

#[test]
fn a_paste_is_sniffed_once_in_the_core_and_an_empty_one_is_refused_with_words() {
    let empty = mcp_triage::testing::exchanges_of_paste("  []", "").unwrap_err();
    assert_eq!(
        empty.id,
        mcp_triage::problem::ProblemId::Paste(mcp_triage::problem::PasteProblemId::Empty)
    );
    assert_eq!(empty.message, "Nothing to classify.");
    let raw =
        mcp_triage::testing::exchanges_of_paste("HTTP/1.1 405 Method Not Allowed\r\n\r\n", "")
            .unwrap();
    assert_eq!(raw.len(), 1);
    assert_eq!(raw[0].response.as_ref().unwrap().status, 405);
    assert!(mcp_triage::testing::exchanges_of_paste("{not json", "").is_err());
}
