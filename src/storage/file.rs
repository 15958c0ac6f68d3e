//! The on-disk table container: a 64-byte header (magic, format version, kind tag,
//! key, payload length, payload checksum, header checksum) followed by the payload.
//!
//! Files are written to a temporary name in the same folder and renamed into place, so
//! a reader never sees a half-written table; only regular files are ever opened or
//! replaced, so a FIFO or link in the cache folder can neither hang nor redirect a run. Opening maps the file (memmap2: the
//! project's one `unsafe`) and verifies everything before handing out the payload; a
//! caller that gets anything but [`TableFileError::Missing`] warns and rebuilds.

use crate::storage::fsutil::describe;
use memmap2::Mmap;
use std::fs::{self, File};
use std::io::Write;
use std::ops::Deref;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"KSOLVETB";
/// Bumped whenever the header or any payload layout changes, so old files are rebuilt.
pub const FORMAT_VERSION: u32 = 1;
/// The length of a table file's header; the payload follows it.
pub const HEADER_LEN: usize = 64;
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
    #[error("table file {0} is {1}, not a regular file; ksolve leaves it alone")]
    NotRegular(PathBuf, &'static str),
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

/// A verified table payload: the file mapped, or for a large table the file read into
/// anonymous memory in huge pages ([`open_table`] says why).
pub struct MappedTable {
    map: Mmap,
    /// Whether `map` is a private copy in anonymous memory (already in huge pages,
    /// nothing left to copy) rather than the file's mapping.
    private: bool,
}

impl MappedTable {
    /// The payload bytes (after the header; 64-byte aligned in memory).
    pub fn payload(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// Whether the bytes are a private copy in anonymous memory rather than the file's
    /// mapping.
    pub fn is_private(&self) -> bool {
        self.private
    }
}

impl Deref for MappedTable {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.payload()
    }
}

/// A private copy of a large table's bytes in anonymous memory that asks for huge
/// pages (Linux `MADV_HUGEPAGE`, honoured where transparent huge pages are allowed on
/// request). Lookups in a table of gigabytes are random; with 4 KiB pages nearly every
/// one also misses the processor's address-translation cache, with 2 MiB pages few do.
pub struct HugeCopy {
    map: Mmap,
    len: usize,
}

impl Deref for HugeCopy {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map[..self.len]
    }
}

/// Tables at least this large are copied into huge pages when loaded ([`huge_copy`]).
const HUGE_COPY_FROM: usize = 64 << 20;

/// Anonymous memory of `len` bytes that asks for huge pages; `None` when it cannot be
/// mapped.
fn huge_anon(len: usize) -> Option<memmap2::MmapMut> {
    let map = memmap2::MmapOptions::new()
        .len(len.max(1))
        .map_anon()
        .ok()?;
    // Only a hint: without it (or elsewhere) the memory works with ordinary pages.
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    Some(map)
}

/// Copies `bytes` into a [`HugeCopy`]; `None` when anonymous memory cannot be mapped
/// (the caller keeps the file mapping then).
fn huge_copy(bytes: &[u8]) -> Option<HugeCopy> {
    use rayon::prelude::*;
    let mut map = huge_anon(bytes.len())?;
    map.par_chunks_mut(1 << 21)
        .zip(bytes.par_chunks(1 << 21))
        .for_each(|(to, from)| to.copy_from_slice(from));
    Some(HugeCopy {
        map: map.make_read_only().ok()?,
        len: bytes.len(),
    })
}

/// The bytes of a loaded table's entries: as they are when `private` (read into
/// anonymous memory already, see [`open_table`]), a [`HugeCopy`] when they are large,
/// else the mapping of the file itself.
pub fn entries_from<T>(payload: T, private: bool) -> Box<dyn Deref<Target = [u8]> + Send + Sync>
where
    T: Deref<Target = [u8]> + Send + Sync + 'static,
{
    if !private && payload.len() >= HUGE_COPY_FROM {
        if let Some(copy) = huge_copy(&payload) {
            return Box::new(copy);
        }
    }
    Box::new(payload)
}

/// A large table of 32-bit words in huge pages ([`huge_words`]).
struct HugeWords(HugeCopy);

impl Deref for HugeWords {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        // The copy starts a fresh mapping, so it is aligned for any word.
        bytemuck::cast_slice(&self.0)
    }
}

