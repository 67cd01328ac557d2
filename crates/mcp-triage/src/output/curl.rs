//! A recorded request as a `curl` command: the token and extra secret headers as environment
//! variables, everything literal single-quoted.

use crate::vocabulary::exchange::Request;

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The environment variable that stands for an extra secret header.
pub fn header_env_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("MCP_HEADER_{clean}")
}

/// A `curl` command that repeats a recorded request: full URL, the token as `$MCP_TOKEN`, extra secret
/// headers as `$MCP_HEADER_<NAME>`. Everything literal is single-quoted (a header name may hold `$`,
/// a backtick or `'`); the variables stand outside the quotes, so the shell expands them and nothing
/// else: `-H 'X-Key: '"$MCP_HEADER_X_KEY"`.
pub fn curl(request: &Request, secret_header_names: &[String]) -> String {
    let mut parts = vec!["curl -sS -N".to_string()];
    if request.method != "GET" {
        parts.push(format!("-X {}", request.method));
    }
    parts.push(shell_quote(&request.url));
    for (k, v) in &request.headers {
        if k.eq_ignore_ascii_case("authorization") {
            parts.push(format!(
                "-H {}\"$MCP_TOKEN\"",
                shell_quote("Authorization: Bearer ")
            ));
        } else if secret_header_names
            .iter()
            .any(|n| n.eq_ignore_ascii_case(k))
        {
            parts.push(format!(
                "-H {}\"${}\"",
                shell_quote(&format!("{k}: ")),
                header_env_name(k)
            ));
        } else {
            parts.push(format!("-H {}", shell_quote(&format!("{k}: {v}"))));
        }
    }
    if let Some(body) = &request.body {
        parts.push(format!("--data-raw {}", shell_quote(body)));
    }
    parts.join(" \\\n  ")
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn curl_uses_variables_for_secrets_and_quotes_the_body() {
        let req = Request {
            method: "POST".into(),
            url: "https://mcp.example.com/mcp?k=1".into(),
            headers: vec![
                ("Content-Type".into(), "application/json".into()),
                ("Authorization".into(), "Bearer [REDACTED]".into()),
                ("X-Api-Key".into(), "[REDACTED]".into()),
            ],
            body: Some(r#"{"a":"it's"}"#.into()),
        };
        let c = curl(&req, &["X-Api-Key".into()]);
        assert!(c.contains("'https://mcp.example.com/mcp?k=1'"));
        assert!(c.contains(r#"-H 'Authorization: Bearer '"$MCP_TOKEN""#));
        assert!(c.contains(r#"-H 'X-Api-Key: '"$MCP_HEADER_X_API_KEY""#));
        assert!(c.contains(r#"--data-raw '{"a":"it'\''s"}'"#));
        assert!(!c.contains("REDACTED"));
    }
}
