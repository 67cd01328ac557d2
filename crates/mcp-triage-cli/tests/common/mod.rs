//! Shared by the command line's integration tests: real servers started from the repository root
//! and killed when a test ends, and the binary run with arguments and environment.

// Test code: a panic is a failed test, not a crash on network data.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A path for `name` in a temporary folder of this test process.
pub(crate) fn temp(name: &str) -> PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mcp-triage-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A server process, killed when the test ends.
pub(crate) struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `program args…` from the repository root and waits until `port` accepts connections.
pub(crate) fn start(program: &str, args: &[&str], port: u16) -> Server {
    start_with(program, args, &[], port)
}

/// [`start`] with `env` added to the server's environment.
pub(crate) fn start_with(program: &str, args: &[&str], env: &[(&str, &str)], port: u16) -> Server {
    let child = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(root())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
    let server = Server(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "{program} did not listen on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    server
}

pub(crate) fn demo(port: u16, extra: &[&str]) -> Server {
    let port_s = port.to_string();
    let mut args = vec![
        "demo/server.mjs",
        "--port",
        &port_s,
        "--origins",
        "http://127.0.0.1:1",
        "--cors",
        "none",
    ];
    args.extend_from_slice(extra);
    start("node", &args, port)
}

pub(crate) fn probe(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
        .arg("probe")
        .args(args)
        .env_remove("MCP_TRIAGE_PAGE")
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

pub(crate) fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs `mcp-triage ARGS…` (any subcommand).
pub(crate) fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-triage"))
        .args(args)
        .env_remove("MCP_TRIAGE_PAGE")
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

/// The Python `mcp` 2.3.0 peer on `port`.
pub(crate) fn python_peer(port: u16) -> Server {
    let port_s = port.to_string();
    start(
        "e2e/py/.venv/bin/python",
        &[
            "e2e/py/server.py",
            "--port",
            &port_s,
            "--cors-origin",
            "http://127.0.0.1:1",
        ],
        port,
    )
}

/// The hostile server's token echo on `port` (its redirect target on `port + 100`, so that two
/// of them can run at once).
pub(crate) fn hostile(port: u16) -> Server {
    let port_s = port.to_string();
    let target = format!("http://127.0.0.1:{}/mcp", port + 100);
    start(
        "node",
        &[
            "e2e/hostile.mjs",
            "--port",
            &port_s,
            "--origin",
            "http://127.0.0.1:1",
            "--redirect-to",
            &target,
        ],
        port,
    )
}

/// Live (not zombie) processes whose environment holds `entry`: pid and command line.
pub(crate) fn processes_with(entry: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for proc_dir in std::fs::read_dir("/proc").unwrap().flatten() {
        let path = proc_dir.path();
        let Ok(env) = std::fs::read(path.join("environ")) else {
            continue;
        };
        let holds = env.split(|b| *b == 0).any(|e| e == entry.as_bytes());
        let state = std::fs::read_to_string(path.join("stat")).unwrap_or_default();
        let zombie = state
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
        if holds && !zombie {
            let cmd = std::fs::read(path.join("cmdline")).unwrap_or_default();
            let pid = path.file_name().unwrap().to_string_lossy().into_owned();
            found.push((pid, String::from_utf8_lossy(&cmd).replace('\0', " ")));
        }
    }
    found
}

/// The hostile server's own log of requests, on `port`.
pub(crate) fn log_of(port: u16) -> Vec<serde_json::Value> {
    let body = ureq::get(&format!("http://127.0.0.1:{port}/__log"))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    serde_json::from_str::<serde_json::Value>(&body)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

const SDK_EXAMPLE: &str = "e2e/peers/ts-1.32.2/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js";

/// The TypeScript SDK 1.32.2 example with `--oauth` (and `--oauth-strict` when `strict`) on `port`,
/// its demo authorization server on `port + 1`.
pub(crate) fn sdk_oauth(port: u16, strict: bool) -> Server {
    let (p, auth) = (port.to_string(), (port + 1).to_string());
    let mut args = vec![SDK_EXAMPLE, "--oauth"];
    if strict {
        args.push("--oauth-strict");
    }
    start_with(
        "node",
        &args,
        &[("MCP_PORT", &p), ("MCP_AUTH_PORT", &auth)],
        port,
    )
}

/// The command built with the core's redaction switched off (`--features leak-control`, apart in
/// `target/leak-control-cli`: the README's test command builds it before these tests).
pub(crate) fn leak_control_command() -> PathBuf {
    let path = std::env::var_os("MCP_TRIAGE_LEAK_CONTROL_CLI")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/leak-control-cli/debug/mcp-triage"));
    assert!(
        path.exists(),
        "{}: missing; build it with `cargo build -p mcp-triage-cli --bin mcp-triage --features leak-control --target-dir target/leak-control-cli` (./x test does)",
        path.display()
    );
    path
}
