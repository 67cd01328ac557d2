//! Opening a fragment: its length, prefix and version checked first, then strict decoding, then
//! every field checked against the caps and identifiers of its declared version, then migration;
//! any failure is one error, never a partial result.

use crate::judge::advice::AgentAction;
use crate::judge::spec::Conformance;
use crate::run::auth::{AuthCheck, BrowserAccess, MAX_FETCHES, REVISIONS};
use crate::vocabulary::auth_step::AuthStep;
use crate::vocabulary::cause::{Cause, Channel, DecidedBy, Flag, RunEnd, StopReason};
use crate::vocabulary::problem::Problem;
use crate::vocabulary::seeded_bug::{self, SeededBug};
use crate::vocabulary::step::Step;

use super::cap;
use super::codec::{decode_base64url, inflate};
use super::error::{MAX_FRAGMENT, ShareError};
use super::payload::{NO_ACTION, Share};
use super::versions::VERSION;
use super::versions::{
    AUTH_SINCE, BROWSER_SINCE, COMPARE_SINCE, ENDED_SINCE, INTENT_SINCE, SERVER_SINCE, STDIO_SINCE,
    cause_since, flag_since, migrate, stop_since,
};

fn check(ok: bool, what: &str) -> Result<(), ShareError> {
    if ok {
        Ok(())
    } else {
        Err(ShareError::BadPayload(what.to_string()))
    }
}

fn within(s: &str, max: usize) -> bool {
    s.chars().count() <= max
}

fn validate(p: &Share, declared: u8) -> Result<(), ShareError> {
    check(p.v == declared, "version")?;
    if let Some(before) = &p.compare {
        // One level: the run compared with carries no comparison of its own.
        check(
            declared >= COMPARE_SINCE && before.compare.is_none(),
            "compare",
        )?;
        validate(before, declared)?;
    }
    check(
        within(&p.tool, cap::SHORT) && within(&p.date, cap::SHORT),
        "tool or date",
    )?;
    check(within(&p.endpoint, cap::ENDPOINT), "endpoint")?;
    check(
        !p.endpoint.starts_with("stdio:") || declared >= STDIO_SINCE,
        "endpoint",
    )?;
    check(
        p.version.as_deref().is_none_or(|v| within(v, cap::SHORT)),
        "version",
    )?;
    check(
        p.server
            .as_ref()
            .is_none_or(|(n, v)| within(n, cap::NAME) && within(v, cap::SHORT)),
        "server",
    )?;
    check(p.score.is_none_or(|s| s <= 3), "score")?;
    check(
        p.pairs
            .is_none_or(|m| declared >= 4 && m <= 3 && p.score.is_none_or(|s| s <= m)),
        "pairs",
    )?;
    check(
        within(&p.finding, cap::TEXT) || seeded_bug::is_on(SeededBug::ShareFindingCap),
        "finding",
    )?;
    check(
        p.ended
            .as_deref()
            .is_none_or(|e| declared >= ENDED_SINCE && RunEnd::parse(e).is_some()),
        "ended",
    )?;
    if let Some((revision, cards)) = &p.auth {
        check(declared >= AUTH_SINCE, "auth")?;
        check(REVISIONS.contains(&revision.as_str()), "auth revision")?;
        // Every fetch a card, and the challenge, registration, token endpoint and authorization
        // URL cards.
        check(cards.len() <= MAX_FETCHES + 4, "auth cards")?;
        for (step, outcome, findings) in cards {
            let since = match AuthStep::parse(step) {
                Some(AuthStep::TokenEndpoint) => BROWSER_SINCE,
                Some(_) => AUTH_SINCE,
                None => u8::MAX,
            };
            check(declared >= since && within(outcome, cap::LINE), "auth card")?;
            check(findings.len() <= cap::ITEMS, "auth findings")?;
            for (id, conformance, detail) in findings {
                check(
                    AuthCheck::parse(id).is_some()
                        && Conformance::parse(conformance).is_some()
                        && within(detail, cap::TEXT),
                    "auth finding",
                )?;
            }
        }
    }
    if let Some((conclusion, verdicts)) = &p.browser {
        check(declared >= BROWSER_SINCE && p.auth.is_some(), "browser")?;
        check(within(conclusion, cap::TEXT), "browser conclusion")?;
        check(verdicts.len() <= MAX_FETCHES + 4, "browser verdicts")?;
        for (step, access, detail) in verdicts {
            check(
                AuthStep::parse(step).is_some()
                    && BrowserAccess::parse(access).is_some()
                    && within(detail, cap::TEXT),
                "browser verdict",
            )?;
        }
    }
    check(p.rows.len() <= cap::ITEMS * 2, "rows")?;
    check(
        p.notes.len() <= cap::ITEMS && p.notes.iter().all(|n| within(n, cap::LINE)),
        "notes",
    )?;
    for row in &p.rows {
        check(Step::is_row_id(&row.step), "step")?;
        check(Channel::parse(&row.channel).is_some(), "channel")?;
        check(
            Cause::parse(&row.cause).is_some_and(|c| cause_since(c) <= declared),
            "cause",
        )?;
        check(
            match DecidedBy::parse(&row.decided_by) {
                Some(DecidedBy::Intent) => declared >= INTENT_SINCE,
                other => other.is_some(),
            },
            "decided_by",
        )?;
        check(
            row.tool.as_deref().is_none_or(|t| within(t, cap::NAME)),
            "tool",
        )?;
        check(row.evidence.len() <= cap::ITEMS, "evidence")?;
        for (fact, matched) in &row.evidence {
            check(
                within(fact, cap::LINE) && matched.as_deref().is_none_or(|m| within(m, cap::NAME)),
                "evidence",
            )?;
        }
        check(
            AgentAction::parse(&row.action).is_some() || (declared >= 5 && row.action == NO_ACTION),
            "action",
        )?;
        check(
            row.stopped.as_deref().is_none_or(|s| {
                StopReason::parse(s).is_some_and(|r| stop_since(r) <= declared)
                    && row.action == NO_ACTION
            }),
            "stopped",
        )?;
        check(
            row.flags.len() <= cap::ITEMS
                && row
                    .flags
                    .iter()
                    .all(|f| Flag::parse(f).is_some_and(|f| flag_since(f) <= declared)),
            "flags",
        )?;
        if let Some((conf, version, link, reason)) = &row.spec {
            // Up to v4 the third value was spelled `notapplicable`.
            let known = match conf.as_str() {
                "notapplicable" => declared < 5,
                "not_applicable" => declared >= 5,
                other => Conformance::parse(other).is_some(),
            };
            check(known, "spec")?;
            check(
                within(version, cap::SHORT) && within(reason, cap::TEXT),
                "spec",
            )?;
            check(
                within(link, cap::LINE) && link.starts_with("https://modelcontextprotocol.io/"),
                "spec link",
            )?;
        }
        check(
            row.excerpt
                .as_deref()
                .is_none_or(|e| within(e, cap::EXCERPT)),
            "excerpt",
        )?;
        if let Some(shape) = &row.shape {
            // The shape arrived with v3.
            check(declared >= 3, "shape")?;
            check(
                shape.blocks.len() <= cap::ITEMS
                    && shape.blocks.iter().all(|(t, _)| within(t, cap::SHORT))
                    && shape.structured_keys.len() <= cap::ITEMS
                    && shape.structured_keys.iter().all(|k| within(k, cap::SHORT)),
                "shape",
            )?;
        }
        check(
            row.skipped.as_deref().is_none_or(|s| within(s, cap::LINE)),
            "skipped",
        )?;
        if let Some((nothing, ids)) = &row.server {
            // The server author's advice arrived with v14: ids this build words, one for why
            // there is nothing to change, at most a few changes otherwise.
            check(declared >= SERVER_SINCE, "server")?;
            check(
                ids.iter()
                    .all(|id| crate::judge::server_advice::server_sentence(id).is_some())
                    && if *nothing {
                        ids.len() == 1
                    } else {
                        !ids.is_empty() && ids.len() <= cap::ITEMS
                    },
                "server",
            )?;
        }
    }
    Ok(())
}

