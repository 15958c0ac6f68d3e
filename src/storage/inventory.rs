//! What a cache folder holds, and removing it: the library side of `ksolve cache list`
//! and `ksolve cache clear`.
//!
//! Only files ksolve recognises as its own are listed or removed: regular files (never
//! symbolic links, which are not followed) named `*.ktb` that begin with the table
//! container's magic bytes, and ksolve's temporaries (by their name pattern, see
//! [`super::temp`]). Every other file in the folder is left alone. Which definition a
//! table belongs to comes from the definitions' manifests.

use super::cache::{definition_path, Manifest, EXTENSION, MANIFEST_KIND};
use super::file::{content_hash, has_magic, read_header};
use super::temp::{self, Temporary};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Why a cache folder could not be listed or cleared.
#[derive(Debug, thiserror::Error)]
pub enum InventoryError {
    #[error("cannot read the cache folder {path}")]
    Folder {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot remove {path}")]
    Remove {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// A definition that tables were built for, from its manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// Hash of the definition's bytes (the manifest's key).
    pub hash: u64,
    pub name: String,
    pub paths: Vec<String>,
    /// The manifest file itself.
    pub manifest: PathBuf,
}

/// One ksolve file in the cache folder.
#[derive(Clone, Debug)]
pub struct CachedFile {
    pub path: PathBuf,
    /// The header's kind tag, or `None` when the header is damaged or of another
    /// format version (the file is still ksolve's: it has the magic bytes).
    pub kind: Option<String>,
    pub bytes: u64,
    /// When the file was last used: the later of its access time (set on every load)
    /// and its modification time (when it was built).
    pub last_used: Option<SystemTime>,
    /// Index into [`Inventory::definitions`] of the definition the file belongs to.
    pub definition: Option<usize>,
}

/// Everything ksolve keeps in one cache folder.
#[derive(Clone, Debug, Default)]
pub struct Inventory {
    pub definitions: Vec<Definition>,
    /// Tables and manifests, sorted by path.
    pub files: Vec<CachedFile>,
    pub temporaries: Vec<Temporary>,
}

/// The name a listing shows for a file of the folder: its last component, lossily
/// decoded, since a cache folder may hold names that are not UTF-8.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

impl Inventory {
    /// Total size of the files and temporaries.
    pub fn total_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.bytes).sum::<u64>()
            + self.temporaries.iter().map(|t| t.bytes).sum::<u64>()
    }
}

/// Lists what ksolve keeps in `dir`. A folder that does not exist holds nothing.
pub fn scan(dir: &Path) -> Result<Inventory, InventoryError> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Inventory::default()),
        Err(source) => {
            return Err(InventoryError::Folder {
                path: dir.to_path_buf(),
                source,
            })
        }
    };
    let mut inv = Inventory::default();
    // The table file names each manifest lists, parallel to `inv.definitions`.
    let mut listed: Vec<Vec<String>> = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
            continue;
        }
        // DirEntry::metadata does not follow symbolic links: a link is never ours.
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.file_type().is_file() || !has_magic(&path) {
            continue;
        }
        let header = read_header(&path).ok();
        if let Some(h) = header.as_ref().filter(|h| h.kind == MANIFEST_KIND) {
            if let Ok(m) = Manifest::read(&path, h.key) {
                inv.definitions.push(Definition {
                    hash: h.key,
                    name: m.name,
                    paths: m.paths,
                    manifest: path.clone(),
                });
                listed.push(m.tables);
            }
        }
        let last_used = [meta.accessed().ok(), meta.modified().ok()]
            .into_iter()
            .flatten()
            .max();
        inv.files.push(CachedFile {
            path,
            kind: header.map(|h| h.kind),
            bytes: meta.len(),
            last_used,
            definition: None,
        });
    }
    for f in &mut inv.files {
        let name = f.path.file_name().map(|n| n.to_string_lossy().into_owned());
        f.definition = inv.definitions.iter().enumerate().position(|(i, d)| {
            d.manifest == f.path || name.as_ref().is_some_and(|n| listed[i].contains(n))
        });
    }
    inv.files.sort_by(|a, b| a.path.cmp(&b.path));
    inv.temporaries = temp::temporaries(dir);
    Ok(inv)
}

/// Which definition `ksolve cache clear DEF` means: tables built for the file's
/// present contents, and tables built from the same path before it was edited.
#[derive(Clone, Debug)]
pub struct Selector {
    pub hash: u64,
    pub path: String,
}

impl Selector {
    /// The selector for the definition at `path` with contents `bytes`.
    pub fn new(path: &Path, bytes: &[u8]) -> Selector {
        Selector {
            hash: content_hash(bytes),
            path: definition_path(path),
        }
    }

