//! `probe --oauth`: the native loopback sign-in (RFC 8252). The core decides every URL and body
//! and checks the callback; this opens the authorization URL (the system's browser through the
//! `webbrowser` crate, which starts it without a shell, or printed on standard error with
//! `--no-browser`), listens on 127.0.0.1 on a random port for exactly one callback, and sends the
//! core's requests. The token stays in memory; nothing is written anywhere. During the run the
//! core may call for one refresh and one step-up; this carries them out and hands back the token.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use mcp_triage::Exchange;
use mcp_triage::Limits;
use mcp_triage::auth::{
    AuthDoctor, LISTENER_MAX_HEAD, LISTENER_MAX_REQUESTS, Renewal, SIGN_IN_RANDOM_BYTES,
    SIGN_IN_WAIT_SECONDS, SignIn, SignInInput, SignInNext, TokenIssue,
};
use mcp_triage::engine::Outgoing;
use mcp_triage::redact::Credentials;

use crate::run::drive::endpoint_for;
use crate::run::interrupt;
use crate::transports::http;

const CALLBACK_WAIT: Duration = Duration::from_secs(SIGN_IN_WAIT_SECONDS);

/// A signed-in run's sign-in: the core's machine, and the loopback port its redirect URI names
/// (a step-up listens there again, as the authorization server registered that URI).
pub(crate) struct Session {
    flow: SignIn,
    port: u16,
    open_browser: bool,
    limits: Limits,
}

impl Session {
    /// Signs in from what `doctor` found; `Err` says why not, in words.
    pub(crate) fn start(
        doctor: &AuthDoctor,
        client_id: Option<String>,
        open_browser: bool,
        limits: &Limits,
    ) -> Result<Session, String> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .map_err(|e| format!("cannot listen on 127.0.0.1 for the sign-in's callback: {e}"))?;
        let port = listener
            .local_addr()
            .map_err(|e| format!("cannot read the listener's port: {e}"))?
            .port();
        let flow = doctor.sign_in(SignInInput {
            random: random()?,
            redirect_uri: format!("http://127.0.0.1:{port}/callback"),
            client_id,
            client_name: "MCP Triage".into(),
            metadata_document: None,
        })?;
        let mut session = Session {
            flow,
            port,
            open_browser,
            limits: limits.clone(),
        };
        session.drive(Some(listener))?;
        Ok(session)
    }

    /// Drives the sign-in to its end: sends what the core builds, opens what it says, waits on
    /// `listener` for the callback.
    fn drive(&mut self, mut listener: Option<TcpListener>) -> Result<(), String> {
        let agent = http::agent();
        let nothing = Credentials::default();
        loop {
            match self.flow.next_step() {
                SignInNext::Send(out) => {
                    eprintln!("sign-in: {}", out.step.title());
                    let ex = http::send(
                        &agent,
                        &out,
                        &nothing,
                        None,
                        &self.limits,
                        None,
                        &mut |_| {},
                    );
                    self.flow.answer(&ex);
                }
                SignInNext::Open(url) => {
                    let listener = listener
                        .take()
                        .ok_or("the authorization server sent the browser back twice")?;
                    open(&url, self.open_browser)?;
                    let target = wait_for_callback(listener, &self.flow)?;
                    self.flow.callback(&target);
                }
                SignInNext::Done => return Ok(()),
                SignInNext::Failed(why) => return Err(why),
            }
        }
    }

    /// The access token.
    pub(crate) fn token(&self) -> Result<&str, String> {
        self.flow
            .access_token()
            .ok_or_else(|| "the sign-in ended without a token".into())
    }

    /// Which token a request sent now carries (for [`Session::renew`] when its answer comes).
    pub(crate) fn token_issue(&self) -> TokenIssue {
        self.flow.token_issue()
    }

    /// Renews the token when the core says `exchange` (the answer to `out`, sent with `sent_with`)
    /// calls for it; the token to send `out` again with, when there is one.
    pub(crate) fn renew(
        &mut self,
        out: &Outgoing,
        exchange: &Exchange,
        sent_with: TokenIssue,
    ) -> Option<String> {
        let done = match self.flow.renewal(out, exchange, sent_with) {
            Renewal::None => return None,
            Renewal::SendAgain => Ok(()),
            Renewal::Refresh => {
                eprintln!("sign-in: the token was refused; refreshing it once");
                self.flow.refresh();
                self.drive(None)
            }
            Renewal::StepUp(scope) => {
                eprintln!("sign-in: more scope is needed; signing in again once, for {scope:?}");
                self.step_up(&scope)
            }
        };
        match done.and_then(|()| self.token().map(str::to_string)) {
            Ok(token) => Some(token),
            Err(why) => {
                eprintln!("sign-in: renewing failed: {why}");
                self.flow.abandon(&why);
                None
            }
        }
    }

    fn step_up(&mut self, scope: &str) -> Result<(), String> {
        let listener = TcpListener::bind(("127.0.0.1", self.port)).map_err(|e| {
            format!(
                "cannot listen on 127.0.0.1:{} again for the callback: {e}",
                self.port
            )
        })?;
        self.flow.step_up(scope, random()?);
        self.drive(Some(listener))
    }

    /// Every secret of the sign-in, for redaction: the verifiers, the codes, the tokens, those a
    /// renewal replaced too.
    pub(crate) fn secrets(&self) -> Vec<String> {
        self.flow.secrets()
    }

    /// What the report says of the sign-in and its renewals.
    pub(crate) fn summary(&self) -> Vec<String> {
        self.flow.summary()
    }
}

