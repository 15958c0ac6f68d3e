//! Loading tables from the cache folder, or building and storing them.
//!
//! Every cached table is keyed by the hash of the definition's bytes and of the table's
//! own parameters, so a file left by another definition, an edited definition or
//! another ksolve table is never used: it is reported through [`Progress::warn`] and
//! rebuilt. File names are readable and stable across edits of the definition, so that
//! an edit replaces the old file instead of leaving it behind.
//!
//! Beside the tables, a small manifest (same container, keyed by the definition's hash)
//! lists the tables already written for this definition. A table that is missing but
//! listed was deleted after it was built; that is reported like any other damage, while
//! a table never built before is built quietly.

use super::file::{content_hash, open_table, write_table, MappedTable, TableFileError};
use crate::progress::Progress;
use std::path::PathBuf;

/// Where and under which identity tables are cached.
#[derive(Clone, Debug)]
pub struct TableCache {
    /// The cache folder, or `None` to build in memory only (`--no-cache`).
    pub dir: Option<PathBuf>,
    /// A short name for the definition (its file stem), used in file names.
    pub stem: String,
    /// Hash of the definition's bytes.
    pub def_hash: u64,
}

/// The payload of a mapped table after a prefix of `skip` bytes.
pub struct Payload {
    map: MappedTable,
    skip: usize,
}

impl std::ops::Deref for Payload {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map[self.skip..]
    }
}

impl Payload {
    /// The whole payload, prefix included.
    pub fn all(&self) -> &[u8] {
        &self.map
    }

    /// The payload past its first `skip` bytes.
    pub fn skip(self, skip: usize) -> Payload {
        Payload {
            map: self.map,
            skip: self.skip + skip,
        }
    }
}

impl TableCache {
    /// A cache that never touches the disk.
    pub fn in_memory() -> TableCache {
        TableCache {
            dir: None,
            stem: String::new(),
            def_hash: 0,
        }
    }

    /// The key of a table with these parameters.
    pub fn key(&self, params: &[u8]) -> u64 {
        let mut bytes = self.def_hash.to_le_bytes().to_vec();
        bytes.extend_from_slice(params);
        content_hash(&bytes)
    }

    /// The file a table named `name` is cached in.
    pub fn path(&self, name: &str) -> Option<PathBuf> {
        let stem: String = self
            .stem
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{stem}.{name}.ktb")))
    }

    /// Loads the table `name` of kind `kind` with parameters `params`, or builds it with
    /// `build` (which returns the table and the payload to store). `load` turns a
    /// verified payload into the table, or says `None` when its contents do not fit the
    /// parameters, which is reported and rebuilt like any other damage.
    pub fn load_or_build<T>(
        &self,
        kind: &str,
        name: &str,
        params: &[u8],
        progress: &dyn Progress,
        load: impl FnOnce(Payload) -> Option<T>,
        build: impl FnOnce() -> (T, Vec<u8>),
    ) -> T {
        let key = self.key(params);
        let Some(path) = self.path(name) else {
            return build().0;
        };
        match open_table(&path, kind, key) {
            Ok(map) => match load(Payload { map, skip: 0 }) {
                Some(t) => return t,
                None => progress.warn(&format!(
                    "table file {} does not match its table; rebuilding it",
                    path.display()
                )),
            },
            Err(e @ TableFileError::Missing(_)) => {
                if self.manifest().iter().any(|n| n == name) {
                    progress.warn(&format!("{e} although it was built before; rebuilding it"));
                }
            }
            Err(e) => progress.warn(&format!("{e}; rebuilding it")),
        }
        let (table, payload) = build();
        match write_table(&path, kind, key, &payload) {
            Ok(()) => self.record(name),
            Err(e) => progress.warn(&format!("cannot cache a table: {e}")),
        }
        table
    }

    /// The manifest file of this definition's tables.
    fn manifest_path(&self) -> Option<PathBuf> {
        self.path("manifest")
    }

    /// The names of the tables written for this definition; empty when the manifest is
    /// missing, damaged or belongs to another definition (it is only a hint for
    /// warnings, so any doubt counts as "nothing built before").
    fn manifest(&self) -> Vec<String> {
        let Some(path) = self.manifest_path() else {
            return Vec::new();
        };
        match open_table(&path, MANIFEST_KIND, self.def_hash) {
            Ok(map) => String::from_utf8_lossy(&map)
                .lines()
                .map(str::to_string)
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Adds `name` to the manifest. Failing to write it only loses a warning later, so
    /// errors are ignored.
    fn record(&self, name: &str) {
        let Some(path) = self.manifest_path() else {
            return;
        };
        let mut names = self.manifest();
        if names.iter().any(|n| n == name) {
            return;
        }
        names.push(name.to_string());
        let _ = write_table(
            &path,
            MANIFEST_KIND,
            self.def_hash,
            names.join("\n").as_bytes(),
        );
    }
}

/// The kind tag of the manifest of tables built for one definition.
const MANIFEST_KIND: &str = "ksolve-manifest";
