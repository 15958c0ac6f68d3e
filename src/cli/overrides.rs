//! The `solve` flags that stand in for a scramble file or override its settings:
//! `--alg` (solve the position an algorithm makes), `--slack`, `--max-depth`, `--qtm` /
//! `--htm` and `--moves`.
//!
//! Precedence: a flag given on the command line replaces the matching setting of every
//! scramble (`Slack`, `MaxDepth`, `QTM`/`HTM`, `MoveLimits`), wherever the file sets it;
//! settings the command line does not name keep the file's values.

use ksolve::alg::{self, AlgLine, MoveNames};
use ksolve::puzzle::{Auf, Metric, MoveLimit, Puzzle, Scramble, ScrambleSource, SolveSettings};
use std::sync::Arc;

/// Where `--alg` text is said to come from in error messages.
const ALG_SOURCE: &str = "<--alg>";

/// The scramble-file settings the command line may give instead.
#[derive(Debug, Default, clap::Args)]
pub struct Overrides {
    /// Solve the position this algorithm makes from solved, instead of reading a
    /// scramble file (the notation of `ksolve alg`). May be given several times: each is
    /// one scramble, solved in order, named by its text.
    #[arg(long, value_name = "ALG", conflicts_with = "scrambles")]
    pub alg: Vec<String>,
    /// Print solutions up to N moves longer than optimal (replaces the file's `Slack`).
    #[arg(long, value_name = "N")]
    pub slack: Option<u32>,
    /// Try solutions of at most N moves (replaces the file's `MaxDepth`).
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
    /// Count quarter turns (replaces the file's `HTM`/`QTM`).
    #[arg(long, conflicts_with = "htm")]
    pub qtm: bool,
    /// Count every move as 1 (replaces the file's `HTM`/`QTM`).
    #[arg(long)]
    pub htm: bool,
    /// Search only these moves and their powers, such as `U,R,F` (replaces the file's
    /// `MoveLimits`: every other move is limited to 0). May be given several times.
    #[arg(long, value_name = "MOVES", value_delimiter = ',')]
    pub moves: Vec<String>,
    /// Count a position as solved when a turn of MOVE (any power) would solve it, and
    /// print each algorithm once, with the turn it still needs (`--post-auf U`: the
    /// algorithms of a last-layer case up to the last U turn). Widens the file's goal
    /// the same way.
    #[arg(long, value_name = "MOVE")]
    pub post_auf: Option<String>,
}

impl Overrides {
    /// The scrambles `--alg` asks for, each with the default settings (the overrides are
    /// applied afterwards, as to a file's scrambles). Errors name `<--alg>:LINE:COL`.
    pub fn alg_scrambles(&self, puzzle: &Puzzle) -> anyhow::Result<Vec<Scramble>> {
        let names = MoveNames::new(puzzle);
        let mut out = Vec::with_capacity(self.alg.len());
        for text in &self.alg {
            let lines: Vec<AlgLine> = text
                .split('\n')
                .enumerate()
                .map(|(i, t)| AlgLine { no: i + 1, text: t })
                .collect();
            let parsed = alg::parse(ALG_SOURCE, &lines, &names)?;
            // On a bandaged puzzle a move that would split a block is refused here, as
            // in a `ScrambleAlg`.
            let moves = parsed.legal_moves(puzzle, ALG_SOURCE, &lines)?;
            out.push(Scramble {
                name: text.split_whitespace().collect::<Vec<_>>().join(" "),
                source: ScrambleSource::Alg(moves),
                settings: SolveSettings::for_puzzle(puzzle),
                line: 0,
            });
        }
        Ok(out)
    }

    /// Replaces, in every scramble, the settings the command line names.
    pub fn apply(&self, puzzle: &Puzzle, scrambles: &mut [Scramble]) -> anyhow::Result<()> {
        let limits = self.move_limits(puzzle)?;
        let auf = self.auf(puzzle)?;
        for s in scrambles {
            let settings = &mut s.settings;
            if let Some(n) = self.slack {
                settings.slack = n;
            }
            if let Some(n) = self.max_depth {
                settings.max_depth = n;
            }
            if self.qtm {
                settings.metric = Metric::Qtm;
            } else if self.htm {
                settings.metric = Metric::Htm;
            }
            if let Some(limits) = &limits {
                settings.limits.clone_from(limits);
            }
            if let Some(auf) = &auf {
                settings.goal = Some(Arc::new(auf.goal(puzzle, settings.goal.as_deref())));
            }
        }
        Ok(())
    }

    /// The `--post-auf` move, when one is given.
    pub fn auf(&self, puzzle: &Puzzle) -> anyhow::Result<Option<Auf>> {
        self.post_auf
            .as_deref()
            .map(|name| {
                Auf::new(puzzle, name.trim()).map_err(|why| anyhow::anyhow!("--post-auf: {why}"))
            })
            .transpose()
    }

    /// `--moves` as move limits: every base move not named is limited to 0. This is
    /// exactly a `MoveLimits` block, so the search's canonical automaton and the check
    /// that the position is reachable with the moves left treat it as they treat a file.
    /// A power or an alias names its base move.
    fn move_limits(&self, puzzle: &Puzzle) -> anyhow::Result<Option<Vec<MoveLimit>>> {
        if self.moves.is_empty() {
            return Ok(None);
        }
        MoveLimit::only(puzzle, &self.moves)
            .map(Some)
            .map_err(|name| {
                let known: Vec<&str> = puzzle.base_moves.iter().map(|b| b.name.as_str()).collect();
                anyhow::anyhow!(
                    "--moves: the puzzle has no move `{name}`: expected move names separated by \
                 commas, from {}",
                    known.join(", ")
                )
            })
    }
}
