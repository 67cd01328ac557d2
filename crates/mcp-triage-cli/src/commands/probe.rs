//! `mcp-triage probe URL`: the page's check from a terminal, over the same core. This module reads
//! the command line and hands the run to its transport: the blocking HTTP shell in `http.rs`, or
//! `stdio.rs`; both drive the engine through `drive.rs`. It decides nothing the core could.

use std::io::{self, Read};
use std::sync::mpsc;
use std::time::Duration;

use mcp_triage::auth::AuthDoctor;
use mcp_triage::engine::{
    Engine, EngineConfig, Era, Outgoing, RunInput, RunReport, Step, UrlReader, check_run, exit,
};
use mcp_triage::exchange::Exchange;
use mcp_triage::limits::MAX_IN_FLIGHT_PER_HOST;
use mcp_triage::redact::Credentials;
use mcp_triage::{Limits, endpoint, export};

use super::oauth;
use crate::run::drive::{
    OauthArgs, ProbeArgs, Sender, drive, hand_back, limits as run_limits, read_url, seed,
};
use crate::run::interrupt;
use crate::run::output::{self, Output};
use crate::transports::http;

/// The whole usage text.
pub(crate) fn usage() -> String {
    USAGE
        .replace("{OUTPUT}", output::USAGE)
        .replace("{EXIT}", &exit::table_text())
}

pub(crate) const USAGE: &str = r#"usage: mcp-triage probe URL [options]
       mcp-triage probe [options] --stdio -- COMMAND [ARGS...]

Runs MCP Triage's check against a Streamable HTTP endpoint from this machine
(no browser, so no CORS): probes A (unknown tool), B (schema-invalid
arguments), C (a call whose backend fails), D (a success), and the transport
checks, then prints each verdict, the finding and the score.

With --stdio it starts COMMAND as its clients do (a child process speaking
newline-delimited JSON-RPC on stdin/stdout) and runs A to D over it. It also
finds what only stdio has: lines on stdout that are not JSON-RPC (a server
that logs there breaks its clients), a process that exits or crashes during
a call (its exit status and the end of its stderr), a reply that never comes.
At the end stdin is closed, the server gets 2 s to exit, then its whole
process group is ended (SIGTERM, then SIGKILL). Outputs show the program's
name only (stdio:node), never its arguments or environment; its stderr is
in the text and JSON reports, never in a share link.
  --secret-env VAR        a value the server may print (a key it was given), from
                          environment variable VAR: redacted from every output like
                          a token (repeatable; --stdio only)

Secrets never go on the command line (they would show in `ps`):
  --token-env VAR         the bearer token, from environment variable VAR
  --token-stdin           the bearer token, from the first line of standard input
  --header-env NAME=VAR   an extra secret header, its value from VAR (repeatable)
  --header NAME=VALUE     an extra plain header (repeatable)
