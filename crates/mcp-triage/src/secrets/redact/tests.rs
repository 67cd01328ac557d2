//! Unit tests of redaction: every form and escaping, cuts, challenges, patterns, the sorting helpers.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::exact::merge;
use super::secret_set::heapsort;
use super::*;

const SENTINEL: &str = "mcptriageSENTINEL_abcdefghijklmnopqrstuvwxyzABCDEF";
/// Printable ASCII with the characters escapers treat specially, 40+ characters.
const HARD: &str = r#"mcpT+riage/SENT"INEL\qwe rty+uiop/asdf"ghjk\zxcv"#;

/// The secret written every way the leak tests' server writes it (`crate::testing::leak::FORMS`), as
/// plain text and inside a JSON body (`json_u` and `nested_json` there are the nested readings).
fn echoes(secret: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for form in crate::testing::leak::FORMS {
        let e = crate::testing::leak::echo(form, secret).unwrap();
        out.push((format!("{form} (plain)"), e.plain));
        out.push((
            format!("{form} (in JSON)"),
            format!("{{\"error\":{{\"message\":\"bad {}\"}}}}", e.in_json),
        ));
        // One more JSON-string layer: a JSON document inside a JSON string (the nested form is
        // that already; a third layer is beyond what redaction promises).
        if *form != "nested_json" {
            let doc = format!("{{\"message\":\"{}\"}}", e.in_json);
            out.push((
                format!("{form} (nested)"),
                serde_json::to_string(&doc).unwrap(),
            ));
        }
    }
    out
}

/// The 8-character runs of the secret's forms that survive in `text`: the leak tests' own
/// checker (`crate::testing::leak`), which decodes whole texts and is written apart from the matcher.
fn survivors(text: &str, secret: &str) -> Vec<String> {
    crate::testing::leak::found(text, secret)
}

#[test]
fn every_form_and_escaping_of_a_secret_is_removed_and_the_text_around_it_kept() {
    for secret in [SENTINEL, HARD] {
        let secrets = Secrets::new([secret]);
        for (form, echo) in echoes(secret) {
            let text = format!("before «{echo}» after");
            let (out, n) = redact(&text, &secrets);
            assert!(n >= 1, "{form}: not redacted: {text}");
            assert!(
                out.starts_with("before «") && out.ends_with("» after"),
                "{form}: {out}"
            );
            assert!(!out.contains("SENT"), "{form}: {out}");
            assert!(out.contains(MARK), "{form}: {out}");
        }
    }
}

#[test]
fn a_partial_echo_of_eight_characters_is_removed_and_seven_are_left() {
    let secrets = Secrets::new([SENTINEL]);
    let eight = &SENTINEL[20..28];
    let (out, n) = redact(&format!("x {eight} y"), &secrets);
    assert_eq!((out.as_str(), n), ("x [REDACTED] y", 1));
    let seven = &SENTINEL[20..27];
    assert_eq!(redact(&format!("x {seven} y"), &secrets).1, 0);
}

#[test]
fn no_eight_characters_of_a_secret_survive_a_cut_anywhere() {
    // A body cap, a line cap or a display cap can cut an echo at any byte: what is kept after
    // redaction must never hold 8 characters of any secret form, in any reading.
    let secrets = Secrets::new([HARD]);
    for (form, echo) in echoes(HARD) {
        let text = format!("ab {echo} cd");
        for cut in (0..=text.len()).filter(|c| text.is_char_boundary(*c)) {
            let (out, _) = redact(&text[..cut], &secrets);
            let left = survivors(&out, HARD);
            assert!(left.is_empty(), "{form} cut at {cut}: {left:?} in {out}");
        }
    }
}

#[test]
fn the_control_sees_every_echo_when_nothing_is_redacted() {
    // The checker above must be able to fail: every echo, unredacted, is flagged by it.
    for (form, echo) in echoes(HARD) {
        assert!(
            !survivors(&echo, HARD).is_empty(),
            "{form}: the checker misses {echo}"
        );
    }
}

#[test]
fn short_secrets_are_not_secrets_and_ordinary_text_stays() {
    let secrets = Secrets::new(["short12"]);
    assert!(secrets.is_empty());
    let secrets = Secrets::new([SENTINEL]);
    let text = "{\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"caf\\u00e9 &amp; 100% \\/ ok\"}]}}";
    assert_eq!(redact(text, &secrets), (text.to_string(), 0));
}

