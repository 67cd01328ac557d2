//! MCP Triage core: decode and classify MCP exchanges captured on the wire, with no I/O and no clock.
//!
//! This crate contains no networking code and never reads the time or a random source. Callers hand it
//! what they saw (an [`Exchange`]: request, response bytes and headers, how reading ended) and the limits
//! to apply; it hands back a [`Verdict`]. Classification is total: garbage in gives a `malformed` or
//! `unknown` verdict with reasons, never an error or a panic.

/// One table → an enum's variants, its stable snake_case identifiers (serde and `as_str` agree),
/// parsing and `Display`: every identifier other tools read is spelled once.
macro_rules! labelled_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $label:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, ::serde::Serialize, ::serde::Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The stable identifier.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $label,)*
                }
            }

            /// Parses the stable identifier.
            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $($label => Some($name::$variant),)*
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub mod advice;
mod assess;
mod body;
mod catalogue;
pub mod cause;
mod challenge;
mod classify;
pub mod cors;
pub mod endpoint;
pub mod engine;
pub mod exchange;
pub mod export;
mod header;
mod jsonrpc;
pub mod leak;
pub mod limits;
pub mod plan_file;
mod reader;
pub mod redact;
pub mod replay;
mod rules;
mod runs;
pub mod share;
mod spec;
mod sse;
pub mod stdio;
mod summary;
mod withhold;

pub use assess::{Assessment, assess};
pub use catalogue::{SkipReason, ToolRisk};
pub use cause::{Cause, Channel, DecidedBy, Evidence, EvidenceKind};
pub use classify::{Options, Verdict, classify};
pub use exchange::{Exchange, ExchangeError, Request, Response};
pub use limits::Limits;
pub use reader::{Next, ReadEvent, ReadFailure, RequestReader, head_deadline_ms};
pub use spec::{Conformance, Probe, SpecVerdict};
pub use summary::{score_text, summarize};

/// A phrase rule's id, where its words were seen, and the fixtures it must fire on.
pub type RuleProvenance = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

/// Every phrase rule of `rules/phrases.rules` with its provenance, in file order: for the
/// reason-pinning test (`tests/pins.rs`). Nothing in the page calls it, so none of it reaches the
/// bundle.
#[doc(hidden)]
pub fn phrase_rule_provenance() -> &'static [RuleProvenance] {
    rules::PROVENANCE
}

#[cfg(all(test, target_arch = "wasm32"))]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
