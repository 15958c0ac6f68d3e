//! Reading a folder of shard files back as one batch: `ksolve merge DIR`.
//!
//! Every `shard-K-of-N.jsonl` in the folder is read and checked: its header must agree
//! with its name and with every other shard's (the same N, definition and scramble
//! hashes, options and ksolve version), and it must hold exactly the records of the
//! scrambles K, K + N, K + 2N, ... of the file, in order. Anything else in the folder
//! (temporaries of running or killed shards, other files) is left alone. Shards that are
//! not there yet are listed, not treated as an error, so the caller can name them.

use super::record::{Header, Record, FORMAT};
use super::select::Shard;
use crate::storage::fsutil::{read_regular, MAX_INPUT_BYTES};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Why a folder of shards cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("cannot read {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error(
        "{} holds no shard files: expected files named shard-K-of-N.jsonl, written by \
         `ksolve solve ... --out {}`",
        dir.display(), dir.display()
    )]
    NoShards { dir: PathBuf },
    #[error("{}:{line}:{col}: {message}\n  | {text}\n  expected {expected}", path.display())]
    Bad {
        path: PathBuf,
        line: usize,
        col: usize,
        text: String,
        message: String,
        expected: String,
    },
    #[error(
        "{} and {} are shards of different batches: their {what} differ ({a} and {b}); \
         merge the shards of one `ksolve solve` batch at a time",
        first.display(), other.display()
    )]
    Mismatch {
        first: PathBuf,
        other: PathBuf,
        what: &'static str,
        a: String,
        b: String,
    },
}

/// The shards of a batch, read and checked.
#[derive(Debug)]
pub struct Merged {
    /// The header of the lowest-numbered shard present (the others agree with it).
    pub header: Header,
    /// The shard numbers with no file in the folder, ascending.
    pub missing: Vec<u32>,
    /// The records of the shards present, in scramble-file order.
    pub records: Vec<Record>,
}

impl Merged {
    /// The file names of the missing shards.
    pub fn missing_files(&self) -> Vec<String> {
        self.missing
            .iter()
            .map(|&index| {
                Shard {
                    index,
                    count: self.header.shards,
                }
                .file_name()
            })
            .collect()
    }
}

/// One shard file, parsed.
struct ShardFile {
    path: PathBuf,
    shard: Shard,
    header: Header,
    records: Vec<Record>,
}

/// Reads and checks every shard file in `dir`.
pub fn merge_dir(dir: &Path) -> Result<Merged, MergeError> {
    let io_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| MergeError::Io { path, source }
    };
    let mut found: Vec<(Shard, PathBuf)> = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_err(dir))? {
        let entry = entry.map_err(io_err(dir))?;
        let name = entry.file_name();
        if let Some(shard) = name.to_str().and_then(Shard::from_file_name) {
            found.push((shard, entry.path()));
        }
    }
    // Ordered by N, then K, so the messages about mismatches are reproducible.
    found.sort_by_key(|(s, _)| (s.count, s.index));
    let mut files = Vec::with_capacity(found.len());
    for (shard, path) in found {
        let bytes = read_regular(&path, MAX_INPUT_BYTES).map_err(io_err(&path))?;
        files.push(parse_file(&path, shard, &bytes)?);
    }
    let Some(first) = files.first() else {
        return Err(MergeError::NoShards {
            dir: dir.to_path_buf(),
        });
    };
    for other in &files[1..] {
        compare(first, other)?;
    }
    let header = first.header.clone();
    let mut present = vec![false; header.shards as usize];
    for f in &files {
        present[f.shard.index as usize] = true;
    }
    let missing = (0..header.shards)
        .filter(|&k| !present[k as usize])
        .collect();
    // Record i is the (i / N)-th of shard i mod N: interleave the shards' lists.
    let n = header.shards as usize;
    let mut lists: Vec<std::vec::IntoIter<Record>> = vec![Vec::new().into_iter(); n];
    for f in files {
        lists[f.shard.index as usize] = f.records.into_iter();
    }
    let mut records = Vec::new();
    for i in 0..header.scrambles as usize {
        if let Some(r) = lists[i % n].next() {
            records.push(r);
        }
    }
    Ok(Merged {
        header,
        missing,
        records,
    })
}

