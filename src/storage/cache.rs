//! Loading tables from the cache folder, or building and storing them.
//!
//! Every cached table is keyed by the hash of the definition's bytes and of the table's
//! own parameters, so a file left by another definition, an edited definition or
//! another ksolve table is never used: it is reported through [`Progress::warn`] and
//! rebuilt. The key is part of the file name (`STEM.NAME.KEY.ktb`): two distinct
//! tables never share a path, so definitions with the same file name, or two tables of
//! one definition with the same readable name, never evict each other.
//!
//! Beside the tables, a small manifest per definition (same container, keyed by the
//! definition's hash, JSON payload) records the definition's `Name`, the paths it was
//! read from and the table files written for it. A table that is missing but listed was
//! deleted after it was built; that is reported like any other damage, while a table
//! never built before is built quietly. `ksolve cache list` and `ksolve cache clear`
//! read the manifests (see [`super::inventory`]).

use super::file::{
    content_hash, open_regular, open_table, write_table, write_table_parts, MappedTable,
    TableFileError,
};
use super::temp;
use crate::progress::Progress;
use std::path::{Path, PathBuf};

/// The file-name extension of every file ksolve keeps in a cache folder.
pub const EXTENSION: &str = "ktb";

/// The kind tag of the manifest of tables built for one definition.
pub const MANIFEST_KIND: &str = "ksolve-manifest";

/// What the manifest of one definition records.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    /// The definition's `Name` line (empty when it has none).
    pub name: String,
    /// The absolute paths the definition's bytes were read from.
    pub paths: Vec<String>,
    /// The file names (in the same folder) of the tables written for it.
    pub tables: Vec<String>,
}

impl Manifest {
    /// Reads the manifest at `path` written for the definition with hash `def_hash`.
    pub fn read(path: &Path, def_hash: u64) -> Result<Manifest, TableFileError> {
        let map = open_table(path, MANIFEST_KIND, def_hash)?;
        serde_json::from_slice(&map)
            .map_err(|_| TableFileError::Corrupt(path.to_path_buf(), "not a manifest"))
    }
}

/// Where and under which identity tables are cached.
#[derive(Clone, Debug)]
pub struct TableCache {
    /// The cache folder, or `None` to build in memory only (`--no-cache`).
    pub dir: Option<PathBuf>,
    /// A short name for the definition (its file stem), used in file names.
    pub stem: String,
    /// Hash of the definition's bytes.
    pub def_hash: u64,
    /// The definition's absolute path, recorded in the manifest.
    pub def_path: String,
    /// The definition's `Name`, recorded in the manifest.
    pub def_name: String,
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

