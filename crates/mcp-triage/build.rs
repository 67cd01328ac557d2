//! Compiles `rules/phrases.rules` into static tables (`$OUT_DIR/phrase_rules.rs`): the phrase rules are
//! data, checked here once, so the bundle carries neither a parser nor a regex engine. Any malformed
//! row stops the build with its line number.

use std::fmt::Write as _;
use std::path::PathBuf;

const PLACES: &[&str] = &[
    "message",
    "data",
    "is_error",
    "structured",
    "http_body",
    "success_text",
];
const GROUPS: &[&str] = &[
    "unknown_tool",
    "invalid_arguments",
    "tool_execution",
    "withheld",
    "code_in_text",
    "transport",
    "soft_failure",
    "validation_shape",
];
const KINDS: &[&str] = &["phrase", "prefix", "whole", "pattern", "code", "shape"];
/// Groups whose rules point to a cause (the others point to a flag).
const CAUSE_GROUPS: &[&str] = &[
    "unknown_tool",
    "invalid_arguments",
    "tool_execution",
    "transport",
    "validation_shape",
];

/// The labels of one `labelled_enum!` in `src/vocabulary/cause.rs` (`Name = "label",` lines inside `ENUM {`).
fn labels(source: &str, name: &str) -> Vec<String> {
    let Some(start) = source.find(&format!("    {name} {{")) else {
        panic!("src/vocabulary/cause.rs: no enum {name}");
    };
    let body = &source[start..];
    let end = body.find("\n    }").unwrap_or(body.len());
    body[..end]
        .lines()
        .filter_map(|l| l.split_once("= \"").and_then(|(_, r)| r.split_once('"')))
        .map(|(label, _)| label.to_string())
        .collect()
}

#[derive(Default)]
struct Rule {
    line: usize,
    id: String,
    group: String,
    points: Option<(String, String)>,
    kind: Option<(String, String)>,
    places: Vec<String>,
    seen: Vec<String>,
    fires: Vec<String>,
    says_missing: bool,
}

fn camel(label: &str) -> String {
    label
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn fail(line: usize, what: &str) -> ! {
    panic!("rules/phrases.rules:{line}: {what}");
}

fn parse(text: &str, causes: &[String], flags: &[String]) -> Vec<Rule> {
    let mut rules: Vec<Rule> = Vec::new();
    let mut group = String::new();
    let mut group_places: Vec<String> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (key, value) = trimmed.split_once(' ').unwrap_or((trimmed, ""));
        let value = value.trim();
        match key {
            "group" => {
                let mut words = value.split_whitespace();
                group = words.next().unwrap_or_default().to_string();
                if !GROUPS.contains(&group.as_str()) {
                    fail(line, &format!("unknown group {group:?}"));
                }
                group_places.clear();
                match words.next() {
                    Some("in") => group_places.extend(words.map(str::to_string)),
                    Some(other) => fail(line, &format!("expected `in`, found {other:?}")),
                    None => {}
                }
            }
            "rule" => {
                if group.is_empty() {
                    fail(line, "a rule before any group");
                }
                if rules.iter().any(|r| r.id == value) {
                    fail(line, &format!("duplicate rule id {value:?}"));
                }
                if value.is_empty()
                    || !value
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.')
                {
                    fail(
                        line,
                        &format!("rule id {value:?} is not lower_snake.dotted"),
                    );
                }
                rules.push(Rule {
                    line,
                    id: value.to_string(),
                    group: group.clone(),
                    places: group_places.clone(),
                    ..Rule::default()
                });
            }
            _ => {
                let Some(rule) = rules.last_mut() else {
                    fail(line, &format!("{key:?} outside a rule"));
                };
                match key {
                    "cause" | "flag" => {
                        if rule.points.is_some() {
                            fail(line, "a rule points to one cause or flag");
                        }
                        rule.points = Some((key.to_string(), value.to_string()));
                    }
                    k if KINDS.contains(&k) => {
                        if rule.kind.is_some() {
                            fail(
                                line,
                                "a rule has one phrase, prefix, whole, pattern, code or shape",
                            );
                        }
                        rule.kind = Some((key.to_string(), value.to_string()));
                    }
                    "in" => rule.places = value.split_whitespace().map(str::to_string).collect(),
                    "seen" => rule.seen.push(value.to_string()),
                    "says_missing" if value.is_empty() => rule.says_missing = true,
                    "fires" => rule.fires.push(value.to_string()),
                    other => fail(line, &format!("unknown key {other:?}")),
                }
            }
        }
    }
    for r in &rules {
        let Some((kind, text)) = &r.kind else {
            fail(
                r.line,
                "a rule needs phrase, prefix, whole, pattern, code or shape",
            );
        };
        // A shape is read from JSON, never from words, and words are never read as a shape.
        if (kind == "shape") != (r.group == "validation_shape") {
            fail(
                r.line,
                "shapes, and only shapes, belong to group validation_shape",
            );
        }
        let Some((what, label)) = &r.points else {
            fail(r.line, "a rule needs a cause or a flag");
        };
        let want = if CAUSE_GROUPS.contains(&r.group.as_str()) {
            "cause"
        } else {
            "flag"
        };
        if what != want {
            fail(
                r.line,
                &format!("rules of group {} point to a {want}", r.group),
            );
        }
        let known = if what == "cause" { causes } else { flags };
        if !known.iter().any(|k| k == label) {
            fail(
                r.line,
                &format!("no {what} is labelled {label:?} (src/vocabulary/cause.rs)"),
            );
        }
        if r.places.is_empty() {
            fail(
                r.line,
                "a rule applies somewhere: `in` on the rule or its group",
            );
        }
        for p in &r.places {
            if !PLACES.contains(&p.as_str()) {
                fail(r.line, &format!("unknown place {p:?}"));
            }
        }
        if r.seen.is_empty() {
            fail(r.line, "a rule says where its words were seen (`seen`)");
        }
        if r.fires.is_empty() {
            fail(r.line, "a rule lists the fixtures it fires on (`fires`)");
        }
        match kind.as_str() {
            // The keys of one issue object: what kind of issue, where (the path) and why (the
            // message), matched without regard to ASCII case.
            "shape" if text.split(' ').count() != 3 || text.split(' ').any(str::is_empty) => {
                fail(r.line, "a shape names three keys: kind, path and message")
            }
            "code" if !text.is_empty() => fail(r.line, "`code` takes no text"),
            "code" => {}
            _ if text.is_empty() => fail(r.line, "empty phrase"),
            // The matcher lower-cases ASCII only: a phrase in any other form could never match.
            _ if *text != text.to_ascii_lowercase() => {
                fail(r.line, &format!("{text:?} is not lower-case"))
            }
            "pattern" if text.matches("{tool}").count() != 1 => {
                fail(r.line, "a pattern holds {tool} exactly once")
            }
            "whole" if text.matches("{tool}").count() > 1 => {
                fail(r.line, "a whole text holds {tool} at most once")
            }
            _ if text
                .split_once("{tool}")
                .is_some_and(|(before, _)| before.trim_end_matches([' ', ':']).is_empty()) =>
            {
                fail(
                    r.line,
                    "{tool} needs words before it (the matcher looks for them first)",
                )
            }
            "phrase" | "prefix" if text.contains('{') => {
                fail(r.line, "only pattern and whole take {tool}")
            }
            _ => {}
        }
    }
    rules
}

