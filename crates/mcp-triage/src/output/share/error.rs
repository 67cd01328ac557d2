//! How large a link may be, and [`ShareError`]: why a link cannot be opened or made.

use std::fmt;

/// Generated links stay within this many characters (the whole URL).
pub const MAX_LINK: usize = 8_000;
/// The decoder refuses fragments longer than this before decoding.
pub(crate) const MAX_FRAGMENT: usize = 16_384;
/// Inflated payloads larger than this are refused (a deflate bomb stops here).
pub(crate) const MAX_INFLATED: usize = 64 * 1024;

problem_enum! {
/// Why a link cannot be opened or made.
ShareError => Link(LinkProblemId) {
    /// Longer than `MAX_FRAGMENT`.
    TooLong,
    /// Starts with neither `r=` nor `c=`.
    WrongPrefix,
    /// A version this build does not know (it opens `v1` up to [`VERSION`](super::VERSION)).
    UnknownVersion,
    /// Not strict base64url.
    BadEncoding,
    /// Not valid deflate, or larger than `MAX_INFLATED` once inflated.
    BadCompression,
    /// Not the schema of its version, or a field out of its caps.
    BadPayload(String),
    /// Even trimmed, the link would exceed [`MAX_LINK`].
    TooLargeToShare,
}
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::TooLargeToShare => {
                write!(
                    f,
                    "These results are too large to share as a link; download the JSON instead."
                )
            }
            _ => write!(
                f,
                "This link is invalid or damaged, so nothing from it is shown."
            ),
        }
    }
}
