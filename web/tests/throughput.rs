//! The classifier in wasm over the embedded public captures, with its rate reported for the
//! benchmark (`scripts/bench.mjs` runs it in release mode and quotes the line). What it asserts is
//! that every pass gives the same verdicts as the first (classification is deterministic).

#![cfg(target_arch = "wasm32")]
// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../crates/mcp-triage/tests/embedded/mod.rs"]
mod embedded;

use include_dir::{Dir, include_dir};
use mcp_triage::{Exchange, Options, classify};
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

static PUBLIC: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../fixtures/exchanges");

#[wasm_bindgen_test]
fn every_pass_over_the_embedded_captures_gives_the_same_verdicts_and_the_rate_is_reported() {
    let exchanges: Vec<Exchange> = embedded::captures(&PUBLIC)
        .into_iter()
        .map(|(_, text)| Exchange::from_json(text.as_bytes()).unwrap())
        .collect();
    assert!(exchanges.len() >= 100, "too few embedded captures");
    let perf = web_sys::window().unwrap().performance().unwrap();
    let verdicts = |exs: &[Exchange]| -> Vec<(String, String)> {
        exs.iter()
            .map(|ex| {
                let v = classify(ex, &Options::default());
                (v.channel.to_string(), v.cause.to_string())
            })
            .collect()
    };
    let (start, mut classified, mut passes) = (perf.now(), 0usize, 0usize);
    let first = verdicts(&exchanges);
    // More passes for a steadier rate (the rate is a report, never asserted).
    while passes == 0 || perf.now() - start < 500.0 {
        assert_eq!(verdicts(&exchanges), first, "pass {passes}");
        classified += exchanges.len();
        passes += 1;
    }
    let elapsed = perf.now() - start;
    console_log!(
        "classify throughput in wasm: {:.0} exchanges per second ({classified} exchanges, {passes} passes over {} captures, in {elapsed:.0} ms)",
        classified as f64 * 1000.0 / elapsed,
        exchanges.len()
    );
}
