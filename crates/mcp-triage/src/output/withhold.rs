//! Server data that looks like a secret, withheld from what people share (share links): values of
//! `NAME=value` and `"NAME": "value"` pairs whose name reads like a secret, private-key blocks, JWTs,
//! passwords in connection strings (`scheme://user:pass@host`), and long base64 or hex runs. Our own
//! secrets are redacted elsewhere ([`crate::secrets::redact`]); these are the *server's* secrets, which are not
//! ours to publish. Every pass is linear in the text.

/// What stands where a value was withheld.
pub(crate) const WITHHELD: &str = "[withheld]";

/// Name words that make a `NAME=value` pair's value look like a secret.
const SECRET_NAME_WORDS: &[&str] = &[
    "key",
    "keys",
    "apikey",
    "token",
    "tokens",
    "secret",
    "secrets",
    "password",
    "passwd",
    "pwd",
    "credential",
    "credentials",
    "auth",
    "authorization",
    "cookie",
    "cookies",
    "session",
    "sessionid",
    "private",
    "privatekey",
];

/// A base64 run at least this long (with letters and digits) is withheld.
const LONG_BASE64: usize = 40;
/// A hex run at least this long is withheld.
const LONG_HEX: usize = 32;

fn secret_name(name: &str) -> bool {
    crate::run::catalogue::words(name)
        .iter()
        .any(|w| SECRET_NAME_WORDS.contains(&w.as_str()))
}

fn name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')
}

/// Withholds secret-shaped values; returns the text and how many values were withheld.
pub(crate) fn withhold(text: &str) -> (String, usize) {
    let mut count = 0;
    let out = private_keys(text, &mut count);
    let out = connection_passwords(&out, &mut count);
    let out = named_values(&out, &mut count);
    let out = long_runs(&out, &mut count);
    (out, count)
}

fn private_keys(text: &str, count: &mut usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("-----BEGIN ") {
        let head_end = rest[at..]
            .find("-----\n")
            .or_else(|| rest[at + 11..].find("-----").map(|i| i + 11));
        let is_private = head_end.is_some_and(|e| rest[at..at + e].contains("PRIVATE KEY"));
        if !is_private {
            out.push_str(&rest[..at + 11]);
            rest = &rest[at + 11..];
            continue;
        }
        out.push_str(&rest[..at]);
        out.push_str(WITHHELD);
        *count += 1;
        rest = match rest[at..].find("-----END ") {
            Some(end) => {
                let after = &rest[at + end + 9..];
                match after.find("-----") {
                    Some(close) => &after[close + 5..],
                    None => "",
                }
            }
            None => "",
        };
    }
    out.push_str(rest);
    out
}

fn connection_passwords(text: &str, count: &mut usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let start = at + 3;
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let stop = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '/' | '"' | '\'' | '\\' | '<' | '>'))
            .unwrap_or(tail.len());
        let authority = &tail[..stop];
        match authority.rfind('@') {
            Some(atsign) if authority[..atsign].contains(':') => {
                let colon = authority.find(':').unwrap_or(0);
                out.push_str(&authority[..=colon]);
                out.push_str(WITHHELD);
                out.push_str(&authority[atsign..]);
                *count += 1;
                rest = &tail[stop..];
            }
            _ => rest = tail,
        }
    }
    out.push_str(rest);
    out
}

