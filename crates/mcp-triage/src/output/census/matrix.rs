//! The ecosystem matrix (`docs/ecosystem.md` and its picture): one row per SDK configuration, the
//! probes and checks as columns, each cell what the classifier said (channel · cause · what decided
//! · spec verdict); drawn by the census's renderer as a Markdown table and an SVG grid whose colour
//! is the channel and whose mark says whether structure or text decided.

use serde::Deserialize;

use crate::judge::spec::Conformance;
use crate::output::export::{md_cell, md_text};
use crate::output::junit::xml_text;
use crate::vocabulary::cause::{Cause, Channel, DecidedBy};

/// The columns: a key the rows' cells use, and its heading.
pub const MATRIX_COLUMNS: [(&str, &str); 6] = [
    ("A", "A · unknown tool"),
    ("B", "B · bad arguments"),
    ("C", "C · the tool throws"),
    ("D", "D · success"),
    ("no_token", "no token"),
    ("get", "GET"),
];

/// One cell: the verdict's fields the matrix shows (a verdict's JSON reads into it).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct MatrixCell {
    /// How the answer arrived.
    pub channel: Channel,
    /// Its cause.
    pub cause: Cause,
    /// What decided.
    pub decided_by: DecidedBy,
    /// The spec verdict, when judged.
    #[serde(default)]
    pub spec: Option<SpecCell>,
}

/// The spec verdict of a cell.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SpecCell {
    /// Conforms, deviates, or does not apply.
    pub conformance: Conformance,
}

/// One SDK configuration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct MatrixRow {
    /// Its name (`ts-1.29.0`, `fastmcp-4.2.3-auth`).
    pub name: String,
    /// A live peer the tests start (else a synthetic capture from the SDK's source).
    #[serde(default)]
    pub live: bool,
    /// The protocol version it ran at.
    pub version: String,
    /// Its cells by column key; a column it has no answer for is absent.
    #[serde(default)]
    pub cells: std::collections::BTreeMap<String, MatrixCell>,
}

impl MatrixCell {
    fn text(&self) -> String {
        let mut parts = vec![
            self.channel.as_str(),
            self.cause.as_str(),
            self.decided_by.as_str(),
        ];
        if let Some(s) = &self.spec {
            parts.push(s.conformance.as_str());
        }
        parts.join(" · ")
    }
}

/// Reads the rows (a JSON array), with a clear message when they are not rows.
pub fn read_rows(text: &str) -> Result<Vec<MatrixRow>, String> {
    serde_json::from_str(text).map_err(|e| format!("not matrix rows: {e}"))
}

fn name(row: &MatrixRow) -> String {
    if row.live {
        format!("{} ●", row.name)
    } else {
        row.name.clone()
    }
}

/// The Markdown table: a row per configuration, a column per probe or check.
pub fn matrix_markdown(rows: &[MatrixRow]) -> String {
    let mut out = String::from("| SDK configuration | version |");
    for (_, heading) in MATRIX_COLUMNS {
        out.push_str(&format!(" {heading} |"));
    }
    out.push_str("\n|---|---|");
    out.push_str(&"---|".repeat(MATRIX_COLUMNS.len()));
    out.push('\n');
    for row in rows {
        out.push_str(&format!(
            "| {} | {} |",
            md_text(&name(row)),
            md_text(&row.version)
        ));
        for (key, _) in MATRIX_COLUMNS {
            let cell = row.cells.get(key).map(MatrixCell::text).unwrap_or_default();
            out.push_str(&format!(" {} |", md_cell(&cell)));
        }
        out.push('\n');
    }
    out
}

/// The channel's colour in the picture.
fn colour(channel: Channel) -> &'static str {
    match channel {
        Channel::Network => "#8a8f98",
        Channel::Http => "#d9822b",
        Channel::JsonrpcError => "#2f6fd6",
        Channel::ToolError => "#c7443b",
        Channel::Success => "#3a9a4c",
        Channel::Malformed => "#7b45c4",
        Channel::Accepted => "#2aa6a6",
        Channel::StreamOpen => "#9ab43a",
    }
}

/// The mark for what decided: S structure, T text, I the probe's intent alone.
fn mark(by: DecidedBy) -> &'static str {
    match by {
        DecidedBy::Structure => "S",
        DecidedBy::Text => "T",
        DecidedBy::Intent => "I",
    }
}

