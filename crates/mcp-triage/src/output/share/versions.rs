//! The payload versions: the one this build writes, the version that brought each identifier, and
//! the migration of a payload of any released version into the current structure.

use crate::judge::spec::Conformance;
use crate::vocabulary::cause::{Cause, Flag, StopReason};

use super::payload::{NO_ACTION, Share};

/// The payload version this build writes.
pub const VERSION: u8 = 14;
/// The fragment prefix of the version this build writes.
pub(crate) const PREFIX: &str = "r=v14.";

/// The first version that carries the server author's advice (`server`, as ids).
pub(super) const SERVER_SINCE: u8 = 14;

/// The first version that carries a second run to compare with (`compare`).
pub(super) const COMPARE_SINCE: u8 = 13;

/// The first version that carries the doctor's CORS verdicts (`browser`, and the token
/// endpoint's card).
pub(super) const BROWSER_SINCE: u8 = 12;

/// The first version that carries the OAuth doctor's `auth`.
pub(super) const AUTH_SINCE: u8 = 11;

/// The first version that carries `ended`.
pub(super) const ENDED_SINCE: u8 = 10;

/// The first version that may carry `cause`.
pub(super) fn cause_since(cause: Cause) -> u8 {
    match cause {
        Cause::ServerExited => 7,
        Cause::ConnectionLost => 9,
        _ => 1,
    }
}

/// The first version whose `decided_by` may be `intent`.
pub(super) const INTENT_SINCE: u8 = 8;

/// The first version whose endpoint may be a stdio program (`stdio:NAME`) instead of a URL.
pub(super) const STDIO_SINCE: u8 = 7;

/// The first version whose `stopped` may name `reason`.
pub(super) fn stop_since(reason: StopReason) -> u8 {
    match reason {
        StopReason::NotRecorded => 6,
        StopReason::ConnectionLost => 9,
        StopReason::Interrupted => 10,
        _ => 5,
    }
}

/// The payload version in which a flag identifier first appeared: a link may only carry the flags
/// its own version knew.
pub(super) fn flag_since(flag: Flag) -> u8 {
    // Exhaustive: a new flag must say which version brought it.
    match flag {
        Flag::MessageWithheld
        | Flag::SoftFailureSuspected
        | Flag::CodeInText
        | Flag::UnrelatedMessagesFirst
        | Flag::HeadersMayBeHidden => 1,
        Flag::SecretEchoed => 2,
        Flag::NonJsonStdout => 7,
        Flag::RefusalMislabelled => 8,
    }
}

/// Brings a payload of any released version into the current structure. v1 → v2 → v3: v1 could not
/// carry `secret_echoed` and v1/v2 rows have no `shape` (their excerpts stay as they were made), so
/// only the version number changes.
///
/// v3 → v4: a score always counted all three pairs, so `pairs` is 3 where there is a score.
///
/// v4 → v5: `notapplicable` is spelled `not_applicable`, and a skipped probe's action `proceed`
/// (advice it never deserved) becomes `none`. A v4 row cut by a deadline or Cancel cannot be told
/// from an answered one, so it keeps its action.
///
/// v5 → v6: only a new stop reason, so only the version number changes.
///
/// v6 → v7: only new identifiers (stdio), so only the version number changes.
///
/// v7 → v8: only a new `decided_by` value and a new flag, so only the version number changes (an older row decided by
/// intent says `structure`, as its link did).
///
/// v8 → v9: only a new stop reason and cause, so only the version number changes (a v8 row whose connection
/// broke mid-answer was recorded as answered, or as cancelled by the page, and says so still).
///
/// v9 → v10: `ended` is new and stays absent (an older link said how its run ended in its finding
/// only), and the stop reason `interrupted` is new; only the version number changes.
///
/// v10 → v11: `auth` is new and stays absent (no earlier run had an OAuth doctor); only the version
/// number changes.
///
/// v11 → v12: `browser` is new and stays absent (no earlier doctor ran in a page); only the version
/// number changes.
pub(super) fn migrate(mut p: Share) -> Share {
    if p.v < 4 && p.pairs.is_none() {
        p.pairs = p.score.map(|_| 3);
    }
    if p.v < 5 {
        for row in &mut p.rows {
            if let Some(spec) = &mut row.spec
                && spec.0 == "notapplicable"
            {
                spec.0 = Conformance::NotApplicable.as_str().to_string();
            }
            if row.skipped.is_some() {
                row.action = NO_ACTION.to_string();
            }
        }
    }
    if p.v < VERSION {
        p.v = VERSION;
    }
    p.compare = p.compare.map(|before| Box::new(migrate(*before)));
    p
}
