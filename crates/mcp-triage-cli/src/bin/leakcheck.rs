//! `leakcheck`: the core's leak checker for the browser tests (test support, not shipped to users).
//!
//!   leakcheck sentinels SEED   → {"token": …, "header": …, "path": …}
//!   leakcheck echoes           ← sentinels JSON on stdin → {FORM: {token: {plain, in_json}, …}, …}
//!   leakcheck check            ← {"secrets": {NAME: VALUE}, "channels": {NAME: TEXT}} on stdin
//!                              → {CHANNEL: [secret names found]} (every channel listed)

use std::collections::BTreeMap;
use std::io::Read;
use std::process::ExitCode;

use mcp_triage::testing::leak::{self, FORMS, Sentinels};
use serde_json::{Value, json};

fn stdin_json() -> Result<Value, String> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("stdin is not JSON: {e}"))
}

fn run(args: &[String]) -> Result<Value, String> {
    match args.first().map(String::as_str) {
        Some("sentinels") => {
            let seed = args
                .get(1)
                .and_then(|s| s.parse::<u64>().ok())
                .ok_or("usage: leakcheck sentinels SEED (a number)")?;
            serde_json::to_value(Sentinels::new(seed)).map_err(|e| e.to_string())
        }
        Some("echoes") => {
            let s: Sentinels =
                serde_json::from_value(stdin_json()?).map_err(|e| format!("not sentinels: {e}"))?;
            let mut out = BTreeMap::new();
            for form in FORMS {
                let mut per = BTreeMap::new();
                for (name, secret) in s.named() {
                    per.insert(name, leak::echo(form, secret));
                }
                out.insert(*form, per);
            }
            serde_json::to_value(out).map_err(|e| e.to_string())
        }
        Some("check") => {
            let input = stdin_json()?;
            let secrets = input
                .get("secrets")
                .and_then(Value::as_object)
                .ok_or("check: no \"secrets\" object")?;
            let channels = input
                .get("channels")
                .and_then(Value::as_object)
                .ok_or("check: no \"channels\" object")?;
            let mut out = BTreeMap::new();
            for (channel, text) in channels {
                let text = text.as_str().ok_or("check: a channel is not a string")?;
                let found: Vec<&String> = secrets
                    .iter()
                    .filter(|(_, v)| v.as_str().is_some_and(|s| leak::leaks(text, s)))
                    .map(|(k, _)| k)
                    .collect();
                out.insert(channel.clone(), json!(found));
            }
            serde_json::to_value(out).map_err(|e| e.to_string())
        }
        _ => Err("usage: leakcheck sentinels SEED | echoes | check".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(v) => {
            println!("{v}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("leakcheck: {e}");
            ExitCode::from(2)
        }
    }
}
