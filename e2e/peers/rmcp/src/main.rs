//! `rmcp-peer`: a small MCP server built with the official Rust SDK (`rmcp`),
//! used as a real-world peer by the browser tests.
//!
//! Usage: `rmcp-peer --port N --cors-origin ORIGIN [--stateful]`
//!
//! Serves MCP Streamable HTTP on `http://127.0.0.1:N/mcp`. Stateless by
//! default; `--stateful` turns on rmcp's session mode (`Mcp-Session-Id`).
//! Once the listener is bound it prints `rmcp peer on http://127.0.0.1:N/mcp`.
//!
//! The tools deliberately carry no annotations, so a client has to ask the
//! user before calling any of them.

use std::io::Write as _;
use std::sync::Arc;

use axum::http::{HeaderName, HeaderValue, Method};
use rmcp::{
    ErrorData as McpError, ServerHandler,
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    schemars, tool, tool_handler, tool_router,
    transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    },
};
use serde::Deserialize;
use tower_http::cors::CorsLayer;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct LeadGetArgs {
    /// The lead's id.
    id: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// Text to send back.
    text: String,
}

#[derive(Debug, Clone, Default)]
struct Peer;

#[tool_router]
impl Peer {
    /// Fetch one lead by id. Always fails, the way an rmcp tool fails:
    /// by returning `Err(ErrorData)` from the tool.
    #[tool(description = "Fetch a CRM lead by id")]
    async fn lead_get(
        &self,
        Parameters(LeadGetArgs { id }): Parameters<LeadGetArgs>,
    ) -> Result<CallToolResult, McpError> {
        // The demo organization has no leads, whatever the id.
        drop(id);
        Err(McpError::internal_error(
            "lead not found in this organization",
            None,
        ))
    }

    #[tool(description = "List ideal customer profiles")]
    async fn icp_list(&self) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::success(vec![ContentBlock::text(
            r#"{"ok":true}"#,
        )]))
    }

    #[tool(description = "Echo the given text back")]
    async fn echo(
        &self,
        Parameters(EchoArgs { text }): Parameters<EchoArgs>,
    ) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "Sync records with the CRM")]
    async fn crm_sync(&self) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::success(vec![ContentBlock::text(
            "synced 0 records (demo server)",
        )]))
    }
}

#[tool_handler(name = "mcp-triage-rmcp-peer")]
impl ServerHandler for Peer {}

struct Args {
    port: u16,
    cors_origin: String,
    stateful: bool,
}

fn usage(problem: &str) -> ! {
    eprintln!("rmcp-peer: {problem}");
    eprintln!("usage: rmcp-peer --port N --cors-origin ORIGIN [--stateful]");
    std::process::exit(2);
}

fn parse_args() -> Args {
    let mut port = None;
    let mut cors_origin = None;
    let mut stateful = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => {
                let value = args.next().unwrap_or_else(|| usage("--port needs a value"));
                port = Some(
                    value
                        .parse::<u16>()
                        .unwrap_or_else(|_| usage("--port must be a number 0-65535")),
                );
            }
            "--cors-origin" => {
                cors_origin = Some(
                    args.next()
                        .unwrap_or_else(|| usage("--cors-origin needs a value")),
                );
            }
            "--stateful" => stateful = true,
            "-h" | "--help" => usage("help"),
            other => usage(&format!("unknown argument {other:?}")),
        }
    }
    Args {
        port: port.unwrap_or_else(|| usage("--port is required")),
        cors_origin: cors_origin.unwrap_or_else(|| usage("--cors-origin is required")),
        stateful,
    }
}

fn cors(origin: &str) -> CorsLayer {
    let origin = HeaderValue::from_str(origin)
        .unwrap_or_else(|_| usage("--cors-origin is not a valid header value"));
    let allow_headers = [
        "authorization",
        "content-type",
        "accept",
        "mcp-session-id",
        "mcp-protocol-version",
        "mcp-method",
        "mcp-name",
        "last-event-id",
    ]
    .map(HeaderName::from_static);
    let expose_headers =
        ["mcp-session-id", "mcp-protocol-version", "www-authenticate"].map(HeaderName::from_static);
    CorsLayer::new()
        .allow_origin(origin)
        .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
        .allow_headers(allow_headers)
        .expose_headers(expose_headers)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args = parse_args();

    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(args.stateful)
        .with_allowed_origins([args.cors_origin.clone()]);
    let cancel = config.cancellation_token.clone();
    let service: StreamableHttpService<Peer, LocalSessionManager> = StreamableHttpService::new(
        || Ok(Peer),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(cors(&args.cors_origin));

    let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.port)).await?;
    let port = listener.local_addr()?.port();
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "rmcp peer on http://127.0.0.1:{port}/mcp")?;
        out.flush()?;
    }

    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            cancel.cancel();
        })
        .await
}
