//! The OAuth doctor: authorization discovery walked the way a client of the judged revision walks
//! it, one fetch at a time, each answer a card with its findings and their citations.
//!
//! May import: `vocabulary`, `secrets`, `decode`, `judge`, `run::endpoint` and `run::cors` (the
//! CORS doctor's requests and outcomes); never the engine (the engine's report carries what this
//! makes).

mod browser;
mod check;
mod doctor;
mod judge;
mod renew;
mod round_trip;
mod signin;
mod urls;

pub use browser::{BrowserAccess, BrowserVerdict};
pub use check::{AuthCheck, AuthRule, Finding, Level, REVISIONS, rule};
pub use doctor::{AuthCard, AuthDoctor, AuthReport, MAX_FETCHES};
pub(crate) use judge::origins_only;
pub use renew::{Renewal, TokenIssue};
pub use round_trip::{ROUND_TRIP_FORMAT, ROUND_TRIP_KEY, ROUND_TRIP_MAX_AGE_SECONDS, ReturnTo};
pub use signin::{
    LISTENER_MAX_HEAD, LISTENER_MAX_REQUESTS, MAX_METADATA_DOCUMENT, SIGN_IN_RANDOM_BYTES,
    SIGN_IN_WAIT_SECONDS, SignIn, SignInInput, SignInNext,
};