fn random() -> Result<[u8; SIGN_IN_RANDOM_BYTES], String> {
    let mut random = [0u8; SIGN_IN_RANDOM_BYTES];
    getrandom::fill(&mut random).map_err(|e| format!("no secure random bytes: {e}"))?;
    Ok(random)
}

/// Opens `url` in the system's browser, after the core's endpoint rule, read through this shell's
/// URL parser, says it is `https:` (or `http:` on a loopback host); with `--no-browser`, or when no
/// browser starts, prints it.
fn open(url: &str, open_browser: bool) -> Result<(), String> {
    // The endpoint rule, read through the HTTP client's own URL parser: https:, or http: on a
    // loopback host (the same as for any URL a secret goes to).
    endpoint_for(url, true).map_err(|why| format!("the authorization URL is not opened: {why}"))?;
    if open_browser && webbrowser::open(url).is_ok() {
        eprintln!(
            "sign-in: your browser opened the authorization server; waiting for it to send you back"
        );
        return Ok(());
    }
    eprintln!(
        "sign-in: open this URL to sign in (waiting up to {} s):\n{url}",
        CALLBACK_WAIT.as_secs()
    );
    Ok(())
}

/// Waits for the browser's callback on `listener` (one request target), answering each request
/// with a fixed page. The listener is dropped, so closed, when this returns: after the callback, or
/// at the deadline.
fn wait_for_callback(listener: TcpListener, flow: &SignIn) -> Result<String, String> {
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("cannot wait on the listener: {e}"))?;
    let deadline = Instant::now() + CALLBACK_WAIT;
    let mut connections = 0;
    while Instant::now() < deadline && connections < LISTENER_MAX_REQUESTS {
        if interrupt::caught().is_some() {
            return Err("interrupted while waiting for the browser".into());
        }
        match listener.accept() {
            Ok((stream, _)) => {
                connections += 1;
                let _ = stream.set_nonblocking(false);
                if let Some(target) = read_target(stream, flow) {
                    return Ok(target);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(25));
            }
            Err(e) => return Err(format!("the listener failed: {e}")),
        }
    }
    Err(format!(
        "no callback came within {} s",
        CALLBACK_WAIT.as_secs()
    ))
}

/// Reads one request's head and answers it as the core says; the target when it was the callback.
fn read_target(mut stream: TcpStream, flow: &SignIn) -> Option<String> {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < LISTENER_MAX_HEAD {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let line = String::from_utf8_lossy(&head);
    let mut parts = line.lines().next().unwrap_or_default().split(' ');
    let (method, target) = (
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
    );
    let callback = flow.is_callback(method, target);
    let _ = stream.write_all(SignIn::listener_answer(callback).as_bytes());
    callback.then(|| target.to_string())
}
