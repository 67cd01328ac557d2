//! A run's input as a person gave it (the page's form, the command line's flags), checked once
//! into what every shell runs with: the endpoint, the credentials and the engine's configuration.

use crate::run::endpoint::{
    Endpoint, check_token, extra_header_problem, parse_endpoint_native, parse_endpoint_with,
};
use crate::run::engine::{EngineConfig, Era, Mode};
use crate::secrets::redact::Credentials;
use crate::vocabulary::limits::Limits;
use crate::vocabulary::problem::RunProblemId;
use crate::vocabulary::problem::{Problem, ProblemId};

/// Which URL parser reads the endpoint (the URL checked is the URL sent), and so which cleartext
/// rule applies.
pub enum UrlReader<'a> {
    /// The page: the browser's `URL`. A browser sends nothing over http except to `localhost` and
    /// `127.0.0.1` ([`crate::run::endpoint::parse_endpoint`]).
    Browser(&'a dyn Fn(&str) -> Option<String>),
    /// A native shell's HTTP client: http to any host, but to a loopback host only when a secret
    /// is sent ([`crate::run::endpoint::parse_endpoint_native`]).
    Native(&'a dyn Fn(&str) -> Option<String>),
}

/// What a person asked for, as the shell read it.
#[derive(Debug, Clone)]
pub struct RunInput {
    /// The endpoint as typed.
    pub endpoint: String,
    /// The bearer token as given (empty: none).
    pub token: String,
    /// Extra headers whose values are secrets.
    pub secret_headers: Vec<(String, String)>,
    /// Extra headers sent and recorded as they are.
    pub plain_headers: Vec<(String, String)>,
    /// Which era to speak.
    pub era: Era,
    /// Quick or review.
    pub mode: Mode,
    /// The run signs in before it starts (`--oauth`): a token will be sent though none is given.
    pub signs_in: bool,
}

/// A checked run: what the shell sends with and what the engine runs with.
#[derive(Debug, Clone)]
pub struct RunSetup {
    /// The endpoint as the shell's parser reads it.
    pub endpoint: Endpoint,
    /// The token and extra headers.
    pub credentials: Credentials,
    /// The engine's configuration.
    pub config: EngineConfig,
}

/// Checks `input` (the token, each extra header, then the endpoint as `reader` reads it) with the
/// run's `limits` and randomness; the first problem found is the answer.
pub fn check_run(
    input: &RunInput,
    reader: UrlReader<'_>,
    limits: Limits,
    random: u64,
) -> Result<RunSetup, Problem> {
    check_token(&input.token, limits.max_token_bytes).map_err(|p| {
        Problem::new(
            ProblemId::Run(RunProblemId::Token),
            format!("the token: {p}"),
        )
    })?;
    let headers = input
        .secret_headers
        .iter()
        .map(|h| (h, true))
        .chain(input.plain_headers.iter().map(|h| (h, false)));
    for ((name, value), secret) in headers {
        if let Some(p) = extra_header_problem(name, value, secret, limits.max_token_bytes) {
            return Err(Problem::new(
                ProblemId::Run(RunProblemId::Header),
                format!("header {name}: {p}"),
            ));
        }
    }
    let trimmed = |headers: &[(String, String)]| -> Vec<(String, String)> {
        headers
            .iter()
            .map(|(n, v)| (n.trim().to_string(), v.clone()))
            .collect()
    };
    let credentials = Credentials::new(
        input.token.clone(),
        trimmed(&input.secret_headers),
        trimmed(&input.plain_headers),
    );
    let sends_secret =
        credentials.has_token() || !input.secret_headers.is_empty() || input.signs_in;
    let endpoint = match reader {
        UrlReader::Browser(read) => parse_endpoint_with(&input.endpoint, read),
        UrlReader::Native(read) => parse_endpoint_native(&input.endpoint, read, sends_secret),
    }
    .map_err(|p| Problem::new(ProblemId::Run(RunProblemId::Endpoint), p.to_string()))?;
    let config = EngineConfig::new(
        endpoint.clone(),
        &credentials,
        input.era.clone(),
        input.mode,
        limits,
        random,
    );
    Ok(RunSetup {
        endpoint,
        credentials,
        config,
    })
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn input(endpoint: &str, token: &str) -> RunInput {
        RunInput {
            endpoint: endpoint.into(),
            token: token.into(),
            secret_headers: Vec::new(),
            plain_headers: Vec::new(),
            era: Era::default_choice(),
            mode: Mode::Quick,
            signs_in: false,
        }
    }

    fn same(t: &str) -> Option<String> {
        Some(t.trim().to_string())
    }

    /// The token, the headers and the cleartext rule are decided here for every shell, and what
    /// the engine is told (a token, its secrets, the transport) follows from the credentials.
    #[test]
    fn a_runs_input_is_checked_once_and_its_configuration_follows_from_it() {
        let token = "a-token-of-some-length";
        let ok = check_run(
            &input("http://127.0.0.1:8787/mcp", token),
            UrlReader::Browser(&same),
            Limits::default(),
            7,
        )
        .unwrap();
        assert!(ok.config.has_token && ok.credentials.has_token());
        assert_eq!(ok.config.endpoint, ok.endpoint);
        assert_eq!(ok.config.random, 7);
        assert_eq!(
            ok.config.transport,
            crate::vocabulary::exchange::Transport::Http
        );
        assert_eq!(
            crate::secrets::redact::redact(token, &ok.config.secrets).0,
            crate::secrets::redact::redact(token, &ok.credentials.secrets()).0
        );
        assert_ne!(
            crate::secrets::redact::redact(token, &ok.config.secrets).0,
            token
        );
        // A remote host over http: the page never; a native shell only without a secret.
        let remote = "http://mcp.example.com/mcp";
        let refused = |i: RunInput, r: UrlReader<'_>| {
            check_run(&i, r, Limits::default(), 0).err().map(|p| p.id)
        };
        assert_eq!(
            refused(input(remote, ""), UrlReader::Browser(&same)),
            Some(ProblemId::Run(RunProblemId::Endpoint))
        );
        assert_eq!(refused(input(remote, ""), UrlReader::Native(&same)), None);
        assert_eq!(
            refused(input(remote, token), UrlReader::Native(&same)),
            Some(ProblemId::Run(RunProblemId::Endpoint))
        );
        let mut signs_in = input(remote, "");
        signs_in.signs_in = true;
        assert_eq!(
            refused(signs_in, UrlReader::Native(&same)),
            Some(ProblemId::Run(RunProblemId::Endpoint))
        );
        // The token and the headers are checked before the endpoint.
        let bad = check_run(
            &input("", "two\nlines"),
            UrlReader::Native(&same),
            Limits::default(),
            0,
        )
        .unwrap_err();
        assert_eq!(bad.id, ProblemId::Run(RunProblemId::Token));
        assert!(bad.message.starts_with("the token: "), "{bad}");
        let mut header = input("https://mcp.example.com/mcp", "");
        header.plain_headers.push(("Bad Name".into(), "v".into()));
        let bad = check_run(&header, UrlReader::Native(&same), Limits::default(), 0).unwrap_err();
        assert_eq!(bad.id, ProblemId::Run(RunProblemId::Header));
        assert!(bad.message.starts_with("header Bad Name: "), "{bad}");
    }

    /// A stdio server's configuration: its transport follows from its endpoint.
    #[test]
    fn a_stdio_endpoint_configures_a_stdio_run() {
        let cfg = EngineConfig::new(
            Endpoint::stdio("node"),
            &Credentials::default(),
            Era::default_choice(),
            Mode::Quick,
            Limits::default(),
            0,
        )
        .with_secrets(&["a-key-the-server-was-given".into()]);
        assert_eq!(cfg.transport, crate::vocabulary::exchange::Transport::Stdio);
        assert!(!cfg.has_token);
        assert!(!cfg.secrets.is_empty());
    }
}
