//! The caps every decoder and reader applies to untrusted input: the caps of SECURITY.md (its
//! "Caps and deadlines" table lists these values).

/// The shortest secret a run accepts (token and secret headers), and the shortest run of a secret
/// form that redaction removes: any 8 consecutive characters of a secret, in any encoding, are a leak.
pub(crate) const MIN_SECRET_RUN: usize = 8;

/// The longest tool name a probe picks or a rule searches for: a longer one is never called and
/// never looked for in text (searching a 100 KB name in MBs of text is how a server stalls a page).
pub(crate) const MAX_TOOL_NAME_CHARS: usize = 128;

/// The most requests a native shell has in flight to one host at once: a browser's limit of
/// HTTP/1.1 connections per host, so the command line sends a wave no wider than the page can.
pub const MAX_IN_FLIGHT_PER_HOST: usize = 6;

/// The most extra request headers a run sends (the form offers no more; the CORS doctor preflights
/// each one, so this also bounds its requests at six plus this many).
pub const MAX_EXTRA_HEADERS: usize = 8;

/// The run's time limit a user may choose, in seconds: the shortest, the longest and the default.
pub const RUN_SECONDS: (u64, u64, u64) = (2, 600, 120);

/// Reads the time limit a user typed (whole seconds). The message says what is allowed.
pub fn parse_run_seconds(text: &str) -> Result<u64, String> {
    let (min, max, _) = RUN_SECONDS;
    let allowed = || format!("The time limit is a whole number of seconds from {min} to {max}.");
    let secs: u64 = text.trim().parse().map_err(|_| allowed())?;
    if (min..=max).contains(&secs) {
        Ok(secs)
    } else {
        Err(allowed())
    }
}

/// Caps and deadlines, passed in by the caller so tests can shrink them and no code reads a clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Decoded response body bytes kept; the rest is not read.
    pub max_body_bytes: usize,
    /// One SSE line, and one SSE event's accumulated data.
    pub max_sse_line_bytes: usize,
    /// SSE events read from one response.
    pub max_sse_events: usize,
    /// JSON-RPC messages that are not our response, tolerated before ours.
    pub max_unrelated_messages: usize,
    /// Milliseconds to wait for response headers.
    pub headers_deadline_ms: u64,
    /// Milliseconds of silence tolerated between body chunks.
    pub idle_gap_ms: u64,
    /// Milliseconds for one request, headers and body.
    pub request_total_ms: u64,
    /// Milliseconds a GET stream is read for its first event before it is let go.
    pub first_event_ms: u64,
    /// Milliseconds for a whole probe run.
    pub run_total_ms: u64,
    /// Bytes of a session id we are willing to send back.
    pub max_session_id_bytes: usize,
    /// Bytes of a bearer token.
    pub max_token_bytes: usize,
    /// Server-to-client requests answered in one run (each answer is a POST carrying the token).
    pub max_replies_per_run: u32,
    /// Response body bytes kept over a whole run; past it, each body keeps only its head.
    pub max_kept_bytes_per_run: usize,
}

impl Limits {
    /// The default caps with the run's time limit set to `secs` seconds (see [`parse_run_seconds`]).
    pub fn with_run_seconds(secs: u64) -> Self {
        Limits {
            run_total_ms: secs.saturating_mul(1_000),
            ..Limits::default()
        }
    }

    /// What a shell shows beside a moving run's clock: when the run stops by itself.
    pub fn run_clock_line(&self) -> String {
        format!(
            "Stops by itself {} s after it started, if the server has not answered by then.",
            self.run_total_ms / 1_000
        )
    }
}

/// Where a test sets shorter limits for the command line: an environment variable (see
/// [`Limits::with_test_overrides`]).
pub const TEST_LIMITS_ENV: &str = "MCP_TRIAGE_TEST_LIMITS";

/// Where a test sets shorter limits for the page: a global a test's init script defines (a page
/// cannot be given one by a link, a form or a server).
pub const TEST_LIMITS_GLOBAL: &str = "mcpTriageTestLimits";

