//! The reply a client owes a server-to-client request.

use serde_json::Value;

use crate::decode::jsonrpc::{self, Message};

/// The reply a client owes a server-to-client request: an empty result to `ping`, -32601 otherwise.
pub(crate) fn reply_to_server_request(request: &Value) -> Option<Value> {
    let Message::Request { id, method, .. } = jsonrpc::view(request) else {
        return None;
    };
    Some(if method == "ping" {
        serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}})
    } else {
        serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": format!("MCP Triage does not support {method}")}})
    })
}
