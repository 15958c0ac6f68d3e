//! Writing a shard's results file atomically while its scrambles are solved.
//!
//! Schedulers retry failed tasks and may run a task twice, so a shard's file must never
//! be seen half written: records go to a new temporary file in the output folder (named
//! as the table cache names its temporaries, see [`crate::storage::temp`]), which is
//! synced and renamed over `shard-K-of-N.jsonl` only once every scramble of the shard
//! is done. A rerun replaces the file whole; a run killed before the rename leaves the
//! old file (or none) and a temporary that the next run in the folder sweeps once its
//! owner is gone. Records are streamed to the temporary, so a shard holds one
//! scramble's output at a time.

use super::record::{line, Header, Record};
use super::select::Shard;
use crate::storage::fsutil::check_write_target;
use crate::storage::temp;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why a shard file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("cannot create the output folder {}: {source}", path.display())]
    Folder { path: PathBuf, source: io::Error },
    #[error("cannot write the shard file {}: {source}", path.display())]
    File { path: PathBuf, source: io::Error },
}

/// A shard file being written: its temporary, renamed into place by [`finish`].
///
/// [`finish`]: ShardWriter::finish
pub struct ShardWriter {
    target: PathBuf,
    tmp: PathBuf,
    out: Option<BufWriter<File>>,
}

impl ShardWriter {
    /// Starts `shard`'s file in `dir` (created if missing) with its header. The target
    /// must be absent or a regular file (see [`check_write_target`]); stale temporaries
    /// of killed runs in `dir` are removed first.
    pub fn create(dir: &Path, shard: Shard, header: &Header) -> Result<ShardWriter, WriteError> {
        fs::create_dir_all(dir).map_err(|source| WriteError::Folder {
            path: dir.to_path_buf(),
            source,
        })?;
        temp::sweep(dir);
        let target = dir.join(shard.file_name());
        let err = |source| WriteError::File {
            path: target.clone(),
            source,
        };
        check_write_target(&target).map_err(err)?;
        let tmp = temp::new_temp_path(&target);
        // create_new: never open something that already exists under the temporary's name.
        let file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(err)?;
        let mut w = ShardWriter {
            target,
            tmp,
            out: Some(BufWriter::new(file)),
        };
        w.write(&line(header))?;
        Ok(w)
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), WriteError> {
        let out = self
            .out
            .as_mut()
            .expect("a shard writer is used only until finish");
        out.write_all(bytes).map_err(|source| WriteError::File {
            path: self.target.clone(),
            source,
        })
    }

    /// Appends one scramble's record.
    pub fn push(&mut self, record: &Record) -> Result<(), WriteError> {
        self.write(&line(record))
    }

    /// Syncs the temporary and renames it over the shard file; returns the file's path.
    pub fn finish(mut self) -> Result<PathBuf, WriteError> {
        let out = self.out.take().expect("finish is called once");
        let result = (|| {
            let file = out.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            // The target was checked when the run started; check again, since a long
            // run leaves time for it to change into something a rename must not replace.
            check_write_target(&self.target)?;
            fs::rename(&self.tmp, &self.target)
        })();
        result.map_err(|source| WriteError::File {
            path: self.target.clone(),
            source,
        })?;
        Ok(self.target.clone())
    }
}

impl Drop for ShardWriter {
    /// A writer dropped before [`ShardWriter::finish`] (an error in the run) or whose
    /// rename failed removes its temporary: the old shard file, if any, stays as it was.
    fn drop(&mut self) {
        if self.out.is_some() || self.tmp.exists() {
            self.out = None;
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::record::FORMAT;
    use super::*;
    use serde_json::value::RawValue;

    fn header(shard: Shard) -> Header {
        Header {
            ksolve_shard: FORMAT,
            version: "0".into(),
            shard: shard.index,
            shards: shard.count,
            scrambles: 2,
            def: "d".into(),
            def_sha256: "00".into(),
            scramble_file: "s".into(),
            scrambles_sha256: "11".into(),
            options: vec![],
        }
    }

    fn record(i: u64) -> Record {
        Record {
            index: i,
            name: format!("s{i}"),
            status: crate::solve::Status::Solved,
            text: format!("Solving s{i}\n\n"),
            json: RawValue::from_string("{}".into()).unwrap(),
        }
    }

    #[test]
    fn the_file_appears_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("new");
        let shard = Shard { index: 1, count: 2 };
        let mut w = ShardWriter::create(&out, shard, &header(shard)).unwrap();
        w.push(&record(1)).unwrap();
        assert!(!out.join("shard-1-of-2.jsonl").exists());
        let path = w.finish().unwrap();
        let first = fs::read(&path).unwrap();
        assert_eq!(first.iter().filter(|&&b| b == b'\n').count(), 2);
        // A run that fails part way leaves the finished file and no temporary.
        let mut w = ShardWriter::create(&out, shard, &header(shard)).unwrap();
        w.push(&record(1)).unwrap();
        drop(w);
        assert_eq!(fs::read(&path).unwrap(), first);
        assert_eq!(fs::read_dir(&out).unwrap().count(), 1);
    }

    #[test]
    fn a_directory_in_the_way_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let shard = Shard { index: 0, count: 1 };
        fs::create_dir(dir.path().join(shard.file_name())).unwrap();
        let e = ShardWriter::create(dir.path(), shard, &header(shard))
            .err()
            .unwrap();
        assert!(e.to_string().contains("a directory"), "{e}");
    }
}
