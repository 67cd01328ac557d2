//! Reason-pinning: every phrase rule fires on the fixtures `rules/phrases.rules` lists for it, and
//! whatever fires on a fixture is listed there. Both directions, over every fixture we hold: the
//! public captures (`shared/`), ours (`captured/`), and the ones reconstructed from cited sources
//! (`synthetic/`, `cited/`, each carrying its sources).

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mcp_triage::testing::phrase_rule_provenance;
use mcp_triage::{Exchange, Options, classify};

/// The fixture roots a `fires` glob may name, and where they are.
fn roots() -> Vec<(&'static str, PathBuf)> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var("MCP_TRIAGE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|_| manifest.join("../../fixtures/exchanges"));
    vec![
        ("shared", shared),
        ("captured", manifest.join("tests/fixtures/captured")),
        ("synthetic", manifest.join("tests/fixtures/synthetic")),
        ("cited", manifest.join("tests/fixtures/cited")),
    ]
}

fn json_files(dir: &Path, rel: &str, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            json_files(&p, &format!("{rel}/{name}"), out);
        } else if name.ends_with(".json") {
            out.push((format!("{rel}/{name}"), p));
        }
    }
}

/// Fixture name → the rules that fired on it.
fn observe() -> BTreeMap<String, BTreeSet<&'static str>> {
    let mut seen = BTreeMap::new();
    for (root, dir) in roots() {
        assert!(
            root != "shared" || dir.is_dir(),
            "public captures not found at {} (set MCP_TRIAGE_FIXTURES)",
            dir.display()
        );
        let mut files = Vec::new();
        json_files(&dir, root, &mut files);
        for (name, path) in files {
            let bytes = std::fs::read(&path).unwrap();
            if matches!(root, "synthetic" | "cited") {
                let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                let sources = doc["synthetic"]["sources"].as_array();
                assert!(
                    sources.is_some_and(|s| !s.is_empty()),
                    "{name}: a reconstructed fixture counts only with its cited sources"
                );
            }
            let ex = Exchange::from_json(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            let v = classify(&ex, &Options::default());
            seen.insert(name, v.fired_rules().iter().copied().collect());
        }
    }
    seen
}

/// `*` stands for any run of characters but `/`.
fn glob(pattern: &str, name: &str) -> bool {
    let Some((head, rest)) = pattern.split_once('*') else {
        return pattern == name;
    };
    let Some(tail) = name.strip_prefix(head) else {
        return false;
    };
    // `*` may stand for any prefix of `tail` up to its first "/".
    let reach = tail.find('/').unwrap_or(tail.len());
    (0..=reach)
        .filter(|&i| tail.is_char_boundary(i))
        .any(|i| glob(rest, &tail[i..]))
}

/// Every disagreement between the pins and what fired.
fn disagreements(
    pins: &[(&str, &[&str], &[&str])],
    fired: &BTreeMap<String, BTreeSet<&'static str>>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (id, _, globs) in pins {
        for g in *globs {
            let matched: Vec<&String> = fired.keys().filter(|f| glob(g, f)).collect();
            if matched.is_empty() {
                out.push(format!("{id}: `fires {g}` matches no fixture"));
            }
            for f in matched {
                if !fired[f].contains(id) {
                    out.push(format!("{id}: listed for {f}, but does not fire there"));
                }
            }
        }
    }
    for (f, ids) in fired {
        for id in ids {
            match pins.iter().find(|(p, _, _)| p == id) {
                None => out.push(format!("{f}: {id} fired but is no rule of the table")),
                Some((_, _, globs)) if !globs.iter().any(|g| glob(g, f)) => {
                    out.push(format!("{f}: {id} fires here but does not list it"));
                }
                Some(_) => {}
            }
        }
    }
    out
}

#[test]
fn every_rule_fires_exactly_on_the_fixtures_it_lists() {
    let fired = observe();
    assert!(fired.len() > 900, "only {} fixtures", fired.len());
    let problems = disagreements(phrase_rule_provenance(), &fired);
    assert!(
        problems.is_empty(),
        "{} disagreements:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_pin_check_catches_an_unlisted_firing_a_dead_listing_and_a_dead_glob() {
    let mut fired: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
    fired.insert("shared/a/A_x.json".into(), ["r.one"].into());
    fired.insert("shared/b/A_x.json".into(), BTreeSet::new());
    let pins: &[(&str, &[&str], &[&str])] = &[("r.one", &[], &["shared/a/A_*"])];
    assert!(disagreements(pins, &fired).is_empty(), "the control agrees");
    // Listed where it does not fire.
    let wide: &[(&str, &[&str], &[&str])] = &[("r.one", &[], &["shared/*/A_x.json"])];
    assert_eq!(disagreements(wide, &fired).len(), 1);
    // Fires where it is not listed.
    fired.get_mut("shared/b/A_x.json").unwrap().insert("r.one");
    assert_eq!(disagreements(pins, &fired).len(), 1);
    // A glob that names nothing.
    let dead: &[(&str, &[&str], &[&str])] = &[("r.one", &[], &["shared/*/A_x.json", "shared/c/*"])];
    assert_eq!(disagreements(dead, &fired).len(), 1);
    assert!(glob(
        "shared/ts-1.*/A_unknown_tool.*",
        "shared/ts-1.29.0-auth/A_unknown_tool.pv1.json"
    ));
    assert!(!glob("shared/ts-*/A.json", "shared/ts-1/x/A.json"));
}

#[test]
fn every_rule_says_where_its_words_were_seen_and_ids_are_unique() {
    let mut ids = BTreeSet::new();
    for (id, seen, fires) in phrase_rule_provenance() {
        assert!(!seen.is_empty() && !fires.is_empty(), "{id}");
        assert!(ids.insert(*id), "{id}: duplicate id");
    }
    assert!(ids.len() >= 30, "only {} rules", ids.len());
}
