//! Uploaded files: bytes on disk under the data folder, an index row in SQLite, and loading
//! them back for a `files` answer (only the owner's, never a deleted one). The index rows are
//! in `store`.

mod store;

use std::path::{Path, PathBuf};

use crate::db::Pool;
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;

use crate::db::new_id;
use crate::error::{AppError, AppResult};

/// Uploads as the API takes them (a substate of the app's state): the index, where the bytes
/// are kept (`None` when file storage is off) and the per-file cap.
#[derive(Clone)]
pub struct Uploads {
    pub pool: Pool,
    pub files: Option<FileStore>,
    pub max_file_size_bytes: u64,
}

/// Where uploads are kept.
#[derive(Clone, Debug)]
pub struct FileStore {
    dir: PathBuf,
}

/// An upload as the API returns it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadedFile {
    pub id: String,
    pub filename: String,
    pub mime_type: String,
    pub size: u64,
}

/// An upload being written: bytes go to a temporary file until `finish`.
pub struct UploadWriter {
    id: String,
    path: PathBuf,
    file: tokio::fs::File,
    hasher: Sha256,
    size: u64,
    cap: u64,
}

fn io_error(err: std::io::Error) -> AppError {
    tracing::error!(%err, "file storage failed");
    AppError::Internal
}

impl FileStore {
    pub fn new(data_dir: &Path) -> Self {
        Self { dir: data_dir.join("uploads") }
    }

    fn path(&self, id: &str) -> PathBuf {
        self.dir.join(id)
    }

    /// Starts an upload capped at `cap` bytes.
    pub async fn begin(&self, cap: u64) -> AppResult<UploadWriter> {
        tokio::fs::create_dir_all(&self.dir).await.map_err(io_error)?;
        let id = new_id();
        let path = self.dir.join(format!("{id}.part"));
        let file = tokio::fs::File::create(&path).await.map_err(io_error)?;
        Ok(UploadWriter { id, path, file, hasher: Sha256::new(), size: 0, cap })
    }

    /// Removes what uploads cut off by a killed process left (`*.part`); how many it removed.
    /// Run at start, before any upload (one instance per data folder).
    pub async fn remove_leftovers(&self) -> std::io::Result<usize> {
        let mut entries = match tokio::fs::read_dir(&self.dir).await {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(err) => return Err(err),
        };
        let mut removed = 0;
        while let Some(entry) = entries.next_entry().await? {
            if entry.file_name().to_string_lossy().ends_with(".part") {
                tokio::fs::remove_file(entry.path()).await?;
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// The bytes of `file_id` if it is an upload of `owner_id` that is not deleted.
    pub async fn load_owned(&self, pool: &Pool, owner_id: &str, file_id: &str) -> AppResult<Option<Vec<u8>>> {
        let Some(id) = store::owned_file_id(pool, owner_id, file_id).await? else { return Ok(None) };
        match tokio::fs::read(self.path(&id)).await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(err) => {
                tracing::warn!(%err, file = id, "an upload's bytes could not be read");
                Ok(None)
            }
        }
    }
}

impl UploadWriter {
    /// Appends a chunk; fails once the cap is passed (then abandon the upload).
    pub async fn write(&mut self, chunk: &[u8]) -> Result<(), UploadError> {
        self.size += chunk.len() as u64;
        if self.size > self.cap {
            return Err(UploadError::TooLarge { size: self.size, cap: self.cap });
        }
        self.hasher.update(chunk);
        self.file.write_all(chunk).await.map_err(|err| UploadError::Storage(io_error(err)))
    }

    /// Stores the finished upload and its index row.
    pub async fn finish(
        mut self,
        store: &FileStore,
        pool: &Pool,
        owner_id: &str,
        filename: &str,
        mime_type: &str,
    ) -> AppResult<UploadedFile> {
        self.file.flush().await.map_err(io_error)?;
        drop(self.file);
        let sha256: String = self.hasher.finalize().iter().map(|byte| format!("{byte:02x}")).collect();
        tokio::fs::rename(&self.path, store.path(&self.id)).await.map_err(io_error)?;
        let row = store::FileRow { id: &self.id, owner_id, filename, mime_type, size: self.size, sha256: &sha256 };
        store::insert_file(pool, &row).await?;
        Ok(UploadedFile {
            id: self.id,
            filename: filename.to_string(),
            mime_type: mime_type.to_string(),
            size: self.size,
        })
    }

    /// Removes the partial file of an abandoned upload.
    pub async fn abandon(self) {
        drop(self.file);
        let _ = tokio::fs::remove_file(&self.path).await;
    }
}

#[derive(Debug)]
pub enum UploadError {
    /// The upload passed the cap after `size` bytes.
    TooLarge {
        size: u64,
        cap: u64,
    },
    Storage(AppError),
}

/// A MIME type without parameters, lower-cased; a generic one is guessed from the extension.
pub fn upload_mime_type(declared: Option<&str>, filename: &str) -> String {
    let declared = declared.unwrap_or_default().split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    if !declared.is_empty() && declared != "application/octet-stream" {
        return declared;
    }
    let extension = filename.rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
    match extension.as_str() {
        "jpg" | "jpeg" => "image/jpeg",
        "png" => "image/png",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "txt" | "md" => "text/plain",
        "csv" => "text/csv",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_upload_cut_off_leaves_nothing_after_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path());
        assert_eq!(store.remove_leftovers().await.unwrap(), 0, "no uploads folder yet");
        let cut_off = store.begin(100).await.unwrap();
        let partial = cut_off.path.clone();
        std::mem::forget(cut_off); // the process died mid-upload
        tokio::fs::write(store.path("kept"), b"a finished upload").await.unwrap();
        assert_eq!(store.remove_leftovers().await.unwrap(), 1);
        assert!(!partial.exists());
        assert!(store.path("kept").exists(), "finished uploads stay");
    }
}
