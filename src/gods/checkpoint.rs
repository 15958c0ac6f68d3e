//! Checkpoints of the indexed God's search: after each finished layer the search writes
//! its distance table (or, in a distributed run, each worker its share of it) with the
//! per-depth counts so far, so that a killed run can continue from its last complete
//! layer instead of from the start.
//!
//! A checkpoint is a file of the project's table container (`storage::file`: checksummed,
//! written to a temporary and renamed into place, memory-mapped and verified when read).
//! Its key hashes what the distances depend on: the puzzle's meaning, the metric, the
//! entry width and the layout of the perfect index; a file with another key is refused,
//! never silently used or overwritten on resume. The worker count and the worker's range
//! of indices are in the payload, so that a resume with another count is refused with a
//! message saying so.
//!
//! Each worker keeps two generations, one for even and one for odd depths. Workers of a
//! distributed run write their files independently, so when a run dies one worker may
//! have written layer `d + 1` while another still has only `d`; the older generation lets
//! every worker go back to the deepest layer they all completed.

use super::table::PackedTable;
use super::GodError;
use crate::puzzle::Metric;
use crate::storage::file::{content_hash, open_table, write_table, TableFileError};
use std::path::{Path, PathBuf};

/// The table container's kind for checkpoints.
pub const KIND: &str = "god-checkpoint";

/// Fixed fields at the start of the payload, each a little-endian u64: worker count,
/// worker, first index, index count, entry width, number of counts.
const FIELDS: usize = 6;

/// Where and how to checkpoint.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The folder the checkpoint files go to.
    pub dir: PathBuf,
    /// Continue from the deepest complete layer found in `dir`.
    pub resume: bool,
    /// Stop with [`GodError::Stopped`] once this layer is written (for tests of resume,
    /// standing in for a killed run at a known point).
    #[doc(hidden)]
    pub stop_after: Option<usize>,
}

impl Checkpoint {
    /// Refuses a folder that cannot hold checkpoint files before any layer is computed
    /// (a regular file in its place, a path through one), rather than at the first
    /// write. A folder that does not exist yet is made at the first write.
    pub(crate) fn check_folder(&self) -> Result<(), GodError> {
        match std::fs::metadata(&self.dir) {
            Ok(m) if m.is_dir() => Ok(()),
            Ok(m) => Err(GodError::Checkpoint(format!(
                "{} is {}, not a directory: expected a folder for the checkpoint files, or \
                 a path where one can be made",
                self.dir.display(),
                if m.is_file() {
                    "a regular file"
                } else {
                    crate::storage::fsutil::describe(m.file_type())
                }
            ))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_error(&self.dir, e)),
        }
    }
}

/// A layer read back: the counts of layers `0..=depth` and the table (share).
pub(crate) struct Saved {
    pub(crate) counts: Vec<u64>,
    pub(crate) table: PackedTable,
}

/// Which table (or share of one) a worker checkpoints.
pub(crate) struct Layout {
    pub(crate) key: u64,
    pub(crate) worker: usize,
    pub(crate) peers: usize,
    pub(crate) first: u64,
    pub(crate) len: u64,
    pub(crate) bits: u32,
}

/// The key of a checkpoint: everything that changes the distances or their layout.
pub(crate) fn key(puzzle_key: u64, metric: Metric, bits: u32, exact: bool, index: u64) -> u64 {
    let metric = match metric {
        Metric::Htm => 0u64,
        Metric::Qtm => 1,
    };
    content_hash(
        &[puzzle_key, metric, bits as u64, exact as u64, index]
            .map(u64::to_le_bytes)
            .concat(),
    )
}

fn io_error(path: &Path, e: impl std::fmt::Display) -> GodError {
    GodError::Checkpoint(format!("{}: {e}", path.display()))
}

impl Layout {
    fn path(&self, dir: &Path, generation: usize) -> PathBuf {
        dir.join(format!("god.{}.{}.ktb", self.worker, generation))
    }

