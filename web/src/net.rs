//! The only network code of the app: the same-origin demo file, and (later) MCP requests.

use serde::Deserialize;

/// What `demo.json` (written only by the README's first command, next to the app) offers the form.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DemoConfig {
    /// The demo MCP endpoint.
    pub endpoint: String,
    /// The demo token, shown as a hint (never sent anywhere by itself).
    pub token_hint: String,
    /// What the demo server is, in words.
    pub server: String,
}

/// Fetches `demo.json` from the page's own origin; `None` when absent or unreadable (a normal host).
pub async fn load_demo_config() -> Option<DemoConfig> {
    let response = gloo_net::http::Request::get("demo.json")
        .credentials(web_sys::RequestCredentials::Omit)
        .cache(web_sys::RequestCache::NoStore)
        .send()
        .await
        .ok()?;
    if !response.ok() {
        return None;
    }
    let text = response.text().await.ok()?;
    if text.len() > 4096 {
        return None;
    }
    let config: DemoConfig = serde_json::from_str(&text).ok()?;
    // Only a loopback demo endpoint is accepted from the file.
    let endpoint = mcp_triage::endpoint::parse_endpoint(&config.endpoint).ok()?;
    endpoint.is_loopback().then_some(config)
}
