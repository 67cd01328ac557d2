//! A long fuzz run of the share-link decoder on stable Rust (no nightly here for cargo-fuzz):
//! `cargo run --release -p mcp-triage --example fuzz_share -- 10000000`. Prints executions and
//! crashes; a crash is a panic, caught and counted with its input.

use std::panic;

use mcp_triage::share;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // Seeds: real fragments of growing payloads.
    let mut corpus = Vec::new();
    for size in [0usize, 1, 10, 100, 1000] {
        let json = format!(
            "{{\"v\":1,\"tool\":\"t\",\"date\":\"d\",\"endpoint\":\"e\",\"version\":null,\"server\":null,\"score\":null,\"finding\":\"{}\",\"rows\":[],\"notes\":[]}}",
            "x".repeat(size)
        );
        let packed = miniz_oxide_like(&json);
        corpus.push(packed);
    }
    let mut crashes = 0u64;
    panic::set_hook(Box::new(|_| {}));
    for i in 0..n {
        let base = &corpus[(i % corpus.len() as u64) as usize];
        let mut bytes = base.clone().into_bytes();
        for _ in 0..(1 + next() % 4) {
            if bytes.is_empty() {
                break;
            }
            let at = (next() as usize) % bytes.len();
            match next() % 3 {
                0 => bytes[at] = alphabet[(next() % 64) as usize],
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, alphabet[(next() % 64) as usize]),
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if panic::catch_unwind(|| share::decode(&text)).is_err() {
            crashes += 1;
            eprintln!("crash on input: {text}");
        }
    }
    println!("executions: {n}, crashes: {crashes}");
}

fn miniz_oxide_like(json: &str) -> String {
    // Build a valid fragment through the public encoder path.
    let payload: share::Share = serde_json::from_str(json).unwrap_or_else(|_| share::Share {
        v: 1,
        tool: String::new(),
        date: String::new(),
        endpoint: String::new(),
        version: None,
        server: None,
        score: None,
        pairs: None,
        finding: String::new(),
        rows: vec![],
        notes: vec![],
        ended: None,
        auth: None,
        browser: None,
        compare: None,
    });
    share::encode(&payload)
}
