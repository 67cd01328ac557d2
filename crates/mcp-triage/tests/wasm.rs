//! The classifier in headless Chromium: embedded public captures against the expectations table.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![cfg(target_arch = "wasm32")]

mod embedded;

use include_dir::{Dir, include_dir};
use mcp_triage::{Exchange, Options, classify};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

const TABLE: &str = include_str!("expectations.tsv");

static PUBLIC: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../fixtures/exchanges");

/// Channel, causes, decided_by and the deciding rule of a row.
type Row = (&'static str, Vec<&'static str>, &'static str, &'static str);

fn expectation(file: &str) -> Option<Row> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|cols| cols.first() == Some(&file))
        .map(|cols| (cols[1], cols[2].split('|').collect(), cols[3], cols[4]))
}

#[wasm_bindgen_test]
fn embedded_captures_match_the_table() {
    let captures = embedded::captures(&PUBLIC);
    // Every public capture, and a row for each: the table and the folder agree.
    let rows = TABLE.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(
        (captures.len(), rows),
        (912, 912),
        "captures and table rows"
    );
    for (file, text) in captures {
        let ex = Exchange::from_json(text.as_bytes()).unwrap();
        let v = classify(&ex, &Options::default());
        let (channel, causes, decided_by, rule) =
            expectation(file).unwrap_or_else(|| panic!("{file}: no row"));
        assert_eq!(v.channel.as_str(), channel, "{file}");
        assert_eq!(v.decided_by.as_str(), decided_by, "{file}");
        assert_eq!(v.deciding_rule().unwrap_or("-"), rule, "{file}");
        assert!(
            causes.contains(&v.cause.as_str()),
            "{file}: {} not in {causes:?}",
            v.cause
        );
    }
}

#[wasm_bindgen_test]
fn seed_probes_in_the_browser() {
    let find = |name: &str| {
        embedded::captures(&PUBLIC)
            .into_iter()
            .find(|(f, _)| *f == name)
            .map(|(_, t)| {
                classify(
                    &Exchange::from_json(t.as_bytes()).unwrap(),
                    &Options::default(),
                )
            })
            .unwrap()
    };
    let a = find("ts-1.29.0-stateless/A_unknown_tool.pv2025-06-18.json");
    let b = find("ts-1.29.0-stateless/B_missing_required_arg.pv2025-06-18.json");
    let c = find("ts-1.29.0-stateless/C_tool_throws.pv2025-06-18.json");
    assert_eq!(
        (a.channel.as_str(), a.cause.as_str()),
        ("tool_error", "unknown_tool")
    );
    assert_eq!(
        (b.channel.as_str(), b.cause.as_str()),
        ("tool_error", "invalid_arguments")
    );
    assert_eq!(
        (c.channel.as_str(), c.cause.as_str()),
        ("tool_error", "tool_execution")
    );
}

#[wasm_bindgen_test]
fn garbage_never_panics_in_the_browser() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = (seed % 200) as usize;
        const ALPHABET: &[u8] = b"{}[]\":,data: event\n\r\\u0 1-32602isError";
        let body: String = (0..len)
            .map(|i| char::from(ALPHABET[(seed as usize + i * 7) % ALPHABET.len()]))
            .collect();
        let doc = serde_json::json!({
            "format": "mcp-exchange/1", "vantage": "browser",
            "request": {"method": "POST", "url": "https://x/mcp", "headers": [], "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}"},
            "response": {"status": 100 + (seed % 500) as u16, "headers": [["content-type", if seed.is_multiple_of(2) { "text/event-stream" } else { "application/json" }]], "body": body}
        });
        let ex = Exchange::from_json(doc.to_string().as_bytes()).unwrap();
        let _ = classify(&ex, &Options::default());
    }
}
