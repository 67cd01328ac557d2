//! `mcp-triage`: the native command line. `probe` checks a live server over HTTP or stdio (with
//! `--auth-check`, the OAuth doctor; with `--oauth`, a sign-in first); `replay` runs the check
//! again over recorded answers; `diff` compares two runs; `census` checks a list of servers;
//! `classify`, handled here, reads `mcp-exchange/1` files and prints verdicts.

mod args;
mod commands;
mod run;
mod transports;

use std::io::{self, Read, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use mcp_triage::Probe;
use mcp_triage::engine::ProbeName;
use mcp_triage::engine::exit;

use crate::args::{HELP_TEMPLATE, Note};

use mcp_triage::{Assessment, Exchange, Options, assess};

const EXAMPLES: &[&str] = &[
    "MCP_TOKEN=… mcp-triage probe https://mcp.example.com/mcp --token-env MCP_TOKEN",
    "mcp-triage probe --stdio -- node server.js --json > report.json",
    "mcp-triage diff baseline.json report.json",
];

const ABOUT: &str =
    "How an MCP server's tools/call failures arrive, what caused each, and what an agent
should do about it: judged from the wire alone, by the same core as the page.";

/// `mcp-triage`'s command line, as clap reads it.
#[derive(clap::Parser)]
#[command(
    name = "mcp-triage",
    version,
    about = None,
    long_about = None,
    help_template = HELP_TEMPLATE,
    before_help = args::intro(EXAMPLES, ABOUT),
    after_help = args::after_help("Each command's --help shows its options and two examples."),
    subcommand_required = true,
    arg_required_else_help = false,
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    // Boxed: the largest by far, and the enum is made once.
    Probe(Box<commands::probe::Cli>),
    Replay(commands::replay::Cli),
    Diff(commands::diff::Cli),
    Census(commands::census::Cli),
    Classify(Classify),
}

const CLASSIFY_EXAMPLES: &[&str] = &[
    "mcp-triage classify --json capture.json",
    "mcp-triage classify --outcome --json call.json",
];

const CLASSIFY_ABOUT: &str =
    "Classifies recorded MCP exchanges (format mcp-exchange/1): the channel a failure
arrived on, its cause, the JSON-RPC code, the evidence that decided, what an agent
should do and who must act. With an intent (--intent, or the exchange's own
\"intent\") and a protocol version (--protocol-version, \"negotiated_version\", or the
request's MCP-Protocol-Version), also the spec verdict.";

/// `mcp-triage classify`'s command line.
#[derive(clap::Args)]
#[command(
    about = "Classify recorded exchanges, or what an agent's client library handed it",
    long_about = None,
    help_template = HELP_TEMPLATE,
    before_help = args::intro(CLASSIFY_EXAMPLES, CLASSIFY_ABOUT),
    after_help = args::after_help(""),
)]
struct Classify {
    /// The inputs (- for standard input)
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
    /// One mcp-triage-verdict/2 object per file
    /// (docs/mcp-triage-verdict-2.schema.json), its name in "file"
    #[arg(long, verbatim_doc_comment)]
    json: bool,
    /// With --json: the verdict format (1 is kept for one version: docs/formats.md)
    #[arg(long, value_name = "N", value_enum, default_value_t = VerdictFormat::Two,
          requires = "json")]
    verdict_format: VerdictFormat,
    /// Add the distinguishability of probes A, B and C (from the inputs' intents)
    #[arg(long)]
    summary: bool,
    /// Judge each input as the answer to this probe
    #[arg(long, value_name = "PROBE", value_enum)]
    intent: Option<Intent>,
    /// Judge against this protocol version
    #[arg(long, value_name = "V")]
    protocol_version: Option<String>,
    /// The spelling of --protocol-version before `mcp-triage --version` printed the tool's own
    #[arg(long = "version", value_name = "V", hide = true)]
    old_version: Option<String>,
    /// Read what an agent's MCP client library handed it after a tools/call
    /// (a JSON object: "tool", "arguments", optionally "definition", and one
    /// of "result", "error", "transport", "client_error" or "raised"): the
    /// verdict the npm and Python packages give for it (classify_outcome)
    #[arg(long, conflicts_with_all = ["summary", "intent", "protocol_version", "old_version"],
          verbatim_doc_comment)]
    outcome: bool,
}