    /// Whether the bytes were read into private anonymous memory (in huge pages)
    /// rather than mapped from the file.
    pub fn is_private(&self) -> bool {
        self.map.is_private()
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
            def_path: String::new(),
            def_name: String::new(),
        }
    }

    /// The cache in `dir` (`None`: in memory only) for the definition read from
    /// `def_path` with contents `def_bytes` and `Name` `def_name`. Removes the stale
    /// temporary files that killed runs left in the folder (reported through
    /// `progress`), and adds `def_path` to the definition's manifest when it is new.
    pub fn open(
        dir: Option<PathBuf>,
        def_path: &Path,
        def_name: &str,
        def_bytes: &[u8],
        progress: &dyn Progress,
    ) -> TableCache {
        let cache = TableCache {
            dir,
            stem: def_path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "puzzle".into()),
            def_hash: content_hash(def_bytes),
            def_path: definition_path(def_path),
            def_name: def_name.to_string(),
        };
        if let Some(dir) = &cache.dir {
            let removed = temp::sweep(dir);
            if !removed.is_empty() {
                let bytes: u64 = removed.iter().map(|t| t.bytes).sum();
                progress.warn(&format!(
                    "removed {} temporary file(s) ({}) that interrupted runs left in {}",
                    removed.len(),
                    crate::memory::human(bytes),
                    dir.display()
                ));
            }
            if let Some(mut m) = cache.manifest() {
                if !m.paths.contains(&cache.def_path) {
                    m.paths.push(cache.def_path.clone());
                    cache.write_manifest(&m);
                }
            }
        }
        cache
    }

    /// The key of a table with these parameters.
    pub fn key(&self, params: &[u8]) -> u64 {
        let mut bytes = self.def_hash.to_le_bytes().to_vec();
        bytes.extend_from_slice(params);
        content_hash(&bytes)
    }

    /// The file the table named `name` with key `key` is cached in.
    pub fn path(&self, name: &str, key: u64) -> Option<PathBuf> {
        self.file(&format!("{}.{key:016x}", safe(name, ".+")))
    }

    /// Whether the cache folder holds a file of a table whose name begins with
    /// `prefix`, whatever its key: a cheap look before the parameters that make the key
    /// are known (it may name a table of an earlier version of the definition, which a
    /// load then refuses and rebuilds, so a caller uses it only to choose an order of
    /// work, never to skip a check).
    pub fn holds_any(&self, prefix: &str) -> bool {
        let Some(dir) = &self.dir else {
            return false;
        };
        let start = format!("{}.{}", safe(&self.stem, ""), safe(prefix, ".+"));
        let end = format!(".{EXTENSION}");
        std::fs::read_dir(dir).is_ok_and(|entries| {
            entries.flatten().any(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name.starts_with(&start) && name.ends_with(&end)
            })
        })
    }

    /// The file `STEM.MIDDLE.ktb` in the cache folder.
    fn file(&self, middle: &str) -> Option<PathBuf> {
        let stem = safe(&self.stem, "");
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{stem}.{middle}.{EXTENSION}")))
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
        self.load_or_build_parts(kind, name, params, progress, load, build, |_| Vec::new())
    }

    /// [`Cache::load_or_build`] for a table whose stored payload is a short prefix (from
    /// `build`, a whole number of 32-byte blocks) followed by parts the table itself
    /// holds (`tail`), written from where they lie: a table that takes most of the
    /// memory budget is never copied to be saved.
    #[allow(clippy::too_many_arguments)]
    pub fn load_or_build_parts<T>(
        &self,
        kind: &str,
        name: &str,
        params: &[u8],
        progress: &dyn Progress,
        load: impl FnOnce(Payload) -> Option<T>,
        build: impl FnOnce() -> (T, Vec<u8>),
        tail: impl for<'a> FnOnce(&'a T) -> Vec<&'a [u8]>,
    ) -> T {
        let built = self.load_or_try_build_parts(
            kind,
            name,
            params,
            progress,
            load,
            || Ok::<_, std::convert::Infallible>(build()),
            tail,
        );
        match built {
            Ok(t) => t,
            Err(never) => match never {},
        }
    }

    /// [`Cache::load_or_build`] for something whose making may fail: a failure is
    /// returned and nothing is stored.
    pub fn load_or_try_build<T, E>(
        &self,
        kind: &str,
        name: &str,
        params: &[u8],
        progress: &dyn Progress,
        load: impl FnOnce(Payload) -> Option<T>,
        build: impl FnOnce() -> Result<(T, Vec<u8>), E>,
    ) -> Result<T, E> {
        self.load_or_try_build_parts(kind, name, params, progress, load, build, |_| Vec::new())
    }

    /// [`Cache::load_or_build_parts`] for something whose making may fail.
    #[allow(clippy::too_many_arguments)]
    fn load_or_try_build_parts<T, E>(
        &self,
        kind: &str,
        name: &str,
        params: &[u8],
        progress: &dyn Progress,
        load: impl FnOnce(Payload) -> Option<T>,
        build: impl FnOnce() -> Result<(T, Vec<u8>), E>,
        tail: impl for<'a> FnOnce(&'a T) -> Vec<&'a [u8]>,
    ) -> Result<T, E> {
        let key = self.key(params);
        let Some(path) = self.path(name, key) else {
            return build().map(|(t, _)| t);
        };
        if let Some(t) = self.lookup(&path, kind, key, progress, load) {
            return Ok(t);
        }
        let (table, payload) = build()?;
        let mut parts: Vec<&[u8]> = vec![&payload];
        parts.extend(tail(&table).into_iter().filter(|p| !p.is_empty()));
        self.store(&path, kind, key, &parts, progress);
        Ok(table)
    }

    /// The cached file at `path`, turned into its table by `load`; `None` (with a
    /// warning where the file is damaged or went missing) when it must be built.
    fn lookup<T>(
        &self,
        path: &Path,
        kind: &str,
        key: u64,
        progress: &dyn Progress,
        load: impl FnOnce(Payload) -> Option<T>,
    ) -> Option<T> {
        match open_table(path, kind, key) {
            Ok(map) => match load(Payload { map, skip: 0 }) {
                Some(t) => {
                    mark_used(path);
                    return Some(t);
                }
                None => progress.warn(&format!(
                    "table file {} does not match its table; rebuilding it",
                    path.display()
                )),
            },
            Err(e @ TableFileError::Missing(_)) => {
                if self
                    .manifest()
                    .is_some_and(|m| m.tables.contains(&file_name(path)))
                {
                    progress.warn(&format!("{e} although it was built before; rebuilding it"));
                }
            }
            Err(e) => progress.warn(&format!("{e}; rebuilding it")),
        }
        None
    }

    /// Writes a built table's `parts` to `path` and records it in the manifest.
    fn store(&self, path: &Path, kind: &str, key: u64, parts: &[&[u8]], progress: &dyn Progress) {
        match write_table_parts(path, kind, key, parts) {
            Ok(()) => self.record(&file_name(path)),
            Err(e) => progress.warn(&format!("cannot cache a table: {e}")),
        }
    }

    /// The manifest file of this definition's tables.
    pub fn manifest_path(&self) -> Option<PathBuf> {
        self.file(&format!("{:016x}.manifest", self.def_hash))
    }

    /// This definition's manifest; `None` when it is missing, damaged or belongs to
    /// another definition (it is only a record, so any doubt counts as "nothing built
    /// before").
    fn manifest(&self) -> Option<Manifest> {
        Manifest::read(&self.manifest_path()?, self.def_hash).ok()
    }

    /// Writes `manifest` as this definition's. Failing to write it only loses a warning
    /// or a line of `ksolve cache list` later, so errors are ignored.
    fn write_manifest(&self, manifest: &Manifest) {
        let Some(path) = self.manifest_path() else {
            return;
        };
        let json = serde_json::to_vec(manifest).expect("a manifest serializes");
        let _ = write_table(&path, MANIFEST_KIND, self.def_hash, &json);
    }

    /// Adds the table file `file_name` (and this definition's path and name) to the
    /// manifest. The manifest is read again just before, so that tables recorded
    /// meanwhile by another run are kept (short of an exact race, which loses only a
    /// record).
    fn record(&self, file_name: &str) {
        let mut m = self.manifest().unwrap_or_default();
        if m.tables.iter().any(|n| n == file_name)
            && m.paths.contains(&self.def_path)
            && m.name == self.def_name
        {
            return;
        }
        if !m.tables.iter().any(|n| n == file_name) {
            m.tables.push(file_name.to_string());
        }
        if !m.paths.contains(&self.def_path) {
            m.paths.push(self.def_path.clone());
        }
        m.name = self.def_name.clone();
        self.write_manifest(&m);
    }
}

