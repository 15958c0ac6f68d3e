//! The command-line layer: argument parsing (clap), the ksolve+-compatible argument
//! forms, progress drawing, printing and exit codes. This is the only code that prints.

// `eprintln!` panics when stderr cannot be written (full, or a pipe whose reader left),
// which would turn an exit code of 2 into 101: every message goes through `errln!`.
#![deny(clippy::print_stderr)]

/// `eprintln!` that cannot panic: see [`output::err_line`].
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::output::err_line(format_args!($($arg)*))
    };
}

mod alg;
mod build;
mod cache;
mod chain;
mod check;
mod export;
mod fast;
mod god;
mod god_dist;
mod input;
mod merge;
mod output;
mod overrides;
mod play;
mod progress;
mod scramble;
mod shard_args;
mod shell;
mod show;
mod sink;
mod solve;
mod stats;
mod stats_shard;
mod summary;
mod table_args;
mod verbose;

use clap::error::{ContextKind, ErrorKind};
use clap::{CommandFactory, Parser, Subcommand};
use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

/// Exit code: every scramble solved, or the command did what it was asked.
pub const EXIT_OK: u8 = 0;
/// Exit code: some scramble had no solution within its limits (or cannot be solved).
pub const EXIT_NO_SOLUTION: u8 = 1;
/// Exit code: bad input or any other error.
pub const EXIT_ERROR: u8 = 2;

/// A generic twisty-puzzle solver for ksolve+ definition files.
///
/// The ksolve+ forms work unchanged: `ksolve PUZZLE.def SCRAMBLES.txt` solves,
/// `ksolve PUZZLE.def !` (or `!q` for the quarter-turn metric) computes God's algorithm.
#[derive(Debug, Parser)]
#[command(
    name = "ksolve",
    version,
    about,
    long_about = None,
    override_usage = "ksolve <COMMAND> [ARGS]
       ksolve PUZZLE.def SCRAMBLES.txt [SOLVE OPTIONS]   (ksolve+: same as `ksolve solve`)
       ksolve PUZZLE.def !                               (ksolve+: same as `ksolve god`)
       ksolve PUZZLE.def !q                              (ksolve+: `ksolve god --qtm`)",
    after_help = "Examples:
  ksolve puzzles/2x2x2.def scrambles/2x2x2.txt       solve every scramble optimally
  ksolve puzzles/2x2x2.def !                         God's algorithm, half-turn metric
  ksolve solve puzzles/3x3x3.def --alg \"R U R' U'\"    solve what an algorithm makes
  ksolve check puzzles/3x3x3.def                     what ksolve read, and the group size
  ksolve play puzzles/rotate.def scrambles/rotate.txt   play a session (`help` inside)

`ksolve help COMMAND` (or `ksolve COMMAND --help`) shows each command's options and
examples."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate a definition (and a scramble file) and summarize what ksolve read.
    Check(check::CheckArgs),
    /// Show the chain of subgroups `solve --fast` solves along: each phase's groups,
    /// coset count and tables.
    Chain(chain::ChainArgs),
    /// Count the positions at each distance from solved (God's algorithm) and print
    /// the antipodes; ksolve+'s `DEF !` and `DEF !q`.
    God(god::GodArgs),
    /// Solve every scramble of a scramble file optimally (ksolve+'s `ksolve DEF SCR`).
    Solve(Box<solve::SolveArgs>),
    /// Build tables ahead of time, list or clear the table cache folder (`tables build
    /// DEF`, `tables list`, `tables clear [DEF]`; also spelt `cache`).
    #[command(visible_alias = "cache")]
    Tables(cache::CacheArgs),
    /// Invert, simplify, measure or show algorithms (`alg DEF invert "R U R' U'"`);
    /// without an algorithm, one per line of standard input.
    Alg(alg::AlgArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(shell::CompletionsArgs),
    /// Print the manual page, in roff (`ksolve man | man -l -`).
    Man(shell::ManArgs),
    /// Solve random positions optimally and print the distribution of their lengths
    /// (`stats DEF --random 1000`, or `--walk LENGTH --count N`).
    Stats(stats::StatsArgs),
    /// Draw a position as its board or its net of stickers (in colour on a terminal, or as
    /// SVG), from an algorithm or a facelet string; in ksolve+'s form without either.
    Show(show::ShowArgs),
    /// Print the results of a batch solved in shards (`solve ... --shard K/N --out DIR`)
    /// in the input's order, as one `ksolve solve` run prints them.
    Merge(merge::MergeArgs),
    /// Write a definition (ksolve+, twsearch or KPuzzle JSON) as a ksolve+ `.def` or,
    /// with `--kpuzzle`, as cubing.js's KPuzzle JSON.
    Export(export::ExportArgs),
    /// Print random-state scrambles: each the inverse of a short solution of a position
    /// drawn uniformly among those the moves reach (`scramble DEF -n 5`).
    Scramble(scramble::ScrambleArgs),
    /// Play with a puzzle in a session: moves, undo, scrambles (Rotate's levels), optimal
    /// solutions step by step, hints, reachability checks and macros.
    Play(play::PlayArgs),
}

/// Names that select a subcommand; anything else in first place is a ksolve+-style
/// definition file.
const SUBCOMMANDS: &[&str] = &[
    "check",
    "chain",
    "solve",
    "god",
    "tables",
    "cache",
    "alg",
    "stats",
    "completions",
    "man",
    "show",
    "merge",
    "play",
    "scramble",
    "export",
    "help",
];

