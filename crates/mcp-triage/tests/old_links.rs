//! Share links already made keep opening: every committed link decodes to exactly the payload it held.
//!
//! `tests/share-links/NAME.link` is a fragment made by the page of its day (a real run, an example, a
//! cancelled run) or, for `v6-replay-…`, by `mcp-triage replay --share` over public captures with
//! answers missing, or, for `v7-stdio-…`, by `mcp-triage probe --stdio --share` against the stdio
//! servers the tests start (a crash in a tool, a hang, the Python SDK), or, for `v8-replay-…`, by
//! `mcp-triage replay --share` over Python `mcp` 2.3.0 captures whose C answer is a bare -32602 (the
//! verdict the probe's intent decides), or, for `v9-probe-…`, by `mcp-triage probe --share` through
//! the fault proxy (`e2e/faults.mjs`, row `reset-sse`) in front of the demo server: probe C's
//! connection reset mid-answer, `connection_lost`, or, for `v10-probe-…`, by `mcp-triage probe
//! --share` against the demo server with a ten-minute tool delay, stopped by SIGTERM while probe C
//! waited (`ended: interrupted`, C and D `interrupted`), or, for `v11-probe-…`, by `mcp-triage probe
//! --auth-check --share` against the TypeScript SDK 1.32.2 OAuth example (`auth`: the doctor's cards
//! and verdicts), or, for `v12-page-…`, by the page's sign-in check against oidc-provider
//! (`e2e/make-share-links.mjs v12 page-signin-oidc`: `browser`, the CORS verdicts, the registration
//! refused to the page), or, for `v13-compare`, by the page's "Compare with…" on a run against
//! the demo's tools on the SDK's low-level server (`--invalid-params-error`) with the demo's baseline
//! file (`e2e/make-share-links.mjs v13 compare`: a `c=` link with both runs), or, for
//! `v14-…`, by the page's Quick check of the demo server (`e2e/make-share-links.mjs v14
//! ts-1.29.0-demo`: each row's `server`, the server author's advice as sentence ids); `NAME.json` beside it is that fragment's payload as inflated by Node's zlib when it
//! was committed (an independent decoder). A later payload version must keep both passing: old versions
//! are migrated into the current structure, and the migrated payload still says what the link said.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use mcp_triage::share;

