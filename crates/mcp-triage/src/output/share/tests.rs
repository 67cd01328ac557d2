//! Unit tests of share links: round trips, refused links, the migration and identifiers of every
//! older version, result shapes, the deflate bomb, and trimming to fit.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::error::MAX_FRAGMENT;
use super::versions::PREFIX;
use super::*;
// The decoder's own kinds: what each refused link is, before it becomes a `Problem`.
use super::decode::open as decode;
use crate::secrets::redact;
use crate::vocabulary::cause::{Cause, RunEnd, StopReason};

/// A payload packed under any prefix, as a crafted (or older) link would be.
fn pack(p: &Share, prefix: &str) -> String {
    let json = serde_json::to_vec(p).unwrap();
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{prefix}{}", redact::base64url(&packed))
}

fn sample() -> Share {
    Share {
        v: VERSION,
        tool: "0.1.0".into(),
        date: "2026-12-02T15:00:00Z".into(),
        endpoint: "https://mcp.example.com".into(),
        version: Some("2025-11-25".into()),
        server: Some(("demo".into(), "1.29.0".into())),
        score: Some(0),
        pairs: Some(3),
        finding: "An unknown tool, bad arguments and a thrown exception all arrive as isError: true; only the text tells them apart.".into(),
        rows: vec![ShareRow {
            step: "A".into(),
            tool: Some("mcp_triage_no_such_tool_1".into()),
            status: Some(200),
            channel: "tool_error".into(),
            cause: "unknown_tool".into(),
            code: None,
            decided_by: "text".into(),
            evidence: vec![("result.isError is true".into(), None)],
            action: "pick_another_tool".into(),
            flags: vec!["code_in_text".into()],
            spec: Some(("deviates".into(), "2025-11-25".into(), "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling".into(), "…".into())),
            excerpt: Some("{\"result\":{}}".into()),
            skipped: None,
            shape: None,
            stopped: None,
            server: None,
        }],
        notes: vec![],
        // Older versions are made from this sample: `ended` arrived with v10, `auth` with v11.
        ended: None,
        auth: None,
        browser: None,
        compare: None,
    }
}

#[test]
fn round_trip_and_fragment_shape() {
    let p = sample();
    let frag = encode(&p);
    assert!(frag.starts_with(PREFIX));
    assert_eq!(decode(&frag), Ok(p.clone()));
    assert_eq!(decode(&format!("#{frag}")), Ok(p));
}

#[test]
fn truncated_and_tampered_links_are_refused_whole() {
    let frag = encode(&sample());
    for cut in 1..=64.min(frag.len() - 5) {
        assert!(decode(&frag[..frag.len() - cut]).is_err(), "cut {cut}");
    }
    assert_eq!(decode("r=v15.AAAA"), Err(ShareError::UnknownVersion));
    assert_eq!(decode("x=v1.AAAA"), Err(ShareError::WrongPrefix));
    assert_eq!(decode("r=v1.AA=A"), Err(ShareError::BadEncoding));
    assert_eq!(decode(&"r=v1.".repeat(4000)), Err(ShareError::TooLong));
    let mut bad = sample();
    bad.rows[0].cause = "exploded".into();
    assert!(matches!(
        decode(&encode(&bad)),
        Err(ShareError::BadPayload(_))
    ));
    let mut unknown_field = serde_json::to_value(sample()).unwrap();
    unknown_field["extra"] = serde_json::json!(1);
    let packed = miniz_oxide::deflate::compress_to_vec(unknown_field.to_string().as_bytes(), 9);
    assert!(matches!(
        decode(&format!("r=v2.{}", redact::base64url(&packed))),
        Err(ShareError::BadPayload(_))
    ));
}