#[test]
fn challenges_keep_their_parameters() {
    let s = Secrets::default();
    // TypeScript SDK (1.29.0 bearer middleware), raw and as formatted evidence without quotes.
    let ts = r#"Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp""#;
    assert_eq!(redact(ts, &s), (ts.to_string(), 0));
    let ts_formatted = "WWW-Authenticate: Bearer error=invalid_token error_description=Missing Authorization header resource_metadata=http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp";
    assert_eq!(redact(ts_formatted, &s), (ts_formatted.to_string(), 0));
    // fastmcp: the scheme followed directly by resource_metadata.
    let fastmcp = r#"Bearer resource_metadata="http://127.0.0.1:8000/.well-known/oauth-protected-resource/mcp""#;
    assert_eq!(redact(fastmcp, &s), (fastmcp.to_string(), 0));
    let realm = r#"Bearer realm="mcp", scope="tools:read""#;
    assert_eq!(redact(realm, &s), (realm.to_string(), 0));
    // A token after the scheme still goes, padding and all.
    assert_eq!(redact("Bearer abcDEF123456==", &s).0, "Bearer [REDACTED]");
    // A parameter that holds our secret is redacted by the secret matcher.
    let secrets = Secrets::new([SENTINEL]);
    let echoed = format!(r#"Bearer error="invalid_token", error_description="bad {SENTINEL}""#);
    assert_eq!(
        redact(&echoed, &secrets).0,
        r#"Bearer error="invalid_token", error_description="bad [REDACTED]""#
    );
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

/// The scheme in any case, at the very start and end, after multi-byte characters: found by a
/// search that makes no lowered copy of the text.
#[test]
fn bearer_is_found_in_any_case_wherever_it_sits() {
    let s = Secrets::default();
    let cases = [
        ("BEARER abcdefgh12345678", "BEARER [REDACTED]"),
        ("é bEaReR abcdefgh12345678 é", "é bEaReR [REDACTED] é"),
        ("ends in bearer ", "ends in bearer "),
        ("ends in beare", "ends in beare"),
        ("Bearer Bearer abcdefgh12345678", "Bearer Bearer [REDACTED]"),
    ];
    for (text, want) in cases {
        assert_eq!(redact(text, &s).0, want, "{text}");
    }
}

/// JWT shapes among other text, copied around in bulk: each one goes, one glued to a word stays,
/// and the text between (multi-byte characters included) is kept exactly.
#[test]
fn jwts_go_wherever_they_sit_and_the_text_between_is_kept() {
    let s = Secrets::default();
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2hlcmU";
    let text = format!("é{jwt} ünd xeyJ{jwt}, eyJ.no\n«{jwt}»eyJ");
    let (out, n) = redact(&text, &s);
    assert_eq!(
        out,
        format!("é[REDACTED] ünd xeyJ{jwt}, eyJ.no\n«[REDACTED]»eyJ")
    );
    assert_eq!(n, 2, "{out}");
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
fn heapsort_sorts_and_merge_keeps_order() {
    let mut v: Vec<u64> = (0..1000u64).map(|i| (i * 7919) % 1009).collect();
    let mut want = v.clone();
    want.sort();
    heapsort(&mut v);
    assert_eq!(v, want);
    let mut empty: Vec<u64> = Vec::new();
    heapsort(&mut empty);
    assert_eq!(
        merge(vec![(1, 2), (5, 6)], vec![(0, 1), (3, 4), (9, 9)]),
        vec![(0, 1), (1, 2), (3, 4), (5, 6), (9, 9)]
    );
}

#[test]
fn debug_never_prints_secrets() {
    let s = Secrets::new([SENTINEL]);
    assert!(!format!("{s:?}").contains("SENTINEL"));
}

#[test]
fn redacting_line_by_line_is_redacting_the_whole_text() {
    let token = "line-by-line+token/0123456789";
    let secrets = Secrets::new([token]);
    let hex: String = token.bytes().map(|b| format!("{b:02x}")).collect();
    let text = format!(
        "{{\n  \"a\": \"{token}\",\n  \"b\": \"hex {hex}\",\n  \"c\": \"Bearer abcdefgh12345678\"\n}}\nno newline at the end {token}"
    );
    let (whole, n) = super::redact(&text, &secrets);
    let mut lines = String::new();
    let m = super::redact_by_line(&text, &secrets, |l| lines.push_str(l));
    assert_eq!((lines.as_str(), m), (whole.as_str(), n));
    assert!(n >= 3 && !lines.contains(token) && !lines.contains(&hex));
    // A secret that holds a line break is found whole.
    let broken = Secrets::new(["first-half\nsecond-half"]);
    let mut out = String::new();
    super::redact_by_line("x first-half\nsecond-half y", &broken, |l| out.push_str(l));
    assert_eq!(out, super::redact("x first-half\nsecond-half y", &broken).0);
}

/// A secret's hex, in lower, upper or mixed case, goes wherever it sits (the hex table is read
/// only where eight hex digits end), and a run of hex digits that is not the secret's stays.
#[test]
fn a_secrets_hex_goes_in_any_case() {
    let token = "tok-en_SECRET-0123";
    let s = Secrets::new([token]);
    let hex: String = token.bytes().map(|b| format!("{b:02x}")).collect();
    let mixed: String = hex
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i % 2 == 0 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect();
    for form in [hex.clone(), hex.to_ascii_uppercase(), mixed] {
        let text = format!("id=\"{form}\", deadbeefcafe0123 é {form}x");
        let (out, n) = redact(&text, &s);
        assert_eq!(n, 2, "{out}");
        assert_eq!(out, "id=\"[REDACTED]\", deadbeefcafe0123 é [REDACTED]x");
    }
}