/// The verdict formats `--verdict-format` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum VerdictFormat {
    // mcp-triage-verdict/1
    #[value(name = "1")]
    One,
    // mcp-triage-verdict/2
    #[value(name = "2")]
    Two,
}

/// A probe an exchange can answer: one of the core's four, by its identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Intent(ProbeName);

/// Every value `--intent` takes, made from the core's probes.
static INTENTS: std::sync::LazyLock<Vec<Intent>> =
    std::sync::LazyLock::new(|| ProbeName::ALL.iter().copied().map(Intent).collect());

impl clap::ValueEnum for Intent {
    fn value_variants<'a>() -> &'a [Self] {
        &INTENTS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.as_str()))
    }
}

/// Why a rule of classify's command line holds, under the error that breaks it.
const CLASSIFY_NOTES: &[Note] = &[
    Note {
        names: &["'--outcome'"],
        why: "--outcome reads agent calls: --summary, --intent and --protocol-version apply to exchanges only",
    },
    Note {
        names: &["--json"],
        why: "--verdict-format applies to --json",
    },
];

struct Args {
    json: bool,
    format_1: bool,
    outcome: bool,
    summary: bool,
    intent: Option<String>,
    version: Option<String>,
    files: Vec<String>,
}

impl Args {
    fn of(c: Classify) -> Args {
        if c.old_version.is_some() {
            eprintln!(
                "mcp-triage classify: --version is now spelled --protocol-version (the old spelling still works)"
            );
        }
        Args {
            json: c.json,
            format_1: c.verdict_format == VerdictFormat::One,
            outcome: c.outcome,
            summary: c.summary,
            intent: c.intent.map(|i| i.0.as_str().to_string()),
            version: c.protocol_version.or(c.old_version),
            files: c.files,
        }
    }
}

/// The command an error was made in, as its messages name it (`mcp-triage census report`): read
/// from the arguments as given, since clap's error does not say.
fn command_of(argv: &[String]) -> String {
    let mut words = vec!["mcp-triage"];
    let top = Cli::command();
    if let Some(sub) = argv
        .get(1)
        .and_then(|name| top.get_subcommands().find(|c| c.get_name() == name))
    {
        words.push(sub.get_name());
        if let Some(inner) = argv
            .get(2)
            .and_then(|name| sub.get_subcommands().find(|c| c.get_name() == name))
        {
            words.push(inner.get_name());
        }
    }
    words.join(" ")
}

fn read_input(name: &str) -> Result<Vec<u8>, String> {
    if name == "-" {
        let mut buf = Vec::new();
        io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(buf);
    }
    std::fs::read(name).map_err(|e| format!("cannot read: {e}"))
}

fn json_line(file: &str, a: &Assessment, format_1: bool) -> String {
    let doc = mcp_triage::verdict::VerdictDoc::of_assessment(a);
    let doc = if format_1 { doc.as_format_1(None) } else { doc };
    let mut obj = serde_json::to_value(doc).unwrap_or_default();
    if let Some(map) = obj.as_object_mut() {
        map.insert("file".into(), serde_json::Value::String(file.to_string()));
    }
    obj.to_string()
}

/// `classify --outcome`: each file is an agent's call (`AgentCall` JSON), judged by the core's
/// `classify_outcome`; one verdict per line (`--json`), else one row.
fn classify_outcomes(args: &Args, out: &mut impl Write) -> u8 {
    use mcp_triage::verdict::{AgentCall, classify_outcome};
    let mut failed = false;
    if !args.json {
        let _ = writeln!(
            out,
            "file\tmade_on\tchannel\tcause\tdecided_by\taction\tretry"
        );
    }
    for file in &args.files {
        let verdict = read_input(file).and_then(|bytes| {
            let call: AgentCall =
                serde_json::from_slice(&bytes).map_err(|e| format!("not an agent call: {e}"))?;
            let doc = classify_outcome(&call).map_err(|e| format!("not an agent call: {e}"))?;
            Ok(if args.format_1 {
                doc.as_format_1(call.definition.as_ref())
            } else {
                doc
            })
        });
        match verdict {
            Ok(v) => {
                let line = if args.json {
                    let mut obj = serde_json::to_value(&v).unwrap_or_default();
                    if let Some(map) = obj.as_object_mut() {
                        map.insert("file".into(), serde_json::Value::String(file.clone()));
                    }
                    obj.to_string()
                } else {
                    format!(
                        "{file}\t{}\t{}\t{}\t{}\t{}\t{}",
                        v.made_on.as_str(),
                        v.channel,
                        v.cause,
                        v.decided_by,
                        v.action.as_str(),
                        v.retry.as_str()
                    )
                };
                let _ = writeln!(out, "{line}");
            }
            Err(problem) => {
                failed = true;
                refused(out, args.json, file, &problem);
            }
        }
    }
    if failed {
        exit::NOT_AN_EXCHANGE
    } else {
        exit::OK
    }
}