#[test]
fn a_v1_link_is_migrated_and_may_not_carry_a_flag_v1_did_not_know() {
    let mut v1 = sample();
    v1.v = 1;
    v1.pairs = None;
    let opened = decode(&pack(&v1, "r=v1.")).unwrap();
    assert_eq!(opened.v, VERSION, "migrated into the current version");
    assert_eq!(
        opened.pairs,
        Some(3),
        "an old score counted all three pairs"
    );
    assert_eq!(
        Share {
            v: 1,
            pairs: None,
            ..opened
        },
        v1,
        "and says what it said"
    );
    // `secret_echoed` arrived with v2: a v1 link holding it is not a link any page made.
    v1.rows[0].flags = vec!["secret_echoed".into()];
    assert!(matches!(
        decode(&pack(&v1, "r=v1.")),
        Err(ShareError::BadPayload(_))
    ));
    let mut v2 = v1.clone();
    v2.v = 2;
    assert_eq!(
        decode(&pack(&v2, "r=v2.")).unwrap(),
        Share {
            v: VERSION,
            pairs: Some(3),
            ..v2.clone()
        }
    );
    // The prefix and the payload must name the same version.
    assert!(matches!(
        decode(&pack(&v2, "r=v1.")),
        Err(ShareError::BadPayload(_))
    ));
    // `shape` arrived with v3.
    let mut with_shape = v2.clone();
    with_shape.rows[0].shape =
        ResultShape::of(&serde_json::json!({"content": [{"type": "text", "text": "abc"}]}));
    assert!(matches!(
        decode(&pack(&with_shape, "r=v2.")),
        Err(ShareError::BadPayload(_))
    ));
    with_shape.v = 3;
    assert_eq!(
        decode(&pack(&with_shape, "r=v3.")).unwrap(),
        Share {
            v: VERSION,
            pairs: Some(3),
            ..with_shape.clone()
        }
    );
    // `pairs` arrived with v4: a v3 link holding it is not a link any page made.
    let mut v3_with_pairs = with_shape.clone();
    v3_with_pairs.pairs = Some(1);
    assert!(matches!(
        decode(&pack(&v3_with_pairs, "r=v3.")),
        Err(ShareError::BadPayload(_))
    ));
    let mut v4 = with_shape.clone();
    v4.v = 4;
    v4.pairs = Some(1);
    v4.score = Some(1);
    assert_eq!(
        decode(&pack(&v4, "r=v4.")).unwrap(),
        Share {
            v: VERSION,
            ..v4.clone()
        }
    );
    v4.score = Some(2);
    assert!(
        matches!(decode(&pack(&v4, "r=v4.")), Err(ShareError::BadPayload(_))),
        "a score over more pairs than were judged"
    );
    assert_eq!(decode("r=v15.AAAA"), Err(ShareError::UnknownVersion));
}

#[test]
fn stdio_identifiers_open_in_v7_links_only() {
    let mut stdio = sample();
    stdio.endpoint = "stdio:node".into();
    stdio.rows[0].cause = "server_exited".into();
    stdio.rows[0].flags = vec!["non_json_stdout".into()];
    let opened = decode(&pack(&stdio, PREFIX)).unwrap();
    assert_eq!(opened, stdio, "a v7 link carries them");
    // Each alone, declared v6, is refused: a v6 reader never knew it.
    let mut v6 = stdio.clone();
    v6.v = 6;
    for (what, edit) in [("endpoint", 0usize), ("cause", 1), ("flag", 2)] {
        let mut one = sample();
        one.v = 6;
        match edit {
            0 => one.endpoint = v6.endpoint.clone(),
            1 => one.rows[0].cause = v6.rows[0].cause.clone(),
            _ => one.rows[0].flags = v6.rows[0].flags.clone(),
        }
        assert!(
            matches!(decode(&pack(&one, "r=v6.")), Err(ShareError::BadPayload(_))),
            "{what} in a v6 link"
        );
    }
    v6.endpoint = "https://mcp.example.com".into();
    v6.rows[0].cause = "unknown_tool".into();
    v6.rows[0].flags.clear();
    assert!(decode(&pack(&v6, "r=v6.")).is_ok(), "the control opens");
}

