//! Percent-encoding of everything outside RFC 3986's unreserved characters: one spelling for the
//! query values the OAuth doctor writes and the encoded forms redaction looks for.

/// `s` with every byte outside `A–Z a–z 0–9 - . _ ~` as `%XX` (`%xx` when `lower_hex`).
pub(crate) fn percent_encode_with(s: &str, lower_hex: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else if lower_hex {
            out.push_str(&format!("%{b:02x}"));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
