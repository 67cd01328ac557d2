//! The tool catalogue from `tools/list`, and the choice of tools for probes B, C and D.
//!
//! Safety: in MCP an unannotated tool is assumed possibly destructive (`readOnlyHint` defaults to false,
//! `destructiveHint` to true), and a server that does not validate runs a tool even when required
//! arguments are missing. So B, C and D are chosen automatically only among tools that declare
//! `readOnlyHint: true`; every other tool is an opt-in candidate.

use crate::vocabulary::exchange::Vantage;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What we know about one tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolInfo {
    /// The tool's name.
    pub name: String,
    /// Required top-level properties of its input schema, in schema order.
    pub required: Vec<String>,
    /// Top-level properties and their JSON types (`string`, `number`, … or `any`).
    pub properties: Vec<(String, String)>,
    /// `readOnlyHint` as declared (absent means false).
    pub read_only: Option<bool>,
    /// `destructiveHint` as declared (absent means true for a tool that is not read-only).
    pub destructive: Option<bool>,
    /// The title or description, shortened, for display.
    pub summary: String,
}

impl ToolInfo {
    /// Declared read-only: the only tools probes may call without the user's opt-in. A name longer
    /// than `MAX_TOOL_NAME_CHARS` is never picked.
    pub fn is_safe(&self) -> bool {
        self.read_only == Some(true)
            && self.name.len() <= crate::vocabulary::limits::MAX_TOOL_NAME_CHARS
    }

    /// Declared destructive (`destructiveHint: true`): marked loudly.
    pub fn is_declared_destructive(&self) -> bool {
        self.read_only != Some(true) && self.destructive == Some(true)
    }

    /// What a user must know before opting in.
    pub fn risk(&self) -> ToolRisk {
        if self.is_safe() {
            ToolRisk::ReadOnly
        } else if self.is_declared_destructive() {
            ToolRisk::Destructive
        } else {
            ToolRisk::MayHaveSideEffects
        }
    }

    fn property_type(&self, name: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
    }
}

labelled_enum! {
    /// How risky calling a tool is, by its own annotations.
    ToolRisk {
        /// `readOnlyHint: true`.
        ReadOnly = "read_only",
        /// Not declared read-only (the default): it may change things.
        MayHaveSideEffects = "may_have_side_effects",
        /// `destructiveHint: true`.
        Destructive = "destructive",
    }
}

/// Reads the tools of one `tools/list` result. Never fails: malformed entries are skipped.
pub(crate) fn parse_tools(result: &Value) -> (Vec<ToolInfo>, Option<String>) {
    let tools = result
        .get("tools")
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(parse_tool).collect())
        .unwrap_or_default();
    let cursor = result
        .get("nextCursor")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
        .map(str::to_string);
    (tools, cursor)
}

fn parse_tool(item: &Value) -> Option<ToolInfo> {
    let name = item.get("name")?.as_str()?.to_string();
    let schema = item.get("inputSchema");
    let props: Map<String, Value> = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let properties = props
        .iter()
        .map(|(k, v)| {
            let t = match v.get("type") {
                Some(Value::String(t)) => t.clone(),
                Some(Value::Array(ts)) => ts
                    .iter()
                    .filter_map(Value::as_str)
                    .find(|t| *t != "null")
                    .unwrap_or("any")
                    .to_string(),
                _ => "any".to_string(),
            };
            (k.clone(), t)
        })
        .collect();
    let required = schema
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let ann = item.get("annotations");
    let hint = |k: &str| ann.and_then(|a| a.get(k)).and_then(Value::as_bool);
    let summary: String = item
        .get("title")
        .or_else(|| item.get("description"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .chars()
        .take(160)
        .collect();
    Some(ToolInfo {
        name,
        required,
        properties,
        read_only: hint("readOnlyHint"),
        destructive: hint("destructiveHint"),
        summary,
    })
}

/// Names that look like an identifier of something that may not exist.
fn id_like(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "id"
        || n.ends_with("_id")
        || n.ends_with("id") && name.ends_with("Id")
        || [
            "uuid", "key", "slug", "ref", "path", "url", "uri", "name", "handle",
        ]
        .iter()
        .any(|w| n == *w || n.ends_with(&format!("_{w}")))
}

/// The value probe C sends for an id that cannot exist.
pub(crate) const NONEXISTENT_ID: &str = "mcp-triage-probe-nonexistent";

/// A tool chosen for a probe, with the payload and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// The tool.
    pub tool: String,
    /// The `arguments` object to send.
    pub arguments: Value,
    /// Why this tool, in words.
    pub why: String,
}

/// Why a probe could not be chosen automatically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// `tools/list` did not answer, so nothing can be chosen.
    CatalogueUnavailable,
    /// No read-only tool has a required argument (B).
    NoSafeToolWithRequiredArgument,
    /// No read-only tool takes an id-like string (C).
    NoSafeToolWithIdArgument,
    /// No read-only tool can be called without arguments (D).
    NoSafeToolWithoutRequiredArguments,
    /// The user chose to skip it.
    SkippedByUser,
    /// The run ended (cancelled, or its deadline passed) before this probe was sent.
    RunEnded,
}