/// Refuses two shards of different batches, naming the first field that differs.
fn compare(a: &ShardFile, b: &ShardFile) -> Result<(), MergeError> {
    let (x, y) = (&a.header, &b.header);
    let fields: [(&'static str, String, String); 6] = [
        (
            "numbers of shards",
            x.shards.to_string(),
            y.shards.to_string(),
        ),
        (
            "definition hashes (SHA-256)",
            x.def_sha256.clone(),
            y.def_sha256.clone(),
        ),
        (
            "scramble file hashes (SHA-256)",
            x.scrambles_sha256.clone(),
            y.scrambles_sha256.clone(),
        ),
        ("options", x.options.join(" "), y.options.join(" ")),
        ("ksolve versions", x.version.clone(), y.version.clone()),
        (
            "scramble counts",
            x.scrambles.to_string(),
            y.scrambles.to_string(),
        ),
    ];
    for (what, va, vb) in fields {
        if va != vb {
            return Err(MergeError::Mismatch {
                first: a.path.clone(),
                other: b.path.clone(),
                what,
                a: va,
                b: vb,
            });
        }
    }
    Ok(())
}

/// Parses one shard file and checks it against its name: the header first, then the
/// records of exactly the scrambles the shard takes, in order.
fn parse_file(path: &Path, shard: Shard, bytes: &[u8]) -> Result<ShardFile, MergeError> {
    let bad = |line: usize, col: usize, text: &[u8], message: String, expected: String| {
        // A quoted line is cut short: a record can hold a long text block.
        let text = String::from_utf8_lossy(text);
        let text: String = text.chars().take(200).collect();
        MergeError::Bad {
            path: path.to_path_buf(),
            line,
            col,
            text,
            message,
            expected,
        }
    };
    let mut lines = bytes.split(|&b| b == b'\n');
    let head = lines.next().unwrap_or_default();
    let header: Header = serde_json::from_slice(head).map_err(|e| {
        bad(
            1,
            e.column().max(1),
            head,
            format!("not a shard header: {}", without_position(&e)),
            "the header line `ksolve solve --out` writes".into(),
        )
    })?;
    if header.ksolve_shard != FORMAT {
        return Err(bad(
            1,
            1,
            head,
            format!("shard file format {}", header.ksolve_shard),
            format!("format {FORMAT}, the one this ksolve reads"),
        ));
    }
    if header.shard != shard.index || header.shards != shard.count {
        return Err(bad(
            1,
            1,
            head,
            format!(
                "the header says shard {}/{}, the file name {shard}",
                header.shard, header.shards
            ),
            "a file named for the shard it holds (was it renamed?)".into(),
        ));
    }
    let want =
        (0..header.scrambles).filter(|&i| i % u64::from(shard.count) == u64::from(shard.index));
    let mut want = want.peekable();
    let mut records = Vec::new();
    let mut no = 1;
    for text in lines {
        no += 1;
        // The file ends with a line break, so the last piece is empty.
        if text.is_empty() {
            continue;
        }
        let record: Record = serde_json::from_slice(text).map_err(|e| {
            bad(
                no,
                e.column().max(1),
                text,
                format!("not a shard record: {}", without_position(&e)),
                "one scramble's record per line".into(),
            )
        })?;
        match want.next() {
            Some(i) if i == record.index => records.push(record),
            expected => {
                let expected = match expected {
                    Some(i) => format!("the record of scramble {i} (0-based) next"),
                    None => format!(
                        "no more records: shard {shard} of {} scrambles ends here",
                        header.scrambles
                    ),
                };
                return Err(bad(
                    no,
                    1,
                    text,
                    format!("the record of scramble {}", record.index),
                    expected,
                ));
            }
        }
    }
    if let Some(i) = want.next() {
        return Err(bad(
            no,
            1,
            b"",
            "the file ends here".into(),
            format!(
                "the record of scramble {i} (0-based): the file is cut short ({} of {} records)",
                records.len(),
                shard.share(header.scrambles as usize)
            ),
        ));
    }
    Ok(ShardFile {
        path: path.to_path_buf(),
        shard,
        header,
        records,
    })
}

/// serde_json's message without its ` at line L column C`: the error already starts
/// with the file's own line and column.
fn without_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(at) => s[..at].to_string(),
        None => s,
    }
}