/// `text` with every character but ASCII letters, digits, `-`, `_` and those in `also`
/// replaced by `_`, so that names taken from a definition (its file stem, set names)
/// can neither leave the cache folder nor hide a file. Two names made equal this way
/// still get distinct files: the table key is part of every file name.
fn safe(text: &str, also: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || also.contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The path recorded for a definition read from `path`: canonical when it can be
/// resolved, else absolute, else as given. [`super::inventory::Selector`] uses the
/// same, so that `ksolve cache clear DEF` finds it.
pub fn definition_path(path: &Path) -> String {
    path.canonicalize()
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
        .to_string_lossy()
        .into_owned()
}

/// Records that the table at `path` was just used, as its access time (its
/// modification time stays the time it was built). Only the file's times change, never
/// its bytes, so maps of it stay valid. Failures (a file owned by someone else) are
/// ignored: the time is only shown by `ksolve cache list`.
fn mark_used(path: &Path) {
    if let Ok(file) = open_regular(path) {
        let now = std::time::SystemTime::now();
        let _ = file.set_times(std::fs::FileTimes::new().set_accessed(now));
    }
}

/// The name of a cache file, as the manifest lists it.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_stay_in_the_folder_and_differ_by_key() {
        let cache = TableCache {
            dir: Some(PathBuf::from("/cache")),
            stem: "../up".into(),
            def_hash: 1,
            def_path: String::new(),
            def_name: String::new(),
        };
        // Set names come from the definition and may hold any non-blank character.
        let p = cache.path("pt-htm-A/../../B+C.po", 0xab).unwrap();
        assert_eq!(p.parent(), Some(Path::new("/cache")));
        assert_eq!(
            p.file_name().unwrap(),
            "___up.pt-htm-A_.._.._B+C.po.00000000000000ab.ktb"
        );
        assert_ne!(cache.path("pt-x", 1), cache.path("pt-x", 2));
        assert_ne!(cache.manifest_path(), cache.path("manifest", 1));
    }
}
