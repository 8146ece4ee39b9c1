//! The persisted position (`--state PATH`): the last resourceVersion of each watch stream and
//! the watermarks of exported events, so a restart neither replays nor skips. Written atomically
//! (a temporary file, fsync, rename), read back on start.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::dedupe::{EventId, Mark};

/// The format version written; a file of another version is refused with a clear error.
pub const FORMAT_VERSION: u32 = 1;

/// What a checkpoint holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Checkpoint {
    /// [`FORMAT_VERSION`].
    pub version: u32,
    /// When it was written.
    pub saved_at: Option<DateTime<Utc>>,
    /// The last resourceVersion seen by each stream, keyed by stream (`events.k8s.io/v1 ml`, ...).
    pub resource_versions: BTreeMap<String, String>,
    /// Exported events: id, count, export time, last observation.
    pub marks: Vec<(EventId, Mark)>,
}

/// Why a checkpoint could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// Reading or writing the file failed.
    #[error("state file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a checkpoint of this format.
    #[error(
        "state file {path} is not a gpu-events checkpoint (version {FORMAT_VERSION}): {problem}; move it away to start afresh"
    )]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
}

impl Checkpoint {
    /// Reads `path`; `Ok(None)` when it does not exist (a first start).
    ///
    /// # Errors
    /// [`CheckpointError`] when it cannot be read or is not a checkpoint of this version.
    pub fn load(path: &Path) -> Result<Option<Checkpoint>, CheckpointError> {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(CheckpointError::Io { path: path.to_owned(), source }),
        };
        let format = |problem: String| CheckpointError::Format { path: path.to_owned(), problem };
        let checkpoint: Checkpoint = serde_json::from_slice(&bytes).map_err(|e| format(e.to_string()))?;
        if checkpoint.version != FORMAT_VERSION {
            return Err(format(format!("version {}", checkpoint.version)));
        }
        Ok(Some(checkpoint))
    }

    /// Writes to `path` atomically: a reader (or a crash) sees the old file or the new one.
    ///
    /// # Errors
    /// [`CheckpointError::Io`] when the directory is not writable or the disk is full.
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let mut temp = path.as_os_str().to_owned();
        temp.push(".tmp");
        let temp = PathBuf::from(temp);
        let io = |source| CheckpointError::Io { path: temp.clone(), source };
        let file = std::fs::File::create(&temp).map_err(io)?;
        // Streamed: no buffer the size of the whole state (it grows with the live events).
        let mut writer = std::io::BufWriter::new(file);
        serde_json::to_writer(&mut writer, self).map_err(|e| io(std::io::Error::other(e)))?;
        let file = writer.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
        drop(file);
        std::fs::rename(&temp, path).map_err(io)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_and_loads_atomically_and_refuses_other_files() {
        let dir = std::env::temp_dir().join(format!("gpu-events-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.json");
        assert!(Checkpoint::load(&path).unwrap().is_none());
        let now: DateTime<Utc> = "2026-12-01T10:00:00Z".parse().unwrap();
        let checkpoint = Checkpoint {
            version: FORMAT_VERSION,
            saved_at: Some(now),
            resource_versions: BTreeMap::from([("events.k8s.io/v1 *".to_owned(), "42".to_owned())]),
            marks: vec![(
                EventId::from_uid("00000000-0000-0000-0000-00000000002a"),
                Mark { count: 3, exported_at: now, last_seen: Some(now) },
            )],
        };
        checkpoint.save(&path).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap(), Some(checkpoint));
        assert!(!dir.join("state.json.tmp").exists());

        std::fs::write(&path, b"{\"version\": 7}").unwrap();
        let err = Checkpoint::load(&path).unwrap_err();
        assert!(err.to_string().contains("move it away"), "{err}");
        std::fs::write(&path, b"not json").unwrap();
        assert!(matches!(Checkpoint::load(&path), Err(CheckpointError::Format { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
