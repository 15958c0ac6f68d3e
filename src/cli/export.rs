//! `ksolve export DEF [--kpuzzle] [-o FILE]`: writes a definition read in any format
//! (ksolve+, twsearch, KPuzzle JSON) as a ksolve+ `.def` or, with `--kpuzzle`, as
//! cubing.js's KPuzzle JSON, to standard output or atomically to a file.

use super::{output, EXIT_OK};
use anyhow::Context;
use ksolve::def::{load_puzzle, write_def};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `ksolve export`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve export puzzles/2x2x2.def --kpuzzle > 2x2x2.kpuzzle.json
  ksolve export 3x3x3.kpuzzle.json -o 3x3x3.def     a KPuzzle as a ksolve+ definition

What KPuzzle cannot say (guarded moves, blocks, moves without inverse, move costs,
forbidden pairs, ignored pieces, goals that are sets, SearchMoves, the sticker map,
the board) goes into a \"ksolve\" object that cubing.js ignores, so the file reads
back to the same puzzle.")]
pub struct ExportArgs {
    /// The puzzle definition (ksolve+ `.def`, twsearch `.tws` or KPuzzle `.json`).
    pub def: PathBuf,
    /// Write cubing.js's KPuzzle JSON instead of a ksolve+ definition.
    #[arg(long)]
    pub kpuzzle: bool,
    /// Write to this file (replaced atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(args: ExportArgs) -> anyhow::Result<u8> {
    let (puzzle, warnings) = load_puzzle(&args.def)?;
    for w in &warnings {
        errln!("warning: {w}");
    }
    let text = if args.kpuzzle {
        ksolve::kpuzzle::write_definition(&puzzle)
            .with_context(|| format!("cannot export {}", args.def.display()))?
            .json
    } else {
        write_def(&puzzle)
    };
    match &args.output {
        Some(path) => ksolve::storage::fsutil::write_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => output::stdout().write_all(text.as_bytes())?,
    }
    Ok(EXIT_OK)
}