#[test]
fn an_interrupted_run_opens_in_v10_links_only_with_its_ending_and_stop() {
    let mut cut = sample();
    cut.ended = Some(RunEnd::Interrupted.as_str().into());
    cut.rows[0].stopped = Some(StopReason::Interrupted.as_str().into());
    cut.rows[0].action = NO_ACTION.into();
    assert_eq!(
        decode(&pack(&cut, PREFIX)).unwrap(),
        cut,
        "a v10 link carries both"
    );
    // Each alone, declared v9, is refused: a v9 reader never knew it.
    let mut v9 = cut.clone();
    v9.v = 9;
    v9.ended = None;
    assert!(
        decode(&pack(&v9, "r=v9.")).is_err(),
        "the stop reason `interrupted` in a v9 link"
    );
    v9.rows[0].stopped = Some(StopReason::Deadline.as_str().into());
    assert!(decode(&pack(&v9, "r=v9.")).is_ok(), "the control opens");
    v9.ended = Some(RunEnd::Complete.as_str().into());
    assert!(
        decode(&pack(&v9, "r=v9.")).is_err(),
        "`ended` in a v9 link, even a known value"
    );
    let mut unknown = sample();
    unknown.ended = Some("exploded".into());
    assert!(
        decode(&pack(&unknown, PREFIX)).is_err(),
        "an unknown ending"
    );
}

#[test]
fn the_oauth_doctors_verdicts_open_in_v11_links_only_with_known_identifiers() {
    use super::payload::ShareAuth;
    let mut with_auth = sample();
    with_auth.auth = Some((
        "2025-11-25".into(),
        vec![(
            "as_oauth".into(),
            "HTTP 200: authorization server metadata".into(),
            vec![(
                "as_issuer_matches".into(),
                "deviates".into(),
                "issuer = \"x\"".into(),
            )],
        )],
    ));
    assert_eq!(
        decode(&pack(&with_auth, PREFIX)).unwrap(),
        with_auth,
        "v11 carries it"
    );
    let mut v10 = with_auth.clone();
    v10.v = 10;
    assert!(decode(&pack(&v10, "r=v10.")).is_err(), "auth in a v10 link");
    v10.auth = None;
    assert!(decode(&pack(&v10, "r=v10.")).is_ok(), "the control opens");
    for (what, edit) in [
        (
            "an unknown revision",
            (|a: &mut ShareAuth| a.0 = "2024-01-01".into()) as fn(&mut ShareAuth),
        ),
        ("an unknown step", |a| a.1[0].0 = "as_guess".into()),
        ("an unknown check", |a| a.1[0].2[0].0 = "looks_fine".into()),
        ("an unknown verdict", |a| a.1[0].2[0].1 = "maybe".into()),
        ("a detail over its cap", |a| a.1[0].2[0].2 = "x".repeat(513)),
        ("too many cards", |a| a.1 = vec![a.1[0].clone(); 17]),
    ] {
        let mut bad = with_auth.clone();
        if let Some(a) = bad.auth.as_mut() {
            edit(a);
        }
        assert!(decode(&pack(&bad, PREFIX)).is_err(), "{what}");
    }
}

#[test]
fn the_pages_cors_verdicts_open_in_v12_links_only_with_known_identifiers() {
    use super::payload::ShareBrowser;
    let mut with = sample();
    with.auth = Some((
        "2025-11-25".into(),
        vec![(
            "token_endpoint".into(),
            "HTTP 400 to the page's call".into(),
            vec![],
        )],
    ));
    with.browser = Some((
        "From http://127.0.0.1:8080, a browser client is stopped at client registration".into(),
        vec![(
            "registration".into(),
            "no_allow_origin".into(),
            "the host answers, without an Access-Control-Allow-Origin".into(),
        )],
    ));
    assert_eq!(
        decode(&pack(&with, PREFIX)).unwrap(),
        with,
        "a v12 link carries them"
    );
    let mut v11 = with.clone();
    v11.v = 11;
    assert!(
        decode(&pack(&v11, "r=v11.")).is_err(),
        "browser in a v11 link"
    );
    v11.browser = None;
    assert!(
        decode(&pack(&v11, "r=v11.")).is_err(),
        "the token endpoint's card in a v11 link"
    );
    let mut no_auth = with.clone();
    no_auth.auth = None;
    assert!(
        decode(&pack(&no_auth, PREFIX)).is_err(),
        "browser without auth"
    );
    for (what, edit) in [
        (
            "an unknown access",
            (|b: &mut ShareBrowser| b.1[0].1 = "sort_of".into()) as fn(&mut ShareBrowser),
        ),
        ("an unknown step", |b| b.1[0].0 = "guess".into()),
        ("a detail over its cap", |b| b.1[0].2 = "x".repeat(513)),
        ("a conclusion over its cap", |b| b.0 = "x".repeat(513)),
        ("too many verdicts", |b| b.1 = vec![b.1[0].clone(); 17]),
    ] {
        let mut bad = with.clone();
        if let Some(b) = bad.browser.as_mut() {
            edit(b);
        }
        assert!(decode(&pack(&bad, PREFIX)).is_err(), "{what}");
    }
}