impl SkipReason {
    /// Every reason, in declaration order.
    pub(crate) const ALL: &'static [SkipReason] = &[
        SkipReason::CatalogueUnavailable,
        SkipReason::NoSafeToolWithRequiredArgument,
        SkipReason::NoSafeToolWithIdArgument,
        SkipReason::NoSafeToolWithoutRequiredArguments,
        SkipReason::SkippedByUser,
        SkipReason::RunEnded,
    ];

    /// A sentence for people: why, without what to do about it (see [`SkipReason::next_step`]),
    /// true where the run was made (`by`: the page, or a direct client such as the command line,
    /// where only a plan file skips a probe).
    pub fn describe(self, by: Vantage) -> &'static str {
        use crate::vocabulary::seeded_bug::{SeededBug, is_on};
        if is_on(SeededBug::ByYouAnywhere) {
            return "skipped by you";
        }
        match (self, by) {
            (SkipReason::CatalogueUnavailable, _) => {
                "tools/list did not answer, so no tool could be chosen"
            }
            (SkipReason::NoSafeToolWithRequiredArgument, _) => {
                "no tool declared readOnlyHint: true has a required argument"
            }
            (SkipReason::NoSafeToolWithIdArgument, _) => {
                "no tool declared readOnlyHint: true takes an id-like string"
            }
            (SkipReason::NoSafeToolWithoutRequiredArguments, _) => {
                "no tool declared readOnlyHint: true can be called without arguments"
            }
            (SkipReason::SkippedByUser, Vantage::Browser) => "skipped by you",
            (SkipReason::SkippedByUser, Vantage::Direct) => "the plan file skips it",
            (SkipReason::RunEnded, _) => "the run ended before this probe was sent",
        }
    }

    /// No tool declared read-only fits the probe (the consent step may propose one).
    pub fn no_declared_read_only_tool(self) -> bool {
        matches!(
            self,
            SkipReason::NoSafeToolWithRequiredArgument
                | SkipReason::NoSafeToolWithIdArgument
                | SkipReason::NoSafeToolWithoutRequiredArguments
        )
    }

    /// What to do about it, in the terms of where the run was made (`by`): the page's consent
    /// step and Review first, or the command line's plan files.
    pub fn next_step(self, by: Vantage) -> Option<&'static str> {
        match (self, by) {
            (SkipReason::CatalogueUnavailable, _) => None,
            (
                SkipReason::NoSafeToolWithRequiredArgument
                | SkipReason::NoSafeToolWithoutRequiredArguments,
                Vantage::Browser,
            ) => Some("pick a tool yourself in Review first if calling it is safe"),
            (SkipReason::NoSafeToolWithIdArgument, Vantage::Browser) => {
                Some("pick a call that makes the backend fail in Review first")
            }
            (
                SkipReason::NoSafeToolWithRequiredArgument
                | SkipReason::NoSafeToolWithIdArgument
                | SkipReason::NoSafeToolWithoutRequiredArguments,
                Vantage::Direct,
            ) => Some(
                "to call one, write the plan (--write-plan plan.json), set \"opt_in\": true on the calls you agree to, and run it (--plan plan.json)",
            ),
            (SkipReason::SkippedByUser, Vantage::Browser) => {
                Some("run again and keep it in the plan to send it")
            }
            (SkipReason::SkippedByUser, Vantage::Direct) => {
                Some("set \"skip\": false for it in the plan file to send it")
            }
            (SkipReason::RunEnded, Vantage::Browser) => Some(
                "run again once what stopped the run is fixed (a longer time limit, if the deadline did)",
            ),
            (SkipReason::RunEnded, Vantage::Direct) => Some(
                "run again once what stopped the run is fixed (a longer --time-limit, if the deadline did)",
            ),
        }
    }
}