/// `words` moved into huge pages ([`HugeCopy`]) when they are large, such as a
/// symmetry-reduced table's class table (hundreds of MiB read at random, once per
/// lookup); as they are otherwise, or when the copy cannot be made. The words are held
/// twice while they are copied (336 MiB more for the 3x3x3's corners, for a moment).
pub fn huge_words(words: Vec<u32>) -> Box<dyn Deref<Target = [u32]> + Send + Sync> {
    if words.len() * 4 >= HUGE_COPY_FROM {
        if let Some(copy) = huge_copy(bytemuck::cast_slice(&words)) {
            return Box::new(HugeWords(copy));
        }
    }
    Box::new(words)
}

/// A stable 64-bit hash of `bytes`: four independent multiply-rotate lanes over 8-byte
/// words, so that checksumming a large table runs at memory speed. Not cryptographic;
/// it guards against truncation, bit rot and stale files, not against forgery.
pub fn content_hash(bytes: &[u8]) -> u64 {
    content_hash_parts(&[bytes])
}

/// [`content_hash`] of the concatenation of `parts`, without concatenating them (a
/// table's short prefix and its entries, which may be most of the memory budget).
/// Every part but the last must be a whole number of 32-byte blocks.
pub fn content_hash_parts(parts: &[&[u8]]) -> u64 {
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
    let total: usize = parts.iter().map(|p| p.len()).sum();
    let mut rest: &[u8] = &[];
    for (i, part) in parts.iter().enumerate() {
        assert!(
            i + 1 == parts.len() || part.len() % 32 == 0,
            "only the last part may end inside a block"
        );
        let mut blocks = part.chunks_exact(32);
        for block in &mut blocks {
            for (lane, c) in lanes.iter_mut().zip(block.chunks_exact(8)) {
                *lane = round(*lane, word(c));
            }
        }
        rest = blocks.remainder();
    }
    let mut h = lanes.iter().enumerate().fold(total as u64, |h, (i, &l)| {
        h ^ l.rotate_left(7 * i as u32 + 1)
    });
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

/// The header [`write_table`] puts before `payload`.
pub fn encode_header(
    kind: &str,
    key: u64,
    payload: &[u8],
) -> Result<[u8; HEADER_LEN], TableFileError> {
    encode_header_parts(kind, key, &[payload])
}

/// [`encode_header`] for a payload given in parts (see [`content_hash_parts`]).
fn encode_header_parts(
    kind: &str,
    key: u64,
    payload: &[&[u8]],
) -> Result<[u8; HEADER_LEN], TableFileError> {
    if kind.len() > KIND_LEN {
        return Err(TableFileError::BadKind(kind.to_string()));
    }
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    h[16..16 + kind.len()].copy_from_slice(kind.as_bytes());
    h[32..40].copy_from_slice(&key.to_le_bytes());
    let len: usize = payload.iter().map(|p| p.len()).sum();
    h[40..48].copy_from_slice(&(len as u64).to_le_bytes());
    h[48..56].copy_from_slice(&content_hash_parts(payload).to_le_bytes());
    let own = content_hash(&h[..56]);
    h[56..64].copy_from_slice(&own.to_le_bytes());
    Ok(h)
}

/// Opens `path` for reading only if it is a regular file (after following symbolic
/// links). On Unix the file is opened non-blocking, so that a FIFO put where a table
/// should be is refused instead of waiting for a writer for ever. On Linux it is opened
/// without updating its access time where the owner may ask that: the access time says
/// when a table was last used (see the cache), and listing the cache must not move it.
pub fn open_regular(path: &Path) -> Result<File, TableFileError> {
    let p = || path.to_path_buf();
    let open = |flags: i32| {
        let mut options = fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK | flags);
        }
        #[cfg(not(unix))]
        let _ = flags;
        options.open(path)
    };
    #[cfg(target_os = "linux")]
    let first = open(libc::O_NOATIME);
    #[cfg(not(target_os = "linux"))]
    let first = open(0);
    // O_NOATIME is refused (EPERM) on files of other users: open them plainly.
    let opened = match first {
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => open(0),
        other => other,
    };
    let file = match opened {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(TableFileError::Missing(p()))
        }
        Err(source) => return Err(TableFileError::Io { path: p(), source }),
    };
    let meta = file
        .metadata()
        .map_err(|source| TableFileError::Io { path: p(), source })?;
    if !meta.is_file() {
        return Err(TableFileError::NotRegular(p(), describe(meta.file_type())));
    }
    Ok(file)
}

/// Writes `payload` under a header to `path`, atomically: a temporary file in the same
/// folder (see [`super::temp`]) is created new, written, synced, then renamed over
/// `path`. Creates the folder if needed. An existing `path` that is not a regular file
/// (a FIFO, a symbolic link, a folder) is left alone and the write refused.
pub fn write_table(
    path: &Path,
    kind: &str,
    key: u64,
    payload: &[u8],
) -> Result<(), TableFileError> {
    write_table_parts(path, kind, key, &[payload])
}

