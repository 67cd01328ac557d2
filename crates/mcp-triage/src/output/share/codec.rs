//! The compact codec: a payload as compact JSON → raw deflate → base64url behind the version
//! prefix, and the strict base64url and size-limited inflate that opening a fragment starts with.

use crate::secrets::redact;

use super::error::{MAX_INFLATED, ShareError};
use super::payload::Share;
use super::versions::PREFIX;

/// The fragment (without `#`) for a payload, untrimmed.
pub fn encode(p: &Share) -> String {
    let json = serde_json::to_vec(p).unwrap_or_default();
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{PREFIX}{}", redact::base64url(&packed))
}

pub(super) fn decode_base64url(text: &str) -> Option<Vec<u8>> {
    if !text
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        || text.len() % 4 == 1
    {
        return None;
    }
    let bytes = crate::vocabulary::exchange::decode_base64(text)?;
    // Strict: the unused low bits of the last character must be zero (one canonical encoding).
    (redact::base64url(&bytes) == text).then_some(bytes)
}

/// Inflates a payload, refusing one larger than [`MAX_INFLATED`] (a deflate bomb stops here).
pub(super) fn inflate(packed: &[u8]) -> Result<Vec<u8>, ShareError> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(packed, MAX_INFLATED)
        .map_err(|_| ShareError::BadCompression)
}
