//! The on-disk table container: a 64-byte header (magic, format version, kind tag,
//! key, payload length, payload checksum, header checksum) followed by the payload.
//!
//! Files are written to a temporary name in the same folder and renamed into place, so
//! a reader never sees a half-written table. Opening maps the file (memmap2: the
//! project's one `unsafe`) and verifies everything before handing out the payload; a
//! caller that gets anything but [`TableFileError::Missing`] warns and rebuilds.

use memmap2::Mmap;
use std::fs::{self, File};
use std::io::Write;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

const MAGIC: &[u8; 8] = b"KSOLVETB";
/// Bumped whenever the header or any payload layout changes, so old files are rebuilt.
pub const FORMAT_VERSION: u32 = 1;
const HEADER_LEN: usize = 64;
const KIND_LEN: usize = 16;

/// Why a table file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    #[error("table file {0} does not exist")]
    Missing(PathBuf),
    #[error("table file {0} is truncated")]
    Truncated(PathBuf),
    #[error("table file {0} is corrupt ({1})")]
    Corrupt(PathBuf, &'static str),
    #[error("table file {0} was built for another definition or table")]
    Foreign(PathBuf),
    #[error("table file {0} has format version {1}, this ksolve writes version {FORMAT_VERSION}")]
    Version(PathBuf, u32),
    #[error("table kind {0:?} is longer than {KIND_LEN} bytes")]
    BadKind(String),
    /// The io error's reason is part of the message, because callers that warn and
    /// rebuild print only this error's own text.
    #[error("cannot access table file {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// A verified, memory-mapped table payload.
pub struct MappedTable {
    map: Mmap,
}

impl MappedTable {
    /// The payload bytes (after the header; 64-byte aligned in memory).
    pub fn payload(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }
}

impl Deref for MappedTable {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.payload()
    }
}

/// A stable 64-bit hash of `bytes`: four independent multiply-rotate lanes over 8-byte
/// words, so that checksumming a large table runs at memory speed. Not cryptographic;
/// it guards against truncation, bit rot and stale files, not against forgery.
pub fn content_hash(bytes: &[u8]) -> u64 {
    const P1: u64 = 0x9E37_79B1_85EB_CA87;
    const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
    const P3: u64 = 0x1656_67B1_9E37_79F9;
    let round = |acc: u64, w: u64| {
        acc.wrapping_add(w.wrapping_mul(P2))
            .rotate_left(31)
            .wrapping_mul(P1)
    };
    let word = |c: &[u8]| u64::from_le_bytes(c.try_into().expect("8-byte chunk"));
    let mut lanes = [P1.wrapping_add(P2), P2, 0, P1.wrapping_neg()];
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (lane, c) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = round(*lane, word(c));
        }
    }
    let mut h = lanes
        .iter()
        .enumerate()
        .fold(bytes.len() as u64, |h, (i, &l)| {
            h ^ l.rotate_left(7 * i as u32 + 1)
        });
    let rest = blocks.remainder();
    let mut words = rest.chunks_exact(8);
    for c in &mut words {
        h = round(h, word(c)) ^ P3;
    }
    for &b in words.remainder() {
        h = (h ^ (b as u64).wrapping_mul(P3))
            .rotate_left(11)
            .wrapping_mul(P1);
    }
    // Final avalanche so that nearby inputs give unrelated hashes.
    h ^= h >> 33;
    h = h.wrapping_mul(P2);
    h ^= h >> 29;
    h = h.wrapping_mul(P3);
    h ^ (h >> 32)
}