/// Opens a fragment (with or without the leading `#`). Any failure is one [`Problem`], never partial
/// data.
pub fn decode(fragment: &str) -> Result<Share, Problem> {
    open(fragment).map_err(Problem::from)
}

/// A payload handed in as JSON (a baseline file's `run`) with the version it declares: validated
/// against that version and migrated, as a link's payload is.
pub(crate) fn open_payload(declared: u8, payload: Share) -> Result<Share, Problem> {
    if declared == 0 || declared > VERSION {
        return Err(ShareError::UnknownVersion.into());
    }
    validate(&payload, declared).map_err(Problem::from)?;
    Ok(migrate(payload))
}

/// [`decode`], with the failure as the decoder's own kind.
pub(crate) fn open(fragment: &str) -> Result<Share, ShareError> {
    if fragment.len() > MAX_FRAGMENT {
        return Err(ShareError::TooLong);
    }
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    // `r=`: a shared run (the share module opens it); `c=`: the same payload opened for comparing
    // (the tool opens it: a link with two runs, or a run to compare with another).
    let Some(rest) = fragment
        .strip_prefix("r=")
        .or_else(|| fragment.strip_prefix("c="))
    else {
        return Err(ShareError::WrongPrefix);
    };
    let (declared, data) = match rest.split_once('.') {
        Some(("v1", data)) => (1u8, data),
        Some(("v2", data)) => (2u8, data),
        Some(("v3", data)) => (3u8, data),
        Some(("v4", data)) => (4u8, data),
        Some(("v5", data)) => (5u8, data),
        Some(("v6", data)) => (6u8, data),
        Some(("v7", data)) => (7u8, data),
        Some(("v8", data)) => (8u8, data),
        Some(("v9", data)) => (9u8, data),
        Some(("v10", data)) => (10u8, data),
        Some(("v11", data)) => (11u8, data),
        Some(("v12", data)) => (12u8, data),
        Some(("v13", data)) => (13u8, data),
        Some(("v14", data)) => (14u8, data),
        _ => return Err(ShareError::UnknownVersion),
    };
    let packed = decode_base64url(data).ok_or(ShareError::BadEncoding)?;
    let json = inflate(&packed)?;
    let payload: Share =
        serde_json::from_slice(&json).map_err(|e| ShareError::BadPayload(e.to_string()))?;
    validate(&payload, declared)?;
    Ok(migrate(payload))
}