fn main() {
    println!("cargo::rerun-if-changed=rules/phrases.rules");
    println!("cargo::rerun-if-changed=src/vocabulary/cause.rs");
    let text = std::fs::read_to_string("rules/phrases.rules")
        .unwrap_or_else(|e| panic!("rules/phrases.rules: {e}"));
    let cause_rs = std::fs::read_to_string("src/vocabulary/cause.rs")
        .unwrap_or_else(|e| panic!("src/vocabulary/cause.rs: {e}"));
    let rules = parse(
        &text,
        &labels(&cause_rs, "Cause"),
        &labels(&cause_rs, "Flag"),
    );
    let mut out =
        String::from("// Generated by build.rs from rules/phrases.rules. Do not edit.\n\n");
    out.push_str("/// Every phrase rule, in file order.\npub(crate) static RULES: &[Rule] = &[\n");
    for r in &rules {
        let (kind, phrase) = r.kind.clone().unwrap_or_default();
        let (what, label) = r.points.clone().unwrap_or_default();
        let points = match what.as_str() {
            "cause" => format!("Points::Cause(crate::cause::Cause::{})", camel(&label)),
            _ => format!("Points::Flag(crate::cause::Flag::{})", camel(&label)),
        };
        let places = r
            .places
            .iter()
            .map(|p| format!("Place::{}.bit()", camel(p)))
            .collect::<Vec<_>>()
            .join(" | ");
        let _ = writeln!(
            out,
            "    Rule {{ id: {:?}, group: Group::{}, kind: Kind::{}, text: {:?}, points: {points}, places: {places}, says_missing: {} }},",
            r.id,
            camel(&r.group),
            camel(&kind),
            phrase,
            r.says_missing,
        );
    }
    out.push_str("];\n\n");
    out.push_str(
        "/// Per rule: where its words were seen, and the fixtures it must fire on (read by tests only).\n",
    );
    out.push_str("#[cfg(any(test, feature = \"testing\"))]\npub(crate) static PROVENANCE: &[(&str, &[&str], &[&str])] = &[\n");
    for r in &rules {
        let _ = writeln!(out, "    ({:?}, &{:?}, &{:?}),", r.id, r.seen, r.fires);
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()))
        .join("phrase_rules.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
}
