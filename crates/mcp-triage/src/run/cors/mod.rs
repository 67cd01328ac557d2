//! The CORS doctor: when a browser `fetch` rejects, a few token-free requests (at most six, plus one
//! preflight per extra header the user added, itself capped at [`MAX_EXTRA_HEADERS`]) find the step
//! that was blocked, and the diagnosis says what the server must allow, worded as "most likely".

use serde::Serialize;

use crate::run::endpoint::Endpoint;
use crate::vocabulary::header;
use crate::vocabulary::limits::MAX_EXTRA_HEADERS;
use crate::vocabulary::protocol::ProtocolVersion;

/// Request headers MCP clients send and servers must allow.
pub(crate) const ALLOW_HEADERS: &[&str] = &[
    "Authorization",
    "Content-Type",
    "Accept",
    header::SESSION_ID,
    header::PROTOCOL_VERSION,
    header::METHOD,
    header::NAME,
    header::LAST_EVENT_ID,
];

/// Response headers a browser client must be able to read.
pub(crate) const EXPOSE_HEADERS: &[&str] = &[
    header::SESSION_ID,
    header::PROTOCOL_VERSION,
    "WWW-Authenticate",
];

/// One diagnostic request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiagRequest {
    /// A stable name for the step.
    pub step: &'static str,
    /// What the step tells, in words.
    pub question: &'static str,
    /// `no-cors` or `cors`.
    pub mode: &'static str,
    /// The HTTP method: `POST`, or `OPTIONS` for the step that asks whether the server's CORS
    /// answers this page at all (`cors_answers`).
    pub method: &'static str,
    /// Headers to send (never a real token; an extra header carries a dummy value).
    pub headers: Vec<(String, String)>,
    /// Body; `None` for the no-cors request, which follows redirects (the Fetch standard requires
    /// that for no-cors), so nothing of ours reaches a redirect target.
    pub body: Option<String>,
    /// The extra header this step preflights (step `allow_extra_header`).
    pub header: Option<String>,
}

/// The outcome of a diagnostic request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum DiagOutcome {
    /// `fetch` resolved (status 0 for an opaque no-cors answer).
    Answered { status: u16 },
    /// `fetch` rejected.
    Rejected { detail: String },
}

/// Does the host answer at all? A bare `no-cors` request: no header, no body (it follows
/// redirects, as the Fetch standard requires of `no-cors`, so nothing of ours reaches a target).
pub(crate) fn host_answers() -> DiagRequest {
    DiagRequest {
        step: "host_answers",
        question: "does the host answer at all (a no-cors request)?",
        mode: "no-cors",
        method: "POST",
        headers: Vec::new(),
        body: None,
        header: None,
    }
}

/// Does it send `Access-Control-Allow-Origin` for this page? A request the browser does not
/// preflight (`text/plain`), carrying `body`.
pub(crate) fn allow_origin(body: String) -> DiagRequest {
    DiagRequest {
        step: "allow_origin",
        question: "does it send Access-Control-Allow-Origin for this page (a CORS-simple request)?",
        mode: "cors",
        method: "POST",
        headers: vec![("Content-Type".into(), "text/plain".into())],
        body: Some(body),
        header: None,
    }
}

/// Does the server's CORS answer this page at all? An `OPTIONS` request in `cors` mode (itself
/// preflighted): it is read only when the server's CORS handling allows this origin. Asked only
/// after [`allow_origin`] was refused, to tell a server with no CORS for this page from one whose
/// error answers skip its CORS handling (a crash, or a 5xx from a proxy).
pub(crate) fn cors_answers() -> DiagRequest {
    DiagRequest {
        step: "cors_answers",
        question: "does its CORS handling answer this page at all (an OPTIONS request)?",
        mode: "cors",
        method: "OPTIONS",
        headers: Vec::new(),
        body: None,
        header: None,
    }
}

