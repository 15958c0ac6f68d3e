//! `ksolve solve PUZZLE.def SCRAMBLES.txt` (and ksolve+'s `ksolve PUZZLE.def
//! SCRAMBLES.txt`): solves every scramble in order and prints what ksolve+ prints, or
//! one JSON object per scramble with `--json`.

use super::output;
use super::overrides::Overrides;
use super::progress::Bars;
use super::table_args::TableArgs;
use super::{input, summary};
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::Context;
use ksolve::def::{format_state, parse_puzzle, read_file};
use ksolve::gods::database::{self, Database};
use ksolve::group::goal::{GoalGroups, GoalVerdict};
use ksolve::group::{Group, Verdict};
use ksolve::progress::Progress;
use ksolve::puzzle::{
    Goal, IgnoreMask, Metric, MoveId, Puzzle, Scramble, ScrambleSource, SolveSettings, State,
    Target,
};
use ksolve::rng::Rng;
use ksolve::search::{
    random::{random_position, random_state},
    Outcome, SolveOptions, Solver, Status,
};
use ksolve::table::plan::check_goal;
use ksolve::table::Tables;
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Solve every scramble of a scramble file optimally.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve solve puzzles/2x2x2.def scrambles/2x2x2.txt           every optimal solution
  ksolve puzzles/2x2x2.def scrambles/2x2x2.txt                 the same, ksolve+'s form
  ksolve solve puzzles/3x3x3.def --alg \"R U R' U'\" --slack 1   what an algorithm makes
  ksolve solve puzzles/2x2x2.def --alg \"R U R'\" --moves R,U    only R, U and their powers
  cat s.txt | ksolve solve puzzles/2x2x2.def -                 scrambles from standard input

--slack, --max-depth, --qtm/--htm and --moves replace the scramble file's Slack,
MaxDepth, QTM/HTM and MoveLimits for every scramble; what they do not name keeps the
file's values.")]
pub struct SolveArgs {
    /// The puzzle definition (ksolve+ .def format).
    pub def: PathBuf,
    /// The scrambles to solve (ksolve+ scramble file format); `-` reads standard input.
    /// Not needed with --alg or --facelets.
    #[arg(required_unless_present_any = ["alg", "facelets"])]
    pub scrambles: Option<PathBuf>,
    /// Scrambles and settings from the command line.
    #[command(flatten)]
    pub overrides: Overrides,
    /// Solve the position with these colours instead of a scramble file: one letter per
    /// sticker, in the order of the definition's `Stickers` block (for the 3x3x3, the
    /// 54-letter URFDLB facelet string).
    #[arg(long, value_name = "COLOURS", conflicts_with_all = ["scrambles", "alg"])]
    pub facelets: Option<String>,
    /// After each scramble's first solution, print the net after each of its moves
    /// (ksolve+'s form for a puzzle without a sticker map).
    #[arg(long)]
    pub steps: bool,
    /// When to draw the nets of --steps in colour (ANSI).
    #[arg(long, value_enum, default_value_t, value_name = "WHEN")]
    pub color: super::show::ColorWhen,
    /// Stop after this many solutions per scramble (1 or more; 0 is refused, since it
    /// would stop before searching).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// Seed for RandomScramble, so that runs repeat.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Print one JSON object per scramble per line instead of ksolve+'s text.
    #[arg(long)]
    pub json: bool,
    /// Where tables are kept and how much memory they may take.
    #[command(flatten)]
    pub table: TableArgs,
    /// Solve by the database method: step down the exact distance table in FILE
    /// (written by `ksolve god DEF --save FILE`), one optimal solution per scramble with
    /// no search. A missing, damaged or foreign FILE is computed anew and written.
    /// Scrambles the table cannot answer (`?` ignores, Slack, MoveLimits, another
    /// metric) are searched as usual.
    #[arg(long, value_name = "FILE")]
    pub database: Option<PathBuf>,
    /// Do not use symmetry: no symmetry-reduced table, and the pruning tables are not
    /// looked up at positions conjugated by the puzzle's symmetries.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Look the pruning tables up only at the position itself (no conjugated or inverse
    /// positions): the same solutions, usually more nodes. For comparisons.
    #[arg(long)]
    pub no_probes: bool,
    /// Search with N threads (1 or more; default: one per core). The output is the same
    /// for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Show no progress and no per-scramble summary on stderr (warnings are still
    /// printed).
    #[arg(long, short)]
    pub quiet: bool,
    /// Explain the choice of pruning tables under --memory (each plan weighed, the
    /// chosen tables with their entries and bytes) and, per scramble, the number of
    /// extra table lookups (probes) per node, on stderr.
    #[arg(long, short)]
    pub verbose: bool,
}

