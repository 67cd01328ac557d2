//! A census's targets: read from a list of URLs (one a line) or from the official MCP registry's
//! `server.json` documents (one document, a JSON array of them, JSON Lines, or a registry API
//! listing whose entries wrap each in `server`), of which only the Streamable HTTP `remotes` are
//! taken; each checked by the shell's URL reader under the core's endpoint rule, and merged by key
//! so a server listed twice is run once with both of its sources kept.

use std::collections::HashMap;

use serde_json::Value;

use crate::run::endpoint::Endpoint;

/// The largest targets file read (checked before reading on).
pub const MAX_TARGETS_BYTES: usize = 256 * 1024 * 1024;
/// The most targets one census runs; the rest are refused with a line each.
pub const MAX_TARGETS: usize = 1_000_000;
/// The longest URL taken from a list or a document.
pub const MAX_TARGET_URL_CHARS: usize = 2_048;
/// The most sources kept for one target (a URL listed more often keeps its first ones).
pub const MAX_SOURCES: usize = 16;
/// The longest source label kept (a registry name, a file name and line).
const MAX_SOURCE_CHARS: usize = 200;

/// A URL as read, and where it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The URL as written.
    pub url: String,
    /// Where: `FILE:LINE` for a list, `FILE:LINE#NAME` for a registry document.
    pub source: String,
}

/// One target to run: its key (the URL as the shell's reader wrote it), the endpoint, and every
/// place it was listed.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// What de-duplication and `--resume` compare: the endpoint's URL, normalised.
    pub key: String,
    /// The endpoint the run uses.
    pub endpoint: Endpoint,
    /// Where it was listed, first first.
    pub sources: Vec<String>,
}

impl Target {
    /// Where politeness counts requests: host and port (the scheme's port when none is written).
    pub fn host_key(&self) -> String {
        host_key(&self.endpoint)
    }
}

/// An endpoint's host and port, the scheme's default port written out.
pub fn host_key(ep: &Endpoint) -> String {
    let port = ep
        .port
        .unwrap_or(if ep.scheme == "https" { 443 } else { 80 });
    format!("{}:{port}", ep.host)
}

/// A listed URL the census cannot run, with why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    /// The URL as written (cut to [`MAX_TARGET_URL_CHARS`]).
    pub url: String,
    /// Where it was listed.
    pub source: String,
    /// Why, in words.
    pub why: String,
}

/// The targets of a census, de-duplicated, and what could not be run.
#[derive(Debug, Clone, Default)]
pub struct TargetList {
    /// In the order first listed.
    pub targets: Vec<Target>,
    /// URLs refused (not a URL, another transport, a template, over the cap), in listed order.
    pub rejected: Vec<Rejected>,
    /// Entries of a registry document that named no Streamable HTTP remote (packages only, or SSE).
    pub without_remote: usize,
    /// URLs listed more than once (merged into one target).
    pub merged: usize,
}

fn cut(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// Reads a targets file (`name` labels the sources) into candidates: a list of URLs, or registry
/// JSON; `#` starts a comment line in a list. Registry entries without a Streamable HTTP remote are
/// counted, not refused.
pub fn read_candidates(name: &str, bytes: &[u8]) -> Result<(Vec<Candidate>, usize), String> {
    if bytes.len() > MAX_TARGETS_BYTES {
        return Err(format!(
            "{name}: {} bytes, over the {MAX_TARGETS_BYTES}-byte cap for a targets file",
            bytes.len()
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| format!("{name}: not UTF-8 ({e})"))?;
    let name = cut(name, MAX_SOURCE_CHARS / 2);
    let first = text.trim_start().chars().next();
    if matches!(first, Some('{') | Some('[')) {
        registry(&name, text)
    } else {
        Ok((list(&name, text), 0))
    }
}

fn list(name: &str, text: &str) -> Vec<Candidate> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let url = line.trim();
            (!url.is_empty() && !url.starts_with('#')).then(|| Candidate {
                url: url.to_string(),
                source: format!("{name}:{}", i + 1),
            })
        })
        .collect()
}

/// Registry JSON: one document or an array (or an API listing), else JSON Lines.
fn registry(name: &str, text: &str) -> Result<(Vec<Candidate>, usize), String> {
    let mut out = Vec::new();
    let mut without = 0;
    match serde_json::from_str::<Value>(text) {
        Ok(doc) => documents(name, 1, &doc, &mut out, &mut without),
        Err(whole) => {
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let doc: Value = serde_json::from_str(line).map_err(|e| {
                    format!(
                        "{name}:{}: neither a JSON document ({whole}) nor JSON Lines ({e})",
                        i + 1
                    )
                })?;
                documents(name, i + 1, &doc, &mut out, &mut without);
            }
        }
    }
    Ok((out, without))
}