/// `NAME=value`, `NAME: value` inside JSON (`"NAME": "value"`, also with escaped quotes).
fn named_values(text: &str, count: &mut usize) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        if !name_char(b[i]) || (i > 0 && name_char(b[i - 1])) {
            i += 1;
            continue;
        }
        let name_start = i;
        while i < b.len() && name_char(b[i]) {
            i += 1;
        }
        let name = &text[name_start..i];
        // What separates the name from its value: `=`, or a closing quote (plain or escaped),
        // `:` and an opening quote (plain or escaped), with spaces allowed.
        let mut j = i;
        let json = if b.get(j) == Some(&b'=') {
            j += 1;
            None
        } else {
            let escaped = b.get(j) == Some(&b'\\') && b.get(j + 1) == Some(&b'"');
            let plain = b.get(j) == Some(&b'"');
            if !(escaped || plain) {
                continue;
            }
            j += if escaped { 2 } else { 1 };
            while b.get(j) == Some(&b' ') {
                j += 1;
            }
            if b.get(j) != Some(&b':') {
                continue;
            }
            j += 1;
            while b.get(j) == Some(&b' ') {
                j += 1;
            }
            let open_escaped = b.get(j) == Some(&b'\\') && b.get(j + 1) == Some(&b'"');
            if open_escaped {
                j += 2;
            } else if b.get(j) == Some(&b'"') {
                j += 1;
            } else {
                continue;
            }
            Some(open_escaped)
        };
        if !secret_name(name) {
            continue;
        }
        let value_start = j;
        let mut k = j;
        match json {
            None => {
                while k < b.len()
                    && !b[k].is_ascii_whitespace()
                    && !matches!(b[k], b'&' | b',' | b';' | b'"' | b'\'' | b'\\' | b'<')
                {
                    k += 1;
                }
            }
            Some(escaped) => {
                // Up to the closing quote: `\"` when the pair is inside an escaped JSON string.
                while k < b.len() {
                    if escaped && b[k] == b'\\' && b.get(k + 1) == Some(&b'"') {
                        break;
                    }
                    if !escaped && b[k] == b'"' {
                        break;
                    }
                    if !escaped && b[k] == b'\\' {
                        k += 1;
                    }
                    k += 1;
                }
                k = k.min(b.len());
            }
        }
        let value = &text[value_start..k];
        if !value.is_empty() && value != WITHHELD && value != crate::secrets::redact::MARK {
            out.push_str(&text[copied..value_start]);
            out.push_str(WITHHELD);
            copied = k;
            *count += 1;
        }
        i = k.max(i);
    }
    out.push_str(&text[copied..]);
    out
}

/// JWT-shaped strings and long base64 or hex runs.
fn long_runs(text: &str, count: &mut usize) -> String {
    let b = text.as_bytes();
    let b64 = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'-' | b'_' | b'.');
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        if !b64(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b64(b[i]) {
            i += 1;
        }
        let mut end = i;
        while end < b.len() && b[end] == b'=' {
            end += 1;
        }
        let run = &text[start..i];
        let hex = run.len() >= LONG_HEX && run.bytes().all(|c| c.is_ascii_hexdigit());
        let jwt = run.starts_with("eyJ") && run.matches('.').count() == 2;
        let letters = run.bytes().any(|c| c.is_ascii_alphabetic());
        let digits = run.bytes().any(|c| c.is_ascii_digit());
        // A long run with dots is a path or a host, not a blob; a blob has digits or mixed case
        // (base64 of any text has both cases).
        let upper = run.bytes().any(|c| c.is_ascii_uppercase());
        let lower = run.bytes().any(|c| c.is_ascii_lowercase());
        let blob = run.len() >= LONG_BASE64
            && letters
            && (digits || (upper && lower))
            && !run.contains('.');
        if hex || jwt || blob {
            out.push_str(&text[copied..start]);
            out.push_str(WITHHELD);
            copied = end;
            *count += 1;
        }
        i = end.max(i);
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn secret_shaped_values_are_withheld_and_counted() {
        let key =
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----";
        let text = format!(
            "env: API_KEY=sk-live-123 HOME=/root SESSION_ID=abc; {{\"password\": \"hunter2\", \"user\": \"ann\"}} \
             {{\\\"authToken\\\":\\\"t0k3n\\\"}} db postgres://app:s3cret@db.internal:5432/app {key} \
             jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl blob QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVoxMjM0NTY3ODkw== \
             hex 0123456789abcdef0123456789abcdef01 done"
        );
        let (out, n) = withhold(&text);
        for secret in [
            "sk-live-123",
            "abc;",
            "hunter2",
            "t0k3n",
            "s3cret",
            "MIIEow",
            "eyJhbGci",
            "QUJDREVG",
            "0123456789abcdef01",
        ] {
            assert!(!out.contains(secret), "{secret} left in {out}");
        }
        for kept in [
            "HOME=/root",
            "\"user\": \"ann\"",
            "postgres://app:[withheld]@db.internal:5432/app",
            "done",
            "SESSION_ID=[withheld];",
        ] {
            assert!(out.contains(kept), "{kept:?} lost in {out}");
        }
        assert_eq!(n, 9, "{out}");
    }

    #[test]
    fn ordinary_error_texts_are_left_alone() {
        for text in [
            "Tool mcp_triage_no_such_tool_cdd4d8969800 not found",
            "MCP error -32602: Invalid arguments for tool lead_get: [{\"path\": [\"id\"], \"message\": \"Required\"}]",
            "lead not found in this organization",
            "see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-location",
            "{\"author\": \"Jane\", \"keyboard\": \"us\"}",
            "session 550e8400-e29b-41d4-a716-446655440000 expired",
        ] {
            assert_eq!(withhold(text), (text.to_string(), 0), "{text}");
        }
    }
}