/// The ordered plan; run it in order and stop at the first rejection. `extra_headers` are the names
/// of the headers the user added (at most [`MAX_EXTRA_HEADERS`] are preflighted, one step each, so
/// the finding can name the one the server does not allow).
pub(crate) fn plan(modern: bool, extra_headers: &[String]) -> Vec<DiagRequest> {
    let body = r#"{"jsonrpc":"2.0","id":"mcp-triage-diagnosis","method":"ping"}"#.to_string();
    let json = |extra: &[(&str, &str)]| {
        let mut h = vec![
            ("Content-Type".to_string(), "application/json".to_string()),
            (
                "Accept".to_string(),
                "application/json, text/event-stream".to_string(),
            ),
        ];
        h.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        h
    };
    let version = if modern {
        ProtocolVersion::MODERN
    } else {
        ProtocolVersion::DEFAULT_LEGACY
    }
    .as_str();
    let mut steps = vec![
        host_answers(),
        allow_origin(body.clone()),
        DiagRequest {
            step: "preflight_json",
            question: "does its preflight allow Content-Type: application/json?",
            mode: "cors",
            method: "POST",
            headers: json(&[]),
            body: Some(body.clone()),
            header: None,
        },
        DiagRequest {
            step: "allow_authorization",
            question: "does its preflight allow Authorization?",
            mode: "cors",
            method: "POST",
            headers: json(&[("Authorization", "Bearer probe")]),
            body: Some(body.clone()),
            header: None,
        },
        DiagRequest {
            step: "allow_protocol_version",
            question: "does its preflight allow Mcp-Protocol-Version?",
            mode: "cors",
            method: "POST",
            headers: json(&[
                ("Authorization", "Bearer probe"),
                (header::PROTOCOL_VERSION, version),
            ]),
            body: Some(body.clone()),
            header: None,
        },
    ];
    if modern {
        steps.push(DiagRequest {
            step: "allow_method_name",
            question: "does its preflight allow Mcp-Method and Mcp-Name?",
            mode: "cors",
            method: "POST",
            headers: json(&[
                ("Authorization", "Bearer probe"),
                (header::PROTOCOL_VERSION, version),
                (header::METHOD, "ping"),
                (header::NAME, "probe"),
            ]),
            body: Some(body.clone()),
            header: None,
        });
    } else {
        steps.push(DiagRequest {
            step: "allow_session_id",
            question: "does its preflight allow Mcp-Session-Id?",
            mode: "cors",
            method: "POST",
            headers: json(&[
                ("Authorization", "Bearer probe"),
                (header::PROTOCOL_VERSION, version),
                (header::SESSION_ID, "mcp-triage-probe"),
            ]),
            body: Some(body.clone()),
            header: None,
        });
    }
    for name in extra_headers.iter().take(MAX_EXTRA_HEADERS) {
        steps.push(DiagRequest {
            step: "allow_extra_header",
            question: "does its preflight allow the extra header you added?",
            mode: "cors",
            method: "POST",
            headers: json(&[
                ("Authorization", "Bearer probe"),
                (header::PROTOCOL_VERSION, version),
                (name.as_str(), "mcp-triage-probe"),
            ]),
            body: Some(body.clone()),
            header: Some(name.clone()),
        });
    }
    steps
}

/// How the page's CORS doctor is to run (`RunReport::cors_doctor`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoctorCall {
    /// Ask about 2026-07-28's headers (`Mcp-Method`, `Mcp-Name`) too.
    pub modern: bool,
    /// Only 2026-07-28's requests were blocked and the run went on in this older revision.
    pub fell_back_to: Option<String>,
}

/// A copy-paste fix for one SDK.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Snippet {
    /// Which stack.
    pub stack: &'static str,
    /// The code.
    pub code: String,
}