/// Whether clap would suggest a subcommand for `word` (`sovle` → `solve`), by its own
/// similarity rule, so that the suggestion is the one clap prints.
fn close_to_subcommand(word: &str) -> bool {
    match Cli::command().try_get_matches_from(["ksolve", word]) {
        Err(e) => {
            e.kind() == ErrorKind::InvalidSubcommand
                && e.get(ContextKind::SuggestedSubcommand).is_some()
        }
        Ok(_) => false,
    }
}

/// Rewrites ksolve+'s positional forms into subcommands: `DEF !` and `DEF !q` become
/// `god DEF [--qtm]`, `DEF SCRAMBLES` becomes `solve DEF SCRAMBLES`. Options after the
/// files pass through unchanged. A first word that is no file and is close to a
/// subcommand's name is a mistyped subcommand (`ksolve sovle x.def`): it is left for
/// clap, which suggests the subcommand, rather than read as a definition that does not
/// exist.
fn rewrite_legacy(args: Vec<OsString>) -> Vec<OsString> {
    let Some(first) = args.get(1).and_then(|a| a.to_str()) else {
        return args;
    };
    if first.starts_with('-') || SUBCOMMANDS.contains(&first) {
        return args;
    }
    if !Path::new(first).exists() && close_to_subcommand(first) {
        return args;
    }
    let mut out = vec![args[0].clone()];
    match args.get(2).and_then(|a| a.to_str()) {
        Some("!") => {
            out.extend(["god".into(), args[1].clone()]);
            out.extend(args[3..].iter().cloned());
        }
        Some("!q") => {
            out.extend(["god".into(), args[1].clone(), "--qtm".into()]);
            out.extend(args[3..].iter().cloned());
        }
        _ => {
            out.push("solve".into());
            out.extend(args[1..].iter().cloned());
        }
    }
    out
}

/// Runs the program and maps its outcome to an exit code. Errors are printed once,
/// with their chain of causes, to stderr; a closed standard output ends the program
/// quietly with status 0.
pub fn main() -> ExitCode {
    let args = rewrite_legacy(std::env::args_os().collect());
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_ERROR } else { EXIT_OK };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        // The reader of our output is gone (`| head`): not an error, see `output`.
        Err(e) if output::is_broken_pipe(&e) => ExitCode::from(EXIT_OK),
        Err(e) => {
            errln!("error: {}", output::chain(&e));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Chain(args) => chain::run(args),
        Command::God(args) => god::run(args),
        Command::Solve(args) => solve::run(*args),
        Command::Tables(args) => cache::run(args),
        Command::Alg(args) => alg::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Completions(args) => shell::completions(args),
        Command::Man(args) => shell::man(args),
        Command::Show(args) => show::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Play(args) => play::run(args),
        Command::Scramble(args) => scramble::run(args),
        Command::Export(args) => export::run(args),
    }
}

#[cfg(test)]
mod tests {
    use super::{rewrite_legacy, Cli, SUBCOMMANDS};
    use clap::CommandFactory;

    /// `SUBCOMMANDS` decides what is a subcommand before clap sees the arguments, so it
    /// must name exactly clap's subcommands.
    #[test]
    fn subcommands_list_matches_clap() {
        let mut clap: Vec<String> = Cli::command()
            .get_subcommands()
            .flat_map(|c| {
                std::iter::once(c.get_name().to_string())
                    .chain(c.get_visible_aliases().map(str::to_string))
            })
            .chain(["help".to_string()])
            .collect();
        clap.sort();
        let mut ours: Vec<String> = SUBCOMMANDS.iter().map(|s| s.to_string()).collect();
        ours.sort();
        assert_eq!(ours, clap);
    }

    #[test]
    fn mistyped_subcommands_are_left_to_clap() {
        assert_eq!(words(&["k", "sovle", "x.def"]), ["k", "sovle", "x.def"]);
        assert_eq!(words(&["k", "chek", "x.def"]), ["k", "chek", "x.def"]);
        // Far from every subcommand: a definition that may not exist, read as before.
        assert_eq!(
            words(&["k", "nothere.def", "s.txt"]),
            ["k", "solve", "nothere.def", "s.txt"]
        );
    }

    fn words(args: &[&str]) -> Vec<String> {
        let out = rewrite_legacy(args.iter().map(Into::into).collect());
        out.into_iter().map(|a| a.into_string().unwrap()).collect()
    }

    #[test]
    fn ksolve_plus_forms_become_subcommands() {
        assert_eq!(words(&["k", "a.def", "!"]), ["k", "god", "a.def"]);
        assert_eq!(words(&["k", "a.def", "!q"]), ["k", "god", "a.def", "--qtm"]);
        assert_eq!(
            words(&["k", "a.def", "s.txt"]),
            ["k", "solve", "a.def", "s.txt"]
        );
        assert_eq!(words(&["k", "check", "a.def"]), ["k", "check", "a.def"]);
        assert_eq!(words(&["k", "cache", "list"]), ["k", "cache", "list"]);
        assert_eq!(
            words(&["k", "alg", "a.def", "order", "R"]),
            ["k", "alg", "a.def", "order", "R"]
        );
        assert_eq!(words(&["k", "--help"]), ["k", "--help"]);
    }
}
