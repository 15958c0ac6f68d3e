//! The `solve` flags that stand in for a scramble file or override its settings:
//! `--alg` (solve the position an algorithm makes), `--slack`, `--max-depth`, `--qtm` /
//! `--htm` and `--moves`.
//!
//! Precedence: a flag given on the command line replaces the matching setting of every
//! scramble (`Slack`, `MaxDepth`, `QTM`/`HTM`, `MoveLimits`), wherever the file sets it;
//! settings the command line does not name keep the file's values.

use ksolve::alg::{self, AlgLine, MoveNames};
use ksolve::puzzle::{
    Auf, Goal, IgnoreMask, Metric, MoveLimit, Puzzle, Scramble, ScrambleSource, SolveSettings,
    TurnKind, TurnKinds,
};
use std::path::Path;
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
    /// Search in the slice-turn metric: the definition's slices (found from its moves,
    /// as `--metrics` finds them) are searched with the moves searched by default, each
    /// turn of a face or a slice counting 1; rotations are not searched (STM counts
    /// them 0). With --moves, the moves given, rotations refused.
    #[arg(long, conflicts_with_all = ["qtm", "htm"])]
    pub stm: bool,
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
    /// Solve the case from every turn of MOVE before it too, and print each algorithm
    /// once, with the turn it needs first (`--pre-auf U`: a last-layer case whatever the
    /// angle of the top layer). Combines with --post-auf.
    #[arg(long, value_name = "MOVE")]
    pub pre_auf: Option<String>,
    /// Solve to this goal instead of the solved state (replaces the file's `Goal` and
    /// `GoalAlg` blocks): a goal file of `Goal`/`GoalAlg` blocks, or the name of one
    /// shipped beside the definition (`--goal cross` reads
    /// `puzzles/3x3x3_wca.goals/cross.txt` for `puzzles/3x3x3_wca.def`).
    #[arg(long, value_name = "GOAL")]
    pub goal: Option<String>,
    /// Leave pieces unsolved, as `?` would in every scramble and goal, without editing
    /// the definition: `SET` (every piece of the set, placed and turned anyhow),
    /// `SET:orientation` (turned anyhow), `SET:permutation` (placed anyhow, turned as
    /// solved) or `SET:POS,POS,...` (the pieces at these positions, numbered from 1).
    /// May be given several times. Refused on puzzles whose moves depend on where
    /// pieces are (blocks, guarded moves).
    #[arg(long, value_name = "SPEC")]
    pub ignore: Vec<String>,
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
    pub fn apply(
        &self,
        def: &Path,
        puzzle: &Puzzle,
        scrambles: &mut [Scramble],
    ) -> anyhow::Result<()> {
        let limits = self.move_limits(puzzle)?;
        let auf = self.auf(puzzle)?;
        let goal = match &self.goal {
            Some(name) => Some(Arc::new(goal(def, name, puzzle)?)),
            None => None,
        };
        let freed = self.ignore_masks(puzzle)?;
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
            } else if self.htm || self.stm {
                settings.metric = Metric::Htm;
            }
            if let Some(limits) = &limits {
                settings.limits.clone_from(limits);
            }
            if let Some(goal) = &goal {
                settings.goal = Some(goal.clone());
            }
            if let Some(masks) = &freed {
                let base = match settings.goal.as_deref() {
                    Some(g) => g.clone(),
                    None => Goal::solved(puzzle, "solved"),
                };
                settings.goal = Some(Arc::new(base.freeing(puzzle, masks)));
            }
            if let Some(auf) = &auf {
                settings.goal = Some(Arc::new(auf.goal(puzzle, settings.goal.as_deref())));
            }
        }
        Ok(())
    }

    /// What `--ignore` leaves free, per set, when it is given.
    fn ignore_masks(&self, puzzle: &Puzzle) -> anyhow::Result<Option<Vec<IgnoreMask>>> {
        if self.ignore.is_empty() {
            return Ok(None);
        }
        if !puzzle.blocks.is_empty() || puzzle.has_guards() {
            anyhow::bail!(
                "--ignore: this puzzle's moves depend on where its pieces are ({}), so no piece \
                 can be left out of the position: expected a definition without them",
                if puzzle.blocks.is_empty() {
                    "guarded moves"
                } else {
                    "blocks"
                }
            );
        }
        let mut masks = puzzle.no_ignores();
        for spec in self.ignore.iter().flat_map(|s| s.split_whitespace()) {
            let (set_name, what) = match spec.split_once(':') {
                Some((s, w)) => (s, Some(w)),
                None => (spec, None),
            };
            let Some(k) = puzzle.set_by_name(set_name) else {
                let known: Vec<&str> = puzzle.sets.iter().map(|s| s.name.as_str()).collect();
                anyhow::bail!(
                    "--ignore {spec}: the puzzle has no set `{set_name}`: expected one of {}",
                    known.join(", ")
                );
            };
            let set = &puzzle.sets[k];
            let m = &mut masks[k];
            match what {
                None => {
                    m.perm.fill(true);
                    m.ori.fill(true);
                }
                Some("orientation" | "ori") => {
                    if set.orientations <= 1 {
                        anyhow::bail!(
                            "--ignore {spec}: the pieces of `{set_name}` have no orientation to \
                             ignore: expected `{set_name}` or `{set_name}:permutation`"
                        );
                    }
                    m.ori.fill(true);
                }
                Some("permutation" | "perm") => m.perm.fill(true),
                Some(list) => {
                    for p in list.split(',') {
                        let pos: usize = p
                            .trim()
                            .parse()
                            .ok()
                            .filter(|&n| (1..=set.size).contains(&n))
                            .ok_or_else(|| {
                                anyhow::anyhow!(
                                    "--ignore {spec}: `{p}` is not a position of `{set_name}`: \
                                 expected `orientation`, `permutation` or positions from 1 to {} \
                                 separated by commas",
                                    set.size
                                )
                            })?;
                        m.perm[pos - 1] = true;
                        m.ori[pos - 1] = true;
                    }
                }
            }
        }
        Ok(Some(masks))
    }

    /// The `--post-auf` move, when one is given.
    pub fn auf(&self, puzzle: &Puzzle) -> anyhow::Result<Option<Auf>> {
        adjusting(puzzle, self.post_auf.as_deref(), "--post-auf")
    }

    /// The `--pre-auf` move, when one is given.
    pub fn pre_auf(&self, puzzle: &Puzzle) -> anyhow::Result<Option<Auf>> {
        adjusting(puzzle, self.pre_auf.as_deref(), "--pre-auf")
    }

    /// `--moves` as move limits: every base move not named is limited to 0. This is
    /// exactly a `MoveLimits` block, so the search's canonical automaton and the check
    /// that the position is reachable with the moves left treat it as they treat a file.
    /// A power or an alias names its base move.
    fn move_limits(&self, puzzle: &Puzzle) -> anyhow::Result<Option<Vec<MoveLimit>>> {
        let names: Vec<String> = match (self.stm, self.moves.is_empty()) {
            (false, true) => return Ok(None),
            (false, false) => self.moves.clone(),
            (true, _) => {
                let kinds = TurnKinds::of(puzzle);
                let kind = |b: usize| kinds.kinds[b];
                let base_of =
                    |name: &str| puzzle.move_by_name(name.trim()).map(|m| puzzle.mv(m).base);
                if let Some(r) = self
                    .moves
                    .iter()
                    .find(|n| base_of(n).is_some_and(|b| kind(b) == TurnKind::Rotation))
                {
                    anyhow::bail!(
                        "--stm: `{r}` turns the whole puzzle, which the slice-turn metric counts \
                         as nothing and a search cannot: expected --moves without rotations"
                    );
                }
                match self.moves.is_empty() {
                    false => self.moves.clone(),
                    // The moves searched by default, with the slices and without the
                    // rotations.
                    true => (0..puzzle.base_moves.len())
                        .filter(|&b| kind(b) != TurnKind::Rotation)
                        .filter(|&b| {
                            kind(b) == TurnKind::Slice || puzzle.searched.get(b) != Some(&false)
                        })
                        .map(|b| puzzle.base_moves[b].name.clone())
                        .collect(),
                }
            }
        };
        MoveLimit::only(puzzle, &names).map(Some).map_err(|name| {
            let known: Vec<&str> = puzzle.base_moves.iter().map(|b| b.name.as_str()).collect();
            anyhow::anyhow!(
                "--moves: the puzzle has no move `{name}`: expected move names separated by \
                 commas, from {}",
                known.join(", ")
            )
        })
    }
}