/// What the doctor concluded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnosis {
    /// The step that was blocked, if one was.
    pub blocked_step: Option<&'static str>,
    /// The conclusion, worded as "most likely".
    pub conclusion: String,
    /// Extra context (mixed content, Local Network Access).
    pub context: Vec<String>,
    /// What the conclusion asks for: one value, so a "not CORS" conclusion cannot come with CORS
    /// fixes.
    pub fix: CorsFix,
}

/// What the doctor's conclusion asks of the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "fix", rename_all = "snake_case")]
pub enum CorsFix {
    /// The host did not answer at all: no CORS setting would change that.
    NotCors {
        /// What to check instead.
        next: &'static str,
    },
    /// A CORS setting: what to allow and expose, per SDK.
    Cors {
        /// Request headers the server must allow (MCP's, then the user's extra ones).
        allow_headers: Vec<String>,
        /// Response headers the server must expose.
        expose_headers: Vec<&'static str>,
        /// Fixes per SDK.
        snippets: Vec<Snippet>,
        /// CORS binds browsers only: the command line reaches the server meanwhile.
        direct: &'static str,
    },
}

/// What a host that does not answer calls for.
const NOT_CORS_NEXT: &str = "Check that the server runs and that this address and port are right; \
     `mcp-triage probe URL` from a terminal says whether the connection is refused or the name does \
     not resolve.";

/// What a server error the browser could not read calls for.
const SERVER_ERROR_NEXT: &str = "Read the server's log for the error, and run `mcp-triage probe URL` from a \
     terminal: it reads the answer the browser could not (its status and its words). Send CORS headers \
     on error answers too, so a browser can read them.";

/// The line every CORS fix ends with.
const DIRECT: &str = "CORS binds browsers only: `mcp-triage probe URL` from a terminal reaches servers \
     that allow no browser origin, so you can check the server while its CORS is fixed.";

fn is_loopback_origin(origin: &str) -> bool {
    [
        "http://localhost",
        "http://127.0.0.1",
        "https://localhost",
        "https://127.0.0.1",
        "http://[::1]",
    ]
    .iter()
    .any(|p| origin == *p || origin.starts_with(&format!("{p}:")))
}

/// Header names rendered for one language's snippet and joined.
fn list(headers: &[&str], render: impl Fn(&str) -> String, sep: &str) -> String {
    headers
        .iter()
        .map(|h| render(h))
        .collect::<Vec<_>>()
        .join(sep)
}

/// The CORS doctor as a state machine: it hands out its token-free requests one at a time, takes
/// each outcome, stops at the first refused step (the ones after it would say nothing new), and
/// gives the diagnosis.
#[derive(Debug, Clone)]
pub struct Doctor {
    plan: Vec<DiagRequest>,
    cors_answers: DiagRequest,
    results: Vec<(DiagRequest, DiagOutcome)>,
    stopped: bool,
}

impl Doctor {
    /// A doctor for a run of this era (`modern`: 2026-07-28's headers) and these extra headers.
    pub fn new(modern: bool, extra_headers: &[String]) -> Doctor {
        Doctor {
            plan: plan(modern, extra_headers),
            cors_answers: cors_answers(),
            results: Vec::new(),
            stopped: false,
        }
    }

    /// The next request to send, if any: the plan in order, up to its first refusal; after a
    /// refused `allow_origin` step, one question more: does the server's CORS answer this page at
    /// all (`cors_answers`)?
    pub fn next_request(&self) -> Option<&DiagRequest> {
        if !self.stopped {
            return self.plan.get(self.results.len());
        }
        match self.results.last() {
            Some((last, DiagOutcome::Rejected { .. })) if last.step == "allow_origin" => {
                Some(&self.cors_answers)
            }
            _ => None,
        }
    }

    /// The outcome of the request [`Doctor::next_request`] handed out.
    pub fn record(&mut self, outcome: DiagOutcome) {
        let Some(req) = self.next_request().cloned() else {
            return;
        };
        self.stopped = self.stopped || matches!(outcome, DiagOutcome::Rejected { .. });
        self.results.push((req, outcome));
    }

