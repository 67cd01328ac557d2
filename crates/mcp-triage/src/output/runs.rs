//! Which run a capture belongs to, so a replay never plays the answers of two runs as one.
//!
//! Every exchange a shell records carries its run's id (`run_id` in `mcp-exchange/1`). Captures made
//! before that, or by other tools, have none: they are grouped by what they do carry, the server
//! they were sent to (the request URL without its query) and the session the server gave (the
//! `Mcp-Session-Id` an `initialize` answer set). A request that sent a session id no recorded
//! `initialize` gave (a deliberately bogus one, say), a request without one, and a fetch of a
//! `/.well-known/` document belong to no group of their own: any run may have sent them. Captures of
//! two runs against one stateless server cannot be told apart, and [`OneRun::ServerOnly`] says so.

use std::fmt;

use crate::vocabulary::exchange::Exchange;

/// How a set of captures was found to be one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OneRun {
    /// Every capture carries this run id.
    RunId(String),
    /// No run ids; one server and one session it gave.
    ServerAndSession,
    /// No run ids and no session: one server is all that could be checked, so captures of two
    /// runs against it would pass as one.
    ServerOnly,
    /// Nothing to group by (no capture names a server).
    Unknown,
}

impl OneRun {
    /// What a replay's summary says about it, when it could not be sure.
    pub fn caveat(&self) -> Option<&'static str> {
        match self {
            OneRun::RunId(_) => None,
            OneRun::ServerAndSession => Some(
                "These captures carry no run id: they were taken as one run by their server and the session its initialize gave; requests without a session, or with one no recorded initialize gave, were taken as part of it.",
            ),
            OneRun::ServerOnly | OneRun::Unknown => Some(
                "These captures carry no run id and no session: they were taken as one run because they name one server, and captures of two runs against it cannot be told apart.",
            ),
        }
    }
}

/// Captures of one run, as a refusal names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunGroup {
    /// What they share (`run 1a2b…`, `session 75c8… at http://…`, a server).
    pub what: String,
    /// Their labels (file names, or `exchange N`), in the order given.
    pub sources: Vec<String>,
}

/// Captures of more than one run: the groups, in the order their first capture was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MixedRuns {
    /// Two groups or more.
    pub groups: Vec<RunGroup>,
    /// How many captures belong to no group (they cannot tell, and do not decide).
    pub undecided: usize,
}

/// Sources named per group in a refusal; the rest are counted.
const NAMED: usize = 4;

impl fmt::Display for MixedRuns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "these captures come from {} different runs, and a replay plays one run's answers:",
            self.groups.len()
        )?;
        for g in &self.groups {
            let named: Vec<&str> = g.sources.iter().take(NAMED).map(String::as_str).collect();
            write!(f, " {} ({}", g.what, named.join(", "))?;
            if g.sources.len() > NAMED {
                write!(f, ", and {} more", g.sources.len() - NAMED)?;
            }
            write!(f, ");")?;
        }
        if self.undecided > 0 {
            write!(
                f,
                " {} more belong to whichever run sent them (no session, or one no recorded initialize gave);",
                self.undecided
            )?;
        }
        write!(f, " replay each run's captures on their own")
    }
}

/// Session ids shown in a refusal are cut to this many characters (they are a server's, not ours).
const SESSION_SHOWN: usize = 8;

/// The request URL without its query or fragment; `None` for a `/.well-known/` document.
fn server_of(ex: &Exchange) -> Option<String> {
    let url = ex.request.url.split(['?', '#']).next().unwrap_or_default();
    let path = url
        .find("://")
        .and_then(|i| url[i + 3..].find('/').map(|j| &url[i + 3 + j..]))
        .unwrap_or("");
    (!url.is_empty() && !path.starts_with("/.well-known/")).then(|| url.to_string())
}

/// A server, and the session it gave where one is known.
type ServerSession = (String, Option<String>);

/// A run id as the engine writes it (16 lowercase hex digits); anything else is read as none, and is
/// never echoed in a message.
fn run_id_of(ex: &Exchange) -> Option<&str> {
    ex.run_id
        .as_deref()
        .filter(|id| crate::vocabulary::exchange::is_run_id(id))
}

