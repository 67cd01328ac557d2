//! `mcp-triage replay CAPTURES…`: the check run again over recorded answers, through the same engine
//! (`mcp_triage::replay`) the page uses for pasted captures, so both print the same report.

use std::io::Read;
use std::path::Path;

use mcp_triage::engine::exit;
use mcp_triage::replay::{self, Recording};

use crate::args::{self, EraArg, FromEnv, HELP_TEMPLATE, after_help, intro};
use crate::run::output::Output;

const EXAMPLES: &[&str] = &[
    "mcp-triage replay report.json --markdown",
    "API_KEY=… mcp-triage replay captures/ --secret-env API_KEY --json",
];

const ABOUT: &str =
    "Runs the check again over recorded answers instead of a server: the engine plans
every request as it would live, and each is answered by the recorded exchange that
fits it. Nothing is sent anywhere. A CAPTURE is a file holding one mcp-exchange/1
exchange, a JSON array of them, or a report (--json of probe or replay, or the page's
\"Download JSON\"); a directory stands for its *.json files in name order; - reads
standard input.";

const AFTER: &str =
    "How a recorded answer is matched to a request: the same HTTP and JSON-RPC method,
an Authorization header exactly when the request has one, and the same \"intent\"
where the recording has one (A-D, no_token, get). A tools/call without an intent
must play the same part against the recorded tools/list: a tool not listed (A),
arguments the tool's schema refuses (B), arguments it accepts to the same tool (C,
D). Among those it prefers the same tool, arguments, protocolVersion, other params
and headers, then the first given. Each recorded answer answers one request; a
request none fits is reported as not recorded. It knows no secrets beyond the
patterns redaction always applies (Bearer values, JWTs) and those of --secret-env.

The plan replayed is the one the recording made: a report records whether its run
was a Quick check or Review first and each call; exchanges alone record no plan, so
they replay as a Quick check and the report says so. Captures must come from one
run: captures of different runs are refused, naming the files of each.

For a replay, exit 3 means the recorded run could not connect and 4 that a probe
has no recorded answer.";

/// `mcp-triage replay`'s command line, as clap reads it.
#[derive(clap::Args)]
#[command(
    about = "Run the check again over recorded answers: nothing is sent",
    long_about = None,
    help_template = HELP_TEMPLATE,
    before_help = intro(EXAMPLES, ABOUT),
    after_help = after_help(AFTER),
)]
pub(crate) struct Cli {
    /// Recordings: files, directories of *.json, or - for standard input
    #[arg(value_name = "CAPTURE", required = true)]
    captures: Vec<String>,
    #[arg(long, value_name = "E", value_enum, hide_possible_values = true,
          help = args::era_help("Speak this era instead of the recordings'", false))]
    era: Option<EraArg>,
    /// A value the recordings may hold (a token, a key), from environment
    /// variable VAR: redacted from every output like a live run's token
    /// (repeatable)
    #[arg(long, value_name = "VAR", value_parser = args::secret_env, verbatim_doc_comment)]
    secret_env: Vec<FromEnv>,
    #[command(flatten)]
    output: Output,
}

/// The files a CAPTURE argument stands for.
fn files_of(arg: &str) -> Result<Vec<String>, String> {
    let path = Path::new(arg);
    if arg == "-" || !path.is_dir() {
        return Ok(vec![arg.to_string()]);
    }
    let mut files: Vec<String> = std::fs::read_dir(path)
        .map_err(|e| format!("{arg}: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    files.sort();
    Ok(files)
}

/// The most bytes of recordings one replay reads, over all its files.
const MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;

/// Reads `file` whole, within what is left of the replay's byte budget.
fn read(file: &str, left: &mut u64) -> Result<String, String> {
    let mut text = String::new();
    let limit = *left + 1;
    let result = if file == "-" {
        std::io::stdin().take(limit).read_to_string(&mut text)
    } else {
        std::fs::File::open(file).and_then(|f| f.take(limit).read_to_string(&mut text))
    };
    result.map_err(|e| format!("{file}: {e}"))?;
    if text.len() as u64 > *left {
        return Err(format!(
            "{file}: the recordings given exceed {} MiB in all",
            MAX_INPUT_BYTES / (1024 * 1024)
        ));
    }
    *left -= text.len() as u64;
    Ok(text)
}

/// Runs `mcp-triage replay …`; returns the exit status.
pub(crate) fn main(cli: Cli) -> u8 {
    let Cli {
        captures: inputs,
        era,
        secret_env,
        output,
    } = cli;
    let era = era.map(EraArg::era);
    let secret_values: Vec<String> = secret_env.into_iter().map(|s| s.0).collect();
    let mut recording = Recording::default();
    let mut left = MAX_INPUT_BYTES;
    for input in &inputs {
        let files = match files_of(input) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("mcp-triage replay: {e}");
                return exit::USAGE;
            }
        };
        for file in files {
            let read = read(&file, &mut left)
                .and_then(|t| replay::read_captures(&t).map_err(|e| format!("{file}: {e}")));
            match read {
                Ok(r) if recording.exchanges.len() + r.exchanges.len() > replay::MAX_CAPTURES => {
                    eprintln!(
                        "mcp-triage replay: {file}: more than {} recorded exchanges in all",
                        replay::MAX_CAPTURES
                    );
                    return exit::USAGE;
                }
                Ok(r) => recording.add(&file, r),
                Err(e) => {
                    eprintln!("mcp-triage replay: {e}");
                    return exit::USAGE;
                }
            }
        }
    }
    let secrets = mcp_triage::redact::Secrets::new(secret_values.iter().map(String::as_str));
    let replayed = match replay::replay_recording(&recording, era, secrets.clone()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("mcp-triage replay: {e}");
            return exit::USAGE;
        }
    };
    eprintln!("replayed: {}", replayed.summary());
    // Nothing is sent, so no secret can go in clear: only the URL's shape is checked.
    let recorded = &replayed.report.endpoint;
    let parsed = match mcp_triage::endpoint::Endpoint::recorded_stdio(recorded) {
        Some(stdio) => Ok(stdio),
        None => crate::run::drive::endpoint_for(replay::openable_endpoint(recorded), false),
    };
    let ep = match parsed {
        Ok(e) => e,
        Err(p) => {
            eprintln!(
                "mcp-triage replay: the recorded endpoint {:?}: {p}",
                replayed.report.endpoint
            );
            return exit::USAGE;
        }
    };
    output.emit(&replayed.report, &ep, &secrets, mcp_triage::export::text)
}
