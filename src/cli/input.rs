//! Reading a scramble file named on the command line, where `-` means standard input
//! (`ksolve solve DEF -`, `ksolve check DEF -`), so that scrambles can be piped in; and
//! reading standard input a line at a time (`alg`, scripted `play`), each line capped.

use ksolve::def::{parse_scrambles, read_file, DefError};
use ksolve::puzzle::{Puzzle, Scramble};
use ksolve::storage::fsutil::MAX_INPUT_BYTES;
use std::io::{BufRead, Read};
use std::path::Path;

/// How standard input is named in messages (`<stdin>:3:1: ...`).
pub const STDIN_NAME: &str = "<stdin>";

/// The most bytes one line of standard input may hold where it is read a line at a time
/// (`alg`, scripted `play`): far more than any algorithm or command typed or generated,
/// and a bound on the memory an endless line (`< /dev/zero`) can take.
pub const MAX_LINE_BYTES: u64 = 1 << 24;

/// Reads line `no` (1-based) of `reader` into `buf`, without its line break (`\n` or
/// `\r\n`); `Ok(false)` at the end of the input. A line longer than [`MAX_LINE_BYTES`] is
/// refused at `<stdin>:NO` with what was `expected` there, after reading no more than
/// the cap.
pub fn read_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    no: usize,
    expected: &str,
) -> anyhow::Result<bool> {
    buf.clear();
    let n = reader
        .take(MAX_LINE_BYTES + 1)
        .read_until(b'\n', buf)
        .map_err(|e| anyhow::anyhow!("{STDIN_NAME}:{no}: cannot read standard input: {e}"))?;
    if n == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if n as u64 > MAX_LINE_BYTES {
        anyhow::bail!(
            "{STDIN_NAME}:{no}: the line goes on past {MAX_LINE_BYTES} bytes: expected {expected}"
        );
    }
    Ok(true)
}

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
