//! Redaction of secrets from everything a server sent back, in one place that every output reuses
//! (capture, display, JSON download, Markdown, share link).
//!
//! Servers echo tokens in error text, headers and HTML pages. Before any server-derived string enters
//! a result, the exact secrets (the token and extra secret header values) are replaced in all the
//! encodings a server might use — raw, JSON-escaped, percent-encoded, base64 and base64url in all three
//! alignments, hex — and then `Bearer …` spans and JWT-shaped strings are replaced too.

/// The visible mark left where a secret was.
pub const MARK: &str = "[REDACTED]";

/// The secrets of a run. `Debug` never prints them; there is deliberately no `Serialize`.
#[derive(Clone, Default)]
pub struct Secrets {
    values: Vec<String>,
    /// Every encoded form of every value, longest first, computed once (redaction runs on every
    /// header and body of a run).
    forms: Vec<String>,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secrets([REDACTED] x{})", self.values.len())
    }
}

impl Secrets {
    /// Secrets from the token and extra secret header values (empty ones are ignored).
    pub fn new<'a>(values: impl IntoIterator<Item = &'a str>) -> Secrets {
        let mut values: Vec<String> = values
            .into_iter()
            .map(str::trim)
            .filter(|v| v.len() >= 4)
            .map(str::to_string)
            .collect();
        values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        values.dedup();
        let mut forms: Vec<String> = values.iter().flat_map(|v| encodings(v)).collect();
        forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
        forms.dedup();
        Secrets { values, forms }
    }

    /// True when there is nothing to redact but patterns.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