/// [`write_table`] of a payload given in parts (see [`content_hash_parts`]), so that a
/// large table is written from where it lies instead of from a copy.
pub fn write_table_parts(
    path: &Path,
    kind: &str,
    key: u64,
    payload: &[&[u8]],
) -> Result<(), TableFileError> {
    let io = |source| TableFileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let head = encode_header_parts(kind, key, payload)?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = dir {
        fs::create_dir_all(dir).map_err(io)?;
    }
    match fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_file() => {
            return Err(TableFileError::NotRegular(
                path.to_path_buf(),
                describe(meta.file_type()),
            ))
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(e)),
    }
    let tmp = super::temp::new_temp_path(path);
    // create_new: never open something that already exists under the temporary's name
    // (and never follow a symbolic link placed there).
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(io)?;
    let result = (|| {
        f.write_all(&head)?;
        for part in payload {
            f.write_all(part)?;
        }
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// What a table file's header says, once its magic, checksum and version are verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The kind tag (`ksolve-prune`, `ksolve-move`, `ksolve-manifest`, ...).
    pub kind: String,
    pub key: u64,
    pub payload_len: u64,
}

/// Verifies a header (the first [`HEADER_LEN`] bytes of `bytes`) and decodes it.
fn decode_header(bytes: &[u8], path: &Path) -> Result<Header, TableFileError> {
    let p = || path.to_path_buf();
    let Some(h) = bytes.get(..HEADER_LEN) else {
        return Err(TableFileError::Truncated(p()));
    };
    let u64_at = |a: usize| u64::from_le_bytes(h[a..a + 8].try_into().expect("8 bytes"));
    if &h[0..8] != MAGIC {
        return Err(TableFileError::Corrupt(p(), "not a ksolve table"));
    }
    if content_hash(&h[..56]) != u64_at(56) {
        return Err(TableFileError::Corrupt(p(), "header checksum mismatch"));
    }
    let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(TableFileError::Version(p(), version));
    }
    let kind = &h[16..32];
    let kind = &kind[..kind.iter().position(|&b| b == 0).unwrap_or(KIND_LEN)];
    Ok(Header {
        kind: String::from_utf8_lossy(kind).into_owned(),
        key: u64_at(32),
        payload_len: u64_at(40),
    })
}

/// Reads and verifies only the header of the table file at `path` (which must be a
/// regular file), without reading or checking the payload.
pub fn read_header(path: &Path) -> Result<Header, TableFileError> {
    use std::io::Read;
    let mut file = open_regular(path)?;
    let mut h = Vec::with_capacity(HEADER_LEN);
    (&mut file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut h)
        .map_err(|source| TableFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    decode_header(&h, path)
}

/// Whether the file at `path` is a regular file that begins with the table container's
/// magic bytes, i.e. was written by ksolve (whatever its state since).
pub fn has_magic(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 8];
    open_regular(path).is_ok_and(|mut f| f.read_exact(&mut magic).is_ok() && &magic == MAGIC)
}

/// Verifies the whole contents of a table file, `bytes`, read from `path` (named in
/// errors): header, `kind`, `key`, length and payload checksum. On success the payload
/// is `bytes[HEADER_LEN..]`.
pub fn check_table(bytes: &[u8], path: &Path, kind: &str, key: u64) -> Result<(), TableFileError> {
    let p = || path.to_path_buf();
    if kind.len() > KIND_LEN {
        return Err(TableFileError::BadKind(kind.to_string()));
    }
    let header = decode_header(bytes, path)?;
    let h = &bytes[..HEADER_LEN];
    let mut want_kind = [0u8; KIND_LEN];
    want_kind[..kind.len()].copy_from_slice(kind.as_bytes());
    if h[16..32] != want_kind || header.key != key {
        return Err(TableFileError::Foreign(p()));
    }
    let have = (bytes.len() - HEADER_LEN) as u64;
    if have < header.payload_len {
        return Err(TableFileError::Truncated(p()));
    }
    if have > header.payload_len {
        return Err(TableFileError::Corrupt(p(), "trailing bytes"));
    }
    let sum = u64::from_le_bytes(h[48..56].try_into().expect("8 bytes"));
    if content_hash(&bytes[HEADER_LEN..]) != sum {
        return Err(TableFileError::Corrupt(p(), "payload checksum mismatch"));
    }
    Ok(())
}

