//! Phrase rules: the words servers put on the wire and what each most likely means, as data.
//!
//! The rules live in `rules/phrases.rules` (id, cause or flag, phrase or pattern, where it applies,
//! where it was seen, the fixtures it fires on); `build.rs` compiles them into [`RULES`]. This module
//! only matches: ASCII case-insensitively, in time linear in the text (each pattern's `{tool}` is
//! bounded at 128 characters). Which group to ask, at which place, and what a match decides is the
//! classifier's business.

use crate::vocabulary::cause::{Cause, Flag};
use crate::vocabulary::limits::MAX_TOOL_NAME_CHARS;
use crate::vocabulary::seeded_bug::{SeededBug, is_on};

/// The families of rules the classifier asks for by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Group {
    /// The tool name is not one the server has.
    UnknownTool,
    /// The arguments were refused.
    InvalidArguments,
    /// Words that say a tool ran and failed.
    ToolExecution,
    /// A message that holds nothing beyond a framework prefix or a generic phrase.
    Withheld,
    /// A JSON-RPC code written into prose.
    CodeInText,
    /// Transport refusals (origin, session, version, scope, media type).
    Transport,
    /// A success whose words read like a failure.
    SoftFailure,
    /// The issue objects validator libraries emit (read from JSON by the validation reader).
    ValidationShape,
}

/// Where in an answer a text was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// A JSON-RPC error frame's `message`.
    Message,
    /// A string in a JSON-RPC error frame's `data`.
    Data,
    /// Text content of an `isError` result.
    IsError,
    /// A string in an `isError` result's `structuredContent`.
    Structured,
    /// The body (or the frame message) of an HTTP error answer.
    HttpBody,
    /// Text content of a successful result.
    SuccessText,
}

impl Place {
    /// The place's bit in [`Rule::places`].
    pub(crate) const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// How a rule's text is matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Anywhere in the text.
    Phrase,
    /// At the start of the text, after white space.
    Prefix,
    /// The whole text, white space and a final "." trimmed; may hold `{tool}`.
    Whole,
    /// Anywhere; holds `{tool}` once.
    Pattern,
    /// A JSON-RPC code (`-32xxx`) written into prose.
    Code,
    /// The three keys of a validator's issue object (kind, path, message); never matched in text.
    Shape,
}

/// What a match points to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Points {
    /// A cause.
    Cause(Cause),
    /// A flag beside the cause.
    Flag(Flag),
}

/// One row of `rules/phrases.rules`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule {
    /// Stable id, reported in evidence.
    pub id: &'static str,
    /// Its family.
    pub group: Group,
    /// How `text` is matched.
    pub kind: Kind,
    /// Normalised phrase (see [`normalise`]); empty for [`Kind::Code`].
    pub text: &'static str,
    /// What a match points to.
    pub points: Points,
    /// Bits of the [`Place`]s it applies to.
    pub places: u8,
    /// The words say the request lacked something (a session id): said to a request that had it,
    /// they mislabel the refusal.
    pub says_missing: bool,
}

include!(concat!(env!("OUT_DIR"), "/phrase_rules.rs"));

/// The form texts are matched in: ASCII lower case (other characters are left alone, so byte offsets
/// stay valid in the original). Rule phrases must already be in this form.
pub(crate) fn normalise(text: &str) -> String {
    text.to_ascii_lowercase()
}

/// A rule found in a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Match {
    /// Rule id.
    pub rule: &'static str,
    /// The cause it points to ([`Cause::Unknown`] for a flag rule).
    pub cause: Cause,
    /// The flag it points to (for a flag rule).
    pub flag: Option<Flag>,
    /// How the rule matched.
    pub kind: Kind,
    /// The words say the request lacked something ([`Rule::says_missing`]).
    pub says_missing: bool,
    /// Byte range in the searched string.
    pub bytes: (usize, usize),
}

impl Match {
    /// The range in characters, for display.
    pub(crate) fn char_range(&self, text: &str) -> [usize; 2] {
        let start = text.get(..self.bytes.0).map_or(0, |s| s.chars().count());
        let len = text
            .get(self.bytes.0..self.bytes.1)
            .map_or(0, |s| s.chars().count());
        [start, start + len]
    }
}

/// The first rule of `group` that applies at `place` and matches `text`, in file order.
/// `tool` is the tool our request named (for `{tool}`).
pub(crate) fn first(group: Group, place: Place, text: &str, tool: Option<&str>) -> Option<Match> {
    let lower = normalise(text);
    let tool = tool
        .filter(|n| !n.is_empty() && n.len() <= MAX_TOOL_NAME_CHARS)
        .map(normalise);
    RULES
        .iter()
        .filter(|r| r.group == group && r.places & place.bit() != 0)
        .filter(|r| {
            !(is_on(SeededBug::FirstPhraseRuleOff) && RULES.first().is_some_and(|f| f.id == r.id))
        })
        .find_map(|r| {
            matches(r, text, &lower, tool.as_deref()).map(|bytes| Match {
                rule: r.id,
                kind: r.kind,
                says_missing: r.says_missing,
                cause: match r.points {
                    Points::Cause(c) => c,
                    Points::Flag(_) => Cause::Unknown,
                },
                flag: match r.points {
                    Points::Flag(f) => Some(f),
                    Points::Cause(_) => None,
                },
                bytes,
            })
        })
}

