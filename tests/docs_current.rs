//! Generated and copied files must match their sources.

use std::path::Path;

/// `docs/reasons.md` is generated from the reason tables.
#[test]
fn docs_reasons_md_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reasons.md");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let generated = gpu_events::core::reason::catalogue_markdown();
    assert!(
        committed == generated,
        "docs/reasons.md is stale; regenerate it with:\n  cargo run -p gpu-events-cli -- reasons -o markdown > docs/reasons.md"
    );
}

/// `tests/fixtures/` copies `../shared/`; when the reference pack is present, they must agree.
#[test]
fn fixtures_match_the_reference_pack_when_present() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared");
    if !shared.is_dir() {
        return; // A clone without the reference pack tests against the copies alone.
    }
    for (dir, copy) in [("spec", "tests/fixtures/spec"), ("cases", "tests/fixtures/cases")] {
        for entry in std::fs::read_dir(shared.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap();
            let copied = std::fs::read(root.join(copy).join(name)).unwrap_or_default();
            assert!(
                copied == std::fs::read(&path).unwrap(),
                "tests/fixtures/{dir}/{} differs from ../shared/{dir}; refresh the copy",
                name.to_string_lossy()
            );
        }
    }
}

/// The links of a Markdown text that rustdoc would resolve against the docs' own URL (relative paths), outside
/// code blocks: inline `[text](target)` and reference definitions `[label]: target`.
fn relative_links(markdown: &str) -> Vec<String> {
    let absolute = |url: &str| url.starts_with("https://") || url.starts_with("http://") || url.starts_with('#');
    let mut found = Vec::new();
    let mut in_code = false;
    for (number, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let target = &rest[at + 2..];
            let end = target.find(')').unwrap_or(target.len());
            let url = target[..end].split_whitespace().next().unwrap_or_default();
            if !absolute(url) {
                found.push(format!("line {}: {url}", number + 1));
            }
            rest = &target[end..];
        }
        if let Some(definition) = line.trim_start().strip_prefix('[')
            && let Some((_, url)) = definition.split_once("]: ")
            && !absolute(url.trim())
        {
            found.push(format!("line {}: {}", number + 1, url.trim()));
        }
    }
    found
}

/// The facade's rustdoc is README.md (`#![doc = include_str!("../README.md")]`), so its links must work on docs.rs
/// as on GitHub: absolute URLs or anchors, never repository paths.
#[test]
fn readme_links_work_in_rustdoc_and_on_github() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let relative = relative_links(&readme);
    assert!(relative.is_empty(), "README.md links that break in the facade's rustdoc: {relative:#?}");
    // The reader finds what it must.
    let sample = "See [docs](docs/reasons.md), [site](https://x.io/a) and [top](#library).\n[ref]: crates/x/README.md\n```\nlet a = [b](c);\n```\n";
    assert_eq!(relative_links(sample), ["line 1: docs/reasons.md", "line 2: crates/x/README.md"]);
}
