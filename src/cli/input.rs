//! Reading a scramble file named on the command line, where `-` means standard input
//! (`ksolve solve DEF -`, `ksolve check DEF -`), so that scrambles can be piped in.

use ksolve::def::{parse_scrambles, read_file, DefError};
use ksolve::puzzle::{Puzzle, Scramble};
use ksolve::storage::fsutil::MAX_INPUT_BYTES;
use std::io::Read;
use std::path::Path;

/// How standard input is named in messages (`<stdin>:3:1: ...`).
pub const STDIN_NAME: &str = "<stdin>";

/// Whether `path` is the `-` that stands for standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The name of a scramble source in messages and summaries.
pub fn display_name(path: &Path) -> String {
    if is_stdin(path) {
        STDIN_NAME.to_string()
    } else {
        path.display().to_string()
    }
}

/// Reads and parses the scrambles at `path`, or on standard input when it is `-`.
/// Standard input is capped at the size ksolve reads from any file, so that an endless
/// pipe is refused rather than filling memory.
pub fn scrambles(path: &Path, puzzle: &Puzzle) -> anyhow::Result<Vec<Scramble>> {
    Ok(scrambles_and_bytes(path, puzzle)?.0)
}

/// [`scrambles`], with the bytes they were read from (which a shard of a batch hashes).
pub fn scrambles_and_bytes(
    path: &Path,
    puzzle: &Puzzle,
) -> anyhow::Result<(Vec<Scramble>, Vec<u8>)> {
    if !is_stdin(path) {
        let bytes = read_file(path)?;
        let scrambles = parse_scrambles(&bytes, &path.display().to_string(), puzzle)?;
        return Ok((scrambles, bytes));
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow::anyhow!("{STDIN_NAME}: cannot read standard input: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        anyhow::bail!(
            "{STDIN_NAME}: larger than {MAX_INPUT_BYTES} bytes, the most ksolve reads: \
             expected a ksolve+ scramble file"
        );
    }
    let scrambles: Result<_, DefError> = parse_scrambles(&bytes, STDIN_NAME, puzzle);
    Ok((scrambles?, bytes))
}

/// Reads and parses a definition, showing its warnings: the first step of every
/// command that works on one. Returns the puzzle, the file's bytes (they key the table
/// cache and a shard's header) and the name errors and output use for the file.
pub fn definition(
    path: &Path,
    bars: &super::progress::Bars,
) -> anyhow::Result<(Puzzle, Vec<u8>, String)> {
    let def_name = path.display().to_string();
    let bytes = read_file(path)?;
    let (puzzle, warnings) = ksolve::def::parse_puzzle(&bytes, &def_name)?;
    for w in &warnings {
        ksolve::progress::Progress::warn(bars, &w.to_string());
    }
    Ok((puzzle, bytes, def_name))
}