/// Words in a tool's name or description that suggest its output is the server's sensitive data
/// (its environment, secrets, configuration). A probe avoids such a tool when another candidate
/// exists: the answer ends up on screen and in what people share. Seen in the wild:
/// `@modelcontextprotocol/server-everything`'s read-only `get-env` returns the process environment.
pub(crate) const SENSITIVE_OUTPUT_WORDS: &[&str] = &[
    "env",
    "environment",
    "secret",
    "token",
    "key",
    "credential",
    "password",
    "config",
    "configuration",
    "dump",
    "whoami",
];

/// The words of a name or description: split at anything not a letter or digit and at camelCase.
pub(crate) fn words(text: &str) -> Vec<String> {
    split_lower(text, |c| c.is_ascii_alphanumeric())
}

/// `text` split into lower-cased runs of characters `keep` accepts, and at camelCase boundaries.
fn split_lower(text: &str, keep: impl Fn(char) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        if (!keep(c) || (c.is_ascii_uppercase() && prev_lower)) && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if keep(c) {
            word.push(c.to_ascii_lowercase());
        }
        prev_lower = c.is_ascii_lowercase();
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

impl ToolInfo {
    /// Its name or description suggests sensitive output (`SENSITIVE_OUTPUT_WORDS`, or a plural).
    pub fn suggests_sensitive_output(&self) -> bool {
        words(&self.name)
            .into_iter()
            .chain(words(&self.summary))
            .any(|w| {
                SENSITIVE_OUTPUT_WORDS
                    .iter()
                    .any(|s| w == *s || w.strip_suffix('s') == Some(s))
            })
    }
}

/// Words that make a tool name read like a write: a tool whose name has one among its parts is never
/// proposed for a probe, whatever its schema (issue "One click to a full check on real servers").
pub(crate) const WRITE_WORDS: &[&str] = &[
    "create", "update", "delete", "remove", "write", "set", "put", "post", "patch", "send", "sync",
    "push", "add", "insert", "drop", "reset", "wipe", "purge", "clear", "exec", "execute", "run",
    "kill", "stop", "start", "deploy", "publish", "upload", "move", "rename", "grant", "revoke",
    "pay", "charge", "transfer", "approve", "merge", "commit",
];

/// Words that make a tool name read like a lookup: preferred when proposing.
pub(crate) const LOOKUP_WORDS: &[&str] = &[
    "get", "list", "read", "search", "find", "describe", "fetch", "show", "query", "lookup",
    "view", "count", "check",
];

/// The parts of a tool name: split at `_ - . /` (any character that is not an ASCII letter: MCP tool
/// names are ASCII), at camelCase boundaries and at digits, lower-cased. `sendEmail2user` → `send`,
/// `email`, `user`.
pub(crate) fn name_parts(name: &str) -> Vec<String> {
    split_lower(name, |c| c.is_ascii_alphabetic())
}

impl ToolInfo {
    /// May be proposed for the user's OK: not explicitly declared destructive or not-read-only
    /// (absent annotations do not count, or nothing unannotated could ever be proposed), no write
    /// word among its name's parts, and a name short enough to pick.
    pub fn may_propose(&self) -> bool {
        self.destructive != Some(true)
            && self.read_only != Some(false)
            && self.name.len() <= crate::vocabulary::limits::MAX_TOOL_NAME_CHARS
            && !name_parts(&self.name)
                .iter()
                .any(|p| WRITE_WORDS.contains(&p.as_str()))
    }

    /// Its name's parts include a lookup word.
    fn reads_like_a_lookup(&self) -> bool {
        name_parts(&self.name)
            .iter()
            .any(|p| LOOKUP_WORDS.contains(&p.as_str()))
    }
}

/// The first candidate the preference likes, else the first candidate (catalogue order decides
/// ties) — among the candidates whose output does not look sensitive, when there are any.
fn first_best<'a>(
    candidates: impl Iterator<Item = &'a ToolInfo> + Clone,
    preferred: impl Fn(&ToolInfo) -> bool,
) -> Option<&'a ToolInfo> {
    let plain = candidates
        .clone()
        .filter(|t| !t.suggests_sensitive_output());
    let pick = |c: &mut dyn Iterator<Item = &'a ToolInfo>| -> Option<&'a ToolInfo> {
        let all: Vec<&ToolInfo> = c.collect();
        all.iter()
            .find(|t| preferred(t))
            .or_else(|| all.first())
            .copied()
    };
    pick(&mut plain.clone()).or_else(|| pick(&mut candidates.into_iter()))
}

