//! `mcp-triage`: the native command line. `probe` checks a live server over HTTP or stdio (with
//! `--auth-check`, the OAuth doctor; with `--oauth`, a sign-in first); `replay` runs the check
//! again over recorded answers; `diff` compares two runs; `census` checks a list of servers;
//! `classify`, handled here, reads `mcp-exchange/1` files and prints verdicts.

mod commands;
mod run;
mod transports;

use std::io::{self, Read, Write};
use std::process::ExitCode;

use mcp_triage::Probe;
use mcp_triage::engine::ProbeName;
use mcp_triage::engine::exit;

use mcp_triage::{Assessment, Exchange, Options, assess};

const USAGE: &str = r#"usage: mcp-triage probe URL [options]     (see mcp-triage probe --help)
       mcp-triage replay CAPTURE... [options] (see mcp-triage replay --help)
       mcp-triage diff BEFORE AFTER [--json | --markdown] (see mcp-triage diff --help)
       mcp-triage census TARGETS --out RESULTS.jsonl [options] (see mcp-triage census --help)
       mcp-triage census report RESULTS.jsonl [--html FILE] [--markdown FILE]
       mcp-triage classify [--json [--verdict-format 1]] [--summary] [--intent A|B|C|D] [--protocol-version V] FILE...
       mcp-triage classify --outcome [--json] CALL...
       (FILE may be - for standard input)
       mcp-triage --version | -V

Classifies recorded MCP exchanges (format mcp-exchange/1): the channel a failure
arrived on, its cause, the JSON-RPC code, the evidence that decided, what an
agent should do and who must act. With an intent (--intent, or the exchange's
own "intent") and a protocol version (--protocol-version, "negotiated_version",
or the request's MCP-Protocol-Version), also the spec verdict. --summary adds the
distinguishability of probes A, B and C (from the inputs' intents).

--json prints one mcp-triage-verdict/2 object per file (docs/mcp-triage-verdict-2.schema.json),
with the file's name in "file". --verdict-format 1 prints mcp-triage-verdict/1 instead
(kept for one version: see docs/formats.md).

--outcome reads instead what an agent's MCP client library handed it after a
tools/call (a JSON object: "tool", "arguments", optionally "definition", and one
of "result", "error", "transport", "client_error" or "raised") and prints the
same verdict the npm and Python packages give for it (classify_outcome).

{EXIT}"#;

fn usage() -> String {
    USAGE.replace("{EXIT}", &mcp_triage::engine::exit::table_text())
}

struct Args {
    json: bool,
    format_1: bool,
    outcome: bool,
    summary: bool,
    intent: Option<String>,
    version: Option<String>,
    files: Vec<String>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    match args.next().as_deref() {
        Some("classify") => {}
        Some("-h") | Some("--help") | Some("help") => return Err(String::new()),
        Some(other) => return Err(format!("unknown command {other:?}")),
        None => return Err("missing command".into()),
    }
    let mut out = Args {
        json: false,
        format_1: false,
        outcome: false,
        summary: false,
        intent: None,
        version: None,
        files: Vec::new(),
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => out.json = true,
            "--verdict-format" => match args.next().as_deref() {
                Some("1") => out.format_1 = true,
                Some("2") => {}
                other => {
                    return Err(format!(
                        "--verdict-format is 1 or 2 (the default), not {:?}",
                        other.unwrap_or_default()
                    ));
                }
            },
            "--summary" => out.summary = true,
            "--outcome" => out.outcome = true,
            "--intent" => {
                let v = args.next().ok_or("--intent needs a value")?;
                if !matches!(v.as_str(), "A" | "B" | "C" | "D") {
                    return Err(format!("--intent must be A, B, C or D, not {v:?}"));
                }
                out.intent = Some(v);
            }
            "--protocol-version" => {
                out.version = Some(args.next().ok_or("--protocol-version needs a value")?)
            }
            // The spelling before `mcp-triage --version` printed the tool's own version.
            "--version" => {
                eprintln!(
                    "mcp-triage classify: --version is now spelled --protocol-version (the old spelling still works)"
                );
                out.version = Some(args.next().ok_or("--version needs a value")?)
            }
            "-h" | "--help" => return Err(String::new()),
            "-" => out.files.push(arg),
            flag if flag.starts_with("--") => return Err(format!("unknown flag {flag:?}")),
            _ => out.files.push(arg),
        }
    }
    if out.files.is_empty() {
        return Err("no input files".into());
    }
    if out.format_1 && !out.json {
        return Err("--verdict-format applies to --json".into());
    }
    if out.outcome && (out.summary || out.intent.is_some() || out.version.is_some()) {
        return Err(
            "--outcome reads agent calls: --summary, --intent and --protocol-version apply to exchanges only"
                .into(),
        );
    }
    Ok(out)
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
    match std::env::args().nth(1).as_deref() {
        Some("--version" | "-V") => {
            println!("mcp-triage {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::from(exit::OK);
        }
        Some("probe") => return ExitCode::from(commands::probe::main(std::env::args().skip(2))),
        Some("replay") => return ExitCode::from(commands::replay::main(std::env::args().skip(2))),
        Some("diff") => return ExitCode::from(commands::diff::main(std::env::args().skip(2))),
        Some("census") => {
            return ExitCode::from(commands::census::main(std::env::args().skip(2)));
        }
        _ => {}
    }
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(msg) => {
            if msg.is_empty() {
                println!("{}", usage());
                return ExitCode::SUCCESS;
            }
            eprintln!("mcp-triage: {msg}\n\n{}", usage());
            return ExitCode::from(exit::USAGE);
        }
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
