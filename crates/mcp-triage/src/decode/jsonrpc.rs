//! A read-only view of JSON-RPC 2.0 messages, and the open space of error codes with their names.

use serde::Serialize;
use serde_json::Value;

/// A JSON-RPC error code. Open: unknown codes are kept and still print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub(crate) struct ErrorCode(pub i64);

impl ErrorCode {
    /// Invalid JSON was received (JSON-RPC 2.0).
    pub(crate) const PARSE_ERROR: ErrorCode = ErrorCode(-32700);
    /// The JSON sent is not a valid Request object (JSON-RPC 2.0).
    pub(crate) const INVALID_REQUEST: ErrorCode = ErrorCode(-32600);
    /// The method does not exist or is not available (JSON-RPC 2.0).
    pub(crate) const METHOD_NOT_FOUND: ErrorCode = ErrorCode(-32601);
    /// Invalid method parameters (JSON-RPC 2.0); MCP uses it for unknown tools too.
    pub(crate) const INVALID_PARAMS: ErrorCode = ErrorCode(-32602);
    /// Internal JSON-RPC error (JSON-RPC 2.0).
    pub(crate) const INTERNAL_ERROR: ErrorCode = ErrorCode(-32603);
    /// MCP 2026-07-28: a standard header does not match the body.
    pub(crate) const HEADER_MISMATCH: ErrorCode = ErrorCode(-32020);
    /// MCP 2026-07-28: the requested protocol version is not supported.
    pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: ErrorCode = ErrorCode(-32022);

    /// The code's name and meaning, when it is one the specs define.
    pub(crate) fn describe(self) -> Option<(&'static str, &'static str)> {
        CODES
            .iter()
            .find(|(code, _, _)| *code == self.0)
            .map(|(_, name, meaning)| (*name, *meaning))
    }

    /// True for the five codes JSON-RPC 2.0 itself reserves with a meaning.
    pub(crate) fn is_standard(self) -> bool {
        (-32700..=-32600).contains(&self.0)
            && matches!(self.0, -32700 | -32600 | -32601 | -32602 | -32603)
    }

    /// A label for people, e.g. `-32602 (invalid params)` or `0 (not a JSON-RPC code)`.
    pub(crate) fn label(self) -> String {
        match self.describe() {
            Some((name, _)) => format!("{} ({name})", self.0),
            None if (-32099..=-32000).contains(&self.0) => {
                format!("{} (implementation-defined server error)", self.0)
            }
            None => format!("{} (not a reserved JSON-RPC code)", self.0),
        }
    }
}

/// Code, short name, meaning.
const CODES: &[(i64, &str, &str)] = &[
    (
        -32700,
        "parse error",
        "the server could not parse the JSON it received",
    ),
    (
        -32600,
        "invalid request",
        "the JSON received is not a valid request object",
    ),
    (
        -32601,
        "method not found",
        "the method does not exist or is not available",
    ),
    (
        -32602,
        "invalid params",
        "invalid method parameters (MCP also uses it for unknown tools)",
    ),
    (-32603, "internal error", "an internal error in the server"),
    (
        -32002,
        "resource not found",
        "MCP: the resource does not exist",
    ),
    (
        -32020,
        "header mismatch",
        "MCP 2026-07-28: a standard header does not match the body",
    ),
    (
        -32022,
        "unsupported protocol version",
        "MCP 2026-07-28: the protocol version is not supported",
    ),
    (
        -32042,
        "URL elicitation required",
        "MCP: the client must open a URL first",
    ),
];

/// What one JSON value is, as a JSON-RPC 2.0 message.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Message<'a> {
    /// A request: has an id and a method.
    Request {
        id: &'a Value,
        method: &'a str,
        params: Option<&'a Value>,
    },
    /// A notification: a method and no id.
    Notification {
        method: &'a str,
        params: Option<&'a Value>,
    },
    /// A successful response.
    Result { id: &'a Value, result: &'a Value },
    /// An error response.
    Error {
        id: &'a Value,
        code: ErrorCode,
        message: &'a str,
        data: Option<&'a Value>,
    },
    /// Not a valid JSON-RPC 2.0 message; the reason says why.
    Invalid {
        id: Option<&'a Value>,
        reason: String,
    },
}

impl<'a> Message<'a> {
    /// The id of a response (result or error), if this is one.
    pub(crate) fn response_id(&self) -> Option<&'a Value> {
        match self {
            Message::Result { id, .. } | Message::Error { id, .. } => Some(id),
            _ => None,
        }
    }
}