/// Which tools a probe may use: the declared read-only ones (chosen on their own), or the ones that
/// may be proposed for the user's OK ([`ToolInfo::may_propose`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pool {
    /// `readOnlyHint: true`: called without asking.
    DeclaredReadOnly,
    /// Not declared read-only, nothing says it writes: proposed, called only after the user's OK.
    Proposable,
}

impl Pool {
    fn admits(self, t: &ToolInfo) -> bool {
        match self {
            Pool::DeclaredReadOnly => t.is_safe(),
            Pool::Proposable => !t.is_safe() && t.may_propose(),
        }
    }

    /// Why a tool from this pool, in words, before the probe's own reason.
    fn why(self) -> &'static str {
        match self {
            Pool::DeclaredReadOnly => "declared read-only",
            Pool::Proposable => {
                "proposed for your OK (not declared read-only; nothing in its annotations or name says it writes)"
            }
        }
    }
}

/// Probe B: a tool with a required property, called with none of its arguments.
pub(crate) fn choose_b(tools: &[ToolInfo]) -> Result<Choice, SkipReason> {
    pick_b(tools, Pool::DeclaredReadOnly)
}

/// Probe C: a tool whose required arguments are strings, one of them id-like, called with a value
/// that cannot exist.
pub(crate) fn choose_c(tools: &[ToolInfo]) -> Result<Choice, SkipReason> {
    pick_c(tools, Pool::DeclaredReadOnly)
}

/// Probe D: a tool with no required arguments, called with `{}`.
pub(crate) fn choose_d(tools: &[ToolInfo]) -> Result<Choice, SkipReason> {
    pick_d(tools, Pool::DeclaredReadOnly)
}

/// What the consent step proposes for B, C or D when no declared read-only tool fits: a tool from
/// [`Pool::Proposable`], preferring names that read like a lookup; `None` when nothing fits.
pub(crate) fn propose(
    probe: crate::vocabulary::probe::ProbeName,
    tools: &[ToolInfo],
) -> Option<Choice> {
    use crate::vocabulary::probe::ProbeName;
    match probe {
        ProbeName::A => None,
        ProbeName::B => pick_b(tools, Pool::Proposable).ok(),
        ProbeName::C => pick_c(tools, Pool::Proposable).ok(),
        ProbeName::D => pick_d(tools, Pool::Proposable).ok(),
    }
}

fn pick_b(tools: &[ToolInfo], pool: Pool) -> Result<Choice, SkipReason> {
    let tool = tools
        .iter()
        .filter(|t| pool.admits(t) && !t.required.is_empty())
        .min_by_key(|t| {
            let unlike = pool == Pool::Proposable && !t.reads_like_a_lookup();
            (t.suggests_sensitive_output(), unlike, t.required.len())
        })
        .ok_or(SkipReason::NoSafeToolWithRequiredArgument)?;
    Ok(Choice {
        tool: tool.name.clone(),
        arguments: Value::Object(Map::new()),
        why: format!(
            "{}; requires {}, which is left out",
            pool.why(),
            tool.required.join(", ")
        ),
    })
}

fn pick_c(tools: &[ToolInfo], pool: Pool) -> Result<Choice, SkipReason> {
    let fits = |t: &&ToolInfo| {
        pool.admits(t)
            && !t.required.is_empty()
            && t.required.iter().any(|r| id_like(r))
            && t.required
                .iter()
                .all(|r| matches!(t.property_type(r), Some("string") | Some("any")))
    };
    let verbs = ["get", "read", "fetch", "find", "lookup", "show", "describe"];
    let tool = first_best(tools.iter().filter(fits), |t| match pool {
        Pool::DeclaredReadOnly => {
            let n = t.name.to_ascii_lowercase();
            verbs.iter().any(|v| n.contains(v))
        }
        Pool::Proposable => t.reads_like_a_lookup(),
    })
    .ok_or(SkipReason::NoSafeToolWithIdArgument)?;
    let args: Map<String, Value> = tool
        .required
        .iter()
        .map(|r| (r.clone(), Value::String(NONEXISTENT_ID.into())))
        .collect();
    Ok(Choice {
        tool: tool.name.clone(),
        arguments: Value::Object(args),
        why: format!(
            "{}; takes an id-like string ({}), given one that cannot exist",
            pool.why(),
            tool.required.join(", ")
        ),
    })
}