/// Whether the rule with this id belongs to `group` (an id's prefix need not be its group's name).
pub(crate) fn in_group(id: &str, group: Group) -> bool {
    RULES.iter().any(|r| r.id == id && r.group == group)
}

/// The issue shapes that apply at `place`, in file order.
pub(crate) fn shapes(place: Place) -> impl Iterator<Item = &'static Rule> {
    RULES
        .iter()
        .filter(move |r| r.kind == Kind::Shape && r.places & place.bit() != 0)
}

/// Where `rule` matches: a byte range in `text` (`lower` is its normalised form).
fn matches(rule: &Rule, text: &str, lower: &str, tool: Option<&str>) -> Option<(usize, usize)> {
    match rule.kind {
        Kind::Phrase => lower.find(rule.text).map(|at| (at, at + rule.text.len())),
        Kind::Prefix => {
            let lead = lower.len() - lower.trim_start().len();
            lower[lead..]
                .starts_with(rule.text)
                .then_some((lead, lead + rule.text.len()))
        }
        Kind::Whole => {
            let lead = lower.len() - lower.trim_start().len();
            let body = lower.trim().trim_end_matches('.');
            let end = template(body, rule.text, tool, true)?.1;
            Some((lead, lead + end))
        }
        Kind::Pattern => template(lower, rule.text, tool, false),
        Kind::Code => find_code_in_text(text).map(|(_, range)| range),
        Kind::Shape => None,
    }
}

/// Matches `tmpl` (a literal, or `before{tool}after`) in `hay`. `anchored`: the match must cover all
/// of `hay`. Each occurrence of the literal before `{tool}` costs at most the name's length plus the
/// rest of the template, so the search stays linear.
fn template(hay: &str, tmpl: &str, tool: Option<&str>, anchored: bool) -> Option<(usize, usize)> {
    template_counted(hay, tmpl, tool, anchored, &mut 0)
}

/// [`template`], counting in `looked` the occurrences of the literal before `{tool}` it looked at
/// (each costs at most the name's length plus the rest of the template): the linear-time test reads it.
fn template_counted(
    hay: &str,
    tmpl: &str,
    tool: Option<&str>,
    anchored: bool,
    looked: &mut usize,
) -> Option<(usize, usize)> {
    let Some((before, after)) = tmpl.split_once("{tool}") else {
        return if anchored {
            (hay == tmpl).then_some((0, hay.len()))
        } else {
            hay.find(tmpl).map(|at| (at, at + tmpl.len()))
        };
    };
    let name = tool?;
    let keyword = before.trim_end_matches([' ', ':']);
    let needs_gap = keyword.len() < before.len();
    let mut from = 0;
    while let Some(rel) = hay.get(from..)?.find(keyword) {
        *looked += 1;
        let at = from + rel;
        from = at + keyword.len().max(1);
        if anchored && at > 0 {
            return None;
        }
        let mut i = at + keyword.len();
        let rest = &hay[i..];
        let gap = rest.len() - rest.trim_start_matches([' ', ':']).len();
        if needs_gap && gap == 0 {
            continue;
        }
        i += gap;
        let quote = hay[i..]
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\'' | '`'));
        if let Some(q) = quote {
            i += q.len_utf8();
        }
        if !hay[i..].starts_with(name) {
            continue;
        }
        i += name.len();
        if let Some(q) = quote {
            if !hay[i..].starts_with(q) {
                continue;
            }
            i += q.len_utf8();
        }
        if !hay[i..].starts_with(after) {
            continue;
        }
        i += after.len();
        if anchored && i != hay.len() {
            continue;
        }
        return Some((at, i));
    }
    None
}