Options:
  --era E                 2025-11-25 (default), 2025-06-18, 2025-03-26, 2026-07-28 or auto
  --time-limit SECONDS    the whole run's time limit (2 to 600; default 120)
  --origin ORIGIN         send this Origin header (to test the server's Origin check)
  --auth-check            after a 401, walk authorization discovery as a client of
                          the era's revision would (auto: the newest): the challenge,
                          protected resource metadata, authorization server metadata,
                          registration and the authorization URL (shown, never
                          opened), each a card with its verdicts and their citations.
                          Fetches carry no token and no header of yours, follow no
                          redirect, and reach only https: (or loopback http:) URLs;
                          at most 12
  --oauth                 sign in first (OAuth 2.1 with PKCE S256, the loopback redirect
                          of RFC 8252), then run the check with the token: the
                          doctor's discovery, then dynamic registration (unless
                          --client-id), the authorization URL opened in your browser
                          (never through a shell), one callback on 127.0.0.1, the
                          token request. During the run, once each: a refresh when
                          the token is refused (401), a step-up when a call needs
                          more scope (403 insufficient_scope), then the request is
                          sent again. The tokens stay in memory; each run signs in
                          anew. Excludes --token-env and --token-stdin
  --client-id ID          with --oauth: a client registered beforehand (no dynamic
                          registration)
  --no-browser            with --oauth: print the authorization URL on standard
                          error instead of opening it
  --write-plan FILE       write the calls this run would make (declared read-only
                          tools, else the proposals for tools that declare nothing,
                          with "opt_in": false) as a plan file to read and commit
  --plan FILE             run a plan file (the page's Review first format): its
                          calls as written; a tool not declared read-only runs only
                          where the plan says "opt_in": true
Without a plan, only tools the server declares read-only are called: tools it
does not annotate are not called, and the report says what was skipped and why.
http:// is accepted only for loopback hosts when a secret is sent.
Progress goes to standard error; colour is never used.

{OUTPUT}

Ctrl-C (SIGINT) or SIGTERM stops the run at once: a stdio server gets the same
teardown as at the end of a run (a second signal skips its grace periods), and
every output asked for is still written, saying the run was interrupted.

{EXIT}"#;

fn split_pair(text: &str, flag: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(k, v)| (k.trim().to_string(), v.to_string()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| format!("{flag} takes NAME=VALUE, not {text:?}"))
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<ProbeArgs, String> {
    let mut url = None;
    let mut token = None;
    let mut secret_headers = Vec::new();
    let mut plain_headers = Vec::new();
    let mut era = Era::default_choice();
    let mut seconds = mcp_triage::limits::RUN_SECONDS.2;
    let mut origin = None;
    let mut output = Output::default();
    let mut plan = None;
    let mut write_plan = None;
    let mut stdio_flag = false;
    let mut command = None;
    let mut secret_values = Vec::new();
    let mut auth_check = false;
    let mut oauth = false;
    let mut client_id = None;
    let mut no_browser = false;
    while let Some(arg) = args.next() {
        if arg == "--" {
            command = Some(args.by_ref().collect::<Vec<_>>());
            break;
        }
        if output.take(&arg, &mut || args.next())? {
            continue;
        }
        let mut value = |flag: &str| args.next().ok_or(format!("{flag} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--token" => {
                return Err("a token on the command line shows in `ps` and shell history: use --token-env VAR or --token-stdin".into());
            }
            "--token-env" => {
                let var = value("--token-env")?;
                token = Some(
                    std::env::var(&var)
                        .map_err(|_| format!("environment variable {var} is not set"))?,
                );
            }
            "--token-stdin" => {
                let mut line = String::new();
                io::stdin()
                    .read_to_string(&mut line)
                    .map_err(|e| format!("cannot read the token from standard input: {e}"))?;
                token = Some(line.lines().next().unwrap_or("").trim().to_string());
            }
            "--header-env" => {
                let (name, var) = split_pair(&value("--header-env")?, "--header-env")?;
                let v = std::env::var(&var)
                    .map_err(|_| format!("environment variable {var} is not set"))?;
                secret_headers.push((name, v));
            }
            "--header" => plain_headers.push(split_pair(&value("--header")?, "--header")?),
            "--era" => {
                let e = value("--era")?;
                era = Era::parse(&e).ok_or(format!("unknown era {e:?}"))?;
            }
            "--time-limit" => {
                seconds = mcp_triage::limits::parse_run_seconds(&value("--time-limit")?)?
            }
            "--origin" => origin = Some(value("--origin")?),
            "--plan" => {
                let file = value("--plan")?;
                let text = std::fs::read(&file).map_err(|e| format!("cannot read {file}: {e}"))?;
                if text.len() > mcp_triage::plan_file::MAX_PLAN_BYTES {
                    return Err(format!(
                        "{file}: {}",
                        mcp_triage::plan_file::PlanProblem::TooLarge
                    ));
                }
                let text = String::from_utf8_lossy(&text);
                plan =
                    Some(mcp_triage::plan_file::decode(&text).map_err(|e| format!("{file}: {e}"))?);
            }
            "--write-plan" => write_plan = Some(value("--write-plan")?),
            "--stdio" => stdio_flag = true,
            "--auth-check" => auth_check = true,
            "--oauth" => oauth = true,
            "--client-id" => client_id = Some(value("--client-id")?),
            "--no-browser" => no_browser = true,
            "--secret-env" => {
                let var = value("--secret-env")?;
                let v = std::env::var(&var)
                    .map_err(|_| format!("environment variable {var} is not set"))?;
                // Checked as the token is: the same rule for what redaction can tell apart.
                endpoint::check_header_value(
                    &v,
                    mcp_triage::limits::Limits::default().max_token_bytes,
                    true,
                )
                .map_err(|p| format!("{var}: {p}"))?;
                secret_values.push(v);
            }
            flag if flag.starts_with('-') => return Err(format!("unknown flag {flag:?}")),
            _ if url.is_none() => url = Some(arg),
            _ => return Err(format!("one URL only (got another: {arg:?})")),
        }
    }
    let stdio = match (stdio_flag, command) {
        (true, Some(cmd)) if !cmd.is_empty() && !cmd[0].is_empty() => Some(cmd),
        (true, _) => return Err("--stdio needs the server's command after --: mcp-triage probe --stdio -- node server.js".into()),
        (false, Some(_)) => return Err("a command after -- is for --stdio".into()),
        (false, None) => None,
    };
    if stdio.is_none() && !secret_values.is_empty() {
        return Err("--secret-env is for --stdio; over HTTP the secrets are the token and --header-env values".into());
    }
    if oauth && token.is_some() {
        return Err(
            "--oauth signs in for its token: it excludes --token-env and --token-stdin".into(),
        );
    }
    if !oauth && (client_id.is_some() || no_browser) {
        return Err("--client-id and --no-browser are for --oauth".into());
    }
    if stdio.is_some() {
        if oauth {
            return Err("--oauth is for HTTP: a stdio server has no authorization".into());
        }
        if let Some(u) = &url {
            return Err(format!(
                "--stdio starts a server from its command; a URL ({u:?}) is for HTTP"
            ));
        }
        if auth_check {
            return Err(
                "--auth-check is for HTTP: a stdio server has no authorization to discover".into(),
            );
        }
        if token.is_some()
            || !secret_headers.is_empty()
            || !plain_headers.is_empty()
            || origin.is_some()
        {
            return Err("a stdio server has no headers: the token, --header, --header-env and --origin are for HTTP (mark secrets with --secret-env VAR)".into());
        }
    }
    Ok(ProbeArgs {
        url: match &stdio {
            Some(cmd) => mcp_triage::stdio::endpoint_of(&cmd[0]),
            None => url.ok_or("missing URL (or --stdio -- COMMAND)")?,
        },
        stdio,
        secret_values,
        token,
        secret_headers,
        plain_headers,
        era,
        seconds,
        origin,
        output,
        plan,
        write_plan,
        auth_check,
        oauth: oauth.then_some(OauthArgs {
            client_id,
            open_browser: !no_browser,
        }),
    })
}

/// Runs `mcp-triage probe …`; returns the exit status.
pub(crate) fn main(args: impl Iterator<Item = String>) -> u8 {
    let args = match parse(args) {
        Ok(a) => a,
        Err(msg) if msg.is_empty() => {
            println!("{}", usage());
            return exit::OK;
        }
        Err(msg) => {
            eprintln!("mcp-triage probe: {msg}\n\n{}", usage());
            return exit::USAGE;
        }
    };
    // From here on a signal stops the run, not the process: what was recorded is still written.
    if let Err(e) = interrupt::install() {
        eprintln!("mcp-triage probe: {e}; Ctrl-C will end the process without a report");
    }
    let limits = match run_limits(args.seconds) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("mcp-triage probe: {e}");
            return exit::USAGE;
        }
    };
    if args.stdio.is_some() {
        #[cfg(unix)]
        return crate::transports::stdio::probe(&args, &limits);
        #[cfg(not(unix))]
        {
            eprintln!("mcp-triage probe: --stdio needs a Unix system (process groups)");
            return exit::USAGE;
        }
    }
    let input = RunInput {
        endpoint: args.url.clone(),
        token: args.token.clone().unwrap_or_default(),
        secret_headers: args.secret_headers.clone(),
        plain_headers: args.plain_headers.clone(),
        era: args.era.clone(),
        mode: args.mode(),
        signs_in: args.oauth.is_some(),
    };
    let setup = match check_run(&input, UrlReader::Native(&read_url), limits.clone(), seed()) {
        Ok(s) => s,
        Err(p) => {
            eprintln!("mcp-triage probe: {p}");
            return exit::USAGE;
        }
    };
    let ep = setup.endpoint.clone();
    let mut creds = setup.credentials.clone();
    // --oauth: a run without a token gets the 401 the doctor starts from; then the sign-in, then
    // the run with the token.
    let mut signed_in = None;
    if let Some(oauth) = &args.oauth {
        let mut first = match run(setup.config.clone(), &args, &creds, None, &limits) {
            Ok(r) => r,
            Err((code, msg)) => {
                eprintln!("mcp-triage probe: {msg}");
                return code;
            }
        };
        let Some(doctor) = auth_check(&mut first, &ep, &creds, &limits) else {
            return args
                .output
                .emit(&first, &ep, &creds.secrets(), export::text);
        };
        match oauth::Session::start(
            &doctor,
            oauth.client_id.clone(),
            oauth.open_browser,
            &limits,
        )
        .and_then(|s| Ok((s.token()?.to_string(), s)))
        {
            Ok((token, session)) => {
                creds = Credentials::new(
                    token,
                    args.secret_headers.clone(),
                    args.plain_headers.clone(),
                );
                signed_in = Some((doctor, session));
            }
            Err(why) => {
                eprintln!("mcp-triage probe: sign-in refused: {why}");
                first.note_sign_in_refused(&why);
                // The report's exit status says the sign-in was refused (the core's table).
                return args
                    .output
                    .emit(&first, &ep, &creds.secrets(), export::text);
            }
        }
    }
    // Signed in, the run has a token now, and randomness of its own.
    let config = match &signed_in {
        Some(_) => setup.config.for_credentials(&creds, seed()),
        None => setup.config,
    };
    let mut report = match run(
        config,
        &args,
        &creds,
        signed_in.as_mut().map(|(_, s)| s),
        &limits,
    ) {
        Ok(r) => r,
        Err((code, msg)) => {
            eprintln!("mcp-triage probe: {msg}");
            return code;
        }
    };
    // A sign-in's secrets, those never sent (its codes, verifiers, refresh tokens) and those a
    // renewal replaced: redacted with the run's.
    let mut secrets = creds.secrets();
    if let Some((doctor, session)) = &signed_in {
        report.auth = Some(doctor.report());
        report.note_signed_in(&session.summary());
        secrets = secrets.and(&session.secrets());
    } else if args.auth_check {
        auth_check(&mut report, &ep, &creds, &limits);
    }
    args.output.emit(&report, &ep, &secrets, export::text)
}

/// `--auth-check`: the core's OAuth doctor, its fetches sent one at a time without the token or
/// any header of the user's (each a GET the core built; redirects are never followed), its report
/// put in the run's. Without a 401 the core's reason goes into the report's notes.
fn auth_check(
    report: &mut RunReport,
    ep: &endpoint::Endpoint,
    creds: &Credentials,
    limits: &Limits,
) -> Option<AuthDoctor> {
    let mut doctor = match report.auth_doctor(ep, creds.secrets(), None) {
        Ok(d) => d,
        Err(why) => {
            eprintln!("auth check: {why}");
            report.note_no_auth_check(why);
            return None;
        }
    };
    let agent = http::agent();
    let nothing = Credentials::default();
    while let Some(out) = doctor.next_fetch() {
        eprintln!("auth check: {}", out.step.label());
        let ex = http::send(&agent, &out, &nothing, None, limits, None, &mut |_| {});
        doctor.answer(ex);
    }
    report.auth = Some(doctor.report());
    Some(doctor)
}

/// One run over HTTP. Signed in (`session`), an answer the core says calls for a renewal is
/// renewed for, and its request sent once more with the new token: only that second answer is
/// handed to the engine, and the report's sign-in notes say what happened.
fn run(
    config: EngineConfig,
    args: &ProbeArgs,
    creds: &Credentials,
    mut session: Option<&mut oauth::Session>,
    limits: &Limits,
) -> Result<RunReport, (u8, String)> {
    let config = match &session {
        Some(s) => config.with_secrets(&s.secrets()),
        None => config,
    };
    let secrets = config.secrets.clone();
    let mut engine = Engine::new(config);
    let agent = http::agent();
    let origin = args.origin.as_deref();
    let mut creds = creds.clone();
    let talk = args.talk(&secrets);
    drive(
        &mut engine,
        args.unattended(),
        &talk,
        Sender::Together(&mut |engine, wave, run_left| {
            if run_left == Some(Duration::ZERO) {
                for out in wave {
                    hand_back(engine, out.step, http::not_sent(&out, &creds));
                }
                return;
            }
            // The wave's requests go out together (at most the per-host limit at once), each on
            // its own thread; a server's request to the client mid-answer comes here, where the
            // engine decides its reply, and the reply is sent on that request's thread.
            // Signed in, a refused token is renewed once (the core decides), and a request of
            // the same wave refused for the token that renewal replaced is sent again with the
            // new one.
            for part in wave.chunks(MAX_IN_FLIGHT_PER_HOST) {
                let sent_with = session.as_deref().map(oauth::Session::token_issue);
                let answered = together(engine, part, &agent, &creds, origin, limits, run_left);
                for (out, ex, replies) in answered {
                    for (step, reply) in replies {
                        hand_back(engine, step, reply);
                    }
                    let mut ex = ex;
                    if let (Some(s), Some(sent_with)) = (session.as_deref_mut(), sent_with)
                        && let Some(token) = s.renew(out, &ex, sent_with)
                    {
                        engine.add_secrets(&s.secrets());
                        creds = Credentials::new(
                            token,
                            args.secret_headers.clone(),
                            args.plain_headers.clone(),
                        );
                        let again = together(
                            engine,
                            std::slice::from_ref(out),
                            &agent,
                            &creds,
                            origin,
                            limits,
                            run_left,
                        );
                        for (_, again, replies) in again {
                            for (step, reply) in replies {
                                hand_back(engine, step, reply);
                            }
                            ex = again;
                        }
                    }
                    hand_back(engine, out.step, ex);
                }
            }
        }),
    )?;
    Ok(engine.report())
}

/// What one request of a wave brought back: the request, its record, and the replies sent to the
/// server's requests during it (each with its record).
type Answered<'a> = (&'a Outgoing, Exchange, Vec<(Step, Exchange)>);