/// The fields of a scramble's `--json` object that follow its streamed `name` and
/// `solutions`.
#[derive(serde::Serialize)]
struct JsonRest<'a> {
    status: &'static str,
    /// Why an unreachable position cannot be reached, when a check says so.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    length: Option<u32>,
    /// With a scramble file's goal: the goal position the first solution ends in.
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<String>,
    metric: &'a str,
    /// With `MoveCosts` weights, `length` is a cost and this is the number of moves of
    /// each solution, in the order of `solutions`.
    #[serde(skip_serializing_if = "Option::is_none")]
    solution_moves: Option<Vec<usize>>,
    seconds: f64,
    nodes: u64,
}

/// Writes solutions as they are confirmed: ksolve+'s indented lines, or the elements of
/// the `--json` object's `solutions` array. It is called from the solver's callback,
/// which cannot return an error, so a failed write ends the process there rather than
/// letting the search run on for minutes with nobody reading.
struct Emitter<'p> {
    json: bool,
    puzzle: &'p Puzzle,
    written: u64,
    /// The first solution, kept for `--steps`.
    first: Option<Vec<MoveId>>,
    /// The scramble's metric, and with `MoveCosts` weights the moves of each solution
    /// written (for `--json`'s `solution_moves`).
    metric: Metric,
    moves: Option<Vec<usize>>,
    /// With a goal: the position solved from, its `?` marks, and the name of the goal
    /// position the first solution ends in (for `--json`).
    goal: Option<(&'p Goal, &'p State, &'p [IgnoreMask])>,
    reached: Option<String>,
}

impl Emitter<'_> {
    fn emit(&mut self, seq: &[MoveId]) {
        if let (Some((goal, start, ignore)), None) = (self.goal, &self.reached) {
            let end = self.puzzle.apply_sequence(start, seq);
            self.reached = goal
                .reached_by(&end, ignore)
                .map(|i| goal.positions[i].name.clone());
        }
        let mut out = output::stdout();
        let result = if self.json {
            let sep = if self.written == 0 { "" } else { "," };
            serde_json::to_string(&self.puzzle.format_sequence(seq))
                .map_err(std::io::Error::other)
                .and_then(|s| write!(out, "{sep}{s}"))
        } else if self.moves.is_some() {
            // Weighted moves: the cost and the move count differ, so print both.
            let cost: u32 = seq
                .iter()
                .map(|&m| self.puzzle.move_cost(self.metric, m))
                .sum();
            let n = seq.len();
            writeln!(
                out,
                "{}  ({n} move{}, cost {cost})",
                solution_line(self.puzzle, seq),
                if n == 1 { "" } else { "s" }
            )
        } else {
            writeln!(out, "{}", solution_line(self.puzzle, seq))
        };
        output::or_exit(result);
        if let Some(moves) = &mut self.moves {
            moves.push(seq.len());
        }
        self.written += 1;
        if self.first.is_none() {
            self.first = Some(seq.to_vec());
        }
    }
}