    fn matches(&self, d: &Definition) -> bool {
        d.hash == self.hash || d.paths.contains(&self.path)
    }
}

/// What [`clear`] removed and what it left.
#[derive(Clone, Debug, Default)]
pub struct Cleared {
    pub removed: Vec<PathBuf>,
    pub bytes: u64,
    /// Temporaries of runs still writing, left alone.
    pub live_temporaries: Vec<PathBuf>,
}

/// Removes ksolve's files from `dir`: all of them (tables, manifests and temporaries
/// of runs that are gone), or with `only` the tables and manifest of that definition.
/// Nothing else in the folder is touched.
pub fn clear(dir: &Path, only: Option<&Selector>) -> Result<Cleared, InventoryError> {
    let inv = scan(dir)?;
    let mut out = Cleared::default();
    let mut remove = |path: &Path, bytes: u64| -> Result<(), InventoryError> {
        match fs::remove_file(path) {
            Ok(()) => {
                out.removed.push(path.to_path_buf());
                out.bytes += bytes;
                Ok(())
            }
            // Removed meanwhile by another run: the goal is reached all the same.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(InventoryError::Remove {
                path: path.to_path_buf(),
                source,
            }),
        }
    };
    for f in &inv.files {
        let wanted = match only {
            None => true,
            Some(sel) => f
                .definition
                .is_some_and(|i| sel.matches(&inv.definitions[i])),
        };
        if wanted {
            remove(&f.path, f.bytes)?;
        }
    }
    if only.is_none() {
        for t in &inv.temporaries {
            if t.stale {
                remove(&t.path, t.bytes)?;
            } else {
                out.live_temporaries.push(t.path.clone());
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;
    use crate::storage::cache::TableCache;

    /// A cache for a fake definition `stem.def` with contents `text`, with one table.
    fn cache_with_table(dir: &Path, stem: &str, text: &str) -> TableCache {
        let def = dir.join(format!("{stem}.def"));
        let cache = TableCache::open(
            Some(dir.join("cache")),
            &def,
            &format!("{stem} puzzle"),
            text.as_bytes(),
            &Silent,
        );
        let t: Vec<u8> = cache.load_or_build(
            "test",
            "pt-x",
            b"p",
            &Silent,
            |_| None,
            || (vec![1, 2, 3], vec![1, 2, 3]),
        );
        assert_eq!(t, [1, 2, 3]);
        cache
    }

    #[test]
    fn lists_tables_by_definition_and_clears_only_what_is_asked() {
        let dir = tempfile::tempdir().unwrap();
        let cache_dir = dir.path().join("cache");
        let a = cache_with_table(dir.path(), "a", "one");
        let b = cache_with_table(dir.path(), "b", "two");
        // Foreign files, a link to a table outside and a non-ksolve `.ktb` stay.
        fs::write(cache_dir.join("notes.txt"), "mine").unwrap();
        fs::write(cache_dir.join("fake.ktb"), "not a table").unwrap();
        let outside = dir.path().join("outside.ktb");
        fs::copy(a.path("pt-x", a.key(b"p")).unwrap(), &outside).unwrap();
        std::os::unix::fs::symlink(&outside, cache_dir.join("link.ktb")).unwrap();

        let inv = scan(&cache_dir).unwrap();
        assert_eq!(inv.files.len(), 4, "{inv:#?}");
        let mut names: Vec<&str> = inv.definitions.iter().map(|d| d.name.as_str()).collect();
        names.sort();
        assert_eq!(names, ["a puzzle", "b puzzle"]);
        for f in &inv.files {
            let d = &inv.definitions[f.definition.expect("every file has its definition")];
            let stem = if d.name == "a puzzle" { "a." } else { "b." };
            assert!(f
                .path
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with(stem));
            assert!(d.paths[0].ends_with(&format!("{stem}def")));
            assert!(f.last_used.is_some() && f.bytes > 64);
        }

        let only_a = Selector::new(&dir.path().join("a.def"), b"edited since");
        let cleared = clear(&cache_dir, Some(&only_a)).unwrap();
        assert_eq!(cleared.removed.len(), 2);
        assert!(!a.path("pt-x", a.key(b"p")).unwrap().exists());
        assert!(b.path("pt-x", b.key(b"p")).unwrap().exists());

        let cleared = clear(&cache_dir, None).unwrap();
        assert_eq!(cleared.removed.len(), 2);
        let mut left: Vec<String> = fs::read_dir(&cache_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["fake.ktb", "link.ktb", "notes.txt"]);
        assert!(outside.exists());
    }
}
