//! `mcp-triage probe URL`: the page's check from a terminal, over the same core. This module reads
//! the command line and hands the run to its transport: the blocking HTTP shell in `http.rs`, or
//! `stdio.rs`; both drive the engine through `drive.rs`. It decides nothing the core could.

use std::io::{self, Read};
use std::sync::mpsc;
use std::time::Duration;

use mcp_triage::auth::AuthDoctor;
use mcp_triage::engine::{
    Engine, EngineConfig, Outgoing, RunInput, RunReport, Step, UrlReader, check_run, exit,
};
use mcp_triage::exchange::Exchange;
use mcp_triage::limits::MAX_IN_FLIGHT_PER_HOST;
use mcp_triage::redact::Credentials;
use mcp_triage::{Limits, endpoint, export};

use super::oauth;
use crate::args::{self, EraArg, FromEnv, HELP_TEMPLATE, Note, after_help, intro};
use crate::run::drive::{
    OauthArgs, ProbeArgs, Sender, drive, hand_back, limits as run_limits, read_url, seed,
};
use crate::run::interrupt;
use crate::run::output::Output;
use crate::transports::http;

/// The command, as its messages name it.
pub(crate) const COMMAND: &str = "mcp-triage probe";

const EXAMPLES: &[&str] = &[
    "MCP_TOKEN=… mcp-triage probe https://mcp.example.com/mcp --token-env MCP_TOKEN",
    "mcp-triage probe --stdio -- node server.js",
];

const ABOUT: &str = "Runs MCP Triage's check against a Streamable HTTP endpoint from this machine
(no browser, so no CORS), or against a server it starts (--stdio): probes A (unknown
tool), B (schema-invalid arguments), C (a call whose backend fails), D (a success),
and the transport checks; then prints each verdict, the finding and the score.";

const AFTER: &str =
    "Without a plan, only tools the server declares read-only are called; the report says
what was skipped and why. http:// is accepted only for loopback hosts when a secret is
sent. Progress goes to standard error; colour is never used.

With --stdio it starts COMMAND as its clients do (newline-delimited JSON-RPC on stdin
and stdout) and also finds what only stdio has: lines on stdout that are not JSON-RPC,
a process that exits during a call, a reply that never comes. At the end stdin is
closed, the server gets 2 s to exit, then its process group is ended. Outputs name the
program only (stdio:node); its stderr is in the text and JSON reports, never in a link.

Ctrl-C (SIGINT) or SIGTERM stops the run at once: a stdio server gets the same
teardown (a second signal skips its grace periods), and every output asked for is
still written, saying the run was interrupted.";

/// `mcp-triage probe`'s command line, as clap reads it.
#[derive(clap::Args)]
#[command(
    about = "Check a live server over HTTP, or one started over stdio",
    long_about = None,
    help_template = HELP_TEMPLATE,
    before_help = intro(EXAMPLES, ABOUT),
    after_help = after_help(AFTER),
    override_usage = "mcp-triage probe URL [OPTIONS]\n       mcp-triage probe [OPTIONS] --stdio -- COMMAND [ARGS...]",
)]
pub(crate) struct Cli {
    /// The server's Streamable HTTP endpoint
    #[arg(value_name = "URL", required_unless_present_any = ["stdio", "token"])]
    url: Option<String>,
    /// With --stdio: the server's command and its arguments, after --
    #[arg(
        last = true,
        value_name = "COMMAND",
        requires = "stdio",
        conflicts_with = "url"
    )]
    command: Vec<String>,

    #[arg(long, value_name = "E", value_enum, default_value_t = EraArg::default(),
          hide_possible_values = true, hide_default_value = true,
          help = args::era_help("The protocol era to speak", true))]
    era: EraArg,
    /// The whole run's time limit, in seconds (2 to 600)
    #[arg(long, value_name = "SECONDS", value_parser = mcp_triage::limits::parse_run_seconds,
          default_value_t = mcp_triage::limits::RUN_SECONDS.2)]
    time_limit: u64,
    /// Send this Origin header (to test the server's Origin check)
    #[arg(long, value_name = "ORIGIN", conflicts_with = "stdio")]
    origin: Option<String>,
    /// An extra plain header (repeatable)
    #[arg(long, value_name = "NAME=VALUE", value_parser = args::name_value, conflicts_with = "stdio")]
    header: Vec<(String, String)>,
    /// After a 401, walk authorization discovery as a client of the era's
    /// revision would, each step a card with its verdicts (docs/oauth.md);
    /// its fetches carry no token and no header of yours
    #[arg(long, conflicts_with = "stdio", verbatim_doc_comment)]
    auth_check: bool,
    /// Sign in first (OAuth 2.1 with PKCE, a loopback redirect), then run
    /// the check with the token, renewed once when refused (docs/oauth.md)
    #[arg(long, conflicts_with_all = ["token_env", "token_stdin", "stdio", "auth_check"],
          verbatim_doc_comment)]
    oauth: bool,
    /// With --oauth: a client registered beforehand (no dynamic registration)
    #[arg(long, value_name = "ID", requires = "oauth")]
    client_id: Option<String>,
    /// With --oauth: print the authorization URL instead of opening a browser
    #[arg(long, requires = "oauth")]
    no_browser: bool,
    /// Write the calls this run would make (read-only tools, else proposals
    /// with "opt_in": false) as a plan file to read and commit
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    write_plan: Option<String>,
    /// Run a plan file as written: a tool not declared read-only runs only
    /// where the plan says "opt_in": true
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    plan: Option<String>,
    /// Refused: a token on the command line shows in `ps` and shell history.
    #[arg(long, hide = true, num_args = 0..=1, allow_hyphen_values = true)]
    token: Option<Option<String>>,

    /// The bearer token, from environment variable VAR
    #[arg(long, value_name = "VAR", value_parser = args::token_env, conflicts_with = "stdio",
          help_heading = SECRETS)]
    token_env: Option<FromEnv>,
    /// The bearer token, from the first line of standard input
    #[arg(long, conflicts_with_all = ["token_env", "stdio"], help_heading = SECRETS)]
    token_stdin: bool,
    /// An extra secret header, its value from environment variable VAR (repeatable)
    #[arg(long, value_name = "NAME=VAR", value_parser = args::header_env, conflicts_with = "stdio",
          help_heading = SECRETS)]
    header_env: Vec<(String, FromEnv)>,

    /// Start the server from COMMAND (after --) and speak to it over stdio
    #[arg(long, requires = "command", help_heading = STDIO)]
    stdio: bool,
    /// A value the server may print (a key it was given), from environment
    /// variable VAR: redacted from every output like a token (repeatable)
    #[arg(long, value_name = "VAR", value_parser = args::secret_env, requires = "stdio",
          help_heading = STDIO, verbatim_doc_comment)]
    secret_env: Vec<FromEnv>,

    #[command(flatten)]
    output: Output,
}

