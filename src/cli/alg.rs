//! `ksolve alg PUZZLE.def invert|simplify|order|show [ALG]`: everyday tools on
//! algorithms written in the notation of [`ksolve::alg`]. With no ALG (or `-`) every
//! line of standard input is one algorithm and gets its own answer, for batch use.

use super::EXIT_OK;
use super::{input, output};
use ksolve::alg::{self, AlgLine, MoveNames};
use ksolve::def::{format_state, load_puzzle};
use ksolve::puzzle::Puzzle;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `ksolve alg`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve alg puzzles/3x3x3.def invert \"R U R' U'\"     prints U R U' R'
  ksolve alg puzzles/3x3x3.def order \"R U\"            prints 105
  ksolve alg puzzles/3x3x3.def simplify \"[R: U] R2\"   prints R U R
  cat algs.txt | ksolve alg puzzles/3x3x3.def invert    one line out per line in

Notation: R2' R3 (powers), (R U)3 and (R U)' (groups), [R, U] (commutator),
[R: U] (conjugate), // comment. A word that is a move's name is always that move.")]
pub struct AlgArgs {
    /// The puzzle definition file (ksolve+ `.def` format).
    pub def: PathBuf,
    /// What to do with each algorithm.
    #[arg(value_enum)]
    pub action: Action,
    /// The algorithm, quoted; without it (or with `-`), one algorithm per line of
    /// standard input.
    pub alg: Option<String>,
}

/// The `alg` actions.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Action {
    /// Print the inverse, as moves of the definition.
    Invert,
    /// Cancel and merge moves of the same base move, also across commuting moves.
    Simplify,
    /// Print how many repeats bring every piece home (the order of the transformation).
    Order,
    /// Print the position the algorithm makes from solved, in ksolve+'s form.
    Show,
}

pub fn run(args: AlgArgs) -> anyhow::Result<u8> {
    let (puzzle, warnings) = load_puzzle(&args.def)?;
    for w in &warnings {
        errln!("warning: {w}");
    }
    let names = MoveNames::new(&puzzle);
    let mut out = output::stdout();
    match args.alg.as_deref() {
        Some(text) if text != "-" => {
            let lines: Vec<AlgLine> = text
                .split('\n')
                .enumerate()
                .map(|(i, t)| AlgLine { no: i + 1, text: t })
                .collect();
            answer(&mut out, &puzzle, &names, args.action, "<argument>", &lines)?;
        }
        _ => {
            let stdin = std::io::stdin();
            let mut reader = stdin.lock();
            let mut buf = Vec::new();
            let mut no = 0;
            // Lines are capped, so that an endless one (`< /dev/zero`) is refused
            // rather than read until memory runs out.
            while input::read_line(&mut reader, &mut buf, no + 1, "one algorithm per line")? {
                no += 1;
                let text = String::from_utf8_lossy(&buf);
                let lines = [AlgLine { no, text: &text }];
                answer(&mut out, &puzzle, &names, args.action, "<stdin>", &lines)?;
                if matches!(args.action, Action::Show) {
                    // Positions take several lines each: a blank line ends each one.
                    writeln!(out)?;
                }
            }
        }
    }
    out.flush()?;
    Ok(EXIT_OK)
}

/// Reads one algorithm and prints what `action` asks about it.
fn answer(
    out: &mut impl Write,
    puzzle: &Puzzle,
    names: &MoveNames,
    action: Action,
    file: &str,
    lines: &[AlgLine],
) -> anyhow::Result<()> {
    let parsed = alg::parse(file, lines, names)?;
    // Every action is about the algorithm as written, so it must be legal on a
    // bandaged puzzle; its moves, forwards, are what the actions below work on.
    let forward = parsed.legal_moves(puzzle, file, lines)?;
    match action {
        Action::Invert => {
            let seq = parsed.moves(puzzle, true);
            writeln!(out, "{}", puzzle.format_sequence(&seq))?;
        }
        Action::Simplify => {
            let seq = alg::simplify(puzzle, &forward);
            writeln!(out, "{}", puzzle.format_sequence(&seq))?;
        }
        Action::Order => {
            writeln!(out, "{}", alg::order(puzzle, &forward))?;
        }
        Action::Show => {
            let state = puzzle.apply_sequence(&puzzle.solved, &forward);
            write!(out, "{}", format_state(puzzle, &state))?;
        }
    }
    Ok(())
}