/// One value: an array of documents, a registry listing (`servers`), a wrapped entry (`server`),
/// or a `server.json` document.
fn documents(name: &str, line: usize, doc: &Value, out: &mut Vec<Candidate>, without: &mut usize) {
    if let Some(items) = doc.as_array().or_else(|| doc.get("servers")?.as_array()) {
        for item in items {
            documents(name, line, item, out, without);
        }
        return;
    }
    let doc = doc.get("server").filter(|s| s.is_object()).unwrap_or(doc);
    let label = doc.get("name").and_then(Value::as_str).unwrap_or("?");
    let remotes: Vec<&str> = doc
        .get("remotes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|r| r.get("type").and_then(Value::as_str) == Some("streamable-http"))
        .filter_map(|r| r.get("url").and_then(Value::as_str))
        .collect();
    if remotes.is_empty() {
        *without += 1;
    }
    for url in remotes {
        out.push(Candidate {
            url: url.to_string(),
            source: cut(&format!("{name}:{line}#{label}"), MAX_SOURCE_CHARS),
        });
    }
}

/// Checks each candidate with `read` (the shell's URL reader under the core's endpoint rule) and
/// merges those with one key; a URL with a `{variable}` of a template is refused before reading.
pub fn merge(
    candidates: Vec<Candidate>,
    without_remote: usize,
    read: impl Fn(&str) -> Result<Endpoint, String>,
) -> TargetList {
    let mut list = TargetList {
        without_remote,
        ..TargetList::default()
    };
    let mut by_key: HashMap<String, usize> = HashMap::new();
    // A refused URL (by its cut form, as its line names it) gets one line however often listed.
    let mut refused: std::collections::HashSet<String> = std::collections::HashSet::new();
    for c in candidates {
        let endpoint = if c.url.chars().count() > MAX_TARGET_URL_CHARS {
            Err(format!("longer than {MAX_TARGET_URL_CHARS} characters"))
        } else if c.url.contains('{') {
            Err(
                "a template: the registry entry leaves a {variable} for each deployment to fill in"
                    .into(),
            )
        } else {
            read(&c.url)
        };
        let endpoint = endpoint.and_then(|ep| {
            if by_key.contains_key(&ep.url) || list.targets.len() < MAX_TARGETS {
                Ok(ep)
            } else {
                Err(format!("over the cap of {MAX_TARGETS} targets"))
            }
        });
        let endpoint = match endpoint {
            Ok(ep) => ep,
            Err(why) => {
                let url = cut(&c.url, MAX_TARGET_URL_CHARS);
                if refused.insert(url.clone()) {
                    list.rejected.push(Rejected {
                        url,
                        source: c.source,
                        why,
                    });
                } else {
                    list.merged += 1;
                }
                continue;
            }
        };
        let key = endpoint.url.clone();
        if let Some(&i) = by_key.get(&key) {
            list.merged += 1;
            let sources = &mut list.targets[i].sources;
            if sources.len() < MAX_SOURCES && !sources.contains(&c.source) {
                sources.push(c.source);
            }
            continue;
        }
        by_key.insert(key.clone(), list.targets.len());
        list.targets.push(Target {
            key,
            endpoint,
            sources: vec![c.source],
        });
    }
    list
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::run::endpoint::parse_endpoint;

    fn read(url: &str) -> Result<Endpoint, String> {
        parse_endpoint(url).map_err(|p| p.to_string())
    }

    #[test]
    fn a_list_and_registry_documents_merge_by_key_with_every_source_kept() {
        let (c, w) = read_candidates(
            "list.txt",
            b"# ours\nhttp://127.0.0.1:1/mcp\n\n  http://127.0.0.1:1/mcp \nftp://x\nftp://x\n",
        )
        .unwrap();
        assert_eq!(w, 0);
        let registry = serde_json::json!({"servers": [
            {"server": {"name": "io.example/a", "remotes": [
                {"type": "streamable-http", "url": "http://127.0.0.1:1/mcp"},
                {"type": "sse", "url": "http://127.0.0.1:1/sse"}]}},
            {"server": {"name": "io.example/pkg", "packages": []}},
            {"name": "io.example/t", "remotes": [{"type": "streamable-http", "url": "https://{host}/mcp"}]},
        ]});
        let (r, without) = read_candidates("reg.json", registry.to_string().as_bytes()).unwrap();
        assert_eq!(without, 1, "the entry with packages only");
        let lines = b"{\"name\":\"io.example/b\",\"remotes\":[{\"type\":\"streamable-http\",\"url\":\"http://127.0.0.1:2/mcp\"}]}\n{\"name\":\"c\"}\n";
        let (l, without_l) = read_candidates("reg.jsonl", lines).unwrap();
        assert_eq!((l.len(), without_l), (1, 1));
        let all: Vec<Candidate> = c.into_iter().chain(r).chain(l).collect();
        let list = merge(all, without + without_l, read);
        assert_eq!(list.targets.len(), 2);
        assert_eq!(
            list.targets[0].sources,
            ["list.txt:2", "list.txt:4", "reg.json:1#io.example/a"]
        );
        assert_eq!(list.targets[1].sources, ["reg.jsonl:1#io.example/b"]);
        assert_eq!(list.targets[0].host_key(), "127.0.0.1:1");
        assert_eq!(list.merged, 3, "a refused URL listed twice is one line");
        assert_eq!(list.rejected.len(), 2, "{:?}", list.rejected);
        assert!(list.rejected[0].source == "list.txt:5");
        assert!(list.rejected[1].why.contains("template"));
    }

    #[test]
    fn bad_files_get_a_clear_message() {
        let e = read_candidates("x.json", b"[1, 2").unwrap_err();
        assert!(e.starts_with("x.json:1:"), "{e}");
        let e = read_candidates("x.txt", &[0xff, 0xfe]).unwrap_err();
        assert!(e.contains("not UTF-8"), "{e}");
    }

    #[test]
    fn https_hosts_count_their_default_port() {
        let ep = read("https://example.com/mcp").unwrap();
        assert_eq!(host_key(&ep), "example.com:443");
    }
}
