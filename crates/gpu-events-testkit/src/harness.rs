//! Finding or building the Go harness (`harness/` beside this crate's manifest): built once with `go build`,
//! cached under the target directory keyed by a hash of its sources, so a changed `go.mod`, `go.sum` or `.go` file
//! builds a new binary and an unchanged one is reused.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::real::RealError;

/// The harness sources, in the repository.
const SOURCE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/harness");

/// Set to a harness binary to use it as is (no Go needed, nothing built).
pub const HARNESS_ENV: &str = "GPU_EVENTS_HARNESS";

/// The Go command (default `go` on `PATH`).
const GO_ENV: &str = "GO";

/// The harness binary: `$GPU_EVENTS_HARNESS` when set, else the cached build for the current sources, building it
/// first if there is none. Concurrent callers (parallel test binaries) wait for one build under a file lock.
pub fn harness_binary() -> Result<PathBuf, RealError> {
    if let Some(path) = std::env::var_os(HARNESS_ENV) {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(RealError::Io {
                path,
                source: std::io::Error::new(std::io::ErrorKind::NotFound, format!("{HARNESS_ENV} names no file")),
            })
        };
    }
    let source = Path::new(SOURCE_DIR);
    let key = source_hash(source)?;
    let cache = target_dir().join("gpu-events-harness");
    let binary = cache.join(format!("{key:016x}")).join("harness");
    if binary.is_file() {
        return Ok(binary);
    }
    std::fs::create_dir_all(binary.parent().expect("the binary path has a parent")).map_err(io_at(&cache))?;
    let lock_path = cache.join("build.lock");
    let lock = File::create(&lock_path).map_err(io_at(&lock_path))?;
    lock.lock().map_err(io_at(&lock_path))?;
    if !binary.is_file() {
        build(source, &binary)?;
    }
    Ok(binary)
}

/// `go build -o BINARY.tmp .` in `source`, then an atomic rename to `binary`.
fn build(source: &Path, binary: &Path) -> Result<(), RealError> {
    let go = std::env::var(GO_ENV).unwrap_or_else(|_| "go".to_string());
    let partial = binary.with_extension("tmp");
    let output = Command::new(&go)
        .args(["build", "-o"])
        .arg(&partial)
        .arg(".")
        .current_dir(source)
        .output()
        .map_err(|source| RealError::GoMissing { go: go.clone(), source })?;
    if !output.status.success() {
        return Err(RealError::Build {
            dir: source.to_path_buf(),
            status: output.status.to_string(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    std::fs::rename(&partial, binary).map_err(io_at(binary))
}

/// FNV-1a over the name and content of `go.mod`, `go.sum` and every `.go` file, in name order: stable across
/// Rust versions (unlike `DefaultHasher`), and enough to key a cache.
fn source_hash(dir: &Path) -> Result<u64, RealError> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(io_at(dir))?
        .filter_map(|entry| entry.ok().and_then(|e| e.file_name().into_string().ok()))
        .filter(|name| name == "go.mod" || name == "go.sum" || name.ends_with(".go"))
        .collect();
    names.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for name in names {
        let path = dir.join(&name);
        let content = std::fs::read(&path).map_err(io_at(&path))?;
        for byte in name.bytes().chain([0]).chain(content).chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    Ok(hash)
}

/// `$CARGO_TARGET_DIR` (at run time, else as built), else the workspace's `target/` when this crate is built from
/// the repository, else (a dependency from crates.io, whose sources are read-only in cargo's registry) a directory
/// under the system's temporary directory.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| option_env!("CARGO_TARGET_DIR").map(PathBuf::from))
        .unwrap_or_else(|| default_target_dir(Path::new(env!("CARGO_MANIFEST_DIR"))))
}

/// `target/` of the workspace two levels above `manifest_dir` when there is one (its `Cargo.lock`), else
/// `$TMPDIR/gpu-events-testkit`.
fn default_target_dir(manifest_dir: &Path) -> PathBuf {
    let workspace = manifest_dir.join("../..");
    if workspace.join("Cargo.lock").is_file() && workspace.join("crates/gpu-events-testkit").is_dir() {
        workspace.join("target")
    } else {
        std::env::temp_dir().join("gpu-events-testkit")
    }
}

fn io_at(path: &Path) -> impl FnOnce(std::io::Error) -> RealError + '_ {
    move |source| RealError::Io { path: path.to_path_buf(), source }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_go_under_the_workspace_target_or_a_temporary_directory_when_a_dependency() {
        let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(default_target_dir(repository), repository.join("../../target"));
        // As cargo unpacks a registry dependency: `~/.cargo/registry/src/<index>/gpu-events-testkit-0.1.0`.
        let registry = std::env::temp_dir().join(format!("gpu-events-registry-{}", std::process::id()));
        let unpacked = registry.join("src/index.crates.io-0000/gpu-events-testkit-0.1.0");
        std::fs::create_dir_all(&unpacked).unwrap();
        assert_eq!(default_target_dir(&unpacked), std::env::temp_dir().join("gpu-events-testkit"));
        std::fs::remove_dir_all(&registry).unwrap();
    }

    #[test]
    fn the_source_hash_changes_with_any_go_file_and_ignores_others() {
        let dir = std::env::temp_dir().join(format!("gpu-events-harness-hash-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("go.mod"), "module x\n").unwrap();
        std::fs::write(dir.join("main.go"), "package main\n").unwrap();
        let first = source_hash(&dir).unwrap();
        std::fs::write(dir.join("README.md"), "notes").unwrap();
        assert_eq!(source_hash(&dir).unwrap(), first, "a README is not a source");
        std::fs::write(dir.join("main.go"), "package main // changed\n").unwrap();
        let changed = source_hash(&dir).unwrap();
        assert_ne!(changed, first);
        std::fs::write(dir.join("go.sum"), "x v1 h1:abc\n").unwrap();
        assert_ne!(source_hash(&dir).unwrap(), changed);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