/// Opens and verifies a table written by [`write_table`] with the same `kind` and `key`.
pub fn open_table(path: &Path, kind: &str, key: u64) -> Result<MappedTable, TableFileError> {
    let p = || path.to_path_buf();
    let file = open_regular(path)?;
    let len = file
        .metadata()
        .map_err(|source| TableFileError::Io { path: p(), source })?
        .len();
    if len < HEADER_LEN as u64 {
        return Err(TableFileError::Truncated(p()));
    }
    // A large table is read into anonymous memory (in huge pages) rather than mapped
    // and then copied: while a mapping's pages are read (the checksum reads them all)
    // they count as the process's resident memory, so mapping and copying held each
    // large table twice at its peak, past the `--memory` budget. Read, the file's pages
    // stay in the page cache, which is not the process's.
    if len - HEADER_LEN as u64 >= HUGE_COPY_FROM as u64 {
        if let Some(map) = read_private(&file, len as usize, path)? {
            check_table(&map, path, kind, key)?;
            return Ok(MappedTable { map, private: true });
        }
    }
    // SAFETY: the map is read-only and the file is only ever replaced by rename, never
    // modified in place by ksolve, so the mapped bytes do not change under us unless
    // another program writes into the cache folder, which we do not defend against.
    let map =
        unsafe { Mmap::map(&file) }.map_err(|source| TableFileError::Io { path: p(), source })?;
    check_table(&map, path, kind, key)?;
    Ok(MappedTable {
        map,
        private: false,
    })
}

/// The first `len` bytes of `file` read into anonymous memory that asks for huge pages,
/// in parallel blocks; `None` when such memory cannot be had (the caller maps the file
/// instead). A file shorter than `len` is reported as truncated.
fn read_private(file: &File, len: usize, path: &Path) -> Result<Option<Mmap>, TableFileError> {
    use rayon::prelude::*;
    let Some(mut map) = huge_anon(len) else {
        return Ok(None);
    };
    const BLOCK: usize = 1 << 24;
    map.par_chunks_mut(BLOCK)
        .enumerate()
        .try_for_each(|(i, chunk)| read_at(file, chunk, (i * BLOCK) as u64))
        .map_err(|source| match source.kind() {
            std::io::ErrorKind::UnexpectedEof => TableFileError::Truncated(path.to_path_buf()),
            _ => TableFileError::Io {
                path: path.to_path_buf(),
                source,
            },
        })?;
    Ok(map.make_read_only().ok())
}

/// Fills `buf` from `file` at `offset` without moving a shared cursor, so that blocks
/// can be read in parallel.
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset)
}

