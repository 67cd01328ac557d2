//! Advice that cannot contradict itself, over every public capture as a card: the server author's
//! advice is nothing to change or changes (one value); "who must act" is never the server author
//! when there is nothing to change; and no offered change moves the answer to a channel the card's
//! own spec rule refuses at its version (a JSON-RPC error frame for bad arguments from 2025-11-25,
//! SEP-1303; for a tool that ran and failed, at every version). The control: with every change
//! offered, the check fires on the seed's probe B.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use mcp_triage::engine::RunReport;
use mcp_triage::exchange::Exchange;
use mcp_triage::testing::{intent_of_capture, with_any_change_offered};
use mcp_triage::view::{Answer, CardView, ServerAdviceView};

/// The sentence of the one change that moves an answer into a JSON-RPC error frame.
const TO_A_FRAME: &str = "Or answer with a JSON-RPC error frame, where clients read the code.";

fn captures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/exchanges");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(root).unwrap().flatten() {
        for f in std::fs::read_dir(dir.path()).unwrap().flatten() {
            if f.path().extension().is_some_and(|e| e == "json") {
                out.push(f.path());
            }
        }
    }
    out.sort();
    out
}

fn card_of(path: &Path) -> CardView {
    let mut ex = Exchange::from_json(&std::fs::read(path).unwrap()).unwrap();
    let name = path.file_name().unwrap().to_string_lossy();
    ex.intent = intent_of_capture(&name).map(str::to_string);
    let report = RunReport::from_exchanges("http://127.0.0.1:9/mcp", vec![ex]);
    CardView::of_record(&report.records[0], &[])
}

/// What is wrong with a card's advice, if anything.
fn contradiction(card: &CardView) -> Option<String> {
    let Answer::Advice(a) = &card.answer else {
        return None;
    };
    let spec = card.spec.as_ref()?;
    let conforms = spec.conformance.id == "conforms";
    let probe = card
        .id
        .strip_prefix("card-")
        .and_then(|p| p.chars().next())
        .unwrap_or(' ');
    let sep1303 = spec.version.as_str() >= "2025-11-25";
    match &a.server {
        Some(ServerAdviceView::Nothing(_))
            if a.party.as_ref().is_some_and(|p| p.id == "server_author") =>
        {
            return Some("nothing to change, yet the server author must act".into());
        }
        Some(ServerAdviceView::Changes(lines)) => {
            if lines.iter().any(|l| l.starts_with("Nothing to change")) {
                return Some("a change that says nothing to change".into());
            }
            let refused = conforms && (probe == 'C' || (probe == 'B' && sep1303));
            if refused && lines.iter().any(|l| l == TO_A_FRAME) {
                return Some(format!("a frame offered for {probe} at {}", spec.version));
            }
        }
        _ => {}
    }
    None
}

#[test]
fn no_card_contradicts_its_own_advice_or_its_spec_verdict() {
    let mut cards = 0;
    let mut bad = Vec::new();
    for path in captures() {
        let card = card_of(&path);
        if matches!(card.answer, Answer::Advice(_)) {
            cards += 1;
        }
        if let Some(why) = contradiction(&card) {
            bad.push(format!("{}: {why}", path.display()));
        }
    }
    assert!(cards > 500, "every public capture with advice: {cards}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_check_fires_when_every_change_is_offered() {
    let seed = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/exchanges/ts-1.29.0-stateless/B2_wrong_arg_type.pv2025-11-25.json");
    assert_eq!(contradiction(&card_of(&seed)), None);
    let broken = with_any_change_offered(|| card_of(&seed));
    assert!(
        contradiction(&broken).is_some_and(|w| w.contains("frame offered for B")),
        "{:?}",
        broken.answer
    );
}
