//! Every form of a secret spelled out in full (with its percent-encodings), for the leak checks and
//! tests; redaction itself matches windows of the forms (see `forms`). Built with tests only.

use super::forms::{case_sensitive_forms, hex_lower};
use crate::vocabulary::limits::MIN_SECRET_RUN;
use crate::vocabulary::percent::percent_encode_with;

fn percent_encode(s: &str) -> String {
    percent_encode_with(s, false)
}

/// Every form of `secret` a server might echo, spelled out (for leak checks and tests; redaction
/// itself matches windows of these and decodes escapes, see the module docs).
pub(crate) fn encodings(secret: &str) -> Vec<String> {
    let mut forms = case_sensitive_forms(secret);
    let json = serde_json::to_string(secret).unwrap_or_default();
    forms.push(json.trim_matches('"').to_string());
    forms.push(percent_encode(secret));
    forms.push(percent_encode_with(secret, true));
    let hex = hex_lower(secret);
    forms.push(hex.to_ascii_uppercase());
    forms.push(hex);
    forms.retain(|f| f.len() >= MIN_SECRET_RUN);
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    forms.dedup();
    forms
}
