//! Bytes in, events out: response heads and bodies, Server-Sent Events, JSON-RPC frames, `WWW-Authenticate`
//! challenges, stdio lines, and the one reader that decides how every HTTP request ends.
//! Nothing here judges what a server meant.
//!
//! May import: `vocabulary`, `secrets`.

pub(crate) mod body;
pub(crate) mod challenge;
pub(crate) mod jsonrpc;
pub(crate) mod reader;
pub(crate) mod sse;
pub(crate) mod stdio;
