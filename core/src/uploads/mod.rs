//! Uploaded files: bytes in an object store (a folder under the data folder by default, or an
//! S3-compatible bucket every instance reaches), an index row in the database, and loading
//! them back for a `files` answer (only the owner's, never a deleted one). The index rows are
//! in `store`.

mod store;

use std::path::Path;
use std::sync::Arc;

use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt, WriteMultipart};
use sha2::{Digest, Sha256};

use crate::db::{Pool, new_id};
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
    objects: Arc<dyn ObjectStore>,
    /// The folder of a local store, for clearing what a killed process left.
    local_dir: Option<std::path::PathBuf>,
}

/// An upload as the API returns it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[derive(utoipa::ToSchema)]
pub struct UploadedFile {
    pub id: String,
    pub filename: String,
    pub mime_type: String,
    pub size: u64,
}

/// An upload being written: its parts go to the store as they fill, and the object appears
/// whole at `finish` (or never, after `abandon`).
pub struct UploadWriter {
    id: String,
    upload: WriteMultipart,
    hasher: Sha256,
    size: u64,
    cap: u64,
}

fn storage_error(err: object_store::Error) -> AppError {
    tracing::error!(%err, "file storage failed");
    AppError::Internal
}

impl FileStore {
    /// Uploads in `<data_dir>/uploads` (which may be a volume several instances share).
    pub fn new(data_dir: &Path) -> Self {
        let dir = data_dir.join("uploads");
        // The store takes an existing folder; a failure here shows at the first upload.
        let _ = std::fs::create_dir_all(&dir);
        let objects: Arc<dyn ObjectStore> = match LocalFileSystem::new_with_prefix(&dir) {
            Ok(local) => Arc::new(local),
            Err(err) => {
                tracing::error!(%err, dir = %dir.display(), "the uploads folder cannot be used");
                Arc::new(LocalFileSystem::new())
            }
        };
        Self { objects, local_dir: Some(dir) }
    }

    /// The store `PALAVER_FILES_URL` names: `s3://<bucket>/<prefix>` (endpoint, region and
    /// credentials from the AWS_* environment variables), or none for the data folder.
    pub fn from_url(url: Option<&str>, data_dir: &Path) -> Result<Self, String> {
        let Some(url) = url.filter(|url| !url.is_empty()) else { return Ok(Self::new(data_dir)) };
        let Some(rest) = url.strip_prefix("s3://") else {
            return Err(format!(
                "PALAVER_FILES_URL must be s3://<bucket>/<prefix> (or unset, for the data folder); `{url}` is not."
            ));
        };
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        crate::outbound::ensure_tls();
        let bucket = AmazonS3Builder::from_env()
            .with_bucket_name(bucket)
            .build()
            .map_err(|err| format!("PALAVER_FILES_URL {url}: {err}"))?;
        let objects: Arc<dyn ObjectStore> = if prefix.trim_matches('/').is_empty() {
            Arc::new(bucket)
        } else {
            Arc::new(object_store::prefix::PrefixStore::new(bucket, prefix.trim_matches('/')))
        };
        Ok(Self { objects, local_dir: None })
    }

    /// The store a test runs on: the data folder, or, when `PALAVER_TEST_S3_URL` names a
    /// bucket (scripts/test.sh starts an S3-compatible server), a fresh prefix in it.
    pub fn scratch(data_dir: &Path) -> Result<Self, String> {
        Self::from_url(scratch_url().as_deref(), data_dir)
    }

    /// Starts an upload capped at `cap` bytes.
    pub async fn begin(&self, cap: u64) -> AppResult<UploadWriter> {
        let id = new_id();
        let upload = self.objects.put_multipart(&ObjectPath::from(id.as_str())).await.map_err(storage_error)?;
        Ok(UploadWriter { id, upload: WriteMultipart::new(upload), hasher: Sha256::new(), size: 0, cap })
    }

    /// Removes what uploads cut off by a killed process left in a local store (the staged
    /// parts, `<id>#<n>`) an hour or more ago; how many it removed. Run at start. The hour
    /// spares the uploads other instances on a shared folder are writing now. A bucket's
    /// unfinished uploads are for its lifecycle rules.
    pub async fn remove_leftovers(&self) -> std::io::Result<usize> {
        self.remove_staged_older_than(std::time::Duration::from_secs(3600)).await
    }

