//! Share links that carry no secret: a versioned, allowlisted payload, compact JSON → raw deflate →
//! base64url in the URL fragment (`#r=vN.…`, N the payload version, [`VERSION`] for a link this
//! build makes), which browsers never send to a server.
//!
//! Share links are a public format. A payload version, once released, is frozen: any new identifier
//! makes a new version, and every older version keeps opening by being *migrated* into the current
//! structure (never by a frozen copy of an old decoder). Version 1 (2026-12-02) had no
//! `secret_echoed` flag; version 2 adds it; version 3 replaces the excerpt of a successful result by
//! its `shape` (the server's data is not ours to publish); version 4 adds `pairs` (how many pairs the
//! score judged); version 5 spells the spec verdict `not_applicable` (the labelled name, was
//! `notapplicable`), gives a probe that was skipped or not answered the action `none` (was
//! `proceed`) and says what stopped an unanswered one (`stopped`); version 6 adds the stop reason
//! `not_recorded` (a replayed request the recording holds no answer to); version 7 carries stdio runs:
//! the endpoint `stdio:NAME` (a program's name, never its arguments), the cause `server_exited` and
//! the flag `non_json_stdout` (a stdio server's stderr never goes into a link); version 8 adds the
//! `decided_by` value `intent` (a verdict the probe's intent decided, labelled `structure` before) and
//! the flag `refusal_mislabelled`; version 9 adds the stop reason and the cause `connection_lost`
//! (the connection broke before the answer ended); version 10 adds `ended` (how the run ended, a
//! [`RunEnd`] identifier) and the stop reason `interrupted` (a signal stopped the command line's run
//! while it waited for the answer); version 11 adds `auth` (the OAuth doctor's verdicts); version
//! 12 adds `browser` (the page's CORS verdicts); version 13 adds `compare` (a second run, the
//! baseline, so a link can carry a comparison of two runs); version 14 adds a row's `server` (the
//! server author's advice as sentence ids).
//! `tests/share-links/` holds links of every version.
//!
//! Server text that looks like a secret (see [`crate::output::withhold`]) is withheld unless the user opts in
//! for this link; [`build`](fn@build) says how many values it withheld.
//! Decoding refuses long fragments before doing any work, accepts only strict base64url, inflates
//! with a hard output limit, parses with `deny_unknown_fields`, and checks every length cap and every
//! identifier; any failure is one error, never a partial result.
//!
//! The files: `payload` holds the schema a link carries ([`Share`], [`ShareRow`], [`ResultShape`],
//! [`NO_ACTION`]); `cap` holds the schema's length caps and the `clip` that keeps a string within
//! one; `versions` holds the version this build writes, the version that brought each identifier,
//! and the migration of older payloads; `error` holds the size limits of a link and [`ShareError`];
//! `codec` holds the compact codec (JSON → deflate → base64url and back); `build` makes the
//! allowlisted, cleaned payload from a report and redacts a payload a second time; `decode` opens a
//! fragment and validates it against its declared version; `link` fits a payload into a link and
//! makes the link the share panel shows; `tests` holds the unit tests.
//!
//! May import: vocabulary, secrets, judge, run, and output's export and withhold.
//!
//! [`RunEnd`]: crate::vocabulary::cause::RunEnd

mod build;
mod cap;
mod codec;
mod decode;
mod error;
mod link;
mod payload;
mod versions;

#[cfg(test)]
mod tests;

pub use build::{BuildOptions, Built, build, redact_payload};
pub use codec::encode;
pub use decode::decode;
pub(crate) use decode::open_payload;
pub use error::{MAX_LINK, ShareError};
pub use link::{HOSTED_PAGE, Link, LinkOutcome, as_comparison, comparison_link, fit, make_link};
pub use payload::{
    NO_ACTION, ResultShape, Share, ShareAuth, ShareAuthCard, ShareBrowser, ShareRow, ShareServer,
};
pub use versions::VERSION;
