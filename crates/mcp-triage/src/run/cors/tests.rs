//! Unit tests of the CORS doctor: its plan, each blocked step's conclusion, and the snippets.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::run::endpoint::parse_endpoint;

#[test]
fn the_doctor_hands_out_its_plan_in_order_and_stops_at_the_first_refusal() {
    let mut doctor = Doctor::new(false, &[]);
    let planned = plan(false, &[]);
    assert_eq!(doctor.next_request(), Some(&planned[0]));
    doctor.record(DiagOutcome::Answered { status: 0 });
    assert_eq!(doctor.next_request(), Some(&planned[1]));
    doctor.record(DiagOutcome::Rejected {
        detail: "blocked".into(),
    });
    // After a refused allow_origin, one question more: does its CORS answer this page at all?
    assert_eq!(doctor.next_request(), Some(&cors_answers()));
    doctor.record(DiagOutcome::Rejected {
        detail: "blocked".into(),
    });
    assert_eq!(doctor.next_request(), None, "nothing after that");
    let ep = parse_endpoint("https://mcp.example.com/mcp").unwrap();
    let d = doctor.diagnosis("https://triage.example", &ep);
    assert_eq!(d, diagnose("https://triage.example", &ep, &doctor.results));
    assert_eq!(d.blocked_step, Some("allow_origin"));
    assert!(
        d.conclusion.contains("add CORS middleware"),
        "{}",
        d.conclusion
    );
    // Another step refused: nothing after it.
    let mut doctor = Doctor::new(false, &[]);
    doctor.record(DiagOutcome::Answered { status: 0 });
    doctor.record(DiagOutcome::Answered { status: 200 });
    doctor.record(DiagOutcome::Rejected {
        detail: "blocked".into(),
    });
    assert_eq!(doctor.next_request(), None, "nothing after a refusal");
}

#[test]
fn a_post_refused_while_cors_answers_the_page_is_a_server_error_not_a_cors_setting() {
    let ep = parse_endpoint("https://mcp.example.com/mcp").unwrap();
    let mut doctor = Doctor::new(false, &[]);
    doctor.record(DiagOutcome::Answered { status: 0 });
    doctor.record(DiagOutcome::Rejected {
        detail: "blocked".into(),
    });
    doctor.record(DiagOutcome::Answered { status: 204 });
    let d = doctor.diagnosis("https://triage.example", &ep);
    assert_eq!(d.blocked_step, Some("allow_origin"));
    assert!(
        d.conclusion.contains("failed on this request"),
        "{}",
        d.conclusion
    );
    assert!(!d.conclusion.contains("add CORS middleware"));
    assert!(matches!(d.fix, CorsFix::NotCors { next } if next == SERVER_ERROR_NEXT));
}

#[test]
fn plan_fits_the_budget_and_never_carries_a_real_token() {
    for modern in [false, true] {
        let p = plan(modern, &[]);
        assert!(p.len() <= 6);
        assert_eq!(p[0].mode, "no-cors");
        assert!(
            p[0].body.is_none() && p[0].headers.is_empty(),
            "the no-cors request is bare"
        );
        for r in &p {
            for (k, v) in &r.headers {
                if k.eq_ignore_ascii_case("authorization") {
                    assert_eq!(v, "Bearer probe");
                }
            }
        }
    }
}

#[test]
fn the_first_rejection_names_the_step() {
    let ep = parse_endpoint("https://mcp.example.com/mcp").unwrap();
    let steps = plan(false, &[]);
    let results: Vec<_> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let o = if i < 3 {
                DiagOutcome::Answered { status: 200 }
            } else {
                DiagOutcome::Rejected {
                    detail: "TypeError".into(),
                }
            };
            (s.clone(), o)
        })
        .collect();
    let d = diagnose("https://triage.example", &ep, &results[..4]);
    assert_eq!(d.blocked_step, Some("allow_authorization"));
    assert!(d.conclusion.starts_with("Most likely"));
    let CorsFix::Cors {
        snippets, direct, ..
    } = &d.fix
    else {
        panic!("a CORS conclusion comes with its fix: {:?}", d.fix);
    };
    assert!(snippets[0].code.contains("https://triage.example"));
    assert!(snippets.iter().all(|s| !s.code.contains("'*'")));
    assert!(direct.contains("mcp-triage probe URL"), "{direct}");
}

/// A host that does not answer is not a CORS setting, and the doctor offers no CORS fix for it.
#[test]
fn a_host_that_does_not_answer_gets_no_cors_fix() {
    let ep = parse_endpoint("https://mcp.example.com/mcp").unwrap();
    let first = plan(false, &[]).remove(0);
    assert_eq!(first.step, "host_answers");
    let results = [(
        first,
        DiagOutcome::Rejected {
            detail: "TypeError: Failed to fetch".into(),
        },
    )];
    let d = diagnose("https://triage.example", &ep, &results);
    assert!(
        d.conclusion.contains("not a CORS setting"),
        "{}",
        d.conclusion
    );
    assert!(
        matches!(d.fix, CorsFix::NotCors { next } if next.contains("mcp-triage probe URL")),
        "{:?}",
        d.fix
    );
}

#[test]
fn an_extra_header_the_preflight_refuses_is_named_and_added_to_the_fix() {
    let ep = parse_endpoint("https://mcp.example.com/mcp").unwrap();
    let extra: Vec<String> = (0..12).map(|i| format!("X-Extra-{i}")).collect();
    let steps = plan(false, &extra);
    assert_eq!(
        steps.len(),
        6 + MAX_EXTRA_HEADERS,
        "one preflight per extra header, capped"
    );
    let results: Vec<_> = steps
        .iter()
        .map(|s| {
            let o = if s.header.as_deref() == Some("X-Extra-1") {
                DiagOutcome::Rejected {
                    detail: "TypeError".into(),
                }
            } else {
                DiagOutcome::Answered { status: 200 }
            };
            (s.clone(), o)
        })
        .take_while(|(s, _)| s.header.as_deref() != Some("X-Extra-2"))
        .collect();
    let d = diagnose("https://triage.example", &ep, &results);
    assert_eq!(d.blocked_step, Some("allow_extra_header"));
    assert!(
        d.conclusion.contains("X-Extra-1 header"),
        "{}",
        d.conclusion
    );
    let CorsFix::Cors {
        allow_headers,
        snippets,
        ..
    } = &d.fix
    else {
        panic!("{:?}", d.fix);
    };
    assert!(allow_headers.iter().any(|h| h == "X-Extra-1"));
    assert!(snippets[0].code.contains("'X-Extra-1'"));
    // Without extra headers, a run whose every step got through says so.
    let clean: Vec<_> = plan(false, &[])
        .into_iter()
        .map(|s| (s, DiagOutcome::Answered { status: 200 }))
        .collect();
    let d = diagnose("https://triage.example", &ep, &clean);
    assert_eq!(d.blocked_step, None);
    assert!(
        d.conclusion
            .starts_with("Every diagnostic request got through")
    );
}

#[test]
fn local_network_access_is_named_for_public_pages() {
    let ep = parse_endpoint("http://127.0.0.1:8787/mcp").unwrap();
    let d = diagnose("https://triage.example", &ep, &[]);
    assert!(d.context.iter().any(|c| c.contains("Local Network Access")));
    let d = diagnose("http://127.0.0.1:8080", &ep, &[]);
    assert!(d.context.is_empty());
}