/// The picture: a grid of cells coloured by channel and marked S or T (a cell that deviates from
/// the spec is outlined), with a legend of the channels it uses. Deterministic, for the sync check.
pub fn matrix_svg(rows: &[MatrixRow]) -> String {
    const LABEL_W: usize = 260;
    const CELL_W: usize = 132;
    const CELL_H: usize = 26;
    const HEAD_H: usize = 34;
    let width = LABEL_W + CELL_W * MATRIX_COLUMNS.len() + 8;
    let grid_h = HEAD_H + CELL_H * rows.len();
    let mut used: Vec<Channel> = Vec::new();
    let mut body = String::new();
    for (c, (_, heading)) in MATRIX_COLUMNS.iter().enumerate() {
        body.push_str(&format!(
            "<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-weight=\"600\">{}</text>",
            LABEL_W + c * CELL_W + CELL_W / 2,
            xml_text(heading, 40)
        ));
    }
    for (r, row) in rows.iter().enumerate() {
        let y = HEAD_H + r * CELL_H;
        body.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{} <tspan fill=\"#6b7280\">{}</tspan></text>",
            LABEL_W - 8,
            y + 17,
            xml_text(&name(row), 60),
            xml_text(&row.version, 20)
        ));
        for (c, (key, _)) in MATRIX_COLUMNS.iter().enumerate() {
            let x = LABEL_W + c * CELL_W;
            let Some(cell) = row.cells.get(*key) else {
                body.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#d0d4da\"/>",
                    x + 2,
                    y + 2,
                    CELL_W - 4,
                    CELL_H - 4
                ));
                continue;
            };
            if !used.contains(&cell.channel) {
                used.push(cell.channel);
            }
            let deviates = cell
                .spec
                .as_ref()
                .is_some_and(|s| s.conformance == Conformance::Deviates);
            body.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{}\"{}><title>{}</title></rect>\
                 <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#fff\" font-weight=\"700\">{}</text>",
                x + 2,
                y + 2,
                CELL_W - 4,
                CELL_H - 4,
                colour(cell.channel),
                if deviates {
                    " stroke=\"#111\" stroke-width=\"2\" stroke-dasharray=\"4 2\""
                } else {
                    ""
                },
                xml_text(&cell.text(), 200),
                x + CELL_W / 2,
                y + 17,
                mark(cell.decided_by)
            ));
        }
    }
    used.sort();
    let mut legend = String::new();
    let legend_y = grid_h + 18;
    let mut x = 8;
    for ch in &used {
        legend.push_str(&format!(
            "<rect x=\"{x}\" y=\"{}\" width=\"14\" height=\"14\" rx=\"2\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>",
            legend_y - 11,
            colour(*ch),
            x + 18,
            legend_y,
            ch.as_str()
        ));
        x += 26 + ch.as_str().len() * 7;
    }
    legend.push_str(&format!(
        "<text x=\"8\" y=\"{}\">S: told by structure · T: only by text · I: only by the probe's intent · dashed outline: deviates from the spec</text>",
        legend_y + 22
    ));
    let height = legend_y + 32;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"system-ui, sans-serif\" font-size=\"12\" role=\"img\" aria-label=\"How each SDK configuration answers the probes\">\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>{body}{legend}</svg>\n"
    )
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn rows_read_from_verdicts_and_draw_as_table_and_grid() {
        let rows = read_rows(
            r#"[{"name":"ts-1.29.0","live":true,"version":"2025-11-25","cells":{
                "A":{"channel":"tool_error","cause":"unknown_tool","decided_by":"text","spec":{"conformance":"deviates"},"extra":1},
                "get":{"channel":"http","cause":"method_not_allowed","decided_by":"structure"}}},
               {"name":"x|<y>","version":"2025-06-18"}]"#,
        )
        .unwrap();
        let md = matrix_markdown(&rows);
        assert!(
            md.contains(
                "| ts-1.29.0 ● | 2025-11-25 | tool_error · unknown_tool · text · deviates |"
            ),
            "{md}"
        );
        assert!(md.contains("| x\\|\\<y\\> |"), "{md}");
        let svg = matrix_svg(&rows);
        assert!(svg.contains("x|&lt;y&gt;") && !svg.contains("<y>"));
        assert!(svg.contains(">T</text>") && svg.contains(">S</text>"));
        assert!(
            svg.contains("stroke-dasharray"),
            "the deviation is outlined"
        );
        assert!(read_rows("{}").unwrap_err().starts_with("not matrix rows"));
    }
}
