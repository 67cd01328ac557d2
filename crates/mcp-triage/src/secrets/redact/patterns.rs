//! The generic patterns (`Bearer …` spans, JWT-shaped strings) and [`redact`], which removes them
//! after the run's own secrets.

use super::exact::{MARK, redact_exact};
use super::secret_set::Secrets;

fn is_token68(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~+/=".contains(c)
}

/// Replaces `Bearer <token>` spans (any case) with `Bearer [REDACTED]` — only when what follows the
/// scheme is token-shaped (a token68). Auth-params (`realm="…"`, `error=invalid_token`,
/// `resource_metadata="…"`) are not tokens and stay: a `=` inside the run, or a run that ends in `=`
/// followed by a quote, is a parameter.
fn redact_bearer(text: &str, count: &mut usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(at) = find_bearer(text.as_bytes(), i) {
        let start = at + "bearer ".len();
        out.push_str(&text[i..start]);
        let rest = &text[start..];
        let len: usize = rest
            .chars()
            .take_while(|c| is_token68(*c))
            .map(char::len_utf8)
            .sum();
        let run = &rest[..len];
        let body = run.trim_end_matches('=');
        let is_param =
            body.contains('=') || (body.len() < run.len() && rest[len..].starts_with('"'));
        if len >= 8 && run != MARK && !is_param {
            out.push_str(MARK);
            *count += 1;
            i = start + len;
        } else {
            // Not a token: the search goes on right after the scheme ("Bearer Bearer <token>").
            i = start;
        }
    }
    out.push_str(&text[i..]);
    out
}

/// Where `bearer ` (any case) next starts at or after `from`: a search with no lowered copy of the
/// text (a 4 MiB body is read once, not copied first).
fn find_bearer(b: &[u8], from: usize) -> Option<usize> {
    const NEEDLE: &[u8] = b"bearer ";
    let last = b.len().checked_sub(NEEDLE.len())?;
    (from..=last)
        .find(|&i| b[i] | 0x20 == b'b' && b[i..i + NEEDLE.len()].eq_ignore_ascii_case(NEEDLE))
}

/// Replaces JWT-shaped strings (`eyJ….….…`) with the mark. The text between candidates is copied
/// whole (a 4 MiB body is one search and a few copies, not a copy per character).
fn redact_jwt(text: &str, count: &mut usize) -> String {
    let b = text.as_bytes();
    let seg = |c: u8| c.is_ascii_alphanumeric() || c == b'-' || c == b'_';
    let mut out = String::with_capacity(text.len());
    // `copied`: how much of the text is in `out`; `i`: where the next search starts.
    let (mut copied, mut i) = (0, 0);
    while let Some(rel) = text.get(i..).and_then(|rest| rest.find("eyJ")) {
        let at = i + rel;
        if at > 0 && seg(b[at - 1]) {
            i = at + 1;
            continue;
        }
        let mut j = at;
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
            out.push_str(&text[copied..at]);
            out.push_str(MARK);
            *count += 1;
            copied = j;
        }
        // The run scanned is not searched again (linear time).
        i = j;
    }
    out.push_str(&text[copied..]);
    out
}

/// Redacts one server-derived string; returns the text and how many spans were replaced.
pub fn redact(text: &str, secrets: &Secrets) -> (String, usize) {
    let (out, secret_hits, pattern_hits) = redact_counted(text, secrets);
    (out, secret_hits + pattern_hits)
}

/// [`redact`] over a whole output, one line at a time: each redacted line (with its `\n`) goes to
/// `emit`, so the work needs the memory of the longest line, not of the whole text (a JSON report
/// of many bodies). The result is [`redact`]'s: no match crosses a line break (a secret holds none,
/// and neither do `Bearer …` and JWT shapes); when a secret does hold one, the text is redacted
/// whole. Returns how many spans were replaced.
pub fn redact_by_line(text: &str, secrets: &Secrets, mut emit: impl FnMut(&str)) -> usize {
    if secrets.values.iter().any(|v| v.contains(['\n', '\r'])) {
        let (out, n) = redact(text, secrets);
        emit(&out);
        return n;
    }
    let mut n = 0;
    for line in text.split_inclusive('\n') {
        let (out, k) = redact(line, secrets);
        n += k;
        emit(&out);
    }
    n
}

/// [`redact`], counting the run's own secrets apart from the generic `Bearer`/JWT patterns.
pub(super) fn redact_counted(text: &str, secrets: &Secrets) -> (String, usize, usize) {
    let (out, secret_hits) = redact_exact(text, secrets);
    if cfg!(feature = "leak-control") {
        return (out, 0, 0);
    }
    let mut pattern_hits = 0;
    let out = redact_bearer(&out, &mut pattern_hits);
    let out = redact_jwt(&out, &mut pattern_hits);
    (out, secret_hits, pattern_hits)
}