const B64_STD: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64_with(bytes: &[u8], table: &[u8], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        let chars = chunk.len() + 1;
        for i in 0..4 {
            if i < chars {
                out.push(char::from(table[((n >> (18 - 6 * i)) & 63) as usize]));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 with padding.
pub fn base64_std(bytes: &[u8]) -> String {
    base64_with(bytes, B64_STD, true)
}

/// base64url without padding (share links).
pub fn base64url(bytes: &[u8]) -> String {
    base64_with(bytes, B64_URL, false)
}

fn percent_encode_with(s: &str, lower_hex: bool) -> String {
    let mut out = String::new();
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

fn percent_encode(s: &str) -> String {
    percent_encode_with(s, false)
}

/// Every form of `secret` a server might echo. Base64 forms are the stable cores: the characters that
/// do not depend on the bytes around the secret, for each of the three alignments.
pub fn encodings(secret: &str) -> Vec<String> {
    let mut forms = vec![secret.to_string()];
    let json = serde_json::to_string(secret).unwrap_or_default();
    forms.push(json.trim_matches('"').to_string());
    forms.push(percent_encode(secret));
    // Lower-case escapes (`%2f`) keep the secret's own letters as they are.
    forms.push(percent_encode_with(secret, true));
    let hex: String = secret.bytes().map(|b| format!("{b:02x}")).collect();
    forms.push(hex.to_ascii_uppercase());
    forms.push(hex);
    for table in [B64_STD, B64_URL] {
        for shift in 0..3usize {
            let mut bytes = vec![0u8; shift];
            bytes.extend_from_slice(secret.as_bytes());
            let encoded = base64_with(&bytes, table, false);
            // Drop characters influenced by the unknown bytes before and after the secret.
            let skip = if shift == 0 {
                0
            } else {
                (shift * 4).div_ceil(3)
            };
            let total_bits = (shift + secret.len()) * 8;
            let keep_until = total_bits / 6;
            if keep_until > skip + 3 {
                forms.push(encoded[skip..keep_until.min(encoded.len())].to_string());
            }
        }
    }
    forms.retain(|f| f.len() >= 4);
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    forms.dedup();
    forms
}

fn replace_all(text: &str, needle: &str, count: &mut usize) -> String {
    if needle.is_empty() || !text.contains(needle) {
        return text.to_string();
    }
    *count += text.matches(needle).count();
    text.replace(needle, MARK)
}

fn is_token68(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~+/=".contains(c)
}

/// Replaces `Bearer <token>` spans (any case) with `Bearer [REDACTED]`.
fn redact_bearer(text: &str, count: &mut usize) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(rel) = lower[i..].find("bearer ") {
        let start = i + rel + "bearer ".len();
        out.push_str(&text[i..start]);
        let rest = &text[start..];
        let len: usize = rest
            .chars()
            .take_while(|c| is_token68(*c))
            .map(char::len_utf8)
            .sum();
        if len >= 8 && &rest[..len] != MARK {
            out.push_str(MARK);
            *count += 1;
        } else {
            out.push_str(&rest[..len]);
        }
        i = start + len;
    }
    out.push_str(&text[i..]);
    out
}

/// Replaces JWT-shaped strings (`eyJ….….…`) with the mark.
fn redact_jwt(text: &str, count: &mut usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let b = text.as_bytes();
    let seg = |c: u8| c.is_ascii_alphanumeric() || c == b'-' || c == b'_';
    while i < b.len() {
        if b[i..].starts_with(b"eyJ") && (i == 0 || !seg(b[i - 1])) {
            let mut j = i;
            let mut dots = 0;
            let mut seg_len = 0;
            let mut ok = true;
            while j < b.len() && (seg(b[j]) || b[j] == b'.') {
                if b[j] == b'.' {
                    if seg_len < 4 {
                        ok = false;
                    }
                    dots += 1;
                    seg_len = 0;
                } else {
                    seg_len += 1;
                }
                j += 1;
            }
            if ok && dots == 2 {
                out.push_str(MARK);
                *count += 1;
                i = j;
                continue;
            }
            // Not a JWT: copy the whole run scanned, so no byte is scanned twice (linear time).
            out.push_str(&text[i..j]);
            i = j;
            continue;
        }
        let ch_len = text[i..].chars().next().map(char::len_utf8).unwrap_or(1);
        out.push_str(&text[i..i + ch_len]);
        i += ch_len;
    }
    out
}

/// Redacts one server-derived string; returns the text and how many spans were replaced.
pub fn redact(text: &str, secrets: &Secrets) -> (String, usize) {
    let (out, mut count) = redact_exact(text, secrets);
    let out = redact_bearer(&out, &mut count);
    let out = redact_jwt(&out, &mut count);
    (out, count)
}

/// Redacts only the exact secrets (in every encoding), not the `Bearer`/JWT patterns: for values the
/// client must send back verbatim, such as a server-chosen `Mcp-Session-Id` that may look like a JWT.
pub fn redact_exact(text: &str, secrets: &Secrets) -> (String, usize) {
    let mut count = 0;
    let mut out = text.to_string();
    for form in &secrets.forms {
        out = replace_all(&out, form, &mut count);
    }
    (out, count)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    const SENTINEL: &str = "mcptriageSENTINEL_abcdefghijklmnopqrstuvwxyzABCDEF";

    #[test]
    fn every_encoding_of_the_token_is_removed() {
        let secrets = Secrets::new([SENTINEL]);
        for prefix in ["", "x", "xy", "xyz"] {
            let blob = format!("{prefix}{SENTINEL}!");
            let samples = [
                format!("token {SENTINEL} echoed"),
                format!("b64 {} here", base64_std(blob.as_bytes())),
                format!("b64url {} here", base64url(blob.as_bytes())),
                format!("pct {}", percent_encode(&blob)),
                format!(
                    "hex {}",
                    blob.bytes().map(|b| format!("{b:02x}")).collect::<String>()
                ),
            ];
            for s in samples {
                let (out, n) = redact(&s, &secrets);
                assert!(n > 0, "not redacted: {s}");
                assert!(!out.contains("SENTINEL"), "{out}");
                for form in encodings(SENTINEL) {
                    assert!(!out.contains(&form), "{form} left in {out}");
                }
            }
        }
    }

    #[test]
    fn bearer_spans_and_jwts_go_even_without_known_secrets() {
        let s = Secrets::default();
        let (out, n) = redact("Authorization: Bearer abcdefgh12345678 was refused", &s);
        assert_eq!(out, "Authorization: Bearer [REDACTED] was refused");
        assert_eq!(n, 1);
        let jwt = "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2hlcmU end";
        assert_eq!(redact(jwt, &s).0, "token [REDACTED] end");
        assert_eq!(redact("nothing here", &s), ("nothing here".into(), 0));
    }

    /// A quadratic scan of these 800,000 characters would not finish; how fast it is belongs to a
    /// benchmark, not here.
    #[test]
    fn a_hostile_run_of_near_jwts_finishes_and_is_left_unchanged() {
        let text = "eyJ.".repeat(200_000);
        let (out, n) = redact(&text, &Secrets::default());
        assert_eq!(n, 0);
        assert_eq!(out, text);
    }

    #[test]
    fn debug_never_prints_secrets() {
        let s = Secrets::new([SENTINEL]);
        assert!(!format!("{s:?}").contains("SENTINEL"));
    }
}
