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
