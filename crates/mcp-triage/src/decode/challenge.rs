//! `WWW-Authenticate` challenges (RFC 9110 §11.6.1, RFC 6750 §3): scheme and auth-params.

use serde::{Deserialize, Serialize};

/// One challenge: a scheme and its parameters in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    /// The auth scheme as sent (e.g. `Bearer`).
    pub scheme: String,
    /// `name=value` parameters, names lower-cased, quoted values unescaped.
    pub params: Vec<(String, String)>,
}

impl Challenge {
    /// A parameter by name (case-insensitive).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Parses a header value into challenges. Never fails: unreadable parts are skipped.
pub(crate) fn parse(value: &str) -> Vec<Challenge> {
    let chars: Vec<char> = value.chars().collect();
    let mut i = 0;
    let mut out: Vec<Challenge> = Vec::new();
    let skip_ws = |i: &mut usize| {
        while *i < chars.len() && (chars[*i] == ' ' || chars[*i] == '\t' || chars[*i] == ',') {
            *i += 1;
        }
    };
    while i < chars.len() {
        skip_ws(&mut i);
        let start = i;
        while i < chars.len() && !matches!(chars[i], ' ' | '\t' | ',' | '=') {
            i += 1;
        }
        let token: String = chars[start..i].iter().collect();
        let is_token = !token.is_empty()
            && token
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c));
        if !is_token {
            i = i.max(start + 1);
            continue;
        }
        // After a token: `=` means a parameter of the current challenge, otherwise a new scheme.
        let mut j = i;
        while j < chars.len() && (chars[j] == ' ' || chars[j] == '\t') {
            j += 1;
        }
        if j < chars.len() && chars[j] == '=' && !out.is_empty() {
            i = j + 1;
            while i < chars.len() && (chars[i] == ' ' || chars[i] == '\t') {
                i += 1;
            }
            let mut val = String::new();
            if i < chars.len() && chars[i] == '"' {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    val.push(chars[i]);
                    i += 1;
                }
                i += 1;
            } else {
                while i < chars.len() && chars[i] != ',' {
                    val.push(chars[i]);
                    i += 1;
                }
                val = val.trim().to_string();
            }
            if let Some(last) = out.last_mut() {
                last.params.push((token.to_ascii_lowercase(), val));
            }
        } else if j < chars.len() && chars[j] == '=' {
            // A parameter before any scheme: skip it.
            i = j + 1;
            while i < chars.len() && chars[i] != ',' {
                i += 1;
            }
        } else {
            out.push(Challenge {
                scheme: token,
                params: Vec::new(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn parses_the_ts_sdk_challenge() {
        let v = r#"Bearer error="invalid_token", error_description="Invalid Authorization header format, expected 'Bearer TOKEN'", scope="mcp:tools", resource_metadata="http://127.0.0.1:8706/.well-known/oauth-protected-resource/mcp""#;
        let c = parse(v);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].scheme, "Bearer");
        assert_eq!(c[0].param("error"), Some("invalid_token"));
        assert_eq!(c[0].param("scope"), Some("mcp:tools"));
        assert_eq!(
            c[0].param("resource_metadata"),
            Some("http://127.0.0.1:8706/.well-known/oauth-protected-resource/mcp")
        );
        assert!(
            c[0].param("error_description")
                .unwrap()
                .contains("'Bearer TOKEN'")
        );
    }

    #[test]
    fn several_challenges_and_garbage() {
        let c = parse(r#"Basic realm="x", Bearer scope=a, error="insufficient_scope""#);
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].param("error"), Some("insufficient_scope"));
        assert_eq!(c[1].param("scope"), Some("a"));
        assert!(parse("=,,=\"").is_empty());
        assert_eq!(parse("Bearer").len(), 1);
    }
}