    /// Writes the layer `counts.len() - 1` just finished.
    pub(crate) fn write(
        &self,
        dir: &Path,
        counts: &[u64],
        table: &PackedTable,
    ) -> Result<(), GodError> {
        let depth = counts.len() - 1;
        let path = self.path(dir, depth % 2);
        let fields = [
            self.peers as u64,
            self.worker as u64,
            self.first,
            self.len,
            self.bits as u64,
            counts.len() as u64,
        ];
        let mut payload = Vec::with_capacity((FIELDS + counts.len()) * 8);
        for v in fields.iter().chain(counts) {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        payload.extend_from_slice(&table.word_bytes());
        write_table(&path, KIND, self.key, &payload).map_err(|e| io_error(&path, e))
    }

    /// Removes this worker's checkpoint files, for a run that starts over.
    pub(crate) fn clear(&self, dir: &Path) -> Result<(), GodError> {
        for g in 0..2 {
            let path = self.path(dir, g);
            match std::fs::symlink_metadata(&path) {
                Ok(m) if m.file_type().is_file() => {
                    std::fs::remove_file(&path).map_err(|e| io_error(&path, e))?
                }
                Ok(_) => {
                    return Err(GodError::Checkpoint(format!(
                        "{} is not a regular file; refusing to replace it",
                        path.display()
                    )))
                }
                Err(_) => {}
            }
        }
        Ok(())
    }

    /// Reads and verifies one generation; `None` when it is absent.
    fn read(&self, dir: &Path, generation: usize) -> Result<Option<Saved>, GodError> {
        let path = self.path(dir, generation);
        let map = match open_table(&path, KIND, self.key) {
            Ok(m) => m,
            Err(TableFileError::Missing(_)) => return Ok(None),
            Err(TableFileError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                return Ok(None)
            }
            Err(TableFileError::Foreign(_)) => {
                return Err(GodError::Checkpoint(format!(
                    "{} is a checkpoint of another definition, metric or table layout \
                     (--save keeps exact distances, a wider table); remove it or give \
                     another --checkpoint folder",
                    path.display()
                )))
            }
            Err(e) => return Err(io_error(&path, e)),
        };
        let bytes = map.payload();
        let field = |k: usize| -> Option<u64> {
            bytes
                .get(k * 8..k * 8 + 8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
        };
        let bad = || GodError::Checkpoint(format!("{}: malformed checkpoint", path.display()));
        let peers = field(0).ok_or_else(bad)?;
        if peers != self.peers as u64 {
            return Err(GodError::Checkpoint(format!(
                "{} was written by a run of {peers} worker(s), this run has {}: resume \
                 with the same number of processes and workers",
                path.display(),
                self.peers
            )));
        }
        let mine = [self.worker as u64, self.first, self.len, self.bits as u64];
        if (0..4).any(|k| field(k + 1) != Some(mine[k])) {
            return Err(bad());
        }
        let n = field(5).ok_or_else(bad)? as usize;
        if n == 0 || n > 1 << 16 || bytes.len() < (FIELDS + n) * 8 {
            return Err(bad());
        }
        let counts: Vec<u64> = (0..n).map(|k| field(FIELDS + k).unwrap_or(0)).collect();
        let table = PackedTable::from_word_bytes(self.len, self.bits, &bytes[(FIELDS + n) * 8..])
            .ok_or_else(bad)?;
        Ok(Some(Saved { counts, table }))
    }

    /// The depths of the complete layers this worker's files hold (at most two).
    pub(crate) fn depths(&self, dir: &Path) -> Result<Vec<usize>, GodError> {
        let mut out = Vec::new();
        for g in 0..2 {
            if let Some(s) = self.read(dir, g)? {
                out.push(s.counts.len() - 1);
            }
        }
        Ok(out)
    }

    /// Reads back the layer `depth`, which [`Self::depths`] listed.
    pub(crate) fn load(&self, dir: &Path, depth: usize) -> Result<Saved, GodError> {
        match self.read(dir, depth % 2)? {
            Some(s) if s.counts.len() == depth + 1 => Ok(s),
            _ => Err(GodError::Checkpoint(format!(
                "{}: layer {depth} is no longer there",
                self.path(dir, depth % 2).display()
            ))),
        }
    }
}
