//! How every HTTP request ends, decided once for every shell. A shell sends the request and reports
//! what it saw as raw [`ReadEvent`]s (the response head as received, each chunk of bytes, a failed
//! read and its kind, the end of the stream, its one timer firing, Cancel); the [`RequestReader`]
//! answers each with what to do next ([`Next`]: read on until a moment, or stop and let go of the
//! request) and, at the end, makes the `mcp-exchange/1` record with the ending. Media types, caps,
//! what a 3xx means, the GET check's stop rule and when a deadline has passed are decided here; the
//! shells only carry them out. No clock: every event comes with the shell's `now`.
//!
//! One concern a file: `events` holds what a shell reports and what it is told, `request` the
//! [`RequestReader`] and how a request ends, `body_reader` one body being read (caps, our response,
//! server requests), `clock` the deadlines, and `reply` the answer owed to a server's own request.
//! Files import their siblings by name, never this file; it only gathers what the crate uses.
//!
//! May import: `vocabulary`, `secrets`, and `decode`'s body, jsonrpc and sse files.
//!
//! # What a browser cannot see
//!
//! `fetch` hides facts the CLI has; the page reports the nearest event and the ending stays the
//! same in both shells:
//!
//! - a reset, a body cut short of its length or chunking, and a TLS failure are one rejected
//!   promise: `Failed { kind: Other }`, so mid-body they are `connection_lost` in both shells (the
//!   CLI's client reads a reset mid-body as the peer closing, too);
//! - a connection closed before any answer is a rejected `fetch`, like a CORS refusal: `network` in
//!   both shells, and the page alone then runs the CORS doctor;
//! - a redirect is opaque to the page (`OpaqueRedirect`): both record `redirect_refused`, and only
//!   the CLI's detail gives the status;
//! - a repeated header is one comma-joined value in a browser and separate lines in the CLI; the
//!   media type read from either is the same.
//!
//! The fault table (`e2e/faults.mjs`, run by `e2e/tests/faults.mjs`) holds both shells to the same
//! endings under real faults, with these differences.

mod body_reader;
mod clock;
mod events;
mod reply;
mod request;
#[cfg(test)]
mod tests;

pub(crate) use clock::RequestClock;
pub use clock::head_deadline_ms;
pub use events::{Next, ReadEvent, ReadFailure};
pub(crate) use reply::reply_to_server_request;
pub use request::RequestReader;
