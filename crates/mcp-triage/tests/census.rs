//! The census format: the committed schema is the code's, and a line for every way a target can
//! end validates in shape (the CLI's census test writes real lines for `scripts/verdict-schema.mjs`).

// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_triage::census::census_schema;

#[test]
fn the_committed_census_schema_is_the_one_the_code_makes() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/mcp-triage-census-1.schema.json");
    let made = serde_json::to_string_pretty(&census_schema()).unwrap() + "\n";
    if std::env::var_os("MCP_TRIAGE_WRITE_SCHEMA").is_some() {
        std::fs::write(&path, &made).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == made,
        "{} differs from census_schema(): rewrite it with MCP_TRIAGE_WRITE_SCHEMA=1 cargo test -p mcp-triage --test census",
        path.display()
    );
}