/// Fills `buf` from `file` at `offset` (elsewhere than Unix: through a clone of the
/// handle, whose cursor this call alone moves).
#[cfg(not(unix))]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = file.try_clone()?;
    f.seek(SeekFrom::Start(offset))?;
    f.read_exact(buf)
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
    fn a_payload_in_parts_hashes_and_reads_as_one() {
        let data = sample();
        for cut in [0, 32, 64, 9_984] {
            let (a, b) = data.split_at(cut);
            assert_eq!(
                content_hash_parts(&[a, b]),
                content_hash(&data),
                "cut {cut}"
            );
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tbl");
        write_table_parts(&path, "prune", 7, &[&data[..64], &data[64..]]).unwrap();
        assert_eq!(&*open_table(&path, "prune", 7).unwrap(), &data[..]);
    }

    #[test]
    fn a_large_table_is_read_into_private_memory_not_mapped() {
        // Large enough to be read rather than mapped; a small one stays mapped.
        let data: Vec<u8> = (0..HUGE_COPY_FROM + 4096)
            .map(|i| (i % 251) as u8)
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.tbl");
        write_table(&path, "prune", 9, &data).unwrap();
        let t = open_table(&path, "prune", 9).unwrap();
        // The file is not mapped while its bytes are held: a mapping's pages would count
        // as resident memory beside the copy (the peak that broke `--memory`).
        #[cfg(target_os = "linux")]
        {
            let maps = fs::read_to_string("/proc/self/maps").unwrap();
            let name = path.canonicalize().unwrap();
            assert!(!maps.contains(&*name.to_string_lossy()), "{maps}");
        }
        assert!(t.is_private());
        assert!(*t == data[..]);
        // Its entries are not copied a second time.
        let entries = entries_from(t, true);
        assert_eq!(entries.len(), data.len());
        let small = dir.path().join("small.tbl");
        write_table(&small, "prune", 9, &data[..4096]).unwrap();
        assert!(!open_table(&small, "prune", 9).unwrap().is_private());
        // Damage is found in a read table as in a mapped one.
        let mut bytes = fs::read(&path).unwrap();
        bytes[HEADER_LEN + 12345] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            open_table(&path, "prune", 9),
            Err(TableFileError::Corrupt(..))
        ));
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

    #[cfg(unix)]
    #[test]
    fn fifos_and_links_are_neither_opened_nor_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("t.ktb");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo reads a NUL-terminated path and touches no Rust memory.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Opening a FIFO for reading would wait for a writer for ever.
        assert!(matches!(
            open_table(&fifo, "prune", 1),
            Err(TableFileError::NotRegular(..))
        ));
        assert!(matches!(
            read_header(&fifo),
            Err(TableFileError::NotRegular(..))
        ));
        assert!(!has_magic(&fifo));
        assert!(matches!(
            write_table(&fifo, "prune", 1, b"x"),
            Err(TableFileError::NotRegular(..))
        ));
        assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());

        let target = dir.path().join("elsewhere");
        fs::write(&target, b"not ours").unwrap();
        let link = dir.path().join("l.ktb");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(matches!(
            write_table(&link, "prune", 1, b"x"),
            Err(TableFileError::NotRegular(..))
        ));
        assert_eq!(fs::read(&target).unwrap(), b"not ours");
        // Nothing was left behind: no temporaries.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 3);
    }

    #[cfg(unix)]
    use std::os::unix::fs::FileTypeExt;

    /// `bytes` read from a file must give a typed error, or a table whose payload is
    /// exactly `bytes` past the header, as `check_table` promises.
    fn checked(bytes: &[u8], kind: &str, key: u64) -> Result<(), TableFileError> {
        let r = check_table(bytes, Path::new("p"), kind, key);
        if r.is_ok() {
            let h = decode_header(bytes, Path::new("p")).unwrap();
            assert_eq!(h.kind, kind);
            assert_eq!(h.key, key);
            assert_eq!(h.payload_len, (bytes.len() - HEADER_LEN) as u64);
        }
        r
    }

    fn valid(kind: &str, key: u64, payload: &[u8]) -> Vec<u8> {
        let mut v = encode_header(kind, key, payload).unwrap().to_vec();
        v.extend_from_slice(payload);
        v
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            key in proptest::prelude::any::<u64>(),
        ) {
            let _ = checked(&bytes, "prune", key);
            // Arbitrary bytes behind a valid magic get past the first check.
            let mut b = MAGIC.to_vec();
            b.extend_from_slice(&bytes);
            proptest::prop_assert!(checked(&b, "prune", key).is_err());
        }

        #[test]
        fn corrupted_valid_files_are_refused(
            payload in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            key in proptest::prelude::any::<u64>(),
            at in proptest::prelude::any::<usize>(),
            flip in 1u8..,
            cut in proptest::prelude::any::<usize>(),
            extra in proptest::collection::vec(proptest::prelude::any::<u8>(), 1..20),
        ) {
            let good = valid("prune", key, &payload);
            proptest::prop_assert!(checked(&good, "prune", key).is_ok());
            let mut flipped = good.clone();
            flipped[at % good.len()] ^= flip;
            proptest::prop_assert!(checked(&flipped, "prune", key).is_err());
            proptest::prop_assert!(checked(&good[..cut % good.len()], "prune", key).is_err());
            let mut longer = good.clone();
            longer.extend_from_slice(&extra);
            proptest::prop_assert!(checked(&longer, "prune", key).is_err());
            proptest::prop_assert!(checked(&good, "prune", key ^ 1).is_err());
            proptest::prop_assert!(checked(&good, "move", key).is_err());
        }

        #[test]
        fn files_on_disk_load_verified_or_fail_typed(
            payload in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
            at in proptest::prelude::any::<usize>(),
            flip in proptest::prelude::any::<u8>(),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("t.ktb");
            write_table(&path, "prune", 7, &payload).unwrap();
            let mut bytes = fs::read(&path).unwrap();
            let i = at % bytes.len();
            bytes[i] ^= flip;
            fs::write(&path, &bytes).unwrap();
            match open_table(&path, "prune", 7) {
                Ok(t) => {
                    proptest::prop_assert_eq!(flip, 0);
                    proptest::prop_assert_eq!(&*t, &payload[..]);
                }
                Err(e) => {
                    proptest::prop_assert!(flip != 0);
                    proptest::prop_assert!(!matches!(e, TableFileError::Missing(_)));
                }
            }
        }
    }
}