    async fn remove_staged_older_than(&self, age: std::time::Duration) -> std::io::Result<usize> {
        let Some(dir) = &self.local_dir else { return Ok(0) };
        let mut entries = match tokio::fs::read_dir(dir).await {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(err) => return Err(err),
        };
        let mut removed = 0;
        while let Some(entry) = entries.next_entry().await? {
            let modified = entry.metadata().await?.modified()?;
            if entry.file_name().to_string_lossy().contains('#') && modified.elapsed().unwrap_or_default() >= age {
                tokio::fs::remove_file(entry.path()).await?;
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// Removes the bytes of these uploads (their index rows are gone already); a failure is
    /// logged, leaving an orphan object and no reference to it.
    pub async fn remove(&self, ids: &[String]) {
        for id in ids {
            match self.objects.delete(&ObjectPath::from(id.as_str())).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                Err(err) => tracing::warn!(%err, file = id, "an upload's bytes could not be removed"),
            }
        }
    }

    /// The bytes of `file_id` if it is an upload of `owner_id` that is not deleted.
    pub async fn load_owned(&self, pool: &Pool, owner_id: &str, file_id: &str) -> AppResult<Option<Vec<u8>>> {
        Ok(self.load_owned_file(pool, owner_id, file_id).await?.map(|(_, bytes)| bytes))
    }

    /// `file_id` (its name and type) and its bytes, if it is an upload of `owner_id` that is
    /// not deleted.
    pub async fn load_owned_file(
        &self,
        pool: &Pool,
        owner_id: &str,
        file_id: &str,
    ) -> AppResult<Option<(UploadedFile, Vec<u8>)>> {
        let Some((id, filename, mime_type, size)) = store::owned_file(pool, owner_id, file_id).await? else {
            return Ok(None);
        };
        let file = UploadedFile { id, filename, mime_type, size: u64::try_from(size).unwrap_or_default() };
        let read = async { self.objects.get(&ObjectPath::from(file.id.as_str())).await?.bytes().await };
        match read.await {
            Ok(bytes) => Ok(Some((file, bytes.to_vec()))),
            Err(err) => {
                tracing::warn!(%err, file = file.id, "an upload's bytes could not be read");
                Ok(None)
            }
        }
    }
}

/// A fresh prefix in the test bucket `PALAVER_TEST_S3_URL` names, if it names one: what
/// `PALAVER_FILES_URL` is set to for a test's server processes.
pub fn scratch_url() -> Option<String> {
    let bucket = std::env::var("PALAVER_TEST_S3_URL").unwrap_or_default();
    (!bucket.is_empty()).then(|| format!("{}/{}", bucket.trim_end_matches('/'), new_id()))
}

impl UploadWriter {
    /// Appends a chunk; fails once the cap is passed (then abandon the upload).
    pub async fn write(&mut self, chunk: &[u8]) -> Result<(), UploadError> {
        self.size += chunk.len() as u64;
        if self.size > self.cap {
            return Err(UploadError::TooLarge { size: self.size, cap: self.cap });
        }
        self.hasher.update(chunk);
        // At most a few parts in flight, so a fast client cannot fill the memory.
        self.upload.wait_for_capacity(2).await.map_err(|err| UploadError::Storage(storage_error(err)))?;
        self.upload.write(chunk);
        Ok(())
    }

    /// Stores the finished upload and its index row.
    pub async fn finish(
        self,
        files: &FileStore,
        pool: &Pool,
        owner_id: &str,
        filename: &str,
        mime_type: &str,
    ) -> AppResult<UploadedFile> {
        let sha256: String = self.hasher.finalize().iter().map(|byte| format!("{byte:02x}")).collect();
        self.upload.finish().await.map_err(storage_error)?;
        let row = store::FileRow { id: &self.id, owner_id, filename, mime_type, size: self.size, sha256: &sha256 };
        if let Err(err) = store::insert_file(pool, &row).await {
            // Without its row nobody can reach the object: take it back.
            let _ = files.objects.delete(&ObjectPath::from(self.id.as_str())).await;
            return Err(err);
        }
        Ok(UploadedFile {
            id: self.id,
            filename: filename.to_string(),
            mime_type: mime_type.to_string(),
            size: self.size,
        })
    }

    /// Drops what an abandoned upload stored.
    pub async fn abandon(self) {
        if let Err(err) = self.upload.abort().await {
            tracing::warn!(%err, file = self.id, "an abandoned upload's parts were not removed");
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_upload_cut_off_leaves_nothing_after_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path());
        assert_eq!(store.remove_leftovers().await.unwrap(), 0, "nothing yet");
        let mut cut_off = store.begin(100).await.unwrap();
        cut_off.write(b"half an upload").await.unwrap();
        std::mem::forget(cut_off); // the process died mid-upload
        let uploads = dir.path().join("uploads");
        std::fs::write(uploads.join("kept"), b"a finished upload").unwrap();
        assert_eq!(store.remove_leftovers().await.unwrap(), 0, "a staged upload this recent may be another instance's");
        assert_eq!(store.remove_staged_older_than(std::time::Duration::ZERO).await.unwrap(), 1);
        let left: Vec<_> = std::fs::read_dir(&uploads).unwrap().map(|entry| entry.unwrap().file_name()).collect();
        assert_eq!(left, ["kept"], "finished uploads stay");
    }

    #[tokio::test]
    async fn a_finished_upload_reads_back_for_its_owner_and_an_abandoned_one_is_gone() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::db::connect(&crate::db::scratch_url(dir.path()).await.unwrap()).await.unwrap();
        let owner = crate::accounts::service::create_account(
            &pool,
            "ada",
            "correct horse battery",
            palaver_wire::accounts::Role::User,
        )
        .await
        .unwrap();
        let files = FileStore::scratch(dir.path()).unwrap();
        // Over one part (5 MiB), so the upload goes in several.
        let bytes: Vec<u8> = (0..6 * 1024 * 1024).map(|n| (n % 251) as u8).collect();
        let mut writer = files.begin(10 * 1024 * 1024).await.unwrap();
        for chunk in bytes.chunks(64 * 1024) {
            writer.write(chunk).await.unwrap();
        }
        let stored = writer.finish(&files, &pool, &owner.id, "noise.bin", "application/octet-stream").await.unwrap();
        assert_eq!(files.load_owned(&pool, &owner.id, &stored.id).await.unwrap(), Some(bytes));
        assert_eq!(files.load_owned(&pool, "someone-else", &stored.id).await.unwrap(), None);

        let mut abandoned = files.begin(100).await.unwrap();
        abandoned.write(b"never finished").await.unwrap();
        let id = abandoned.id.clone();
        abandoned.abandon().await;
        assert!(files.objects.get(&ObjectPath::from(id.as_str())).await.is_err(), "nothing was stored");
    }
}