/// An input that could not be read: an error line with `--json`, and the reason on stderr.
fn refused(out: &mut impl Write, json: bool, file: &str, problem: &str) {
    if json {
        let err = serde_json::json!({"file": file, "error": problem});
        let _ = writeln!(out, "{err}");
    }
    eprintln!("mcp-triage: {file}: {problem}");
}

fn human_row(file: &str, a: &Assessment) -> String {
    let v = &a.verdict;
    let code = v
        .jsonrpc_code
        .map(|c| c.to_string())
        .unwrap_or_else(|| "-".into());
    let status = v
        .http_status
        .map(|s| s.to_string())
        .unwrap_or_else(|| "-".into());
    let spec = a
        .spec
        .as_ref()
        .map(|s| s.conformance.as_str().to_string())
        .unwrap_or_else(|| "-".into());
    let mut row = format!(
        "{file}\t{status}\t{}\t{}\t{code}\t{}\t{}\t{spec}",
        v.channel,
        v.cause,
        v.decided_by,
        a.advice.action.as_str()
    );
    if !v.flags.is_empty() {
        let flags: Vec<&str> = v.flags.iter().map(|f| f.as_str()).collect();
        row.push('\t');
        row.push_str(&flags.join(","));
    }
    row
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(e) => {
            let command = command_of(&argv);
            let notes = match command.as_str() {
                commands::probe::COMMAND => commands::probe::NOTES,
                "mcp-triage classify" => CLASSIFY_NOTES,
                _ => &[],
            };
            return ExitCode::from(args::refuse(&command, e, notes));
        }
    };
    let args = match cli.command {
        Command::Probe(c) => return ExitCode::from(commands::probe::main(*c)),
        Command::Replay(c) => return ExitCode::from(commands::replay::main(c)),
        Command::Diff(c) => return ExitCode::from(commands::diff::main(c)),
        Command::Census(c) => return ExitCode::from(commands::census::main(c)),
        Command::Classify(c) => Args::of(c),
    };
    let opts = Options {
        intent: args.intent.clone(),
        negotiated_version: args.version.clone(),
        ..Options::default()
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if args.outcome {
        return ExitCode::from(classify_outcomes(&args, &mut out));
    }
    let mut failed = false;
    let mut by_probe: [Option<mcp_triage::Verdict>; 3] = [None, None, None];
    if !args.json {
        let _ = writeln!(
            out,
            "file\tstatus\tchannel\tcause\tcode\tdecided_by\taction\tspec\tflags"
        );
    }
    for file in &args.files {
        let exchange = read_input(file)
            .and_then(|bytes| Exchange::from_json(&bytes).map_err(|e| e.to_string()));
        match exchange {
            Ok(ex) => {
                let a = assess(&ex, &opts);
                let slot = match a.intent {
                    Some(Probe::Call(p @ (ProbeName::A | ProbeName::B | ProbeName::C))) => {
                        Some(p as usize)
                    }
                    _ => None,
                };
                if let Some(i) = slot
                    && by_probe[i].is_none()
                {
                    by_probe[i] = Some(a.verdict.clone());
                }
                let line = if args.json {
                    json_line(file, &a, args.format_1)
                } else {
                    human_row(file, &a)
                };
                let _ = writeln!(out, "{line}");
            }
            Err(problem) => {
                failed = true;
                refused(&mut out, args.json, file, &problem);
            }
        }
    }
    if args.summary {
        let s = mcp_triage::summarize(
            by_probe[0].as_ref(),
            by_probe[1].as_ref(),
            by_probe[2].as_ref(),
        );
        let line = if args.json {
            serde_json::json!({ "summary": s }).to_string()
        } else {
            let score = mcp_triage::score_text(s.score, Some(s.judged));
            format!("distinguishability {score}: {}", s.finding)
        };
        let _ = writeln!(out, "{line}");
    }
    if failed {
        ExitCode::from(exit::NOT_AN_EXCHANGE)
    } else {
        ExitCode::from(exit::OK)
    }
}