fn header(kind: &str, key: u64, payload: &[u8]) -> Result<[u8; HEADER_LEN], TableFileError> {
    if kind.len() > KIND_LEN {
        return Err(TableFileError::BadKind(kind.to_string()));
    }
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    h[16..16 + kind.len()].copy_from_slice(kind.as_bytes());
    h[32..40].copy_from_slice(&key.to_le_bytes());
    h[40..48].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    h[48..56].copy_from_slice(&content_hash(payload).to_le_bytes());
    let own = content_hash(&h[..56]);
    h[56..64].copy_from_slice(&own.to_le_bytes());
    Ok(h)
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `payload` under a header to `path`, atomically: a temporary file in the same
/// folder is written, synced, then renamed over `path`. Creates the folder if needed.
pub fn write_table(
    path: &Path,
    kind: &str,
    key: u64,
    payload: &[u8],
) -> Result<(), TableFileError> {
    let io = |source| TableFileError::Io {
        path: path.to_path_buf(),
        source,
    };
    // Only an absent or regular file may be replaced: renaming over a device node or
    // a named pipe would destroy it.
    crate::fsutil::check_write_target(path).map_err(io)?;
    let head = header(kind, key, payload)?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = dir {
        fs::create_dir_all(dir).map_err(io)?;
    }
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(format!(
        ".tmp.{}.{}",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(&head)?;
        f.write_all(payload)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// Opens and verifies a table written by [`write_table`] with the same `kind` and `key`.
pub fn open_table(path: &Path, kind: &str, key: u64) -> Result<MappedTable, TableFileError> {
    let p = || path.to_path_buf();
    // Never `File::open`: a named pipe in the cache folder would block it for ever.
    let file = match crate::fsutil::open_regular(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(TableFileError::Missing(p()))
        }
        Err(source) => return Err(TableFileError::Io { path: p(), source }),
    };
    let len = file
        .metadata()
        .map_err(|source| TableFileError::Io { path: p(), source })?
        .len();
    if len < HEADER_LEN as u64 {
        return Err(TableFileError::Truncated(p()));
    }
    // SAFETY: the map is read-only and the file is only ever replaced by rename, never
    // modified in place by ksolve, so the mapped bytes do not change under us unless
    // another program writes into the cache folder, which we do not defend against.
    let map =
        unsafe { Mmap::map(&file) }.map_err(|source| TableFileError::Io { path: p(), source })?;
    let field = |a: usize, b: usize| &map[a..b];
    let u64_at = |a: usize| u64::from_le_bytes(map[a..a + 8].try_into().expect("8 bytes"));
    if field(0, 8) != MAGIC {
        return Err(TableFileError::Corrupt(p(), "not a ksolve table"));
    }
    if content_hash(field(0, 56)) != u64_at(56) {
        return Err(TableFileError::Corrupt(p(), "header checksum mismatch"));
    }
    let version = u32::from_le_bytes(map[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(TableFileError::Version(p(), version));
    }
    let mut want_kind = [0u8; KIND_LEN];
    if kind.len() > KIND_LEN {
        return Err(TableFileError::BadKind(kind.to_string()));
    }
    want_kind[..kind.len()].copy_from_slice(kind.as_bytes());
    if field(16, 32) != want_kind || u64_at(32) != key {
        return Err(TableFileError::Foreign(p()));
    }
    let payload_len = u64_at(40);
    let have = len - HEADER_LEN as u64;
    if have < payload_len {
        return Err(TableFileError::Truncated(p()));
    }
    if have > payload_len {
        return Err(TableFileError::Corrupt(p(), "trailing bytes"));
    }
    if content_hash(&map[HEADER_LEN..]) != u64_at(48) {
        return Err(TableFileError::Corrupt(p(), "payload checksum mismatch"));
    }
    Ok(MappedTable { map })
}

/// The folder tables are cached in: `explicit` (from `--tables`), else `tables/` in the
/// current folder when it exists, else the user's cache folder.
pub fn cache_dir(explicit: Option<&Path>) -> PathBuf {
    if let Some(dir) = explicit {
        return dir.to_path_buf();
    }
    let local = Path::new("tables");
    if local.is_dir() {
        return local.to_path_buf();
    }
    if let Some(xdg) = std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(xdg).join("ksolve");
    }
    if let Some(home) = std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(home).join(".cache").join("ksolve");
    }
    std::env::temp_dir().join("ksolve")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        (0..10_007u32).map(|i| (i * 7 % 251) as u8).collect()
    }

    #[test]
    fn round_trip_and_every_kind_of_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/t.tbl");
        let data = sample();
        write_table(&path, "prune", 42, &data).unwrap();
        assert_eq!(&*open_table(&path, "prune", 42).unwrap(), &data[..]);
        assert!(matches!(
            open_table(&path, "prune", 43),
            Err(TableFileError::Foreign(_))
        ));
        assert!(matches!(
            open_table(&path, "other", 42),
            Err(TableFileError::Foreign(_))
        ));

        let bytes = fs::read(&path).unwrap();
        fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(matches!(
            open_table(&path, "prune", 42),
            Err(TableFileError::Truncated(_))
        ));
        fs::write(&path, &bytes[..10]).unwrap();
        assert!(matches!(
            open_table(&path, "prune", 42),
            Err(TableFileError::Truncated(_))
        ));

        let mut flipped = bytes.clone();
        flipped[HEADER_LEN + 500] ^= 1;
        fs::write(&path, &flipped).unwrap();
        assert!(matches!(
            open_table(&path, "prune", 42),
            Err(TableFileError::Corrupt(..))
        ));
        let mut head = bytes.clone();
        head[40] ^= 1;
        fs::write(&path, &head).unwrap();
        assert!(matches!(
            open_table(&path, "prune", 42),
            Err(TableFileError::Corrupt(..))
        ));

        fs::remove_file(&path).unwrap();
        assert!(matches!(
            open_table(&path, "prune", 42),
            Err(TableFileError::Missing(_))
        ));
        // No temporary files are left behind.
        assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 0);
    }

    #[test]
    fn hash_depends_on_every_byte_and_length() {
        let data = sample();
        let h = content_hash(&data);
        for i in [0, 1, 31, 32, 5000, data.len() - 1] {
            let mut d = data.clone();
            d[i] ^= 0x10;
            assert_ne!(content_hash(&d), h, "byte {i}");
        }
        assert_ne!(content_hash(&data[..data.len() - 1]), h);
        assert_ne!(content_hash(b""), content_hash(b"\0"));
    }
}