impl Limits {
    /// For tests only: these limits with some made smaller, from `NAME=VALUE` pairs separated by
    /// commas (`headers_deadline_ms`, `idle_gap_ms`, `request_total_ms`, `first_event_ms`,
    /// `max_body_bytes`), so a test of deadlines and caps runs in seconds. A value may only lower a
    /// limit (from 1 to what it is), so no setting makes a run wait longer or keep more.
    pub fn with_test_overrides(mut self, text: &str) -> Result<Limits, String> {
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("test limits: {pair:?} is not NAME=VALUE"))?;
            match name.trim() {
                "headers_deadline_ms" => lower(&mut self.headers_deadline_ms, name, value)?,
                "idle_gap_ms" => lower(&mut self.idle_gap_ms, name, value)?,
                "request_total_ms" => lower(&mut self.request_total_ms, name, value)?,
                "first_event_ms" => lower(&mut self.first_event_ms, name, value)?,
                "max_body_bytes" => {
                    let mut bytes = self.max_body_bytes as u64;
                    lower(&mut bytes, name, value)?;
                    self.max_body_bytes = usize::try_from(bytes).unwrap_or(self.max_body_bytes);
                }
                other => return Err(format!("test limits: no limit is called {other:?}")),
            }
        }
        Ok(self)
    }
}

/// Sets `slot` to `value` when it is a whole number from 1 to what `slot` holds.
fn lower(slot: &mut u64, name: &str, value: &str) -> Result<(), String> {
    let v = value
        .trim()
        .parse()
        .ok()
        .filter(|v| (1..=*slot).contains(v))
        .ok_or_else(|| {
            format!(
                "test limits: {} must be a whole number from 1 to {slot}",
                name.trim()
            )
        })?;
    *slot = v;
    Ok(())
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 4 * 1024 * 1024,
            max_sse_line_bytes: 4 * 1024 * 1024,
            max_sse_events: 1_000,
            max_unrelated_messages: 100,
            headers_deadline_ms: 10_000,
            idle_gap_ms: 10_000,
            request_total_ms: 30_000,
            first_event_ms: 1_500,
            run_total_ms: RUN_SECONDS.2 * 1_000,
            max_session_id_bytes: 256,
            max_token_bytes: 16 * 1024,
            max_replies_per_run: 16,
            max_kept_bytes_per_run: 32 * 1024 * 1024,
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn a_typed_time_limit_is_whole_seconds_within_the_allowed_range() {
        assert_eq!(parse_run_seconds(" 30 "), Ok(30));
        assert_eq!(parse_run_seconds("2"), Ok(2));
        assert_eq!(parse_run_seconds("600"), Ok(600));
        for bad in [
            "",
            "1",
            "601",
            "-5",
            "2.5",
            "ten",
            "99999999999999999999999",
        ] {
            let err = parse_run_seconds(bad).unwrap_err();
            assert!(err.contains("from 2 to 600"), "{bad}: {err}");
        }
        assert_eq!(Limits::with_run_seconds(30).run_total_ms, 30_000);
        assert_eq!(Limits::default().run_total_ms, RUN_SECONDS.2 * 1_000);
    }

    #[test]
    fn test_limits_only_lower_a_limit_and_say_what_is_wrong() {
        let d = Limits::default();
        let short = d
            .clone()
            .with_test_overrides(" idle_gap_ms=1500, request_total_ms=4000,max_body_bytes=65536 ")
            .unwrap();
        assert_eq!(
            (
                short.idle_gap_ms,
                short.request_total_ms,
                short.max_body_bytes
            ),
            (1_500, 4_000, 65_536)
        );
        assert_eq!(short.headers_deadline_ms, d.headers_deadline_ms);
        assert_eq!(d.clone().with_test_overrides("").unwrap(), d);
        for (bad, says) in [
            ("idle_gap_ms=20000", "from 1 to 10000"),
            ("idle_gap_ms=0", "from 1 to"),
            ("max_body_bytes=99999999999", "from 1 to 4194304"),
            ("run_total_ms=5", "no limit is called"),
            ("idle_gap_ms", "is not NAME=VALUE"),
            ("first_event_ms=-1", "whole number"),
        ] {
            let err = d.clone().with_test_overrides(bad).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }
}