fn valid_id(id: &Value) -> bool {
    match id {
        Value::String(_) | Value::Null => true,
        Value::Number(n) => n.is_i64() || n.is_u64(),
        _ => false,
    }
}

/// Views a JSON value as a JSON-RPC 2.0 message, strictly: `jsonrpc` must be `"2.0"`, a response has
/// exactly one of `result` and `error`, an error code is an integer and its message a string.
pub(crate) fn view(value: &Value) -> Message<'_> {
    let Some(obj) = value.as_object() else {
        return Message::Invalid {
            id: None,
            reason: "not a JSON object".into(),
        };
    };
    let id = obj.get("id");
    let invalid = |reason: &str| Message::Invalid {
        id,
        reason: reason.to_string(),
    };
    match obj.get("jsonrpc") {
        Some(Value::String(v)) if v == "2.0" => {}
        Some(_) => return invalid("\"jsonrpc\" is not \"2.0\""),
        None => return invalid("no \"jsonrpc\" member"),
    }
    if let Some(method) = obj.get("method") {
        let Some(method) = method.as_str() else {
            return invalid("\"method\" is not a string");
        };
        let params = obj.get("params");
        return match id {
            Some(id) if valid_id(id) && !id.is_null() => Message::Request { id, method, params },
            Some(_) => invalid("request id is not a string or an integer"),
            None => Message::Notification { method, params },
        };
    }
    let Some(id) = id else {
        return invalid("a response without \"id\"");
    };
    if !valid_id(id) {
        return invalid("response id is not a string, an integer or null");
    }
    match (obj.get("result"), obj.get("error")) {
        (Some(_), Some(_)) => invalid("both \"result\" and \"error\""),
        (None, None) => invalid("neither \"result\" nor \"error\""),
        (Some(result), None) => Message::Result { id, result },
        (None, Some(error)) => {
            let Some(error) = error.as_object() else {
                return invalid("\"error\" is not an object");
            };
            let code = match error.get("code") {
                Some(Value::Number(n)) => match n.as_i64() {
                    Some(c) if !n.is_f64() => c,
                    _ => return invalid("error code is not an integer"),
                },
                _ => return invalid("error code missing or not a number"),
            };
            let Some(message) = error.get("message").and_then(Value::as_str) else {
                return invalid("error message missing or not a string");
            };
            Message::Error {
                id,
                code: ErrorCode(code),
                message,
                data: error.get("data"),
            }
        }
    }
}

/// Methods a client may send to an MCP server, in any released version.
pub(crate) const CLIENT_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "tasks/get",
    "tasks/list",
    "tasks/result",
    "tasks/cancel",
];

/// True when `method` is a request method MCP defines for clients.
pub(crate) fn is_mcp_client_method(method: &str) -> bool {
    CLIENT_METHODS.contains(&method)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use serde_json::json;

    use super::*;

    #[test]
    fn ids_compare_as_exact_json_values() {
        let int: Value = serde_json::from_str("1").unwrap();
        let float: Value = serde_json::from_str("1.0").unwrap();
        let string: Value = serde_json::from_str("\"1\"").unwrap();
        assert_ne!(int, float);
        assert_ne!(int, string);
        assert_eq!(int, json!(1));
    }

    #[test]
    fn strict_shapes() {
        let ok = json!({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"m"}});
        assert!(matches!(
            view(&ok),
            Message::Error {
                code: ErrorCode(-32602),
                ..
            }
        ));
        let float_code = json!({"jsonrpc":"2.0","id":1,"error":{"code":-32602.0,"message":"m"}});
        assert!(matches!(view(&float_code), Message::Invalid { .. }));
        let both = json!({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}});
        assert!(matches!(view(&both), Message::Invalid { .. }));
        let old = json!({"jsonrpc":"1.0","id":1,"result":{}});
        assert!(matches!(view(&old), Message::Invalid { .. }));
        let float_id = json!({"jsonrpc":"2.0","id":1.5,"result":{}});
        assert!(matches!(view(&float_id), Message::Invalid { .. }));
        let note = json!({"jsonrpc":"2.0","method":"notifications/progress"});
        assert!(matches!(view(&note), Message::Notification { .. }));
    }

    #[test]
    fn codes_have_labels() {
        assert_eq!(ErrorCode(-32601).label(), "-32601 (method not found)");
        assert_eq!(ErrorCode(0).label(), "0 (not a reserved JSON-RPC code)");
        assert!(ErrorCode(-32000).label().contains("implementation-defined"));
    }
}
