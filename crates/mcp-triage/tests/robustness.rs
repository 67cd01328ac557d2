//! Classification never panics: arbitrary bytes, statuses, headers and request bodies, plus mutations
//! of real captures (a deterministic generator, so failures reproduce).

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_triage::exchange::{BodyEnd, Request, Response, Vantage};
use mcp_triage::{Exchange, Options, classify};

mod common;

use common::Rng;

trait Bytes {
    fn bytes(&mut self, max: usize, alphabet: &[u8]) -> Vec<u8>;
}

impl Bytes for Rng {
    fn bytes(&mut self, max: usize, alphabet: &[u8]) -> Vec<u8> {
        let len = self.below(max);
        (0..len)
            .map(|_| {
                if self.below(10) == 0 {
                    self.next() as u8
                } else {
                    alphabet[self.below(alphabet.len())]
                }
            })
            .collect()
    }
}

const ALPHABET: &[u8] = b"{}[]\":,.0123456789-+eEtrufalsn \n\r\\udata:event:id:jsonrpc2.0resulterrorcodemessageisErrorcontenttext";

fn base64(bytes: &[u8]) -> String {
    const T: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        s.push(T[(n >> 18) as usize & 63] as char);
        s.push(T[(n >> 12) as usize & 63] as char);
        s.push(if c.len() > 1 {
            T[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        s.push(if c.len() > 2 {
            T[n as usize & 63] as char
        } else {
            '='
        });
    }
    s
}

fn random_exchange(rng: &mut Rng, seeds: &[Exchange]) -> Exchange {
    let mut ex = if !seeds.is_empty() && rng.below(2) == 0 {
        seeds[rng.below(seeds.len())].clone()
    } else {
        Exchange::sent(
            Vantage::Direct,
            Request {
                method: ["POST", "GET", "DELETE", "OPTIONS", "PATCH"][rng.below(5)].into(),
                url: "http://127.0.0.1/mcp".into(),
                headers: vec![],
                body: Some(String::from_utf8_lossy(&rng.bytes(200, ALPHABET)).into_owned()),
            },
        )
    };
    let body = rng.bytes(600, ALPHABET);
    let statuses = [
        0u16, 100, 200, 202, 204, 301, 400, 401, 403, 404, 405, 406, 415, 429, 500, 503, 999,
    ];
    let mut headers = vec![];
    for _ in 0..rng.below(4) {
        let name = [
            "content-type",
            "www-authenticate",
            "mcp-session-id",
            "location",
            "x",
        ][rng.below(5)];
        headers.push((
            name.to_string(),
            String::from_utf8_lossy(&rng.bytes(80, ALPHABET)).into_owned(),
        ));
    }
    if let Some(resp) = ex.response.as_mut().filter(|_| rng.below(3) == 0) {
        // Mutate a real body: cut it, or flip bytes.
        let mut b = resp.body.clone().unwrap_or_default().into_bytes();
        if !b.is_empty() {
            let cut = rng.below(b.len());
            match rng.below(3) {
                0 => b.truncate(cut),
                1 => b[cut] = rng.next() as u8,
                _ => b.splice(cut..cut, body.iter().copied()).for_each(drop),
            }
        }
        resp.body_base64 = Some(base64(&b));
        resp.body = Some(String::from_utf8_lossy(&b).into_owned());
    } else if rng.below(8) != 0 {
        ex.response = Some(Response {
            status: statuses[rng.below(statuses.len())],
            headers,
            body: Some(String::from_utf8_lossy(&body).into_owned()),
            body_complete: Some(rng.below(2) == 0),
            body_end: [
                None,
                Some(BodyEnd::Complete),
                Some(BodyEnd::SizeCap),
                Some(BodyEnd::Deadline),
            ][rng.below(4)],
            body_base64: (rng.below(4) == 0).then(|| base64(&body)),
        });
    } else {
        ex.response = None;
    }
    if rng.below(5) == 0 {
        ex.negotiated_version = Some("2025-03-26".into());
    }
    if rng.below(6) == 0 {
        // A stdio exchange: arbitrary lines (the body's, split), any ending, any exit.
        ex.transport = Some(mcp_triage::exchange::Transport::Stdio);
        ex.response = None;
        let text = String::from_utf8_lossy(&body).into_owned();
        ex.stdio = Some(mcp_triage::exchange::StdioCapture {
            lines: text.split(['\n', '}']).map(str::to_string).collect(),
            lines_cut: rng.below(2) as u32,
            end: [None, Some(BodyEnd::Complete), Some(BodyEnd::SizeCap)][rng.below(3)],
            exit: (rng.below(2) == 0).then_some(mcp_triage::exchange::ProcessExit {
                code: Some(rng.below(3) as i32),
                signal: None,
            }),
            stderr_tail: Some(String::from_utf8_lossy(&rng.bytes(60, ALPHABET)).into_owned()),
        });
    }
    ex
}

#[test]
fn classification_never_panics_on_arbitrary_input() {
    // The seed's stack at one protocol version: its 29 captures are the seeds.
    let dir = common::public_fixtures_dir().join("ts-1.29.0-stateless");
    let seeds: Vec<Exchange> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .ends_with(".pv2025-06-18.json")
                })
                .filter_map(|e| std::fs::read(e.path()).ok())
                .filter_map(|b| Exchange::from_json(&b).ok())
                .collect()
        })
        .unwrap_or_default();
    assert!(!seeds.is_empty());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut channels = std::collections::BTreeSet::new();
    for _ in 0..30_000 {
        let ex = random_exchange(&mut rng, &seeds);
        let v = classify(&ex, &Options::default());
        channels.insert(v.channel.as_str());
    }
    // The generator reaches most of the decision table, or it proves little.
    assert!(channels.len() >= 6, "only reached {channels:?}");
}

#[test]
fn reading_arbitrary_documents_never_panics() {
    let mut rng = Rng(42);
    for _ in 0..20_000 {
        let doc = rng.bytes(300, b"{}[]\":,formatmcp-exchange/1vantagedirectrequestresponsemethodurlheadersbodystatusnull0123456789");
        let _ = Exchange::from_json(&doc);
    }
}
