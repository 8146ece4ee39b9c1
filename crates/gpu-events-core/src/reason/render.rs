//! Renderings of the catalogue derived from the tables: JSON listing and `docs/reasons.md`.

use std::fmt::Write;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::{Group, Reason, ReasonInfo, Source};

impl Serialize for ReasonInfo {
    /// The JSON shape of `gpu-events reasons -o json` (camelCase, like Kubernetes).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("ReasonInfo", 14)?;
        s.serialize_field("reason", self.wire)?;
        s.serialize_field("id", self.id)?;
        s.serialize_field("family", &self.family_affixes().is_some())?;
        s.serialize_field("types", self.types)?;
        s.serialize_field("objects", self.objects)?;
        s.serialize_field("group", &self.group)?;
        s.serialize_field("source", &self.source)?;
        s.serialize_field("reportingControllers", self.reporting_controllers)?;
        s.serialize_field("actions", self.actions)?;
        s.serialize_field("noteFormats", self.note_formats)?;
        s.serialize_field("retired", &self.retired)?;
        s.serialize_field("detailsKinds", self.grammar.map_or(&[][..], |g| g.kinds))?;
        s.serialize_field("meaning", self.meaning)?;
        s.serialize_field("reference", self.reference)?;
        s.end()
    }
}

/// The whole catalogue as a JSON array, one object per entry (the output of
/// `gpu-events reasons -o json`): `reason`, `id`, `family`, `types`, `objects`, `group`,
/// `source`, `reportingControllers`, `actions`, `noteFormats`, `retired`, `detailsKinds` (the
/// `details.kind` values of its grammar), `meaning`, `reference`.
pub fn catalogue_json() -> serde_json::Value {
    let infos: Vec<&ReasonInfo> = Reason::all().iter().map(|r| r.info()).collect();
    serde_json::to_value(infos).expect("catalogue entries are plain strings and booleans")
}

/// The catalogue as Markdown: the content of `docs/reasons.md`, one table per source.
pub fn catalogue_markdown() -> String {
    let mut out = String::new();
    let all = Reason::all();
    let _ = writeln!(out, "# Event reason catalogue\n");
    let _ = writeln!(
        out,
        "Generated from the reason tables in `crates/gpu-events-core/src/reason/` by \
         `gpu-events reasons -o markdown`; a test keeps it current. {} entries ({} retired).\n",
        all.len(),
        all.iter().filter(|r| r.info().retired).count()
    );
    let _ = writeln!(
        out,
        "A wire string shared by several sources is resolved by the reporting controller; a \
         pattern such as `OutOf<resource>` is a family of reasons. Types in *italics* mean the \
         reason is retired (only older releases emit it).\n"
    );
    let _ = writeln!(out, "## Groups\n\n| group | covers |\n|---|---|");
    for group in Group::ALL {
        let _ = writeln!(out, "| `{}` | {} |", group.as_str(), cell(group.description()));
    }
    for &source in Source::ALL {
        let rows: Vec<&ReasonInfo> = all.iter().map(|r| r.info()).filter(|i| i.source == source).collect();
        let _ = writeln!(out, "\n## {} ({} reasons)\n", source.as_str(), rows.len());
        let _ = writeln!(
            out,
            "| reason | type | objects | group | reporting controllers | actions | details | meaning | reference |\n\
             |---|---|---|---|---|---|---|---|---|"
        );
        for info in rows {
            let types = info.types.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ");
            let types = if info.retired { format!("*{types} (retired)*") } else { types };
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | `{}` | {} | {} | {} | {} | {} |",
                info.wire,
                types,
                info.objects.join(", "),
                info.group.as_str(),
                code_list(info.reporting_controllers),
                code_list(info.actions),
                code_list(info.grammar.map_or(&[][..], |g| g.kinds)),
                cell(info.meaning),
                cell(info.reference),
            );
        }
    }
    out
}

fn code_list(items: &[&str]) -> String {
    if items.is_empty() {
        return "—".to_owned();
    }
    items.iter().map(|i| format!("`{}`", cell(i))).collect::<Vec<_>>().join(", ")
}

/// Markdown table cells cannot hold `|` or line breaks.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}