const SECRETS: &str = "Secrets (never on the command line, where `ps` shows them)";
const STDIO: &str = "Stdio (a server started as its clients start it)";

/// Why a rule of probe's command line holds, under the error that breaks it.
pub(crate) const NOTES: &[Note] = &[
    Note {
        names: &["'--oauth'", "'--token"],
        why: "--oauth signs in for its token: it excludes --token-env and --token-stdin",
    },
    Note {
        names: &["'--oauth'", "'--stdio'"],
        why: "--oauth is for HTTP: a stdio server has no authorization",
    },
    Note {
        names: &["'--oauth'", "'--auth-check'"],
        why: "--oauth runs the OAuth doctor's discovery itself before it signs in",
    },
    Note {
        names: &["[URL]", "[COMMAND]"],
        why: "a command after -- is for --stdio, which starts the server from it; a URL is for HTTP",
    },
    Note {
        names: &["'--auth-check'", "'--stdio'"],
        why: "--auth-check is for HTTP: a stdio server has no authorization to discover",
    },
    Note {
        names: &["'--stdio'", "'--"],
        why: HEADERS_ARE_HTTP,
    },
    Note {
        names: &["--stdio"],
        why: "--secret-env and a command after -- are for --stdio; over HTTP the secrets are the token and --header-env values",
    },
    Note {
        names: &["<COMMAND>"],
        why: STDIO_NEEDS_COMMAND,
    },
    Note {
        names: &["--oauth"],
        why: "--client-id and --no-browser are for --oauth",
    },
];

const STDIO_NEEDS_COMMAND: &str =
    "--stdio needs the server's command after --: mcp-triage probe --stdio -- node server.js";

const HEADERS_ARE_HTTP: &str = "a stdio server has no headers: the token, --header, --header-env and --origin are for HTTP (mark secrets with --secret-env VAR)";

/// The run `cli` asks for: the token read from standard input, the plan file read and decoded.
fn resolve(cli: Cli) -> Result<ProbeArgs, String> {
    if cli.token.is_some() {
        return Err("a token on the command line shows in `ps` and shell history: use --token-env VAR or --token-stdin".into());
    }
    let token = if cli.token_stdin {
        let mut line = String::new();
        io::stdin()
            .read_to_string(&mut line)
            .map_err(|e| format!("cannot read the token from standard input: {e}"))?;
        Some(line.lines().next().unwrap_or("").trim().to_string())
    } else {
        cli.token_env.map(|t| t.0)
    };
    let plan = match &cli.plan {
        Some(file) => {
            let text = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
            if text.len() > mcp_triage::plan_file::MAX_PLAN_BYTES {
                return Err(format!(
                    "{file}: {}",
                    mcp_triage::plan_file::PlanProblem::TooLarge
                ));
            }
            let text = String::from_utf8_lossy(&text);
            Some(mcp_triage::plan_file::decode(&text).map_err(|e| format!("{file}: {e}"))?)
        }
        None => None,
    };
    let stdio = if cli.stdio {
        match cli.command.first() {
            Some(program) if !program.is_empty() => Some(cli.command),
            _ => return Err(STDIO_NEEDS_COMMAND.into()),
        }
    } else {
        None
    };
    Ok(ProbeArgs {
        url: match &stdio {
            Some(cmd) => mcp_triage::stdio::endpoint_of(&cmd[0]),
            None => cli.url.ok_or("missing URL (or --stdio -- COMMAND)")?,
        },
        stdio,
        secret_values: cli.secret_env.into_iter().map(|s| s.0).collect(),
        token,
        secret_headers: cli
            .header_env
            .into_iter()
            .map(|(name, value)| (name, value.0))
            .collect(),
        plain_headers: cli.header,
        era: cli.era.era(),
        seconds: cli.time_limit,
        origin: cli.origin,
        output: cli.output,
        plan,
        write_plan: cli.write_plan,
        auth_check: cli.auth_check,
        oauth: cli.oauth.then_some(OauthArgs {
            client_id: cli.client_id,
            open_browser: !cli.no_browser,
        }),
    })
}

/// Runs `mcp-triage probe …`; returns the exit status.
pub(crate) fn main(cli: Cli) -> u8 {
    let args = match resolve(cli) {
        Ok(a) => a,
        Err(msg) => return args::refuse_with(COMMAND, &msg),
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
