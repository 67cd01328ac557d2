//! The forms a secret's windows are matched in: itself, its hex, and the stable base64 cores.

use super::base64::{B64_STD, B64_URL, base64_with};
use crate::vocabulary::limits::MIN_SECRET_RUN;

pub(super) fn hex_lower(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}

/// The case-sensitive forms: the value and the stable base64 / base64url cores of the value and of
/// `Bearer <value>` at the three alignments.
pub(super) fn case_sensitive_forms(secret: &str) -> Vec<String> {
    let mut forms = vec![secret.to_string()];
    forms.extend(base64_cores(secret.as_bytes(), 0));
    forms.extend(base64_cores(
        format!("Bearer {secret}").as_bytes(),
        "Bearer ".len(),
    ));
    forms
}

/// The characters of base64 and base64url of `subject` that do not depend on the bytes around them,
/// for each of the three alignments. The first `public` bytes of the subject are no secret (`Bearer `):
/// the core starts late enough that every 8-character window holds some of the secret's bits (the
/// encoding of `Bearer ` alone is the same for every token, and is not a leak).
fn base64_cores(subject: &[u8], public: usize) -> Vec<String> {
    let mut out = Vec::new();
    for table in [B64_STD, B64_URL] {
        for shift in 0..3usize {
            let mut bytes = vec![0u8; shift];
            bytes.extend_from_slice(subject);
            let encoded = base64_with(&bytes, table, false);
            // Drop characters influenced by the unknown bytes before and after the subject.
            let skip = if shift == 0 {
                0
            } else {
                (shift * 4).div_ceil(3)
            };
            let keep_until = (shift + subject.len()) * 8 / 6;
            // The first character made of the secret's bits alone; every window keeps at least
            // one such character (a character mixing `Bearer ` with a few secret bits is shared
            // by many secrets).
            let first_secret_only = ((shift + public) * 8).div_ceil(6);
            let start = skip.max(first_secret_only.saturating_sub(MIN_SECRET_RUN - 1));
            if keep_until > start {
                out.push(encoded[start..keep_until.min(encoded.len())].to_string());
            }
        }
    }
    out
}
