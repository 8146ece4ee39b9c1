//! JSON Lines to standard output, or to a file rotated by size (`PATH`, `PATH.1` … `PATH.N`).

use std::path::PathBuf;

use tokio::fs::{File, OpenOptions};
use tokio::io::AsyncWriteExt;

use super::{Failure, Line, SinkError, Write};

/// Standard output, one JSON object per line.
pub(crate) struct Stdout;

impl Write for Stdout {
    async fn write(&mut self, batch: &[Line]) -> Result<(), Failure> {
        let mut out = tokio::io::stdout();
        for line in batch {
            out.write_all(line.json.as_bytes()).await.map_err(|e| e.to_string())?;
            out.write_all(b"\n").await.map_err(|e| e.to_string())?;
        }
        Ok(out.flush().await.map_err(|e| e.to_string())?)
    }
}

/// A JSON Lines file, appended to, rotated when it reaches `rotate_bytes`.
pub struct FileSink {
    path: PathBuf,
    file: File,
    size: u64,
    rotate_bytes: u64,
    keep: usize,
}

impl FileSink {
    /// Opens (creates or appends to) `path`.
    ///
    /// # Errors
    /// [`SinkError::File`] when it cannot be opened.
    pub async fn open(path: PathBuf, rotate_bytes: u64, keep: usize) -> Result<FileSink, SinkError> {
        let file = Self::append(&path).await?;
        let size = file.metadata().await.map(|m| m.len()).unwrap_or(0);
        Ok(FileSink { path, file, size, rotate_bytes: rotate_bytes.max(1), keep })
    }

    async fn append(path: &PathBuf) -> Result<File, SinkError> {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .await
            .map_err(|source| SinkError::File { path: path.display().to_string(), source })
    }

    fn rotated(&self, n: usize) -> PathBuf {
        let mut name = self.path.as_os_str().to_owned();
        name.push(format!(".{n}"));
        PathBuf::from(name)
    }

    /// `PATH.N-1` -> `PATH.N`, …, `PATH` -> `PATH.1`, then a fresh `PATH`.
    async fn rotate(&mut self) -> Result<(), String> {
        self.file.sync_all().await.map_err(|e| e.to_string())?;
        if self.keep == 0 {
            tokio::fs::remove_file(&self.path).await.map_err(|e| e.to_string())?;
        } else {
            for n in (1..self.keep).rev() {
                let from = self.rotated(n);
                if tokio::fs::try_exists(&from).await.unwrap_or(false) {
                    tokio::fs::rename(&from, self.rotated(n + 1)).await.map_err(|e| e.to_string())?;
                }
            }
            tokio::fs::rename(&self.path, self.rotated(1)).await.map_err(|e| e.to_string())?;
        }
        self.file = Self::append(&self.path).await.map_err(|e| e.to_string())?;
        self.size = 0;
        Ok(())
    }
}

impl Write for FileSink {
    async fn write(&mut self, batch: &[Line]) -> Result<(), Failure> {
        let mut buffer = Vec::with_capacity(batch.iter().map(|l| l.json.len() + 1).sum());
        for line in batch {
            buffer.extend_from_slice(line.json.as_bytes());
            buffer.push(b'\n');
        }
        if self.size > 0 && self.size + buffer.len() as u64 > self.rotate_bytes {
            self.rotate().await?;
        }
        self.file.write_all(&buffer).await.map_err(|e| e.to_string())?;
        self.file.flush().await.map_err(|e| e.to_string())?;
        self.size += buffer.len() as u64;
        Ok(())
    }

    async fn sync(&mut self) -> Result<(), String> {
        self.file.sync_data().await.map_err(|e| e.to_string())
    }
}
