//! Benchmark (a report, not a test): exchanges classified per second in release mode over every public
//! fixture, and the cost per byte as bodies grow (it should stay flat: linear in body size).

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use mcp_triage::{Exchange, Options, classify};

fn load(dir: &std::path::Path, out: &mut Vec<Exchange>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let p = entry.path();
        if p.is_dir() {
            load(&p, out);
        } else if p.extension().is_some_and(|x| x == "json")
            && let Ok(ex) = std::fs::read(&p)
                .map_err(|_| ())
                .and_then(|b| Exchange::from_json(&b).map_err(|_| ()))
        {
            out.push(ex);
        }
    }
}

fn main() {
    let dir = std::env::var("MCP_TRIAGE_FIXTURES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/exchanges")
        });
    let mut all = Vec::new();
    load(&dir, &mut all);
    load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        &mut all,
    );
    if all.is_empty() {
        println!("no fixtures found at {}", dir.display());
        return;
    }
    let opts = Options::default();
    let rounds = 200;
    let start = Instant::now();
    let mut checksum = 0usize;
    for _ in 0..rounds {
        for ex in &all {
            checksum += classify(ex, &opts).evidence.len();
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let n = (rounds * all.len()) as f64;
    println!(
        "classified {} exchanges x {rounds} rounds in {secs:.3} s: {:.0} exchanges/s (target >= 100000/s) [checksum {checksum}]",
        all.len(),
        n / secs
    );

    // Linearity: one SSE tool result whose text grows.
    println!("body bytes\tns per exchange\tns per KiB");
    for kib in [1usize, 16, 256, 2048] {
        let text = "x".repeat(kib * 1024);
        let body = format!(
            "event: message\ndata: {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"{text}\"}}],\"isError\":true}}}}\n\n"
        );
        let doc = serde_json::json!({
            "format": "mcp-exchange/1", "vantage": "direct",
            "request": {"method": "POST", "url": "http://x/mcp", "headers": [], "body": "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}"},
            "response": {"status": 200, "headers": [["content-type", "text/event-stream"]], "body": body}
        });
        let Ok(ex) = Exchange::from_json(doc.to_string().as_bytes()) else {
            continue;
        };
        let reps = (4096 / kib).max(4);
        let start = Instant::now();
        for _ in 0..reps {
            checksum += classify(&ex, &opts).evidence.len();
        }
        let ns = start.elapsed().as_nanos() as f64 / reps as f64;
        println!(
            "{}\t{ns:.0}\t{:.0}",
            body.len(),
            ns / (body.len() as f64 / 1024.0)
        );
    }
    println!("[checksum {checksum}]");
}
