//! Percent-encoding of everything outside RFC 3986's unreserved characters: one spelling for the
//! query values the OAuth doctor writes and the encoded forms redaction looks for.

/// `pairs` as `application/x-www-form-urlencoded` (each name and value percent-encoded): a token
/// request's body, or a query.
pub(crate) fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| {
            format!(
                "{}={}",
                percent_encode_with(k, false),
                percent_encode_with(v, false)
            )
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// `url` with `pairs` added to its query.
pub(crate) fn with_query(url: &str, pairs: &[(&str, &str)]) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}{}", form(pairs))
}

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