/// Groups `captures` (labelled by `sources`, one each; `methods` is each request's JSON-RPC method,
/// as the caller already read it) into runs: one run, or the groups.
pub(crate) fn one_run(
    captures: &[Exchange],
    methods: &[Option<&str>],
    sources: &[String],
) -> Result<OneRun, MixedRuns> {
    let is_initialize = |i: usize| methods.get(i).copied().flatten() == Some("initialize");
    let label = |i: usize| {
        sources
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("exchange {}", i + 1))
    };
    if captures.iter().any(|c| run_id_of(c).is_some()) {
        let mut groups: Vec<(Option<&str>, Vec<usize>)> = Vec::new();
        for (i, c) in captures.iter().enumerate() {
            let id = run_id_of(c);
            match groups.iter_mut().find(|(g, _)| *g == id) {
                Some((_, members)) => members.push(i),
                None => groups.push((id, vec![i])),
            }
        }
        if let [(Some(id), _)] = groups.as_slice() {
            return Ok(OneRun::RunId((*id).to_string()));
        }
        return Err(MixedRuns {
            groups: groups
                .into_iter()
                .map(|(id, members)| RunGroup {
                    what: match id {
                        Some(id) => format!("run {id}"),
                        None => "no run id (made by another tool or an older version)".into(),
                    },
                    sources: members.into_iter().map(label).collect(),
                })
                .collect(),
            undecided: 0,
        });
    }
    let servers: Vec<Option<String>> = captures.iter().map(server_of).collect();
    let session_header = |h: &[(String, String)]| {
        crate::vocabulary::exchange::header(h, crate::vocabulary::header::SESSION_ID)
            .map(str::to_string)
    };
    // Sessions are what a server gave in answer to an initialize; where the run sent a token, only
    // to an initialize that carried it (the no-token check's initialize may be given a session of
    // its own by a server that does not check).
    let with_token = |c: &Exchange| c.request.header("authorization").is_some();
    let token_sent = captures
        .iter()
        .enumerate()
        .any(|(i, c)| is_initialize(i) && with_token(c));
    let given: Vec<Option<String>> = captures
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (is_initialize(i) && (!token_sent || with_token(c)))
                .then(|| c.response.as_ref().and_then(|r| session_header(&r.headers)))
                .flatten()
        })
        .collect();
    let sessions: Vec<Option<String>> = captures
        .iter()
        .zip(&given)
        .map(|(c, g)| {
            g.clone().or_else(|| {
                session_header(&c.request.headers)
                    .filter(|s| given.iter().flatten().any(|g| g == s))
            })
        })
        .collect();
    // A group is a server and, where known, a session: (server, session) pairs in first-seen order.
    let mut groups: Vec<(ServerSession, Vec<usize>)> = Vec::new();
    let mut undecided = 0;
    for i in 0..captures.len() {
        let Some(server) = servers[i].clone() else {
            undecided += 1;
            continue;
        };
        let key = (server, sessions[i].clone());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    // Requests without a session on a server where one session was given belong to it.
    let with_session: Vec<&ServerSession> = groups
        .iter()
        .map(|(k, _)| k)
        .filter(|(_, s)| s.is_some())
        .collect();
    // (No sort: each sort is kilobytes of bundle per element type.)
    let mut names: Vec<&str> = Vec::new();
    for ((server, _), _) in &groups {
        if !names.contains(&server.as_str()) {
            names.push(server);
        }
    }
    let server_count = names.len();
    if server_count <= 1 && with_session.len() <= 1 {
        return Ok(match (groups.is_empty(), with_session.is_empty()) {
            (true, _) => OneRun::Unknown,
            (false, true) => OneRun::ServerOnly,
            (false, false) => OneRun::ServerAndSession,
        });
    }
    // Mixed: name each server's sessions; captures without a session are undecided when their
    // server has sessions, and a group of their own otherwise.
    let mut named = Vec::new();
    for ((server, session), members) in &groups {
        match session {
            Some(s) => {
                let shown: String = s.chars().take(SESSION_SHOWN).collect();
                named.push(RunGroup {
                    what: format!("session {shown}… at {server}"),
                    sources: members.iter().map(|i| label(*i)).collect(),
                });
            }
            None if groups
                .iter()
                .any(|((other, s), _)| other == server && s.is_some()) =>
            {
                undecided += members.len();
            }
            None => named.push(RunGroup {
                what: server.clone(),
                sources: members.iter().map(|i| label(*i)).collect(),
            }),
        }
    }
    Err(MixedRuns {
        groups: named,
        undecided,
    })
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::vocabulary::exchange::{Request, Response, Vantage};

    fn ex(url: &str, method: &str, sent: Option<&str>, given: Option<&str>) -> Exchange {
        let mut headers = Vec::new();
        if let Some(s) = sent {
            headers.push(("Mcp-Session-Id".to_string(), s.to_string()));
        }
        let mut e = Exchange::sent(
            Vantage::Direct,
            Request {
                method: "POST".into(),
                url: url.into(),
                headers,
                body: Some(format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}"}}"#)),
            },
        );
        e.response = Some(Response {
            status: 200,
            headers: given
                .map(|g| vec![("mcp-session-id".to_string(), g.to_string())])
                .unwrap_or_default(),
            body: None,
            body_complete: None,
            body_end: None,
            body_base64: None,
        });
        e
    }

    /// `one_run` with each request's method read from its body, as replay reads it.
    fn one_run(captures: &[Exchange], sources: &[String]) -> Result<OneRun, MixedRuns> {
        let bodies: Vec<Option<serde_json::Value>> = captures
            .iter()
            .map(|c| serde_json::from_str(c.request.body.as_deref()?).ok())
            .collect();
        let methods: Vec<Option<&str>> = bodies
            .iter()
            .map(|b| b.as_ref()?.get("method")?.as_str())
            .collect();
        super::one_run(captures, &methods, sources)
    }

    fn labels(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("f{i}.json")).collect()
    }

    #[test]
    fn one_run_id_is_one_run_and_two_are_refused_naming_the_files() {
        let (aa, bb) = ("00000000000000aa", "00000000000000bb");
        let mut a = ex("http://h/mcp", "initialize", None, None);
        a.run_id = Some(aa.into());
        let mut b = ex("http://h/mcp", "tools/list", None, None);
        b.run_id = Some(aa.into());
        assert_eq!(
            one_run(&[a.clone(), b.clone()], &labels(2)),
            Ok(OneRun::RunId(aa.into()))
        );
        b.run_id = Some(bb.into());
        let mixed = one_run(&[a.clone(), b.clone()], &labels(2)).unwrap_err();
        assert_eq!(mixed.groups.len(), 2);
        let text = mixed.to_string();
        assert!(text.contains(&format!("run {aa} (f1.json)")), "{text}");
        assert!(text.contains(&format!("run {bb} (f2.json)")), "{text}");
        // An id the engine never writes is read as none, and never echoed.
        b.run_id = Some("<script>".into());
        let odd = one_run(&[a.clone(), b], &labels(2)).unwrap_err();
        assert!(!odd.to_string().contains("<script>"), "{odd}");
        // A capture without an id beside one with: it cannot be told to be the same run.
        let old = ex("http://h/mcp", "tools/list", None, None);
        let mixed = one_run(&[a, old], &labels(2)).unwrap_err();
        assert!(mixed.to_string().contains("no run id"), "{mixed}");
    }

    #[test]
    fn without_run_ids_sessions_given_by_initialize_decide_and_strays_do_not() {
        let run = |s: &str| {
            vec![
                ex("http://h/mcp", "initialize", None, Some(s)),
                ex("http://h/mcp", "tools/list", Some(s), None),
                // A deliberately bogus session and none at all decide nothing.
                ex("http://h/mcp", "tools/call", Some("bogus-session"), None),
                ex("http://h/mcp", "tools/call", None, None),
            ]
        };
        assert_eq!(
            one_run(&run("s1"), &labels(4)),
            Ok(OneRun::ServerAndSession)
        );
        let two = [run("s1"), run("s2")].concat();
        let mixed = one_run(&two, &labels(8)).unwrap_err();
        assert_eq!(mixed.groups.len(), 2, "{mixed}");
        assert!(mixed.groups[0].what.starts_with("session s1"));
        assert_eq!(mixed.groups[0].sources, ["f1.json", "f2.json"]);
        assert_eq!(mixed.undecided, 4);
        // With a token sent, the no-token check's initialize given a session of its own decides
        // nothing: one run.
        let mut authed = run("s1");
        authed[0]
            .request
            .headers
            .push(("Authorization".into(), "Bearer [REDACTED]".into()));
        authed.push(ex("http://h/mcp", "initialize", None, Some("s-no-token")));
        assert_eq!(one_run(&authed, &labels(5)), Ok(OneRun::ServerAndSession));
        // The control: without a token anywhere, the same two sessions are two runs.
        let mut plain = run("s1");
        plain.push(ex("http://h/mcp", "initialize", None, Some("s-no-token")));
        assert!(one_run(&plain, &labels(5)).is_err());
    }

    #[test]
    fn without_sessions_one_server_passes_with_a_caveat_and_two_are_refused() {
        let one = [
            ex("http://h/mcp?key=1", "initialize", None, None),
            ex("http://h/mcp", "tools/list", None, None),
            ex(
                "http://h/.well-known/oauth-protected-resource",
                "x",
                None,
                None,
            ),
        ];
        let found = one_run(&one, &labels(3)).unwrap();
        assert_eq!(found, OneRun::ServerOnly);
        assert!(found.caveat().unwrap().contains("cannot be told apart"));
        let two = [
            ex("http://h/mcp", "initialize", None, None),
            ex("http://other/mcp", "initialize", None, None),
        ];
        let mixed = one_run(&two, &labels(2)).unwrap_err();
        assert!(
            mixed.to_string().contains("http://other/mcp (f2.json)"),
            "{mixed}"
        );
    }
}
