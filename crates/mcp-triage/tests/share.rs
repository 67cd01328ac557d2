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

#[test]
fn decoder_fuzz_smoke() {
    let mut rng = Rng(99);
    let valid = share::encode(&generated(&mut rng));
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=.#r";
    for i in 0..6_000 {
        let mut bytes = valid.clone().into_bytes();
        match i % 4 {
            0 => {
                let at = (rng.next() as usize) % bytes.len();
                bytes[at] = alphabet[(rng.next() as usize) % alphabet.len()];
            }
            1 => bytes.truncate((rng.next() as usize) % bytes.len()),
            2 => {
                let n = (rng.next() % 300) as usize;
                bytes = b"r=v1.".to_vec();
                bytes.extend((0..n).map(|_| alphabet[(rng.next() as usize) % 64]));
            }
            _ => {
                let at = (rng.next() as usize) % bytes.len();
                bytes.insert(at, alphabet[(rng.next() as usize) % alphabet.len()]);
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = share::decode(&text);
    }
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
    assert_eq!(empty.id, mcp_triage::problem::ProblemId::PasteEmpty);
    assert_eq!(empty.message, "Nothing to classify.");
    let raw =
        mcp_triage::testing::exchanges_of_paste("HTTP/1.1 405 Method Not Allowed\r\n\r\n", "")
            .unwrap();
    assert_eq!(raw.len(), 1);
    assert_eq!(raw[0].response.as_ref().unwrap().status, 405);
    assert!(mcp_triage::testing::exchanges_of_paste("{not json", "").is_err());
}
