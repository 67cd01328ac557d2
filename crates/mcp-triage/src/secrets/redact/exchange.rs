//! Redaction of a whole captured exchange, the moment it is recorded.

use super::base64::base64_std;
use super::exact::redact_exact;
use super::patterns::redact_counted;
use super::secret_set::Secrets;

/// Redacts bytes that may not be UTF-8: each stretch of valid UTF-8 as text, the bytes that are
/// not UTF-8 kept as they are. Returns the bytes and how many secrets were found.
fn redact_bytes(bytes: &[u8], secrets: &Secrets) -> (Vec<u8>, usize) {
    let mut out = Vec::with_capacity(bytes.len());
    let mut hits = 0;
    for chunk in bytes.utf8_chunks() {
        let (text, n, _) = redact_counted(chunk.valid(), secrets);
        hits += n;
        out.extend_from_slice(text.as_bytes());
        out.extend_from_slice(chunk.invalid());
    }
    (out, hits)
}

/// Redacts a captured exchange in place, the moment it is recorded: every server-derived string
/// (response headers, body, undecodable bytes, our own bodies that carry server-chosen values,
/// transport details). A server-chosen `Mcp-Session-Id` keeps its shape (only secrets are removed
/// from it). Returns how many times the run's own secrets were found in the answer: a server that
/// echoes credentials is a finding.
pub fn redact_exchange(ex: &mut crate::vocabulary::exchange::Exchange, secrets: &Secrets) -> usize {
    let mut echoed = 0;
    let clean = |text: &mut String, exact_only: bool, counts: bool, echoed: &mut usize| {
        let (out, hits) = if exact_only {
            redact_exact(text, secrets)
        } else {
            let (out, secret_hits, _) = redact_counted(text, secrets);
            (out, secret_hits)
        };
        if counts {
            *echoed += hits;
        }
        *text = out;
    };
    for (name, value) in &mut ex.request.headers {
        // Our Authorization header is recorded by the shell as `Bearer [REDACTED]` already.
        clean(
            value,
            name.eq_ignore_ascii_case(crate::vocabulary::header::SESSION_ID),
            false,
            &mut echoed,
        );
    }
    if let Some(body) = ex.request.body.as_mut() {
        clean(body, false, false, &mut echoed);
    }
    if let Some(r) = ex.response.as_mut() {
        for (name, value) in &mut r.headers {
            clean(
                value,
                name.eq_ignore_ascii_case(crate::vocabulary::header::SESSION_ID),
                true,
                &mut echoed,
            );
        }
        if let Some(body) = r.body.as_mut() {
            clean(body, false, true, &mut echoed);
        }
        if let Some(b64) = r.body_base64.as_mut() {
            // The bytes themselves, read as the body is read: every stretch of valid UTF-8 is
            // redacted like any text (each form of each secret), the bytes between them kept.
            if let Some(bytes) = crate::vocabulary::exchange::decode_base64(b64) {
                let (clean_bytes, hits) = redact_bytes(&bytes, secrets);
                echoed += hits;
                *b64 = base64_std(&clean_bytes);
            }
            // Then the base64 text as text (a secret's own base64 at every alignment).
            clean(b64, false, false, &mut echoed);
        }
    }
    if let Some(detail) = ex.transport_error_detail.as_mut() {
        clean(detail, false, true, &mut echoed);
    }
    if let Some(io) = ex.stdio.as_mut() {
        for line in &mut io.lines {
            clean(line, false, true, &mut echoed);
        }
        if let Some(tail) = io.stderr_tail.as_mut() {
            clean(tail, false, true, &mut echoed);
        }
    }
    echoed
}