    /// The diagnosis from what was recorded.
    pub fn diagnosis(&self, page_origin: &str, endpoint: &Endpoint) -> Diagnosis {
        diagnose(page_origin, endpoint, &self.results)
    }

    /// The diagnosis of a run the doctor was called for ([`DoctorCall`]): when the run recovered by
    /// falling back to an older era, the conclusion says so first, and when none of the doctor's
    /// requests was blocked there is nothing left to diagnose (`None`: no doctor box).
    pub fn diagnosis_of_run(
        &self,
        page_origin: &str,
        endpoint: &Endpoint,
        call: &DoctorCall,
    ) -> Option<Diagnosis> {
        let mut d = self.diagnosis(page_origin, endpoint);
        if let Some(era) = &call.fell_back_to {
            d.blocked_step?;
            d.conclusion = format!(
                "The browser blocked 2026-07-28, so the run fell back and ran in {era}. {}",
                d.conclusion
            );
        }
        Some(d)
    }
}

/// Concludes from the outcomes of [`plan`] (in order, possibly cut after the first rejection).
pub(crate) fn diagnose(
    page_origin: &str,
    endpoint: &Endpoint,
    results: &[(DiagRequest, DiagOutcome)],
) -> Diagnosis {
    let mut context = Vec::new();
    if page_origin.starts_with("https:")
        && endpoint.scheme == "http"
        && !endpoint.is_page_loopback()
    {
        context.push(
            "This https page cannot reach an http:// endpoint (mixed content): use https.".into(),
        );
    }
    if !is_loopback_origin(page_origin) && endpoint.is_local_network() {
        context.push(
            "This public page is reaching a loopback or private address: Chrome asks for Local Network Access \
             permission first, and a refusal looks exactly like a network error."
                .into(),
        );
    }
    let blocked_request = results
        .iter()
        .find(|(_, o)| matches!(o, DiagOutcome::Rejected { .. }))
        .map(|(r, _)| r);
    let blocked = blocked_request.map(|r| r.step);
    let mut allow_headers: Vec<String> = ALLOW_HEADERS.iter().map(|h| h.to_string()).collect();
    allow_headers.extend(
        results
            .iter()
            .filter_map(|(r, _)| r.header.clone())
            .filter(|h| !ALLOW_HEADERS.iter().any(|a| a.eq_ignore_ascii_case(h))),
    );
    // The server's CORS answered this page, yet a POST's answer had no Access-Control-Allow-Origin.
    let error_skips_cors = blocked == Some("allow_origin")
        && results
            .iter()
            .any(|(r, o)| r.step == "cors_answers" && matches!(o, DiagOutcome::Answered { .. }));
    let conclusion = match blocked {
        Some("allow_origin") if error_skips_cors => format!(
            "Most likely the server failed on this request (a crash, or a 5xx from a proxy) and its error \
             answer skips its CORS handling: its CORS does answer {page_origin} (an OPTIONS request from this page \
             was read), yet its answer to a POST carried no Access-Control-Allow-Origin. The browser cannot read \
             that answer; a terminal can."
        ),
        Some("allow_extra_header") => format!(
            "Most likely the preflight does not allow the {} header you added: list it in \
             Access-Control-Allow-Headers.",
            blocked_request
                .and_then(|r| r.header.as_deref())
                .unwrap_or("extra")
        ),
        Some("host_answers") => format!(
            "Most likely the host {} does not answer at all from this browser (not running, wrong port, DNS, a \
             firewall, or a refused permission), so this is not a CORS setting.",
            endpoint.origin()
        ),
        Some("allow_origin") => format!(
            "Most likely the server sends no Access-Control-Allow-Origin for {page_origin}: add CORS middleware \
             that allows exactly this origin."
        ),
        Some("preflight_json") => "Most likely the server does not answer the CORS preflight (OPTIONS) or does not \
             allow Content-Type: application/json."
            .into(),
        Some("allow_authorization") => {
            "Most likely the preflight does not allow the Authorization header.".into()
        }
        Some("allow_protocol_version") => {
            "Most likely the preflight does not allow the Mcp-Protocol-Version header.".into()
        }
        Some("allow_session_id") => "Most likely the preflight does not allow the Mcp-Session-Id header.".into(),
        Some("allow_method_name") => {
            "Most likely the preflight does not allow the Mcp-Method / Mcp-Name headers (2026-07-28).".into()
        }
        _ => "Every diagnostic request got through: the failure most likely came from something only the real \
              request had (a response header that is not exposed, a redirect, or a server that fails on the \
              real payload)."
            .into(),
    };
    let origin = page_origin;
    let allow_names: Vec<&str> = allow_headers.iter().map(String::as_str).collect();
    let allow = list(&allow_names, |h| format!("'{h}'"), ", ");
    let expose = list(EXPOSE_HEADERS, |h| format!("'{h}'"), ", ");
    let allow_py = list(&allow_names, |h| format!("\"{h}\""), ", ");
    let expose_py = list(EXPOSE_HEADERS, |h| format!("\"{h}\""), ", ");
    let rust_name = |h: &str| format!("HeaderName::from_static(\"{}\")", h.to_ascii_lowercase());
    let allow_rs = list(&allow_names, rust_name, ",\n        ");
    let expose_rs = list(EXPOSE_HEADERS, rust_name, ",\n        ");
    let snippets = vec![
        Snippet {
            stack: "TypeScript SDK (Express + cors)",
            code: format!(
                "import cors from 'cors';\n\napp.use(cors({{\n  origin: ['{origin}'],\n  allowedHeaders: [{allow}],\n  exposedHeaders: [{expose}],\n  maxAge: 600,\n}}));"
            ),
        },
        Snippet {
            stack: "Python SDK (Starlette CORSMiddleware + transport security)",
            code: format!(
                "from starlette.middleware.cors import CORSMiddleware\nfrom mcp.server.transport_security import TransportSecuritySettings\n\n# Allow this page through the SDK's Origin check too:\nmcp = MCPServer(\"my-server\", transport_security=TransportSecuritySettings(\n    allowed_origins=[\"{origin}\"],\n))\napp = mcp.streamable_http_app()\napp.add_middleware(\n    CORSMiddleware,\n    allow_origins=[\"{origin}\"],\n    allow_methods=[\"GET\", \"POST\", \"DELETE\"],\n    allow_headers=[{allow_py}],\n    expose_headers=[{expose_py}],\n    max_age=600,\n)"
            ),
        },
        Snippet {
            stack: "rmcp (tower-http CorsLayer)",
            code: format!(
                "use std::time::Duration;\nuse http::{{HeaderName, HeaderValue, Method}};\nuse tower_http::cors::CorsLayer;\n\nlet cors = CorsLayer::new()\n    .allow_origin(HeaderValue::from_static(\"{origin}\"))\n    .allow_methods([Method::GET, Method::POST, Method::DELETE])\n    .allow_headers([\n        {allow_rs},\n    ])\n    .expose_headers([\n        {expose_rs},\n    ])\n    .max_age(Duration::from_secs(600));"
            ),
        },
    ];
    let fix = if blocked == Some("host_answers") {
        CorsFix::NotCors {
            next: NOT_CORS_NEXT,
        }
    } else if error_skips_cors {
        CorsFix::NotCors {
            next: SERVER_ERROR_NEXT,
        }
    } else {
        CorsFix::Cors {
            allow_headers,
            expose_headers: EXPOSE_HEADERS.to_vec(),
            snippets,
            direct: DIRECT,
        }
    };
    Diagnosis {
        blocked_step: blocked,
        conclusion,
        context,
        fix,
    }
}

#[cfg(test)]
mod tests;