fn links() -> Vec<(String, String, serde_json::Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/share-links");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "link") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let link = std::fs::read_to_string(&path).unwrap().trim().to_string();
            let json = std::fs::read_to_string(path.with_extension("json")).unwrap();
            out.push((name, link, serde_json::from_str(&json).unwrap()));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn every_committed_link_decodes_to_the_payload_it_was_made_with() {
    let links = links();
    // A run, a second SDK, an example, a cancelled run, and the 2026-07-28 era at least.
    assert!(links.len() >= 5, "only {} committed links", links.len());
    for (name, link, want) in &links {
        let decoded = share::decode(link).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(
            decoded.v,
            share::VERSION,
            "{name}: migrated into the current version"
        );
        let mut got = serde_json::to_value(&decoded).unwrap();
        // Everything but the version number is what the link said (a compared run's too).
        got["v"] = want["v"].clone();
        if want.get("compare").is_some() {
            got["compare"]["v"] = want["compare"]["v"].clone();
        }
        // v4 added `pairs` (how many pairs the score counts): before v4 a score counted all three.
        if want.get("pairs").is_none() {
            let migrated = got.as_object_mut().unwrap().remove("pairs");
            let expected = want["score"].as_u64().map(|_| serde_json::json!(3));
            assert_eq!(migrated, expected, "{name}: pairs migrated from the score");
        }
        // v5 spells `not_applicable` (was `notapplicable`) and gives a skipped probe no advice
        // (was `proceed`): the only changes a migration may make to an older link's rows.
        let mut want = want.clone();
        if want["v"].as_u64().unwrap() < 5 {
            for row in want["rows"].as_array_mut().unwrap() {
                if row["spec"][0] == "notapplicable" {
                    row["spec"][0] = "not_applicable".into();
                }
                if !row["skipped"].is_null() {
                    row["action"] = share::NO_ACTION.into();
                }
            }
        }
        assert_eq!(got, want, "{name}: the link no longer says what it said");
    }
}

#[test]
fn committed_links_reencode_to_the_same_payload() {
    // What the current encoder makes of an old payload opens to the same payload again.
    for (name, link, _) in links() {
        let decoded = share::decode(&link).unwrap();
        let again = share::decode(&share::encode(&decoded)).unwrap();
        assert_eq!(again, decoded, "{name}");
    }
}

#[test]
fn every_committed_link_renders_through_the_views_with_every_identifier_in_words() {
    // The share view renders `ReportView::of_share`: each row's card must carry what its row said,
    // each identifier as its table's words (an identifier no table knows would show as it came,
    // underscores and all), and a spec verdict or advice wherever the row had one.
    use mcp_triage::view::{Answer, ReportView};
    let links = links();
    let mut cards = 0;
    for (name, link, _) in &links {
        let payload = share::decode(link).unwrap();
        let view = ReportView::of_share(&payload);
        assert_eq!(view.summary.headline, payload.finding, "{name}");
        let shown: Vec<_> = view.cards().collect();
        assert_eq!(shown.len(), payload.rows.len(), "{name}: a card per row");
        for row in &payload.rows {
            let card = shown
                .iter()
                .find(|c| c.id == format!("card-{}", row.step.replace('_', "-")))
                .unwrap_or_else(|| panic!("{name}: no card for row {}", row.step));
            cards += 1;
            if row.skipped.is_some() {
                assert!(
                    matches!(card.answer, Answer::Skipped { .. }),
                    "{name} {}",
                    row.step
                );
                continue;
            }
            for (what, badge, id) in [
                ("channel", &card.channel, &row.channel),
                ("cause", &card.cause, &row.cause),
                ("decided by", &card.decided_by, &row.decided_by),
            ] {
                let b = badge
                    .as_ref()
                    .unwrap_or_else(|| panic!("{name}: no {what}"));
                assert_eq!(&b.id, id, "{name}: {what}");
                assert_eq!(b.label, id.replace('_', " "), "{name}: {what} in words");
            }
            assert_eq!(
                card.spec.is_some(),
                row.spec.is_some(),
                "{name} {}",
                row.step
            );
            match (&card.answer, row.stopped.is_some(), row.action.as_str()) {
                (Answer::NotAnswered(why), true, _) => assert!(!why.is_empty()),
                (Answer::Nothing, false, share::NO_ACTION) => {}
                (Answer::Advice(a), false, action) => assert_eq!(a.action.id, action, "{name}"),
                (other, ..) => panic!("{name} {}: {other:?} for {row:?}", row.step),
            }
        }
    }
    assert!(cards > 100, "only {cards} cards from {} links", links.len());
}

#[test]
fn a_links_oauth_doctor_verdicts_render_through_the_views() {
    // v11 links carry the doctor's cards: each becomes a card with every verdict in words.
    use mcp_triage::view::AuthView;
    let mut seen = 0;
    let mut browser_verdicts = 0;
    for (name, link, _) in links() {
        let payload = share::decode(&link).unwrap();
        let Some(auth) = &payload.auth else { continue };
        let view = AuthView::of_share(auth, payload.browser.as_ref());
        assert_eq!(view.cards.len(), auth.1.len(), "{name}");
        // v12: the page's CORS verdicts on their cards, and what a browser client meets.
        if let Some((conclusion, verdicts)) = &payload.browser {
            assert_eq!(&view.browser, conclusion, "{name}");
            for (step, access, _) in verdicts {
                let card = view
                    .cards
                    .iter()
                    .find(|c| c.id == format!("card-auth-{}", step.replace('_', "-")))
                    .unwrap();
                assert_eq!(
                    card.browser.as_ref().map(|b| &b.access.id),
                    Some(access),
                    "{name}: {step}"
                );
            }
            browser_verdicts += verdicts.len();
        }
        for (card, (step, outcome, findings)) in view.cards.iter().zip(&auth.1) {
            assert_eq!(
                card.id,
                format!("card-auth-{}", step.replace('_', "-")),
                "{name}"
            );
            assert!(card.title.starts_with("Auth · "), "{name}: {step} in words");
            assert_eq!(&card.outcome, outcome, "{name}");
            for (f, (check, conformance, _)) in card.findings.iter().zip(findings) {
                assert_eq!((&f.check.id, &f.conformance.id), (check, conformance));
                assert_eq!(f.check.label, check.replace('_', " "), "{name}");
                seen += 1;
            }
        }
    }
    assert!(seen >= 10, "only {seen} findings in the committed links");
    assert!(
        browser_verdicts >= 5,
        "only {browser_verdicts} CORS verdicts in the committed links"
    );
}