#[test]
fn a_lost_connection_opens_in_v9_links_only_as_a_stop_and_a_cause() {
    let mut lost = sample();
    lost.rows[0].stopped = Some(StopReason::ConnectionLost.as_str().into());
    lost.rows[0].action = NO_ACTION.into();
    assert_eq!(
        decode(&pack(&lost, PREFIX)).unwrap(),
        lost,
        "a v9 link carries it"
    );
    let mut v8 = lost.clone();
    v8.v = 8;
    assert!(
        matches!(decode(&pack(&v8, "r=v8.")), Err(ShareError::BadPayload(_))),
        "a v8 reader never knew `connection_lost`"
    );
    v8.rows[0].stopped = Some(StopReason::Deadline.as_str().into());
    assert!(decode(&pack(&v8, "r=v8.")).is_ok(), "the control opens");
    let mut cause = sample();
    cause.rows[0].cause = Cause::ConnectionLost.as_str().into();
    assert_eq!(decode(&pack(&cause, PREFIX)).unwrap(), cause);
    cause.v = 8;
    assert!(decode(&pack(&cause, "r=v8.")).is_err(), "nor the cause");
}

#[test]
fn decided_by_intent_and_the_mislabel_flag_open_in_v8_links_only() {
    let mut intent = sample();
    intent.rows[0].decided_by = "intent".into();
    let opened = decode(&pack(&intent, PREFIX)).unwrap();
    assert_eq!(opened, intent, "a v8 link carries it");
    let mut v7 = intent.clone();
    v7.v = 7;
    assert!(
        matches!(decode(&pack(&v7, "r=v7.")), Err(ShareError::BadPayload(_))),
        "a v7 reader never knew `intent`"
    );
    v7.rows[0].decided_by = "structure".into();
    assert!(decode(&pack(&v7, "r=v7.")).is_ok(), "the control opens");
    let mut nonsense = intent.clone();
    nonsense.rows[0].decided_by = "vibes".into();
    assert!(decode(&pack(&nonsense, PREFIX)).is_err());
    // The flag v8 brought opens in v8 and is refused in a v7 link.
    let mut mislabel = sample();
    mislabel.rows[0].flags = vec!["refusal_mislabelled".into()];
    assert_eq!(decode(&pack(&mislabel, PREFIX)).unwrap(), mislabel);
    mislabel.v = 7;
    assert!(matches!(
        decode(&pack(&mislabel, "r=v7.")),
        Err(ShareError::BadPayload(_))
    ));
}

