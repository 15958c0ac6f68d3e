//! `ksolve show PUZZLE.def [--alg ALG] [--facelets COLOURS] [--color WHEN] [--svg FILE]`:
//! a picture of a position, as [`ksolve::picture`] draws it: a board as its grid of
//! cells, a sticker map as its net (in colour on a terminal), either as an SVG file with
//! `--svg`; any other puzzle as ksolve+ prints positions. A position given by its colours
//! is drawn with the letters typed.

use super::output;
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::Context;
use ksolve::alg::{self, AlgLine, MoveNames};
use ksolve::def::load_puzzle;
use ksolve::group::Group;
use ksolve::picture::{self, Look};
use ksolve::puzzle::{Puzzle, State};
use ksolve::sticker::{lettering::Lettering, read};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// When to draw in colour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// When standard output is a terminal.
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    /// Whether to draw in colour now.
    pub fn on(self) -> bool {
        match self {
            ColorWhen::Auto => std::io::stdout().is_terminal(),
            ColorWhen::Always => true,
            ColorWhen::Never => false,
        }
    }
}

/// Arguments of `ksolve show`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve show puzzles/3x3x3.def --alg \"R U R' U'\"
  ksolve show puzzles/3x3x3.def --facelets UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB
  ksolve show puzzles/3x3x3.def --alg \"R U\" --svg cube.svg --color never

The 3x3x3's facelet string lists the faces U R F D L B, each row by row as in the net
printed here; any six distinct letters will do, the centres say which is which face.")]
pub struct ShowArgs {
    /// The puzzle definition file (ksolve+ `.def` format).
    pub def: PathBuf,
    /// The algorithm to apply to the solved state.
    #[arg(long, value_name = "ALG")]
    pub alg: Option<String>,
    /// The position by its colours, one letter per sticker in the order of the
    /// definition's `Stickers` block (applied before --alg).
    #[arg(long, value_name = "COLOURS")]
    pub facelets: Option<String>,
    /// When to draw in colour (ANSI).
    #[arg(long, value_enum, default_value_t, value_name = "WHEN")]
    pub color: ColorWhen,
    /// Also write the net as an SVG picture to FILE (a regular file, replaced whole).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// The position a facelet string shows, as a scramble's start, with the letters it
/// used for each face (so that pictures show them again): `Err` with the reason for an
/// impossible colouring, an error for a malformed one.
pub fn from_facelets(
    puzzle: &Puzzle,
    facelets: &str,
) -> anyhow::Result<Result<(State, Lettering), String>> {
    let letters: Vec<char> = facelets.chars().filter(|c| !c.is_whitespace()).collect();
    let group = Group::new(puzzle).ok();
    match read::read(puzzle, &letters, group.as_ref()).context("--facelets")? {
        read::Reading::Position(s) => {
            // A position was read, so the puzzle has a sticker map.
            let lettering = puzzle
                .stickers
                .as_ref()
                .map(|map| Lettering::new(map, &puzzle.sets, &s, &letters))
                .unwrap_or_default();
            Ok(Ok((s, lettering)))
        }
        read::Reading::Impossible(p) => Ok(Err(p.to_string())),
    }
}

pub fn run(args: ShowArgs) -> anyhow::Result<u8> {
    let (puzzle, warnings) = load_puzzle(&args.def)?;
    for w in &warnings {
        errln!("warning: {w}");
    }
    let mut state = puzzle.solved.clone();
    let mut look = Look {
        ansi: args.color.on(),
        lettering: None,
    };
    if let Some(f) = &args.facelets {
        match from_facelets(&puzzle, f)? {
            Ok((s, lettering)) => {
                state = s;
                look.lettering = Some(lettering);
            }
            Err(why) => {
                writeln!(output::stdout(), "Impossible position: {why}.")?;
                return Ok(EXIT_NO_SOLUTION);
            }
        }
    }
    if let Some(text) = &args.alg {
        let names = MoveNames::new(&puzzle);
        let lines: Vec<AlgLine> = text
            .split('\n')
            .enumerate()
            .map(|(i, t)| AlgLine { no: i + 1, text: t })
            .collect();
        let parsed = alg::parse("<argument>", &lines, &names)?;
        let seq = parsed.legal_moves(&puzzle, "<argument>", &lines)?;
        state = seq
            .iter()
            .fold(state, |s, &m| s.then(&puzzle.mv(m).effect, &puzzle.sets));
    }
    if let Some(path) = &args.svg {
        let svg = ksolve::picture::svg(&puzzle, &state, &look).with_context(|| {
            format!(
                "cannot draw {} as SVG: the definition has no `Stickers` or `Board` block",
                args.def.display()
            )
        })?;
        ksolve::storage::fsutil::write_atomic(path, svg.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut out = output::stdout();
    write!(out, "{}", picture::text(&puzzle, &state, &look))?;
    out.flush()?;
    Ok(EXIT_OK)
}
