//! Redaction of secrets from everything a server sent back, in one place that every output reuses
//! (capture in the engine, display, JSON download, Markdown, share link).
//!
//! Servers echo tokens in error text, headers and HTML pages, in whatever escaping their JSON or HTML
//! writer uses. A secret is found by a *decoding matcher*: the text is read as it is, then with one
//! layer of per-character escapes decoded (JSON `\uXXXX` in either hex case with surrogate pairs,
//! `\/` and the other JSON escapes, `%XX` in either case, HTML character references: decimal, hex and
//! the named references of printable ASCII, with or without `;`), then with one more JSON-string layer
//! decoded (a JSON document inside a JSON string). In each reading, every run of
//! [`MIN_SECRET_RUN`](crate::vocabulary::limits::MIN_SECRET_RUN) or more consecutive characters of a
//! *secret form* is replaced in the source text: the forms are the secret itself, its hex (either
//! case), and the stable cores of base64 and base64url of the secret and of `Bearer <secret>` at all
//! three alignments.
//! Matching is linear: each 8-character window is one `u64` looked up in a sorted table.
//! Then `Bearer …` spans holding a token-shaped value and JWT-shaped strings are replaced too.
//!
//! One concern a file: `secret_set` holds the run's secrets as a sorted table of windows, `forms`
//! spells the forms a secret is matched in, `base64` the encoders, `encodings` (built for tests only)
//! every form in full, `layer` reads a text with one layer of escapes decoded at a time, `exact` is the
//! matcher that replaces the secrets in every reading, `patterns` removes `Bearer …` spans and JWTs
//! and gives [`redact`], `exchange` redacts a whole recorded exchange, and `credentials` holds what a
//! run sends. Files import their siblings by name, never this file; it only gathers what the crate
//! uses.
//!
//! May import: `vocabulary`.

mod base64;
mod credentials;
#[cfg(any(test, feature = "testing"))]
mod encodings;
mod exact;
mod exchange;
mod forms;
mod layer;
mod patterns;
mod secret_set;
#[cfg(test)]
mod tests;

pub(crate) use base64::{base64_std, base64url};
pub use credentials::Credentials;
#[cfg(any(test, feature = "testing"))]
pub(crate) use encodings::encodings;
pub(crate) use exact::{MARK, redact_exact, redact_exact_with};
pub use exchange::redact_exchange;
pub use patterns::{redact, redact_by_line};
pub use secret_set::Secrets;