#[test]
fn a_v4_link_is_migrated_to_v5_spellings_and_v5_identifiers_need_v5() {
    let mut v4 = sample();
    v4.v = 4;
    v4.rows[0].spec.as_mut().unwrap().0 = "notapplicable".into();
    let mut skipped = v4.rows[0].clone();
    skipped.step = "D".into();
    skipped.action = "proceed".into();
    skipped.skipped = Some("no tool to call".into());
    v4.rows.push(skipped);
    let opened = decode(&pack(&v4, "r=v4.")).unwrap();
    assert_eq!(opened.v, VERSION);
    assert_eq!(opened.rows[0].spec.as_ref().unwrap().0, "not_applicable");
    assert_eq!(
        opened.rows[0].action, "pick_another_tool",
        "an answered row keeps its advice"
    );
    assert_eq!(
        opened.rows[1].action, NO_ACTION,
        "a skipped probe gets no advice"
    );
    // The new spellings are refused in a v4 link, the old one in a v5 link.
    let mut v4_new_word = v4.clone();
    v4_new_word.rows[0].spec.as_mut().unwrap().0 = "not_applicable".into();
    assert!(decode(&pack(&v4_new_word, "r=v4.")).is_err());
    let mut v4_none = v4.clone();
    v4_none.rows[1].action = NO_ACTION.into();
    assert!(decode(&pack(&v4_none, "r=v4.")).is_err());
    let mut v5_old_word = opened.clone();
    v5_old_word.v = 5;
    v5_old_word.rows[0].spec.as_mut().unwrap().0 = "notapplicable".into();
    assert!(decode(&pack(&v5_old_word, "r=v5.")).is_err());
    // `stopped` names a stop reason, comes with the action `none`, and only from v5 on.
    let mut stopped = opened.clone();
    stopped.v = 5;
    stopped.rows[0].stopped = Some("deadline".into());
    assert!(
        decode(&pack(&stopped, "r=v5.")).is_err(),
        "advice beside a stop"
    );
    stopped.rows[0].action = NO_ACTION.into();
    let as_current = |p: &Share| Share {
        v: VERSION,
        ..p.clone()
    };
    assert_eq!(
        decode(&pack(&stopped, "r=v5.")).unwrap(),
        as_current(&stopped)
    );
    stopped.rows[0].stopped = Some("exploded".into());
    assert!(decode(&pack(&stopped, "r=v5.")).is_err());
    // `not_recorded` (a replay's unanswered request) arrived with v6.
    stopped.rows[0].stopped = Some("not_recorded".into());
    assert!(decode(&pack(&stopped, "r=v5.")).is_err());
    let v6 = Share {
        v: 6,
        ..stopped.clone()
    };
    assert_eq!(decode(&pack(&v6, "r=v6.")).unwrap(), as_current(&v6));
    let mut v4_stopped = v4.clone();
    v4_stopped.rows[0].stopped = Some("deadline".into());
    assert!(decode(&pack(&v4_stopped, "r=v4.")).is_err());
    // Actions are identifiers, not free text.
    let mut prose = opened.clone();
    prose.rows[0].action = "run away".into();
    assert!(decode(&pack(&prose, "r=v5.")).is_err());
}

#[test]
fn a_successful_result_is_shared_as_its_shape() {
    let result = serde_json::json!({
        "content": [{"type": "text", "text": "PORT=3001\nSHELL=/bin/bash"}, {"type": "image", "data": "iVBOR", "mimeType": "image/png"}],
        "structuredContent": {"PORT": "3001", "SHELL": "/bin/bash"}
    });
    let shape = ResultShape::of(&result).unwrap();
    assert_eq!(
        shape.blocks,
        vec![("text".to_string(), Some(25)), ("image".to_string(), None)]
    );
    assert_eq!(shape.block_count, 2);
    assert_eq!(
        shape.structured_keys,
        vec!["PORT".to_string(), "SHELL".to_string()]
    );
    assert!(!shape.is_error);
    let json = serde_json::to_string(&shape).unwrap();
    assert!(
        !json.contains("3001") && !json.contains("/bin/bash"),
        "{json}"
    );
}

#[test]
fn a_deflate_bomb_stops_at_the_limit() {
    let zeros = vec![0u8; 8 * 1024 * 1024];
    let packed = miniz_oxide::deflate::compress_to_vec(&zeros, 10);
    let frag = format!("r=v2.{}", redact::base64url(&packed));
    assert!(
        frag.len() < MAX_FRAGMENT,
        "the bomb fits in a link: {}",
        frag.len()
    );
    assert_eq!(decode(&frag), Err(ShareError::BadCompression));
}

