//! The GitHub Action's script (`action/run.mjs`), run here as a runner would run it: its inputs in
//! the environment, temporary files as `$GITHUB_STEP_SUMMARY` and `$GITHUB_OUTPUT`, `binary-path` at
//! the fresh build, against the real demo server (TypeScript SDK 1.29.0). Once with the right token
//! (the summary holds the report and the link, the outputs the score), once with a wrong one (the run
//! fails with the CLI's status 3, and the token is nowhere: summary, outputs, standard output or error).

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::Command;

use common::{demo, root, temp, text};
use mcp_triage::testing::leak;

/// What one run of the action left: its exit status, log, summary and outputs.
struct Ran {
    status: Option<i32>,
    log: String,
    summary: String,
    outputs: String,
}

fn action(name: &str, token: &str, fail_under: &str) -> Ran {
    action_with(
        name,
        token,
        fail_under,
        &[("MCP_TRIAGE_BINARY_PATH", env!("CARGO_BIN_EXE_mcp-triage"))],
    )
}

/// The action's script with its inputs and the runner's files, plus `extra` variables.
fn action_with(name: &str, token: &str, fail_under: &str, extra: &[(&str, &str)]) -> Ran {
    let summary = temp(&format!("{name}-summary.md"));
    let outputs = temp(&format!("{name}-outputs.txt"));
    let runner_temp = temp(&format!("{name}-runner"));
    std::fs::create_dir_all(&runner_temp).unwrap();
    let out = Command::new("node")
        .arg(root().join("action/run.mjs"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap())
        .env(
            "HOME",
            std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")),
        )
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GITHUB_OUTPUT", &outputs)
        .env("RUNNER_TEMP", &runner_temp)
        .env("MCP_TRIAGE_URL", "http://127.0.0.1:18973/mcp")
        .env("MCP_TRIAGE_TOKEN", token)
        .env("MCP_TRIAGE_FAIL_UNDER", fail_under)
        .env("MCP_TRIAGE_PAGE_URL", "https://triage.example/app/")
        .envs(extra.iter().copied())
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    Ran {
        status: out.status.code(),
        log: format!("{stdout}\n{stderr}"),
        summary: std::fs::read_to_string(&summary).unwrap_or_default(),
        outputs: std::fs::read_to_string(&outputs).unwrap_or_default(),
    }
}

/// The value of output `name` in a `$GITHUB_OUTPUT` file (`name<<DELIM`, the value, `DELIM`).
fn output(outputs: &str, name: &str) -> Option<String> {
    let mut lines = outputs.lines();
    while let Some(line) = lines.next() {
        if let Some(delim) = line.strip_prefix(&format!("{name}<<")) {
            let value: Vec<&str> = lines.by_ref().take_while(|l| *l != delim).collect();
            return Some(value.join("\n"));
        }
    }
    None
}

#[test]
fn the_action_reports_the_run_in_the_summary_and_outputs_and_fails_without_the_token_leaking() {
    let _demo = demo(18973, &[]);
    let ok = action("ok", "demo-token", "0");
    assert_eq!(ok.status, Some(0), "{}", ok.log);
    assert!(ok.summary.contains("## MCP Triage"), "{}", ok.summary);
    assert!(
        ok.summary
            .contains("| A · Unknown tool | `mcp_triage_no_such_tool_"),
        "the CLI's Markdown table: {}",
        ok.summary
    );
    assert!(
        ok.summary
            .contains("Distinguishability by structure alone: 0 of 3 pairs"),
        "{}",
        ok.summary
    );
    assert_eq!(
        output(&ok.outputs, "score").as_deref(),
        Some("0"),
        "{}",
        ok.outputs
    );
    assert_eq!(output(&ok.outputs, "exit-code").as_deref(), Some("0"));
    let link = output(&ok.outputs, "share-link").unwrap();
    assert!(
        link.starts_with(&format!(
            "https://triage.example/app/#r=v{}.",
            mcp_triage::share::VERSION
        )),
        "{link}"
    );
    assert!(ok.summary.contains(&link), "the summary links the report");
    let junit = output(&ok.outputs, "junit-file").unwrap();
    assert!(
        std::fs::read_to_string(junit)
            .unwrap()
            .contains("<testsuites")
    );
    // The summary's report is the run's own: its link decodes to the same finding.
    let payload = mcp_triage::share::decode(&link[link.find('#').unwrap()..]).unwrap();
    assert!(ok.summary.contains(&payload.finding), "{}", ok.summary);

    // With a baseline: the comparison is in the summary; the same run against itself is fine, a
    // baseline from a server that tells B apart by structure makes this run worse: exit 7.
    let seed_base = temp("action-seed-baseline.json");
    let made = common::probe(
        &[
            "http://127.0.0.1:18973/mcp",
            "--token-env",
            "T",
            "--write-baseline",
            seed_base.to_str().unwrap(),
        ],
        &[("T", "demo-token")],
    );
    assert_eq!(made.status.code(), Some(0));
    let same = action_with(
        "same",
        "demo-token",
        "",
        &[
            ("MCP_TRIAGE_BINARY_PATH", env!("CARGO_BIN_EXE_mcp-triage")),
            ("MCP_TRIAGE_BASELINE", seed_base.to_str().unwrap()),
        ],
    );
    assert_eq!(same.status, Some(0), "{}", same.log);
    assert!(
        same.summary.contains("### Compared with the baseline"),
        "{}",
        same.summary
    );
    assert!(
        same.summary.contains("No probe got better or worse."),
        "{}",
        same.summary
    );
    let _fixed = demo(18980, &["--invalid-params-error"]);
    let fixed_base = temp("action-fixed-baseline.json");
    let made = common::probe(
        &[
            "http://127.0.0.1:18980/mcp",
            "--token-env",
            "T",
            "--write-baseline",
            fixed_base.to_str().unwrap(),
        ],
        &[("T", "demo-token")],
    );
    assert_eq!(made.status.code(), Some(0));
    let worse = action_with(
        "worse",
        "demo-token",
        "",
        &[
            ("MCP_TRIAGE_BINARY_PATH", env!("CARGO_BIN_EXE_mcp-triage")),
            ("MCP_TRIAGE_BASELINE", fixed_base.to_str().unwrap()),
        ],
    );
    assert_eq!(worse.status, Some(7), "{}", worse.log);
    assert_eq!(output(&worse.outputs, "exit-code").as_deref(), Some("7"));
    assert!(
        worse.summary.contains("no longer told apart by structure"),
        "{}",
        worse.summary
    );

    // A wrong token: the server refuses the run at connect, the action fails with the CLI's 3,
    // and the token is in none of what the action left, in any encoding.
    let token = "wrong-token-Zq81vB4nY7pL2";
    let refused = action("refused", token, "");
    assert_eq!(refused.status, Some(3), "{}", refused.log);
    assert_eq!(output(&refused.outputs, "exit-code").as_deref(), Some("3"));
    assert!(refused.summary.contains("401"), "{}", refused.summary);
    for (what, t) in [
        ("summary", &refused.summary),
        ("outputs", &refused.outputs),
        ("log", &refused.log),
    ] {
        assert!(
            !leak::leaks(t, token),
            "{what}: {:?}",
            leak::found(t, token)
        );
    }
    // The control: the token was in the environment the script ran with, and the checker finds
    // it in a text that holds it.
    assert!(leak::leaks(&format!("Bearer {token}"), token));
}

#[test]
fn the_action_downloads_the_archive_for_this_runner_runs_it_only_when_its_checksum_matches() {
    let _demo = demo(18974, &[]);
    // A mirror of a release: this runner's archive (the fresh build inside) and its SHA-256 file.
    let mirror = temp("mirror");
    std::fs::create_dir_all(&mirror).unwrap();
    let staged = temp("staged");
    std::fs::create_dir_all(&staged).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_mcp-triage"), staged.join("mcp-triage")).unwrap();
    let target = match std::env::consts::ARCH {
        "aarch64" => "aarch64-unknown-linux-musl",
        _ => "x86_64-unknown-linux-musl",
    };
    let name = format!("mcp-triage-{target}.tar.gz");
    let packed = Command::new("tar")
        .arg("-czf")
        .arg(mirror.join(&name))
        .arg("-C")
        .arg(&staged)
        .arg("mcp-triage")
        .status()
        .unwrap();
    assert!(packed.success());
    let sum = Command::new("sha256sum")
        .arg(&name)
        .current_dir(&mirror)
        .output()
        .unwrap();
    std::fs::write(mirror.join(format!("{name}.sha256")), &sum.stdout).unwrap();
    let _server = common::start(
        "node",
        &[
            "scripts/serve.mjs",
            "--dir",
            mirror.to_str().unwrap(),
            "--port",
            "18977",
        ],
        18977,
    );
    let base = "http://127.0.0.1:18977/";
    let downloaded = action_with(
        "download",
        "demo-token",
        "",
        &[
            ("MCP_TRIAGE_DOWNLOAD_BASE", base),
            ("MCP_TRIAGE_URL", "http://127.0.0.1:18974/mcp"),
        ],
    );
    assert_eq!(downloaded.status, Some(0), "{}", downloaded.log);
    assert_eq!(output(&downloaded.outputs, "score").as_deref(), Some("0"));
    // The control: a checksum file that names other bytes, and nothing runs.
    std::fs::write(
        mirror.join(format!("{name}.sha256")),
        format!("{}  {name}\n", "0".repeat(64)),
    )
    .unwrap();
    let tampered = action_with(
        "tampered",
        "demo-token",
        "",
        &[
            ("MCP_TRIAGE_DOWNLOAD_BASE", base),
            ("MCP_TRIAGE_URL", "http://127.0.0.1:18974/mcp"),
        ],
    );
    assert_ne!(tampered.status, Some(0));
    assert!(tampered.log.contains("nothing was run"), "{}", tampered.log);
    assert_eq!(
        output(&tampered.outputs, "exit-code"),
        None,
        "the CLI never ran"
    );
}

#[test]
fn the_actions_default_page_is_the_hosted_page_the_command_line_links_to() {
    let yml = std::fs::read_to_string(common::root().join("action.yml")).unwrap();
    let page_url = yml.find("  page-url:").unwrap();
    let default = yml[page_url..]
        .lines()
        .find_map(|l| l.trim().strip_prefix("default: "))
        .unwrap();
    assert_eq!(default, mcp_triage::share::HOSTED_PAGE);
}
