//! `ksolve merge DIR`: prints the results of a batch solved in shards
//! (`ksolve solve ... --shard K/N --out DIR`) in the scramble file's order, exactly as
//! one `ksolve solve` run prints them, in text or with `--json`. The reading and
//! checking is `ksolve::batch::merge_dir`; this prints and picks the exit code.

use super::output;
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use ksolve::batch::merge_dir;
use std::io::Write;
use std::path::PathBuf;

/// Print the results of a batch solved in shards, as one run prints them.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve solve puzzles/2x2x2.def scrambles/2x2x2.batch.txt --seed 1 --shard 0/2 --out res
  ksolve solve puzzles/2x2x2.def scrambles/2x2x2.batch.txt --seed 1 --shard 1/2 --out res
  ksolve merge res                   the text `ksolve solve` prints for the whole file
  ksolve merge res --json            one JSON object per scramble, as `solve --json`

Every shard-K-of-N.jsonl in DIR must belong to one batch (the same N, definition and
scramble file, and options that change the output). Exit status: 0 when every scramble
was solved, 1 when some was not or shards are missing (they are named), 2 when the
shards do not belong together or cannot be read.")]
pub struct MergeArgs {
    /// The folder the shards wrote to (their --out).
    pub dir: PathBuf,
    /// Print one JSON object per scramble per line, as `ksolve solve --json` does.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: MergeArgs) -> anyhow::Result<u8> {
    // A `stats` batch's shards sum their counts instead.
    if let Some(code) = super::stats_shard::merge(&args.dir, args.json) {
        return code;
    }
    let merged = merge_dir(&args.dir)?;
    if !merged.missing.is_empty() {
        let n = merged.missing.len();
        errln!(
            "error: {n} of the {} shards {} missing from {}: {}",
            merged.header.shards,
            if n == 1 { "is" } else { "are" },
            args.dir.display(),
            merged.missing_files().join(", ")
        );
        return Ok(EXIT_NO_SOLUTION);
    }
    let mut out = output::stdout();
    let mut code = EXIT_OK;
    for r in &merged.records {
        if args.json {
            writeln!(out, "{}", r.json.get())?;
        } else {
            out.write_all(r.text.as_bytes())?;
        }
        if !r.solved() {
            code = EXIT_NO_SOLUTION;
        }
    }
    out.flush()?;
    Ok(code)
}