/// The goal `--goal NAME` names: the file NAME when there is one, else the goal file
/// `NAME.txt` in the folder beside the definition named after it (`PUZZLE.goals/`).
pub fn goal(def: &Path, name: &str, puzzle: &Puzzle) -> anyhow::Result<Goal> {
    let path = Path::new(name);
    if path.is_file() {
        return Ok(ksolve::def::load_goal(path, puzzle)?);
    }
    let stem = def.file_stem().map(|s| s.to_string_lossy().into_owned());
    let dir = def
        .parent()
        .unwrap_or(Path::new("."))
        .join(format!("{}.goals", stem.unwrap_or_default()));
    let file = dir.join(format!("{name}.txt"));
    if file.is_file() {
        return Ok(ksolve::def::load_goal(&file, puzzle)?);
    }
    let mut known: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter_map(|e| {
                    let p = e.path();
                    let stem = p.file_stem()?.to_string_lossy().into_owned();
                    (p.extension()? == "txt").then_some(stem)
                })
                .collect()
        })
        .unwrap_or_default();
    known.sort();
    anyhow::bail!(
        "--goal {name}: no such goal file, and no {}: expected a goal file or {}",
        file.display(),
        match known.is_empty() {
            true => format!("the name of a goal in {} (there is none)", dir.display()),
            false => format!(
                "one of the goals shipped for this puzzle: {}",
                known.join(", ")
            ),
        }
    )
}

/// The adjusting move `name` names, for the flag `flag`.
fn adjusting(puzzle: &Puzzle, name: Option<&str>, flag: &str) -> anyhow::Result<Option<Auf>> {
    name.map(|name| Auf::new(puzzle, name.trim()).map_err(|why| anyhow::anyhow!("{flag}: {why}")))
        .transpose()
}