#[test]
fn fit_trims_excerpts_deterministically() {
    let mut p = sample();
    // Excerpts that do not compress (a periodic one would fit untrimmed and prove nothing).
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut noisy = || -> String {
        (0..1000)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                char::from(b'a' + (seed % 26) as u8)
            })
            .collect()
    };
    for _ in 0..15 {
        let mut row = p.rows[0].clone();
        row.excerpt = Some(noisy());
        p.rows.push(row);
    }
    assert!(
        encode(&p).len() + 41 > MAX_LINK,
        "the payload must need trimming"
    );
    let fitted = fit(&p, 40).unwrap();
    assert!(encode(&fitted).len() + 41 <= MAX_LINK);
    assert_eq!(fitted.rows.len(), p.rows.len(), "rows are kept");
    assert!(
        fitted.rows[1..]
            .iter()
            .all(|r| r.excerpt.as_ref().is_none_or(|e| e.chars().count() < 1000)),
        "every long excerpt was trimmed"
    );
    assert_eq!(fit(&p, 40).unwrap(), fitted);
    assert_eq!(decode(&encode(&fitted)), Ok(fitted));
}

#[test]
fn a_v13_link_carries_two_runs_one_level_deep_and_older_versions_may_not() {
    let mut before = sample();
    before.score = Some(0);
    let after = sample();
    let link = super::comparison_link(&before, &after, "https://triage.example/").unwrap();
    let fragment = &link.url[link.url.find('#').unwrap() + 1..];
    assert!(fragment.starts_with("c=v14."), "{fragment}");
    let opened = decode(fragment).unwrap();
    assert_eq!(opened.compare.as_deref().map(|b| b.score), Some(Some(0)));
    // A comparison inside the comparison is refused, as is `compare` in a v12 payload.
    let mut nested = after.clone();
    let mut inner = before.clone();
    inner.compare = Some(Box::new(sample()));
    nested.compare = Some(Box::new(inner));
    assert!(matches!(
        decode(&encode(&nested)),
        Err(ShareError::BadPayload(_))
    ));
    let mut v12 = after.clone();
    v12.v = 12;
    v12.compare = Some(Box::new(Share {
        v: 12,
        ..before.clone()
    }));
    assert!(matches!(
        decode(&pack(&v12, "r=v12.")),
        Err(ShareError::BadPayload(_))
    ));
}

#[test]
fn the_server_authors_advice_opens_in_v14_links_only_as_ids_this_build_words() {
    let mut p = sample();
    p.rows[0].server = Some((false, vec!["unknown_tool".into(), "code_in_text".into()]));
    let opened = decode(&encode(&p)).unwrap();
    assert_eq!(opened.rows[0].server, p.rows[0].server);
    // Every id a run can give is one this build words, and the ids are one vocabulary.
    for id in [
        "unknown_tool",
        "code_in_text",
        "code_in_text_frame",
        "fit_tool_execution_2",
    ] {
        assert!(
            crate::judge::server_advice::server_sentence(id).is_some(),
            "{id}"
        );
    }
    // An id this build does not know, two reasons for nothing, or none at all: refused.
    for bad in [
        (false, vec!["no_such_sentence".to_string()]),
        (
            true,
            vec!["fit_tool_execution_2".into(), "unknown_tool".into()],
        ),
        (false, Vec::new()),
    ] {
        let mut q = sample();
        q.rows[0].server = Some(bad.clone());
        assert!(
            matches!(decode(&encode(&q)), Err(ShareError::BadPayload(_))),
            "{bad:?}"
        );
    }
    // `server` in a v13 payload is refused; a v13 link without it opens with none.
    let mut v13 = p.clone();
    v13.v = 13;
    assert!(matches!(
        decode(&pack(&v13, "r=v13.")),
        Err(ShareError::BadPayload(_))
    ));
    v13.rows[0].server = None;
    assert_eq!(decode(&pack(&v13, "r=v13.")).unwrap().rows[0].server, None);
}
