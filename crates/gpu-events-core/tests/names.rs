//! One name, one type: no two public types of the same name anywhere in the workspace (a user
//! importing `EventType` or `ScaleDirection` from two crates must get the same type). Re-exports
//! (`pub use`) are fine; a second `pub struct`/`pub enum`/`pub type`/`pub trait` is not.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_two_public_types_share_a_name() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    for krate in std::fs::read_dir(crates).unwrap().flatten() {
        let src = krate.path().join("src");
        if src.is_dir() {
            sources(&src, &mut files);
        }
    }
    assert!(files.len() > 50, "the workspace's sources were found: {}", files.len());
    let mut declared: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for line in text.lines() {
            let line = line.trim_start();
            for item in ["pub struct ", "pub enum ", "pub type ", "pub trait "] {
                if let Some(rest) = line.strip_prefix(item) {
                    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    // Macro-made items (`pub enum $name`) are checked where the macro is used.
                    if !name.is_empty() {
                        declared.entry(name).or_default().push(file.display().to_string());
                    }
                }
            }
        }
    }
    let twice: Vec<_> = declared.iter().filter(|(_, files)| files.len() > 1).collect();
    assert!(twice.is_empty(), "public types declared twice: {twice:#?}");
    assert!(declared.contains_key("EventType") && declared.contains_key("ScaleDirection"));
}