/// A question from a request's thread: the server asked the client `request`; the engine's reply
/// (or none) goes back on the channel.
type Ask = (serde_json::Value, mpsc::Sender<Option<Outgoing>>);

/// Sends `wave` at once, one thread a request, and returns what each brought back in the wave's
/// order. The engine stays on this thread: it only answers the server's requests as they come.
fn together<'a>(
    engine: &mut Engine,
    wave: &'a [Outgoing],
    agent: &ureq::Agent,
    creds: &Credentials,
    origin: Option<&str>,
    limits: &Limits,
    run_left: Option<Duration>,
) -> Vec<Answered<'a>> {
    std::thread::scope(|scope| {
        let (ask_tx, ask_rx) = mpsc::channel::<Ask>();
        let threads: Vec<_> = wave
            .iter()
            .map(|out| {
                let ask_tx = ask_tx.clone();
                scope.spawn(move || {
                    let mut replies = Vec::new();
                    let ex = http::send(agent, out, creds, origin, limits, run_left, &mut |req| {
                        let (tx, rx) = mpsc::channel();
                        let reply = match ask_tx.send((req, tx)) {
                            Ok(()) => rx.recv().ok().flatten(),
                            Err(_) => None,
                        };
                        if let Some(reply) = reply {
                            let ex = http::send(
                                agent,
                                &reply,
                                creds,
                                origin,
                                limits,
                                run_left,
                                &mut |_| {},
                            );
                            replies.push((reply.step, ex));
                        }
                    });
                    (ex, replies)
                })
            })
            .collect();
        // Every thread holds a sender: the questions end when the last request has ended.
        drop(ask_tx);
        for (request, answer) in ask_rx {
            let _ = answer.send(engine.reply(&request));
        }
        wave.iter()
            .zip(threads)
            .map(|(out, t)| match t.join() {
                Ok((ex, replies)) => (out, ex, replies),
                // A thread that panicked is a request that got no answer (nothing here panics).
                Err(_) => (out, http::not_sent(out, creds), Vec::new()),
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use crate::run::drive::endpoint_for;

    /// The URL checked is the URL sent: whatever is accepted names the host ureq will connect to,
    /// and what ureq's parser reads differently from the text is refused or judged as it reads it.
    #[test]
    fn the_endpoint_is_judged_as_the_http_clients_parser_reads_it() {
        let host_sent = |u: &str| {
            ureq::http::Uri::try_from(u)
                .ok()
                .and_then(|u| u.host().map(str::to_string))
        };
        for typed in [
            "https://a.example\\b.example/mcp",
            "http://127.1:8787/mcp",
            "http://0x7f.1:8787/mcp",
            "http://localhost.:8787/mcp",
            "https://%6Cocalhost/mcp",
            "https://bücher.example/mcp",
            "https://mcp.example.com/mcp",
            "http://[::1]:8787/mcp",
            "http://127.0.0.1:8787/mcp",
        ] {
            match endpoint_for(typed, true) {
                Ok(e) => {
                    let sent = host_sent(typed).expect("accepted, so the client reads a host");
                    assert_eq!(
                        e.host, sent,
                        "{typed}: judged host is the host connected to"
                    );
                    if e.scheme == "http" {
                        assert!(
                            e.is_loopback() || e.host == "[::1]",
                            "{typed}: cleartext with a secret"
                        );
                    }
                }
                Err(p) => assert!(!p.is_empty(), "{typed}"),
            }
        }
        // Short IPv4 forms are not judged loopback by their text: with a secret over http, refused.
        assert!(endpoint_for("http://127.1:8787/mcp", true).is_err());
        assert!(endpoint_for("http://[::1]:8787/mcp", true).is_ok());
        // Loopback is 127.0.0.0/8, not only 127.0.0.1.
        assert!(endpoint_for("http://127.0.0.2:8787/mcp", true).is_ok());
        assert!(endpoint_for("http://128.0.0.1:8787/mcp", true).is_err());
        assert!(endpoint_for("http://mcp.example.com/mcp", false).is_ok());
    }
}
