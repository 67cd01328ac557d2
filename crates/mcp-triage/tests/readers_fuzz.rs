//! Fuzz runs of the plan-file and paste readers that can fail: generated and mutated inputs must be
//! refused with a `Problem` of the reader's own kind (its offset inside the input) or read into
//! something that holds the reader's promises; each has a control that breaks one check of the
//! reader (a test-only switch) and must be caught. The link decoder's run is in `tests/share.rs`.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_triage::plan_file::{self, PLAN_FORMAT, PlanFile};
use mcp_triage::testing::{with_empty_paste_accepted, with_plan_duplicate_probe_allowed};
use serde_json::{Value, json};

mod common;

use common::Rng;

/// A plan file's promises, written here apart from the reader: the current format, each probe
/// once, tool names of 1 to 128 characters without controls, arguments a JSON object at most 16
/// deep.
fn broken_plan(plan: &PlanFile) -> Vec<String> {
    fn depth(v: &Value) -> usize {
        match v {
            Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
            Value::Object(m) => 1 + m.values().map(depth).max().unwrap_or(0),
            _ => 0,
        }
    }
    let mut bad = Vec::new();
    if plan.format != PLAN_FORMAT {
        bad.push(format!("format {:?}", plan.format));
    }
    let mut seen = Vec::new();
    for e in &plan.probes {
        if seen.contains(&e.probe) {
            bad.push(format!("probe {} twice", e.probe));
        }
        seen.push(e.probe);
        if let Some(t) = &e.tool
            && (t.trim().is_empty() || t.chars().count() > 128 || t.chars().any(char::is_control))
        {
            bad.push(format!("tool {t:?}"));
        }
        if let Some(a) = &e.arguments
            && (!a.is_object() || depth(a) > 16)
        {
            bad.push("arguments".into());
        }
    }
    bad
}

fn nested(levels: usize) -> Value {
    (0..levels).fold(json!({}), |v, _| json!({ "a": v }))
}

/// A plan as a hand or a tool might write it, right or wrong in one of the ways the reader checks.
fn generated_plan(rng: &mut Rng) -> String {
    let n = 1 + (rng.next() % 5) as usize;
    let probes: Vec<Value> = (0..n)
        .map(|i| {
            let probe = ["A", "B", "C", "D"][if rng.next().is_multiple_of(8) {
                0
            } else {
                i % 4
            }];
            let mut e = json!({ "probe": probe });
            match rng.next() % 12 {
                0..=4 => e["tool"] = json!("lead_get"),
                5 => e["tool"] = json!(""),
                6 => e["tool"] = json!("x".repeat(120 + (rng.next() % 20) as usize)),
                7 => e["tool"] = json!("a\u{1}b"),
                _ => {}
            }
            match rng.next() % 10 {
                0..=3 => e["arguments"] = json!({ "id": "1" }),
                4 => e["arguments"] = json!([1]),
                5 => e["arguments"] = nested(10 + (rng.next() % 10) as usize),
                _ => {}
            }
            e
        })
        .collect();
    let format = if rng.next().is_multiple_of(8) {
        "mcp-triage-plan/9"
    } else {
        PLAN_FORMAT
    };
    json!({ "format": format, "probes": probes }).to_string()
}

/// Mutates a text: a character changed, one inserted, or the text cut (or left whole).
fn mutated(text: String, rng: &mut Rng) -> String {
    let alphabet = b"{}[]\":,ABCD0123 abcxyz\\";
    let mut bytes = text.into_bytes();
    match rng.next() % 4 {
        0 => {}
        1 => {
            let at = (rng.next() as usize) % bytes.len();
            bytes[at] = alphabet[(rng.next() as usize) % alphabet.len()];
        }
        2 => {
            let at = (rng.next() as usize) % bytes.len();
            bytes.insert(at, alphabet[(rng.next() as usize) % alphabet.len()]);
        }
        _ => bytes.truncate((rng.next() as usize) % bytes.len()),
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Returns how many plans were read and how many of the reader's answers broke a property.
fn fuzz_plans(cases: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let (mut read, mut broken) = (0, 0);
    for _ in 0..cases {
        let text = mutated(generated_plan(&mut rng), &mut rng);
        match plan_file::decode(&text) {
            Ok(plan) => {
                read += 1;
                if !broken_plan(&plan).is_empty() {
                    broken += 1;
                }
            }
            Err(p) => {
                let own = p.id.as_str().starts_with("plan_");
                if !own || p.message.is_empty() || p.offset.is_some_and(|o| o > text.len()) {
                    broken += 1;
                }
            }
        }
    }
    (read, broken)
}

#[test]
fn plan_file_fuzz_reads_only_plans_that_keep_their_promises() {
    let (read, broken) = fuzz_plans(10_000, 7);
    assert_eq!(
        broken, 0,
        "{broken} answers break a property ({read} plans read)"
    );
    assert!(
        read > 500,
        "only {read} plans read: the fuzz reaches little"
    );
}

#[test]
fn control_a_plan_reader_that_lets_a_probe_twice_fails_the_fuzz() {
    let (read, broken) = with_plan_duplicate_probe_allowed(|| fuzz_plans(10_000, 7));
    assert!(
        broken > 50,
        "only {broken} of {read} plans read were caught"
    );
}

/// A paste as people paste: a raw HTTP response, JSON of one capture or a list, or noise.
fn generated_paste(rng: &mut Rng) -> String {
    match rng.next() % 5 {
        0 => "HTTP/1.1 405 Method Not Allowed\r\ncontent-type: text/plain\r\n\r\nno".into(),
        1 => "HTTP/1.1 200 OK\ncontent-type: application/json\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}".into(),
        2 => "[]".into(),
        3 => json!([{ "format": "mcp-exchange/1", "request": { "method": "POST", "url": "https://x.example/mcp", "headers": [] } }]).to_string(),
        _ => "this is not a capture".into(),
    }
}

/// Returns how many pastes were read and how many of the reader's answers broke a property: a
/// paste read is never empty; a refusal is the paste's or a capture's own problem, inside it.
fn fuzz_pastes(cases: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let (mut read, mut broken) = (0, 0);
    for _ in 0..cases {
        let text = mutated(generated_paste(&mut rng), &mut rng);
        match mcp_triage::testing::exchanges_of_paste(&text, "") {
            Ok(list) => {
                read += 1;
                if list.is_empty() {
                    broken += 1;
                }
            }
            Err(p) => {
                let id = p.id.as_str();
                let own = id.starts_with("paste_") || id.starts_with("capture_");
                if !own || p.message.is_empty() || p.offset.is_some_and(|o| o > text.len()) {
                    broken += 1;
                }
            }
        }
    }
    (read, broken)
}

#[test]
fn paste_fuzz_reads_only_pastes_with_something_to_classify() {
    let (read, broken) = fuzz_pastes(2_000, 11);
    assert_eq!(
        broken, 0,
        "{broken} answers break a property ({read} pastes read)"
    );
    assert!(
        read > 200,
        "only {read} pastes read: the fuzz reaches little"
    );
}

#[test]
fn control_a_paste_reader_that_takes_an_empty_paste_fails_the_fuzz() {
    let (read, broken) = with_empty_paste_accepted(|| fuzz_pastes(2_000, 11));
    assert!(
        broken > 20,
        "only {broken} of {read} pastes read were caught"
    );
}