/// Finds a JSON-RPC code written into prose, e.g. "MCP error -32602: …" or "error code -32603".
/// Returns the code and its byte range.
pub(crate) fn find_code_in_text(text: &str) -> Option<(i64, (usize, usize))> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 6 <= bytes.len() {
        if bytes[i] == b'-' && bytes[i + 1] == b'3' && bytes[i + 2] == b'2' {
            let end = (i + 1..bytes.len())
                .find(|&j| !bytes[j].is_ascii_digit())
                .unwrap_or(bytes.len());
            let digits = end - i - 1;
            let before_ok = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
            if digits == 5
                && before_ok
                && let Ok(code) = text[i..end].parse::<i64>()
            {
                return Some((code, (i, end)));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    None
}

/// Session refusals mean "unknown session" when we sent an id, and "session required" when we did not,
/// whatever words the server chose.
pub(crate) fn session_cause(cause: Cause, sent_session_id: bool) -> Cause {
    match cause {
        Cause::SessionRequired | Cause::SessionNotFound if sent_session_id => {
            Cause::SessionNotFound
        }
        Cause::SessionRequired | Cause::SessionNotFound => Cause::SessionRequired,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn unknown_tool(text: &str, tool: Option<&str>) -> Option<Match> {
        [Place::Message, Place::IsError]
            .iter()
            .find_map(|p| first(Group::UnknownTool, *p, text, tool))
    }

    #[test]
    fn a_tool_name_over_128_characters_is_never_searched_for() {
        let long = "x".repeat(100_000);
        let text = format!("tool {long} not found ").repeat(4);
        assert_eq!(unknown_tool(&text, Some(&long)), None);
        let ok = "y".repeat(128);
        assert!(unknown_tool(&format!("Tool {ok} not found"), Some(&ok)).is_some());
    }

    #[test]
    fn a_pattern_search_over_a_hostile_text_looks_at_each_keyword_once() {
        // 2,000 "tool " keywords, each followed by a near miss of a 128-character name: every
        // occurrence is looked at once (and each look costs at most the name plus the tail), so the
        // work is linear in the text; nothing is found.
        let name = "n".repeat(128);
        let near = format!("tool {} ", "n".repeat(127));
        let text = near.repeat(2_000);
        assert_eq!(unknown_tool(&text, Some(&name)), None);
        let mut looked = 0;
        let found = template_counted(
            &text,
            "tool {tool} not found",
            Some(&name),
            false,
            &mut looked,
        );
        assert_eq!((found, looked), (None, 2_000));
        // The control: a text twice as long is looked at twice as often, not four times.
        let mut twice = 0;
        template_counted(
            &text.repeat(2),
            "tool {tool} not found",
            Some(&name),
            false,
            &mut twice,
        );
        assert_eq!(twice, 4_000);
    }

    #[test]
    fn unknown_tool_by_name_is_strict_about_position() {
        let ts = "MCP error -32602: Tool lead_delete not found";
        let m = unknown_tool(ts, Some("lead_delete")).unwrap();
        assert_eq!(&ts[m.bytes.0..m.bytes.1], "Tool lead_delete not found");
        assert_eq!(m.rule, "unknown_tool.tool_name_not_found");
        let quoted = "tool 'lead_delete' not found";
        assert!(unknown_tool(quoted, Some("lead_delete")).is_some());
        let colon = "Tool: lead_delete not found";
        assert!(unknown_tool(colon, Some("lead_delete")).is_some());
        let ran = "Error executing tool lead_get: lead not found in this organization";
        assert_eq!(unknown_tool(ran, Some("lead_get")), None);
        assert!(unknown_tool("Unknown tool: x", None).is_some());
    }

    #[test]
    fn a_rule_applies_only_at_its_places() {
        // Transport rules are not read in an isError text; tool-execution words only there.
        assert!(
            first(
                Group::Transport,
                Place::HttpBody,
                "Invalid Origin header",
                None
            )
            .is_some()
        );
        assert!(
            first(
                Group::Transport,
                Place::IsError,
                "Invalid Origin header",
                None
            )
            .is_none()
        );
        let text = "Error executing tool lead_get: boom";
        assert!(first(Group::ToolExecution, Place::IsError, text, None).is_some());
        assert!(first(Group::ToolExecution, Place::Message, text, None).is_none());
    }

    #[test]
    fn code_in_text() {
        assert_eq!(
            find_code_in_text("MCP error -32602: Tool x not found").map(|c| c.0),
            Some(-32602)
        );
        assert_eq!(find_code_in_text("order -3260212"), None);
        assert_eq!(find_code_in_text("no code"), None);
    }

    fn withheld(text: &str, tool: Option<&str>) -> bool {
        first(Group::Withheld, Place::Message, text, tool).is_some()
    }

    #[test]
    fn withheld_messages_say_nothing_beyond_a_prefix_and_the_tool_name() {
        assert!(withheld("Error executing tool lead_get", Some("lead_get")));
        assert!(withheld("Internal server error", None));
        assert!(withheld(
            "An error occurred invoking 'lead_get'.",
            Some("lead_get")
        ));
        assert!(!withheld(
            "Error calling tool 'lead_get': boom",
            Some("lead_get")
        ));
        assert!(!withheld(
            "Error executing tool lead_get: boom",
            Some("lead_get")
        ));
        assert!(!withheld(
            "lead not found in this organization",
            Some("lead_get")
        ));
    }

    #[test]
    fn char_ranges_count_characters() {
        let text = "é unknown tool";
        let m = unknown_tool(text, None).unwrap();
        assert_eq!(m.char_range(text), [2, 14]);
    }

    #[test]
    fn every_phrase_is_in_the_form_the_matcher_compares_and_every_id_is_unique() {
        let mut ids = std::collections::BTreeSet::new();
        for r in RULES {
            assert_eq!(normalise(r.text), r.text, "{}: not normalised", r.id);
            assert!(ids.insert(r.id), "{}: duplicate id", r.id);
            assert_eq!(r.kind == Kind::Code, r.text.is_empty(), "{}", r.id);
            assert_ne!(r.places, 0, "{}: applies nowhere", r.id);
        }
    }
}
