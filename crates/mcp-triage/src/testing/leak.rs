//! Test support for the leak tests, shared by the native tests, the CLI's tests and the browser tests
//! (through the `leakcheck` binary): one set of sentinels, every form a hostile server echoes them in,
//! and one checker that says whether any 8 characters of a secret survive in a text.
//!
//! The checker is written apart from [`crate::secrets::redact`]: it decodes whole texts (JSON escapes twice,
//! percent-encoding, HTML references, Markdown backslash escapes) and searches plain substrings, where
//! redaction decodes per character and looks windows up in a table. Nothing here is used by the page.

use crate::secrets::redact::{base64_std, base64url};

/// The secrets of a leak test run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sentinels {
    /// The bearer token: printable ASCII with `+ / " \`, 40+ characters.
    pub token: String,
    /// A secret extra header's value, built the same way.
    pub header: String,
    /// Goes in the endpoint's path and query: a non-ASCII letter, no `\`.
    pub path: String,
}

/// How many consecutive characters of a secret make a leak.
pub const RUN: usize = crate::vocabulary::limits::MIN_SECRET_RUN;

fn letters(seed: &mut u64, n: usize) -> String {
    (0..n)
        .map(|_| {
            // xorshift64*: small, deterministic per seed.
            *seed ^= *seed >> 12;
            *seed ^= *seed << 25;
            *seed ^= *seed >> 27;
            let v = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33;
            let table = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
            char::from(table[(v % 52) as usize])
        })
        .collect()
}

impl Sentinels {
    /// Sentinels from a seed (the runner draws the seed, so no fixed string can make a check pass).
    pub fn new(seed: u64) -> Sentinels {
        let mut s = seed | 1;
        Sentinels {
            token: format!(
                "mcp+TOKEN/{}\"{}\\{}",
                letters(&mut s, 12),
                letters(&mut s, 12),
                letters(&mut s, 12)
            ),
            header: format!(
                "hdr+SECRET/{}\"{}\\{}",
                letters(&mut s, 12),
                letters(&mut s, 12),
                letters(&mut s, 12)
            ),
            path: format!("päth{}", letters(&mut s, 32)),
        }
    }

