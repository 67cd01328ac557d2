//! Unit tests of the exports: the path scrub in every encoding, and a report that keeps each body once.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::run::endpoint::parse_endpoint;

#[test]
fn the_share_link_in_the_json_report_is_left_whole_by_the_path_scrub() {
    // The endpoint's path `/mcp` is in the hosted page's address: the link must keep it.
    let ep = parse_endpoint("https://mcp.example.com/mcp").unwrap();
    let report = RunReport::from_exchanges(&ep.url, Vec::new());
    let link = "https://mcp-triage.github.io/mcp-triage/#r=v14.mcpAbc";
    let json = report_json_with_share(&report, &ep, false, &Secrets::default(), Some(link));
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["share"], link, "{json}");
    assert_eq!(v["endpoint"], "https://mcp.example.com/[path hidden]");
}

#[test]
fn endpoint_paths_and_queries_are_hidden() {
    let ep = parse_endpoint("https://mcp.example.com/v1/secretpath/mcp?api_key=abc123xyz").unwrap();
    let mut v = serde_json::json!({"url": "https://mcp.example.com/v1/secretpath/mcp?api_key=abc123xyz", "echo": ["key api_key=abc123xyz"]});
    scrub_endpoint(&mut v, &ep);
    let text = v.to_string();
    assert!(
        !text.contains("secretpath") && !text.contains("abc123xyz"),
        "{text}"
    );
    assert!(text.contains("https://mcp.example.com/[path hidden]"));
    // A piece of the path or query echoed in another encoding is hidden too.
    let hex: String = "secretpath".bytes().map(|b| format!("{b:02x}")).collect();
    let scrub = Scrub::new(&ep);
    let out = scrub.apply(&format!("echo {hex} and abc123xyz"));
    assert!(!out.contains(&hex) && !out.contains("abc123xyz"), "{out}");
}

#[test]
fn a_path_piece_the_browser_percent_encoded_is_hidden_when_echoed_decoded_in_any_encoding() {
    // As the browser's URL parser sends `/äöüßäöüß/mcp`: no window of the encoded form occurs
    // in the decoded one, so only the decoded piece as a secret can hide it.
    let ep = parse_endpoint(
        "https://mcp.example.com/%C3%A4%C3%B6%C3%BC%C3%9F%C3%A4%C3%B6%C3%BC%C3%9F/mcp",
    )
    .unwrap();
    let scrub = Scrub::new(&ep);
    let decoded = "äöüßäöüß";
    let base64 = crate::secrets::redact::base64url(decoded.as_bytes());
    for echo in [decoded.to_string(), base64] {
        let out = scrub.apply(&format!("echo {echo}"));
        assert!(!out.contains(&echo), "{out}");
    }
}

/// Bytes kept as base64 (not UTF-8) are scrubbed in their text: the path echoed beside bytes
/// that are not UTF-8, in plain and in hex, is hidden inside `body_base64`; the bytes that are
/// not UTF-8 stay.
#[test]
fn the_path_is_hidden_inside_body_base64_too() {
    let ep = parse_endpoint("https://mcp.example.com/v1/secretpath/mcp?api_key=abc123xyz").unwrap();
    let hex: String = "secretpath".bytes().map(|b| format!("{b:02x}")).collect();
    let mut bytes = format!("echo secretpath {hex} abc123xyz ").into_bytes();
    bytes.extend_from_slice(&[0xff, 0xfe]);
    let b64 = crate::secrets::redact::base64_std(&bytes);
    // The control: hex of the path, kept as base64 under another key, is left to a string
    // scrub, which cannot see it.
    let mut hex_bytes = format!("echo {hex} ").into_bytes();
    hex_bytes.extend_from_slice(&[0xff, 0xfe]);
    let other = crate::secrets::redact::base64_std(&hex_bytes);
    let mut v = serde_json::json!({"response": {"body_base64": b64, "other": other}});
    scrub_endpoint(&mut v, &ep);
    let decode = |key: &str| {
        crate::vocabulary::exchange::decode_base64(v["response"][key].as_str().unwrap()).unwrap()
    };
    let kept = decode("body_base64");
    let text = String::from_utf8_lossy(&kept);
    assert!(
        !text.contains("secretpath") && !text.contains(&hex) && !text.contains("abc123xyz"),
        "{text}"
    );
    assert!(kept.ends_with(&[0xff, 0xfe]), "{kept:?}");
    assert!(String::from_utf8_lossy(&decode("other")).contains(&hex));
}

/// Each body once: a record's parsed message goes, and a body kept as bytes keeps no lossy
/// text beside them; a body that is text stays (the control).
#[test]
fn a_report_keeps_each_body_once() {
    let mut v = serde_json::json!({"records": [
        {"assessment": {"cause": "none", "message": {"result": {}}},
         "exchange": {"request": {"body": "{}"},
                      "response": {"body": "x\u{fffd}", "body_base64": "eP8="}}},
        {"assessment": {"cause": "none"},
         "exchange": {"response": {"body": "{\"result\":{}}"}}},
    ]});
    keep_each_body_once(&mut v);
    let r = &v["records"];
    assert!(r[0]["assessment"].get("message").is_none());
    assert_eq!(r[0]["assessment"]["cause"], "none");
    assert!(r[0]["exchange"]["response"].get("body").is_none());
    assert_eq!(r[0]["exchange"]["response"]["body_base64"], "eP8=");
    assert_eq!(r[0]["exchange"]["request"]["body"], "{}");
    assert_eq!(r[1]["exchange"]["response"]["body"], "{\"result\":{}}");
}

/// The scrub hides values that hold the path, never our identifiers: on a route like
/// `/redirect301/mcp`, `redirect` is a cause and `redirect_refused` a transport error, while
/// the piece echoed whole (or in part, glued to more of it) is hidden.
#[test]
fn the_path_scrub_never_hides_our_identifiers() {
    let ep = parse_endpoint("http://127.0.0.1:8787/redirect301/mcp").unwrap();
    let scrub = Scrub::new(&ep);
    let mut v = serde_json::json!({
        "cause": "redirect",
        "transport_error": "redirect_refused",
        "echo": "the server said: redirect301 and redirect30",
    });
    scrub.walk(&mut v);
    assert_eq!(v["cause"], "redirect");
    assert_eq!(v["transport_error"], "redirect_refused");
    let echo = v["echo"].as_str().unwrap();
    assert!(!echo.contains("redirect30"), "{echo}");
    // In text, our words stand alone and are kept; the echo is hidden.
    let out = scrub.apply("cause redirect, transport error redirect refused; echo redirect301");
    assert!(
        out.starts_with("cause redirect, transport error redirect refused; echo "),
        "{out}"
    );
    assert!(!out.contains("redirect301"), "{out}");
    // An auth check's id with a word the path shares.
    let ep = parse_endpoint("https://mcp.example.com/metadata-service/mcp").unwrap();
    let id = crate::run::auth::AuthCheck::ALL
        .iter()
        .map(|c| c.as_str())
        .find(|id| id.contains("metadata"))
        .unwrap();
    let mut v = serde_json::json!({ "check": id });
    Scrub::new(&ep).walk(&mut v);
    assert_eq!(v["check"], id);
}
