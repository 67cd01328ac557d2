//! Secrets: the credentials a run holds, how every output finds and masks them in any encoding, and
//! how a request is recorded with its credentials marked (never their values).
//!
//! May import: `vocabulary`.

pub(crate) mod recorded;
pub(crate) mod redact;