    /// The secrets by name: `token`, `header`, `path`.
    pub fn named(&self) -> [(&'static str, &str); 3] {
        [
            ("token", &self.token),
            ("header", &self.header),
            ("path", &self.path),
        ]
    }
}

/// The forms a hostile server echoes a secret in (the forms of the redaction issue, each alone).
pub const FORMS: &[&str] = &[
    "exact",
    "hex_lower",
    "hex_upper",
    "json_u_upper",
    "json_u_lower",
    "json_slash",
    "percent",
    "base64",
    "base64_x",
    "base64_xy",
    "base64url",
    "base64url_x",
    "base64url_xy",
    "base64_bearer",
    "html_decimal",
    "html_hex",
    "html_named",
    "nested_json",
];

fn json_string_body(s: &str) -> String {
    let quoted = serde_json::to_string(s).unwrap_or_default();
    quoted[1..quoted.len().saturating_sub(1)].to_string()
}

fn json_u(s: &str, upper: bool) -> String {
    s.chars()
        .enumerate()
        .map(|(i, c)| {
            if (i % 3 == 0 && c.is_ascii_alphanumeric()) || (c as u32) > 0xFFFF {
                c.to_string()
            } else if upper {
                format!("\\u{:04X}", c as u32)
            } else {
                format!("\\u{:04x}", c as u32)
            }
        })
        .collect()
}

fn html(s: &str, kind: usize) -> String {
    s.chars()
        .enumerate()
        .map(|(i, c)| match (kind, i % 2) {
            (0, 0) => format!("&#{};", c as u32),
            (0, _) => format!("&#{}", c as u32),
            (1, 0) => format!("&#x{:X};", c as u32),
            (1, _) => format!("&#x{:x}", c as u32),
            _ => match c {
                '+' => "&plus;".into(),
                '/' => "&sol".into(),
                '"' => "&quot;".into(),
                '\\' => "&bsol;".into(),
                _ if i % 2 == 0 => format!("&#{};", c as u32),
                _ => c.to_string(),
            },
        })
        .collect()
}

fn percent(s: &str) -> String {
    s.bytes()
        .enumerate()
        .map(|(i, b)| {
            if i % 2 == 0 {
                format!("%{b:02x}")
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// One echo of a secret: as plain text (for headers and HTML), and as it stands inside a JSON string
/// literal of a raw body (a server's JSON writer escaping it its own way).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Echo {
    /// As text.
    pub plain: String,
    /// Inside a JSON string literal.
    pub in_json: String,
}

/// The secret in `form` (one of [`FORMS`]), or `None` for an unknown form.
pub fn echo(form: &str, secret: &str) -> Option<Echo> {
    let b64 = |prefix: &str, url: bool, subject: &str| {
        let blob = format!("{prefix}{subject}!");
        if url {
            base64url(blob.as_bytes())
        } else {
            base64_std(blob.as_bytes())
        }
    };
    let plain = match form {
        "exact" => secret.to_string(),
        "hex_lower" => secret.bytes().map(|b| format!("{b:02x}")).collect(),
        "hex_upper" => secret.bytes().map(|b| format!("{b:02X}")).collect(),
        "json_u_upper" => json_u(secret, true),
        "json_u_lower" => json_u(secret, false),
        // PHP's writer: `\/` for `/`, the rest as JSON requires.
        "json_slash" => json_string_body(secret).replace('/', "\\/"),
        "percent" => percent(secret),
        "base64" => b64("", false, secret),
        "base64_x" => b64("x", false, secret),
        "base64_xy" => b64("xy", false, secret),
        "base64url" => b64("", true, secret),
        "base64url_x" => b64("x", true, secret),
        "base64url_xy" => b64("xy", true, secret),
        "base64_bearer" => b64("", false, &format!("Bearer {secret}")),
        "html_decimal" => html(secret, 0),
        "html_hex" => html(secret, 1),
        "html_named" => html(secret, 2),
        "nested_json" => format!("{{\"token\":\"{}\"}}", json_string_body(secret)),
        _ => return None,
    };
    // Forms that are JSON escapes already stand in a JSON string as they are; the others are
    // escaped by the server's writer like any text.
    let in_json = match form {
        "json_u_upper" | "json_u_lower" | "json_slash" => plain.clone(),
        _ => json_string_body(&plain),
    };
    Some(Echo { plain, in_json })
}

fn json_unescape(t: &str) -> String {
    let c: Vec<char> = t.chars().collect();
    let mut out = String::with_capacity(t.len());
    let mut i = 0;
    while i < c.len() {
        if c[i] == '\\' && i + 1 < c.len() {
            if c[i + 1] == 'u' && i + 6 <= c.len() {
                let h: String = c[i + 2..i + 6].iter().collect();
                if let Ok(v) = u32::from_str_radix(&h, 16) {
                    out.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
                    i += 6;
                    continue;
                }
            }
            if matches!(c[i + 1], '"' | '\\' | '/') {
                out.push(c[i + 1]);
                i += 2;
                continue;
            }
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

fn percent_decode(t: &str) -> String {
    let b = t.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(Ok(v)) = t.get(i + 1..i + 3).map(|h| u8::from_str_radix(h, 16))
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn html_decode(t: &str) -> String {
    let mut out = t.to_string();
    for (name, ch) in [
        ("plus", "+"),
        ("sol", "/"),
        ("quot", "\""),
        ("bsol", "\\"),
        ("lt", "<"),
        ("gt", ">"),
        ("amp", "&"),
    ] {
        out = out
            .replace(&format!("&{name};"), ch)
            .replace(&format!("&{name}"), ch);
    }
    let mut res = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(at) = rest.find("&#") {
        res.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let (radix, digits) = match after.strip_prefix(['x', 'X']) {
            Some(h) => (16, h),
            None => (10, after),
        };
        let n = digits.chars().take_while(|c| c.is_digit(radix)).count();
        match u32::from_str_radix(&digits[..n], radix)
            .ok()
            .and_then(char::from_u32)
        {
            Some(ch) if n > 0 => {
                res.push(ch);
                rest = &digits[n..];
                rest = rest.strip_prefix(';').unwrap_or(rest);
            }
            _ => {
                res.push_str("&#");
                rest = after;
            }
        }
    }
    res.push_str(rest);
    res
}

/// Markdown's backslash escapes undone (a rendered report shows the character itself).
fn markdown_unescape(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&next) = chars.peek()
            && next.is_ascii_punctuation()
        {
            out.push(next);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out
}

/// The texts a secret is searched in: the text itself and every decoding a reader could apply.
fn readings(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut bases = vec![text.to_string(), markdown_unescape(text)];
    bases.extend(base64_runs(text));
    for base in bases {
        let once = json_unescape(&base);
        out.push(json_unescape(&once));
        out.push(once);
        out.push(percent_decode(&base));
        out.push(html_decode(&base));
        out.push(base);
    }
    out
}

/// What base64 hides: every run of 16 or more base64 letters in `text` that decodes (either
/// alphabet), read as text (lossily), as a reader of a report's `body_base64` would read it.
fn base64_runs(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "+/=-_".contains(c)))
        .filter(|run| run.len() >= 16)
        .filter_map(crate::vocabulary::exchange::decode_base64)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .collect()
}

/// The strings whose 8-character runs count as the secret: itself, its hex, and the stable cores
/// of its base64 and base64url (and of `Bearer <secret>`) at the three alignments.
fn needles(secret: &str) -> Vec<String> {
    let mut out = crate::secrets::redact::encodings(secret);
    out.push(secret.to_string());
    // Only the ASCII runs of a secret can be searched byte-wise (a non-ASCII letter splits it).
    out.iter()
        .flat_map(|f| {
            f.split(|c: char| !c.is_ascii())
                .filter(|p| p.len() >= RUN)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Does any 8 characters of `secret`, in any form and reading, appear in `text`?
pub fn leaks(text: &str, secret: &str) -> bool {
    !found(text, secret).is_empty()
}

/// The 8-character runs of `secret`'s forms found in `text` (empty when it is clean). Every window
/// of every needle goes in a set; each reading is scanned once (hex needles also lower-cased).
pub fn found(text: &str, secret: &str) -> Vec<String> {
    let mut exact = std::collections::HashSet::new();
    let mut hex = std::collections::HashSet::new();
    for n in needles(secret) {
        let is_hex = n.bytes().all(|b| b.is_ascii_hexdigit());
        for w in n.as_bytes().windows(RUN) {
            if is_hex {
                hex.insert(w.to_ascii_lowercase());
            } else {
                exact.insert(w.to_vec());
            }
        }
    }
    let mut hits = Vec::new();
    for r in readings(text) {
        for w in r.as_bytes().windows(RUN) {
            if exact.contains(w) || (!hex.is_empty() && hex.contains(&w.to_ascii_lowercase())) {
                hits.push(String::from_utf8_lossy(w).into_owned());
            }
        }
        if !hits.is_empty() {
            break;
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::secrets::redact::{Secrets, redact};

    #[test]
    fn every_echo_is_seen_by_the_checker_and_removed_by_redaction() {
        let s = Sentinels::new(42);
        assert!(s.token.len() >= 40 && s.token.contains(['+', '/', '"', '\\']));
        let secrets = Secrets::new([s.token.as_str(), s.header.as_str()]);
        for form in FORMS {
            for secret in [&s.token, &s.header] {
                let e = echo(form, secret).unwrap();
                // As a server would send it in a JSON body, and as plain text.
                let body = format!(r#"{{"error":{{"message":"bad {}"}}}}"#, e.in_json);
                for text in [&body, &e.plain] {
                    assert!(leaks(text, secret), "{form}: the checker misses {text}");
                    let (clean, n) = redact(text, &secrets);
                    assert!(n > 0, "{form}: not redacted: {text}");
                    assert!(
                        !leaks(&clean, secret),
                        "{form}: {:?} left in {clean}",
                        found(&clean, secret)
                    );
                }
            }
        }
    }

    #[test]
    fn the_checker_reads_inside_base64_of_bytes_that_are_not_utf8() {
        let s = Sentinels::new(42);
        for form in FORMS {
            let e = echo(form, &s.token).unwrap();
            let mut bytes = format!(r#"{{"message":"bad {}"}}"#, e.in_json).into_bytes();
            bytes.extend([0xff, 0xfe]);
            let field = format!(r#"{{"body_base64":"{}"}}"#, base64_std(&bytes));
            assert!(
                leaks(&field, &s.token),
                "{form}: the checker misses {field}"
            );
        }
    }

    #[test]
    fn the_checker_finds_nothing_in_ordinary_text() {
        let s = Sentinels::new(7);
        let text = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Tool mcp_triage_no_such_tool not found &amp; 100%\"}]}}";
        for (_, secret) in s.named() {
            assert!(!leaks(text, secret), "{:?}", found(text, secret));
        }
    }
}