fn pick_d(tools: &[ToolInfo], pool: Pool) -> Result<Choice, SkipReason> {
    let words = ["list", "ping", "status", "info", "health", "version"];
    let tool = first_best(
        tools
            .iter()
            .filter(|t| pool.admits(t) && t.required.is_empty()),
        |t| match pool {
            Pool::DeclaredReadOnly => {
                let n = t.name.to_ascii_lowercase();
                words.iter().any(|w| n.contains(w))
            }
            Pool::Proposable => t.reads_like_a_lookup(),
        },
    )
    .ok_or(SkipReason::NoSafeToolWithoutRequiredArguments)?;
    Ok(Choice {
        tool: tool.name.clone(),
        arguments: Value::Object(Map::new()),
        why: format!("{} and needs no arguments", pool.why()),
    })
}

/// The randomness a probe-A name was made from (see [`unknown_tool_name`]), so a replay of a
/// recorded run names the same tool.
pub(crate) fn random_of_unknown_name(name: &str) -> Option<u64> {
    let hex = name.strip_prefix("mcp_triage_no_such_tool_")?;
    (hex.len() == 12 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u64::from_str_radix(hex, 16).ok())
        .flatten()
}

/// Probe A: a tool name certainly not in the catalogue, from caller-provided randomness.
pub(crate) fn unknown_tool_name(random: u64, tools: &[ToolInfo]) -> String {
    let mut r = random;
    loop {
        let name = format!("mcp_triage_no_such_tool_{:012x}", r & 0xffff_ffff_ffff);
        if !tools.iter().any(|t| t.name == name) {
            return name;
        }
        r = r.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use serde_json::json;

    use super::*;
    use crate::vocabulary::probe::ProbeName as ProbeNameT;

    fn demo() -> Vec<ToolInfo> {
        let list = json!({"tools": [
            {"name": "lead_get", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}, "annotations": {"readOnlyHint": true}},
            {"name": "icp_list", "inputSchema": {"type": "object", "properties": {}}, "annotations": {"readOnlyHint": true}},
            {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}, "annotations": {"readOnlyHint": true}},
            {"name": "lead_delete_all", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}},
            {"name": "write_note", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}}
        ], "nextCursor": "p2"});
        let (tools, cursor) = parse_tools(&list);
        assert_eq!(cursor.as_deref(), Some("p2"));
        tools
    }

    #[test]
    fn name_parts_split_at_separators_camel_case_and_digits() {
        assert_eq!(name_parts("sendEmail2user"), ["send", "email", "user"]);
        assert_eq!(
            name_parts("crm.sync/v2-now_x"),
            ["crm", "sync", "v", "now", "x"]
        );
        assert_eq!(name_parts("HTTPGet"), ["httpget"]);
        assert_eq!(name_parts("lead_get"), ["lead", "get"]);
    }

    fn unannotated(list: Value) -> Vec<ToolInfo> {
        parse_tools(&json!({ "tools": list })).0
    }

    #[test]
    fn proposals_never_take_a_write_word_or_an_explicit_destructive_or_not_read_only_tool() {
        // Every one of these fits B, C or D by schema better than anything else would.
        let tools = unannotated(json!([
            {"name": "delete_record", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
            {"name": "updateProfile", "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string"}}, "required": ["user_id"]}},
            {"name": "send-email", "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]}},
            {"name": "sync2crm", "inputSchema": {"type": "object"}},
            {"name": "runJob", "inputSchema": {"type": "object"}},
            {"name": "lead_get", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}, "annotations": {"destructiveHint": true}},
            {"name": "icp_list", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": false}}
        ]));
        for p in [ProbeNameT::B, ProbeNameT::C, ProbeNameT::D] {
            assert_eq!(propose(p, &tools), None, "{p:?}");
        }
    }

    #[test]
    fn proposals_prefer_lookup_names_among_unannotated_tools() {
        let tools = unannotated(json!([
            {"name": "lead_note", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
            {"name": "lead_get", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
            {"name": "crm_sync", "inputSchema": {"type": "object"}},
            {"name": "icp", "inputSchema": {"type": "object"}},
            {"name": "icp_list", "inputSchema": {"type": "object"}}
        ]));
        assert_eq!(propose(ProbeNameT::B, &tools).unwrap().tool, "lead_get");
        let c = propose(ProbeNameT::C, &tools).unwrap();
        assert_eq!(c.tool, "lead_get");
        assert_eq!(c.arguments, json!({"id": NONEXISTENT_ID}));
        assert_eq!(propose(ProbeNameT::D, &tools).unwrap().tool, "icp_list");
        assert!(
            propose(ProbeNameT::D, &tools)
                .unwrap()
                .why
                .contains("proposed for your OK")
        );
        // Nothing is chosen without asking: these tools are not declared read-only.
        assert!(
            choose_b(&tools).is_err() && choose_c(&tools).is_err() && choose_d(&tools).is_err()
        );
        assert_eq!(propose(ProbeNameT::A, &tools), None);
    }

    #[test]
    fn picks_only_read_only_tools() {
        let tools = demo();
        assert_eq!(choose_b(&tools).unwrap().tool, "lead_get");
        let c = choose_c(&tools).unwrap();
        assert_eq!(c.tool, "lead_get");
        assert_eq!(c.arguments, json!({"id": NONEXISTENT_ID}));
        assert_eq!(choose_d(&tools).unwrap().tool, "icp_list");
        assert_eq!(tools[3].risk(), ToolRisk::Destructive);
        assert_eq!(tools[4].risk(), ToolRisk::MayHaveSideEffects);
    }

    #[test]
    fn nothing_safe_means_skipped_with_reasons() {
        let tools: Vec<ToolInfo> = demo().into_iter().filter(|t| !t.is_safe()).collect();
        assert_eq!(
            choose_b(&tools),
            Err(SkipReason::NoSafeToolWithRequiredArgument)
        );
        assert_eq!(choose_c(&tools), Err(SkipReason::NoSafeToolWithIdArgument));
        assert_eq!(
            choose_d(&tools),
            Err(SkipReason::NoSafeToolWithoutRequiredArguments)
        );
    }

    #[test]
    fn probes_avoid_tools_whose_output_looks_sensitive_when_another_exists() {
        // The reference server's read-only tools without arguments, in its catalogue order.
        let list = json!({"tools": [
            {"name": "get-env", "description": "Returns all environment variables, helpful for debugging MCP server configuration", "inputSchema": {"type": "object", "properties": {}}, "annotations": {"readOnlyHint": true}},
            {"name": "getApiKey", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}, "annotations": {"readOnlyHint": true}},
            {"name": "get-tiny-image", "description": "Returns a tiny MCP logo image.", "inputSchema": {"type": "object", "properties": {}}, "annotations": {"readOnlyHint": true}},
            {"name": "echo", "description": "Echoes back the input string", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}, "annotations": {"readOnlyHint": true}},
            {"name": "keyboard_layout", "inputSchema": {"type": "object", "properties": {}}, "annotations": {"readOnlyHint": true}}
        ]});
        let (tools, _) = parse_tools(&list);
        assert!(tools[0].suggests_sensitive_output() && tools[1].suggests_sensitive_output());
        assert!(
            !tools[2].suggests_sensitive_output() && !tools[4].suggests_sensitive_output(),
            "a word, not a substring"
        );
        assert_eq!(choose_d(&tools).unwrap().tool, "get-tiny-image");
        assert_eq!(choose_b(&tools).unwrap().tool, "echo");
        // When the only candidate looks sensitive it is still the candidate (Review first shows why).
        assert_eq!(choose_c(&tools).unwrap().tool, "getApiKey");
        assert_eq!(choose_d(&tools[..1]).unwrap().tool, "get-env");
    }

    #[test]
    fn a_tool_name_over_128_characters_is_never_picked() {
        let long = "get_".to_string() + &"x".repeat(200);
        let list = json!({"tools": [
            {"name": long, "inputSchema": {"type": "object", "properties": {}}, "annotations": {"readOnlyHint": true}}
        ]});
        let (tools, _) = parse_tools(&list);
        assert_eq!(
            choose_d(&tools),
            Err(SkipReason::NoSafeToolWithoutRequiredArguments)
        );
    }

    #[test]
    fn unknown_name_avoids_the_catalogue() {
        let mut tools = demo();
        let first = unknown_tool_name(7, &tools);
        assert!(first.starts_with("mcp_triage_no_such_tool_"));
        tools[0].name = first.clone();
        assert_ne!(unknown_tool_name(7, &tools), first);
    }
}
