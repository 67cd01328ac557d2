//! What only tests use: the leak checker (every encoding a secret could leave in, and a finder). Built
//! for the crate's own tests and behind the `testing` feature, which the integration tests and the
//! CLI's `leakcheck` binary enable; never part of the public surface.
//!
//! May import: every other folder.

pub mod leak;

/// A phrase rule's id, where its words were seen, and the fixtures it must fire on.
pub type RuleProvenance = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

/// Every phrase rule of `rules/phrases.rules` with its provenance, in file order: for the
/// reason-pinning test (`tests/pins.rs`).
pub fn phrase_rule_provenance() -> &'static [RuleProvenance] {
    crate::judge::rules::PROVENANCE
}

/// The request as a shell records it (see the engine tests).
pub fn recorded_request(
    out: &crate::vocabulary::step::Outgoing,
    secret_header_names: &[String],
    plain_headers: &[(String, String)],
    token_sent: bool,
) -> crate::vocabulary::exchange::Request {
    crate::secrets::recorded::recorded_request(out, secret_header_names, plain_headers, token_sent)
}

/// The exchanges a paste holds, before they are grouped into runs.
pub fn exchanges_of_paste(
    capture: &str,
    request_body: &str,
) -> Result<Vec<crate::vocabulary::exchange::Exchange>, crate::vocabulary::problem::Problem> {
    crate::output::replay::exchanges_of_paste(capture, request_body)
}

/// Runs `f` with the link decoder's finding cap switched off: the control of its fuzz properties.
pub fn with_share_finding_cap_broken<R>(f: impl FnOnce() -> R) -> R {
    use crate::vocabulary::seeded_bug::{SeededBug, with};
    with(SeededBug::ShareFindingCap, f)
}

/// Runs `f` with the plan-file reader letting a probe be named twice: the control of its fuzz.
pub fn with_plan_duplicate_probe_allowed<R>(f: impl FnOnce() -> R) -> R {
    use crate::vocabulary::seeded_bug::{SeededBug, with};
    with(SeededBug::PlanDuplicateProbe, f)
}

/// Runs `f` with the paste reader taking a paste with nothing to classify: the control of its fuzz.
pub fn with_empty_paste_accepted<R>(f: impl FnOnce() -> R) -> R {
    use crate::vocabulary::seeded_bug::{SeededBug, with};
    with(SeededBug::PasteEmpty, f)
}

/// Runs `f` with the first phrase rule of `rules/phrases.rules` never matching: a rule change the
/// whole-result snapshots must show.
pub fn with_first_phrase_rule_off<R>(f: impl FnOnce() -> R) -> R {
    use crate::vocabulary::seeded_bug::{SeededBug, with};
    with(SeededBug::FirstPhraseRuleOff, f)
}

/// Runs `f` with the validation reader switched off (no issue list is ever recognised): the control
/// of the tests that each validator's shape decides `invalid_arguments`.
pub fn with_validation_reader_off<R>(f: impl FnOnce() -> R) -> R {
    use crate::vocabulary::seeded_bug::{SeededBug, with};
    with(SeededBug::ValidationReaderOff, f)
}

/// Runs `f` with the OAuth doctor fetching any URL a server names: the control of the tests that
/// it fetches only what SECURITY.md rule 11 allows.
pub fn with_auth_fetch_rule_off<R>(f: impl FnOnce() -> R) -> R {
    use crate::vocabulary::seeded_bug::{SeededBug, with};
    with(SeededBug::AuthFetchRuleOff, f)
}

/// Runs `f` with every request that got no answer worded as a browser saw it: the control of the
/// test that a direct client's outputs hold no browser or CORS words.
pub fn with_browser_words_anywhere<R>(f: impl FnOnce() -> R) -> R {
    use crate::vocabulary::seeded_bug::{SeededBug, with};
    with(SeededBug::BrowserWordsAnywhere, f)
}

/// Runs `f` with every change offered to the server author, even one that would make the card's
/// spec verdict deviate: the control of the test that no offered change does.
pub fn with_any_change_offered<R>(f: impl FnOnce() -> R) -> R {
    use crate::vocabulary::seeded_bug::{SeededBug, with};
    with(SeededBug::AnyChangeOffered, f)
}

/// Runs `f` with every skipped probe saying "skipped by you": the control of the audit's rule that
/// only a person's recorded choice is worded so.
pub fn with_by_you_anywhere<R>(f: impl FnOnce() -> R) -> R {
    use crate::vocabulary::seeded_bug::{SeededBug, with};
    with(SeededBug::ByYouAnywhere, f)
}

/// Runs `f` with the "nothing to change" line kept among changes: the control of the audit's rule
/// that a card never says both.
pub fn with_nothing_among_changes<R>(f: impl FnOnce() -> R) -> R {
    use crate::vocabulary::seeded_bug::{SeededBug, with};
    with(SeededBug::NothingAmongChanges, f)
}

/// The id of the first phrase rule of `rules/phrases.rules`.
pub fn first_phrase_rule_id() -> &'static str {
    crate::judge::rules::RULES.first().map_or("", |r| r.id)
}

/// The probe a public capture's file name stands for: its case's letter when it is one of A–D
/// (`XA_…` is A in the 2026-07-28 era; `AUTH…` is not A), else none.
pub fn intent_of_capture(file_name: &str) -> Option<&'static str> {
    let case = file_name.strip_prefix('X').unwrap_or(file_name);
    match case.as_bytes().first() {
        Some(b'A') if !case.starts_with("AUTH") => Some("A"),
        Some(b'B') => Some("B"),
        Some(b'C') => Some("C"),
        Some(b'D') => Some("D"),
        _ => None,
    }
}

/// Every form of `secret` redaction looks for (the share tests check none survives a link).
pub fn encodings(secret: &str) -> Vec<String> {
    crate::secrets::redact::encodings(secret)
}