/// A solution as ksolve+ prints it: two spaces, then the moves; the empty solution is a
/// single space.
fn solution_line(puzzle: &Puzzle, seq: &[MoveId]) -> String {
    if seq.is_empty() {
        " ".to_string()
    } else {
        format!("  {}", puzzle.format_sequence(seq))
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<u8> {
    let bars = Bars::new(args.quiet);
    let def_name = args.def.display().to_string();
    let bytes = read_file(&args.def)?;
    let (puzzle, warnings) = parse_puzzle(&bytes, &def_name)?;
    for w in &warnings {
        bars.warn(&w.to_string());
    }
    let mut scrambles = match (&args.scrambles, &args.facelets) {
        (Some(path), _) => input::scrambles(path, &puzzle)?,
        (None, Some(f)) => vec![Scramble {
            name: "facelets".into(),
            source: match super::show::from_facelets(&puzzle, f)? {
                Ok(state) => ScrambleSource::Position(Target {
                    ignore: puzzle
                        .sets
                        .iter()
                        .map(|s| IgnoreMask {
                            perm: vec![false; s.size],
                            ori: vec![false; s.size],
                        })
                        .collect(),
                    state,
                }),
                Err(why) => ScrambleSource::Impossible(why),
            },
            settings: SolveSettings::default(),
            line: 0,
        }],
        (None, None) => args.overrides.alg_scrambles(&puzzle)?,
    };
    // Before anything reads the settings (the database's metric, the goal checks).
    args.overrides.apply(&puzzle, &mut scrambles)?;
    let cache = args.table.cache(&args.def, &puzzle, &bytes, &bars);
    let budget = args.table.budget();
    // A budget too small for the move tables the search needs is refused before
    // anything large is built, with what it needs.
    for s in &scrambles {
        let ignore = match &s.source {
            // With a goal the goal test tells every piece apart (see `Solver`).
            _ if s.settings.goal.is_some() => &[],
            ScrambleSource::Position(t) => &t.ignore[..],
            ScrambleSource::Alg(_) | ScrambleSource::Random | ScrambleSource::Impossible(_) => &[],
        };
        check_goal(&puzzle, ignore, budget)?;
    }
    if args.verbose {
        let report = ksolve::table::plan::plan_report(&puzzle, budget)?;
        for line in super::verbose::plan_lines(&puzzle, &report, budget) {
            eprintln!("{line}");
        }
        if !args.no_symmetry {
            if let Ok(group) = ksolve::symmetry::SymmetryGroup::find(&puzzle) {
                let plan = ksolve::table::sym::cached::planned(&puzzle, &group, budget)?;
                eprintln!("{}", super::verbose::sym_line(plan.as_ref()));
            }
        }
    }
    let mut solver = Solver::new(&puzzle, Tables::new(cache, budget));
    let mut rng = args.seed.map_or_else(Rng::from_entropy, Rng::new);
    let options = SolveOptions {
        count: args.count.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        threads: args.threads.map(|n| n as usize),
        no_symmetry: args.no_symmetry,
        no_probes: args.no_probes,
        ..SolveOptions::default()
    };
    // The group answers which positions are reachable and draws uniform random ones.
    // Puzzles too large for it (over 65535 points) are solved without that check.
    // With guarded moves the group ignores the guards: it still proves a position
    // unreachable, but its random positions need not be reachable, so those are drawn
    // from the positions a breadth-first search lists (see `random_position`).
    let group = Group::new(&puzzle).ok();
    let guarded = puzzle.has_guards() || puzzle.goal_is_set();
    let mut listed: Option<Option<ksolve::gods::sample::Reachable>> = None;
    let db = match &args.database {
        Some(path) => {
            // A path ksolve may neither read as a table nor replace (a directory, a
            // device, a named pipe) is refused before anything is computed. A path that
            // cannot be written for other reasons (a read-only folder, a full disk) is
            // not: the table is then computed and used from memory, with a warning.
            if let Err(e) = ksolve::fsutil::check_write_target(path) {
                if e.kind() == std::io::ErrorKind::InvalidInput {
                    return Err(anyhow::Error::new(e).context(format!(
                        "cannot use {} as the distance table",
                        path.display()
                    )));
                }
            }
            // Built, when it must be, in the metric the file's first scramble asks for.
            let metric = scrambles.first().map_or(Metric::Htm, |s| s.settings.metric);
            Some(
                database::open_or_build(path, &puzzle, metric, budget, &bars)
                    .with_context(|| format!("distance table {}", path.display()))?,
            )
        }
        None => None,
    };
    // The groups of the moves left by each set of MoveLimits with zeros, built once.
    let mut limited_groups: HashMap<Vec<MoveId>, Option<Group>> = HashMap::new();
    // The groups seen from each goal position, built once.
    let mut goal_groups = GoalGroups::default();
    let mut code = EXIT_OK;
    for scramble in &scrambles {
        let timer = Instant::now();
        // Every write is checked, so a closed or full standard output stops the run
        // between scrambles at the latest (see `output`).
        let mut out = output::stdout();
        if !args.json {
            writeln!(out, "Solving {}", scramble.name)?;
        }
        let (start, ignore): (_, Vec<IgnoreMask>) = match &scramble.source {
            ScrambleSource::Position(t) => (t.state.clone(), t.ignore.clone()),
            ScrambleSource::Alg(moves) => (puzzle.apply_sequence(&puzzle.solved, moves), vec![]),
            ScrambleSource::Random if guarded => {
                let list =
                    listed.get_or_insert_with(|| {
                        match ksolve::gods::sample::Reachable::new(&puzzle, budget / 2, &bars) {
                            Ok(r) => {
                                bars.warn(&format!(
                                    "random positions are drawn uniformly from the {} positions \
                                 that can reach the goal",
                                    r.len()
                                ));
                                Some(r)
                            }
                            Err(e) => {
                                bars.warn(&format!(
                                "the positions that can reach the goal cannot be listed ({e}); \
                                 random positions are {} random moves from the goal instead, \
                                 not uniform",
                                ksolve::search::random::WALK_STEPS
                            ));
                                None
                            }
                        }
                    });
                let state = match list {
                    Some(r) => r.draw(&mut rng),
                    None => random_state(&puzzle, &mut rng),
                };
                (state, vec![])
            }
            ScrambleSource::Random => (random_position(&puzzle, group.as_ref(), &mut rng), vec![]),
            ScrambleSource::Impossible(_) => (puzzle.solved.clone(), vec![]),
        };
        if !puzzle.blocks.is_empty() && ignore.iter().any(|m| m.perm.iter().any(|&b| b)) {
            // ksolve+ warns here too: which moves are legal depends on where the
            // bandaged pieces are, and `?` leaves that to hints.
            bars.warn(&format!(
                "{}: the puzzle has blocks but the scramble has `?` permutations; blocks are \
                 checked on the position with `?N` hints applied and bare `?` filled in order",
                scramble.name
            ));
        }
        if !args.json
            && !matches!(
                scramble.source,
                ScrambleSource::Position(_) | ScrambleSource::Impossible(_)
            )
        {
            write!(out, "Scramble position:\n{}", format_state(&puzzle, &start))?;
        }
        out.flush()?;
        // Solutions may be printed from the search's threads: release stdout until the
        // search is done.
        drop(out);
        // A position given piece by piece may be one no sequence of moves reaches (a
        // twisted corner, an odd swap): say so and why, rather than search forever.
        let mut unreachable = match (&scramble.source, &group, &scramble.settings.goal) {
            (ScrambleSource::Impossible(why), _, _) => Some(why.clone()),
            // A goal is checked position by position: the scramble must reach one.
            (_, Some(_), Some(goal)) => {
                match goal_groups.verdict(&puzzle, goal, &start, &ignore, None) {
                    GoalVerdict::Unreachable(r) => Some(r),
                    GoalVerdict::Reaches(_) | GoalVerdict::Unknown => None,
                }
            }
            (ScrambleSource::Position(t), Some(g), None) => match g.check_target(t) {
                Verdict::Unreachable(r) => Some(r.to_string()),
                Verdict::Reachable | Verdict::Unknown(_) => None,
            },
            _ => None,
        };
        // Moves limited to 0 are not there at all: the position must be in the group the
        // other moves generate (with a goal: reach one of its positions with them), or
        // the search would deepen until MaxDepth.
        if let (None, Some(_), Some(allowed)) = (
            &unreachable,
            &group,
            scramble.settings.allowed_moves(&puzzle),
        ) {
            let why = match &scramble.settings.goal {
                Some(goal) => {
                    match goal_groups.verdict(&puzzle, goal, &start, &ignore, Some(&allowed)) {
                        GoalVerdict::Unreachable(r) => Some(r),
                        GoalVerdict::Reaches(_) | GoalVerdict::Unknown => None,
                    }
                }
                None => {
                    let sub = limited_groups
                        .entry(allowed.clone())
                        .or_insert_with(|| Group::generated_by(&puzzle, &allowed).ok());
                    let verdict = sub.as_ref().map(|g| match &scramble.source {
                        ScrambleSource::Position(t) => g.check_target(t),
                        _ => g.check(&start),
                    });
                    match verdict {
                        Some(Verdict::Unreachable(r)) => Some(r.to_string()),
                        _ => None,
                    }
                }
            };
            if let Some(r) = why {
                let names: Vec<&str> = allowed
                    .iter()
                    .map(|&m| puzzle.mv(m).name.as_str())
                    .collect();
                let names = if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(" ")
                };
                let by = if args.overrides.moves.is_empty() {
                    "MoveLimits allow"
                } else {
                    "--moves allows"
                };
                unreachable = Some(format!("with only the moves {by} ({names}), {r}"));
            }
        }
        let json = args.json;
        // With --json the object is streamed too: its name and the opening of its
        // `solutions` array first, each solution as it is confirmed, the other fields
        // once the search is done. So a huge Slack holds nothing in memory either way.
        if json {
            let mut out = output::stdout();
            write!(
                out,
                "{{\"name\":{},\"solutions\":[",
                serde_json::to_string(&scramble.name)?
            )?;
            out.flush()?;
        }
        let mut emitter = Emitter {
            json,
            puzzle: &puzzle,
            written: 0,
            first: None,
            metric: scramble.settings.metric,
            moves: puzzle.has_weights().then(Vec::new),
            goal: scramble
                .settings
                .goal
                .as_deref()
                .map(|g| (g, &start, &ignore[..])),
            reached: None,
        };
        let outcome = if unreachable.is_some() {
            Outcome {
                status: Status::Unreachable,
                length: None,
                solutions: Vec::new(),
                nodes: 0,
                probes: 0,
                reduced: false,
            }
        } else {
            match by_database(db.as_ref(), &puzzle, &start, &ignore, scramble, &bars)? {
                Some(outcome) => {
                    for s in &outcome.solutions {
                        emitter.emit(s);
                    }
                    outcome
                }
                // Solutions go out one at a time, as the search confirms them, so a large
                // Slack neither waits for a whole length nor holds it in memory.
                None => solver.solve_each(
                    &start,
                    &ignore,
                    &scramble.settings,
                    options,
                    &bars,
                    &mut |_, s| emitter.emit(s),
                )?,
            }
        };
        if outcome.status != Status::Solved {
            code = EXIT_NO_SOLUTION;
        }
        if args.verbose {
            eprintln!(
                "{}: {} nodes, {} extra table lookup(s) per node the ordinary bound lets through",
                scramble.name, outcome.nodes, outcome.probes
            );
        }
        let mut out = output::stdout();
        if json {
            let rest = JsonRest {
                status: match outcome.status {
                    Status::Solved => "solved",
                    Status::MaxDepth => "no_solution",
                    Status::Unreachable => "unreachable",
                },
                reason: unreachable,
                length: outcome.length,
                metric: scramble.settings.metric.name(),
                solution_moves: emitter.moves.take(),
                seconds: timer.elapsed().as_secs_f64(),
                nodes: outcome.nodes,
                goal: emitter.reached.clone(),
            };
            // `rest` serialises as `{...}`: its fields continue the streamed object.
            let rest = serde_json::to_string(&rest)?;
            writeln!(out, "],{}", &rest[1..])?;
        } else {
            match (outcome.status, &unreachable) {
                (Status::Solved, _) => {}
                (Status::MaxDepth, _) => writeln!(out, "Max depth reached, aborting.")?,
                (Status::Unreachable, Some(reason)) => writeln!(
                    out,
                    "No solution: the position cannot be reached: {reason}."
                )?,
                (Status::Unreachable, None) => {
                    writeln!(out, "No solution: the position cannot be solved.")?
                }
            }
            if let (true, Some(seq)) = (args.steps, &emitter.first) {
                write_steps(&mut out, &puzzle, &start, seq, args.color.on())?;
            }
            writeln!(out)?;
        }
        out.flush()?;
        if !json && !args.quiet {
            let seconds = timer.elapsed().as_secs_f64();
            let line = summary::line(
                &scramble.name,
                &scramble.settings,
                &outcome,
                emitter.written,
                seconds,
            );
            // A summary that cannot be written (stderr closed) is no reason to stop
            // solving, unlike the solutions on stdout.
            let _ = writeln!(std::io::stderr(), "{line}");
        }
    }
    Ok(code)
}

/// seed 002's step by step: the position before the first move and after each move of
/// a solution.
fn write_steps(
    out: &mut impl Write,
    puzzle: &Puzzle,
    start: &State,
    seq: &[MoveId],
    color: bool,
) -> std::io::Result<()> {
    writeln!(out, "Start:")?;
    write!(out, "{}", super::show::picture(puzzle, start, color))?;
    let mut state = start.clone();
    for (i, &m) in seq.iter().enumerate() {
        state = state.then(&puzzle.mv(m).effect, &puzzle.sets);
        writeln!(out, "Step {}: {}", i + 1, puzzle.mv(m).name)?;
        write!(out, "{}", super::show::picture(puzzle, &state, color))?;
    }
    Ok(())
}

/// The database method's answer to one scramble, or `None` when there is no table or
/// the table cannot answer what the scramble asks (it is then searched, with a warning).
fn by_database(
    db: Option<&Database>,
    puzzle: &Puzzle,
    start: &State,
    ignore: &[IgnoreMask],
    scramble: &ksolve::puzzle::Scramble,
    bars: &Bars,
) -> anyhow::Result<Option<Outcome>> {
    let Some(db) = db else {
        return Ok(None);
    };
    match database::solve_scramble(db, puzzle, start, ignore, &scramble.settings) {
        Some(result) => Ok(Some(result?)),
        None => {
            let why = if scramble.settings.goal.is_some() {
                "the distance table holds distances to the definition's Solved state, not to \
                 the scramble file's goal"
                    .to_string()
            } else {
                format!(
                    "the distance table answers only whole positions in {}, with no Slack, \
                     MoveCosts or MoveLimits",
                    db.metric().name().to_uppercase()
                )
            };
            bars.warn(&format!("{}: {why}; searching instead", scramble.name));
            Ok(None)
        }
    }
}
