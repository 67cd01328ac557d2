//! Percent-encoding of everything outside RFC 3986's unreserved characters: one spelling for the
//! query values the OAuth doctor writes (and a sign-in reads back) and the encoded forms redaction
//! looks for.

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

/// The inverse of [`form`], strict: a query's or form's pairs, percent-decoded (`+` is a space); refused when a name repeats (which value would count?),
/// a value is not UTF-8 after decoding, or there are too many.
pub(crate) fn parse_form(query: &str) -> Result<Vec<(String, String)>, &'static str> {
    let mut out: Vec<(String, String)> = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        if out.len() >= 32 {
            return Err("too many parameters");
        }
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let (k, v) = (decode(k)?, decode(v)?);
        if out.iter().any(|(n, _)| *n == k) {
            return Err("a parameter repeats");
        }
        out.push((k, v));
    }
    Ok(out)
}

fn decode(text: &str) -> Result<String, &'static str> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).ok_or("a cut percent escape")?;
                let hex = std::str::from_utf8(hex).map_err(|_| "a bad percent escape")?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| "a bad percent escape")?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| "a value that is not UTF-8")
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn a_query_is_decoded_and_a_repeated_or_broken_one_refused() {
        assert_eq!(
            parse_form("code=a%2Fb&state=x+y&iss=https%3A%2F%2Fas"),
            Ok(vec![
                ("code".into(), "a/b".into()),
                ("state".into(), "x y".into()),
                ("iss".into(), "https://as".into())
            ])
        );
        assert!(parse_form("state=a&state=b").is_err());
        assert!(parse_form("code=%zz").is_err());
        assert!(parse_form("code=%4").is_err());
        assert!(parse_form("code=%ff").is_err());
        let pairs = [
            ("redirect_uri", "http://127.0.0.1:1/callback"),
            ("scope", "a b+c"),
        ];
        let read = parse_form(&form(&pairs)).unwrap();
        assert!(read.iter().map(|(k, v)| (k.as_str(), v.as_str())).eq(pairs));
    }
}
