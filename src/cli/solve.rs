//! `ksolve solve PUZZLE.def SCRAMBLES.txt` (and ksolve+'s `ksolve PUZZLE.def
//! SCRAMBLES.txt`): solves every scramble in order and prints what ksolve+ prints, or
//! one JSON object per scramble with `--json`. With `--out DIR` it is one shard of a
//! batch: it solves the scrambles `--shard K/N` (or the scheduler) gives it and writes
//! both forms of their output to the shard's file instead (see `shard_args`, `sink`).

use super::overrides::Overrides;
use super::progress::Bars;
use super::shard_args::{self, Batch, ShardArgs};
use super::sink::{Emitter, Sink};
use super::table_args::TableArgs;
use super::{input, summary};
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::Context;
use ksolve::def::format_state;
use ksolve::gods::database;
use ksolve::picture::{self, Look};
use ksolve::progress::{format_duration, Progress};
use ksolve::puzzle::{
    Lengths, Metric, MoveId, Puzzle, Scramble, ScrambleSource, SolveSettings, State, Target,
    TurnKinds, TurnMetric,
};
use ksolve::rng::Rng;
use ksolve::search::{SolveOptions, Status as SearchStatus};
use ksolve::solve::{Answerer, Reachability, Starts, Status};
use ksolve::table::plan::check_goal;
use ksolve::table::Tables;
use std::io::Write;
use std::path::PathBuf;

/// Solve every scramble of a scramble file optimally.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve solve puzzles/2x2x2.def scrambles/2x2x2.txt           every optimal solution
  ksolve puzzles/2x2x2.def scrambles/2x2x2.txt                 the same, ksolve+'s form
  ksolve solve puzzles/3x3x3.def --alg \"R U R' U'\" --slack 1   what an algorithm makes
  ksolve solve puzzles/2x2x2.def --alg \"R U R'\" --moves R,U    only R, U and their powers
  cat s.txt | ksolve solve puzzles/2x2x2.def -                 scrambles from standard input
  ksolve solve puzzles/2x2x2.def scrambles/2x2x2.batch.txt --seed 1 --shard 0/4 --out res
                                     shard 0 of 4 into res/; `ksolve merge res` prints all

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
    /// After each solution, print its length in HTM, QTM, STM and ETM (a slice counts
    /// 2, 2 per quarter, 1 and 1; a rotation 0, 0, 0 and 1). `--json` always carries
    /// them, as `lengths`.
    #[arg(long)]
    pub metrics: bool,
    /// Print each scramble's solutions ordered by their length in this metric (ties in
    /// the search's order), with every metric's length; the solutions are then printed
    /// once the search ends.
    #[arg(long, value_enum, value_name = "METRIC")]
    pub sort_by: Option<SortBy>,
    /// Where tables are kept and how much memory they may take.
    #[command(flatten)]
    pub table: TableArgs,
    /// Solving one shard of a batch (--shard, --shards, --out).
    #[command(flatten)]
    pub batch: ShardArgs,
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
    /// Make every bound check (each table, at the position, its conjugates and its
    /// inverse) on every node, instead of the checks that pay on a sample of the
    /// search: the same solutions, more time. For comparisons.
    #[arg(long)]
    pub all_checks: bool,
    /// Search with N threads (1 or more; default: one per core). The output is the same
    /// for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Solving along a chain of subgroups instead of optimally (--fast and its flags).
    #[command(flatten)]
    pub fast: super::fast::FastArgs,
    /// Show no progress and no per-scramble summary on stderr (warnings are still
    /// printed).
    #[arg(long, short)]
    pub quiet: bool,
    /// Explain the choice of pruning tables under --memory (each plan weighed, the
    /// chosen tables with their entries and bytes) and, per scramble, the nodes and the
    /// bound checks the search made (and those it left out), on stderr.
    #[arg(long, short)]
    pub verbose: bool,
}

/// The metrics `--sort-by` orders by.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum SortBy {
    /// Half-turn metric (outer block turns; a slice counts 2).
    Htm,
    /// Quarter-turn metric.
    Qtm,
    /// Slice-turn metric (a slice counts 1).
    Stm,
    /// Execution-turn metric (rotations count 1 too).
    Etm,
}

impl SortBy {
    fn metric(self) -> TurnMetric {
        match self {
            SortBy::Htm => TurnMetric::Htm,
            SortBy::Qtm => TurnMetric::Qtm,
            SortBy::Stm => TurnMetric::Stm,
            SortBy::Etm => TurnMetric::Etm,
        }
    }
}

/// The fields of a scramble's `--json` object that follow its streamed `name` and
/// `solutions`.
#[derive(serde::Serialize)]
struct JsonRest<'a> {
    status: Status,
    /// Why an unreachable position cannot be reached, when a check says so.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    length: Option<u32>,
    /// With a scramble file's goal: the goal position the first solution ends in.
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<String>,
    metric: &'a str,
    /// The number of moves of each solution, in the order of `solutions` (with
    /// `MoveCosts` weights `length` is a cost, and this the count).
    solution_moves: Vec<usize>,
    /// Each solution's length in HTM, QTM, STM and ETM (see `ksolve::puzzle::turns`),
    /// in the order of `solutions`.
    lengths: Vec<Lengths>,
    /// With `--post-auf`: the turn each solution still needs ("" for none), in the order
    /// of `solutions`.
    #[serde(skip_serializing_if = "Option::is_none")]
    post_auf: Option<Vec<String>>,
    /// With `--pre-auf`: the turn each solution needs first ("" for none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pre_auf: Option<Vec<String>>,
    seconds: f64,
    /// Of `seconds`, the time spent building or loading tables (and the groups).
    table_seconds: f64,
    /// Of `seconds`, the rest: the search (or the walk down the distance table).
    search_seconds: f64,
    nodes: u64,
}

pub fn run(args: SolveArgs) -> anyhow::Result<u8> {
    let bars = Bars::new(args.quiet);
    // Which shard of a batch, if any: refused before any work when the flags or the
    // scheduler's variables do not say.
    let shard = args.batch.selection()?;
    let (puzzle, bytes, _) = super::input::definition(&args.def, &bars)?;
    // The scramble file's bytes, kept for a shard's header.
    let mut scramble_bytes = Vec::new();
    // The letters of a position given by its colours, which its pictures show again.
    let mut lettering = None;
    let mut scrambles = match (&args.scrambles, &args.facelets) {
        (Some(path), _) => {
            let (scrambles, bytes) = input::scrambles_and_bytes(path, &puzzle)?;
            scramble_bytes = bytes;
            scrambles
        }
        (None, Some(f)) => vec![Scramble {
            name: "facelets".into(),
            source: match super::show::from_facelets(&puzzle, f)? {
                Ok((state, l)) => {
                    lettering = Some(l);
                    ScrambleSource::Position(Target::definite(&puzzle, state))
                }
                Err(why) => ScrambleSource::Impossible(why),
            },
            settings: SolveSettings::for_puzzle(&puzzle),
            line: 0,
        }],
        (None, None) => args.overrides.alg_scrambles(&puzzle)?,
    };
    // Before anything reads the settings (the database's metric, the goal checks).
    args.overrides.apply(&args.def, &puzzle, &mut scrambles)?;
    if args.fast.fast {
        return super::fast::run(&args, &puzzle, &bytes, &scrambles, &bars);
    }
    // The kinds of turn and the adjusting move come from the whole definition: a
    // narrowed puzzle may lack the rotations that tell slices apart.
    let kinds = TurnKinds::of(&puzzle);
    let auf = args.overrides.auf(&puzzle)?;
    let pre_auf = args.overrides.pre_auf(&puzzle)?;
    // Whether each scramble was given as a position, for what the text prints.
    let given: Vec<bool> = scrambles
        .iter()
        .map(|s| {
            matches!(
                s.source,
                ScrambleSource::Position(_) | ScrambleSource::Impossible(_)
            )
        })
        .collect();
    // The batch is searched on the moves it may use (see `solve::narrow`); a distance
    // table is the whole puzzle's, so with one the puzzle stays whole.
    let whole = puzzle;
    let narrowed = match args.database {
        Some(_) => None,
        None => ksolve::solve::narrow(&whole, &scrambles),
    };
    // A refusal on the narrowed puzzle says which moves were left, as the verdict says
    // it of move limits.
    let was_narrowed = narrowed.is_some();
    let (puzzle, scrambles, cache_bytes) = match narrowed {
        Some(n) => {
            let key = [&bytes[..], &n.key_bytes()].concat();
            (n.puzzle, n.scrambles, key)
        }
        None => (whole.clone(), scrambles, bytes.clone()),
    };
    // A goal of one position that leaves pieces free is searched as a puzzle of its
    // own, whose tables see only the pieces the goal fixes (see `solve::step`).
    // The position an algorithm makes is shown as the puzzle has it, not relabelled.
    let shown: Vec<Option<State>> = scrambles
        .iter()
        .map(|s| match &s.source {
            ScrambleSource::Alg(seq) => Some(puzzle.apply_sequence(&puzzle.solved, seq)),
            _ => None,
        })
        .collect();
    let before = puzzle.clone();
    // A distance table is the whole puzzle's: with one, goals are searched as they are.
    let stepped = match args.database {
        Some(_) => None,
        None => ksolve::solve::step(&puzzle, &scrambles),
    };
    if stepped.is_none() {
        let goals = scrambles.iter().filter_map(|s| s.settings.goal.as_deref());
        if let Some(why) = ksolve::solve::classes_refused(goals) {
            anyhow::bail!("{why}");
        }
    }
    let (puzzle, scrambles, cache_bytes) = match stepped {
        Some((step, scrambles)) => {
            let key = [&cache_bytes[..], step.key_bytes()].concat();
            (step.puzzle, scrambles, key)
        }
        None => (puzzle, scrambles, cache_bytes),
    };
    let kinds = kinds.within(&whole, &puzzle);
    let cache = args.table.cache(&args.def, &puzzle, &cache_bytes, &bars);
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
    // Results are streamed (with --json, an object is opened before its search), so a
    // definition no search can take is refused before anything is printed.
    ksolve::search::check_free_moves(&puzzle)?;
    // The database, when asked for, is opened (or computed) before the first answer.
    let db = match &args.database {
        Some(path) => {
            // A path ksolve may neither read as a table nor replace (a directory, a
            // device, a named pipe) is refused before anything is computed. A path that
            // cannot be written for other reasons (a read-only folder, a full disk) is
            // not: the table is then computed and used from memory, with a warning.
            if let Err(e) = ksolve::storage::fsutil::check_write_target(path) {
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
    // A refusal names what left the moves: the whole definition's `SearchMoves` and
    // the file's limits, or --moves (the puzzle searched may be narrowed to them).
    let by = match (args.overrides.moves.is_empty(), whole.unsearched().next()) {
        (false, _) => "--moves allows",
        (true, Some(_)) => "SearchMoves and MoveLimits allow",
        (true, None) => "MoveLimits allow",
    };
    let reach = Reachability::new(&puzzle).limited_by(by);
    let reach = match was_narrowed {
        true => reach.narrowed(),
        false => reach,
    };
    let mut answerer = Answerer::new(&puzzle, Tables::new(cache, budget))
        .with_reachability(reach)
        .with_database(db);
    if args.verbose {
        let has_goal = scrambles.first().is_some_and(|s| s.settings.goal.is_some());
        let metric = scrambles.first().map_or(Metric::Htm, |s| s.settings.metric);
        let threads = args
            .threads
            .map_or_else(rayon::current_num_threads, usize::from);
        let plan = super::verbose::Plan {
            metric,
            has_goal,
            no_symmetry: args.no_symmetry,
            threads,
            budget,
            trials: true,
        };
        for line in plan.lines(answerer.solver())? {
            errln!("{line}");
        }
    }
    let mut rng = args.seed.map_or_else(Rng::from_entropy, Rng::new);
    let options = SolveOptions {
        count: args.count.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        threads: args.threads.map(|n| n as usize),
        no_symmetry: args.no_symmetry,
        no_probes: args.no_probes,
        all_checks: args.all_checks,
        ..SolveOptions::default()
    };
    // Random positions of a guarded puzzle are drawn from a list of the reachable ones,
    // which may take half the budget.
    let mut starts = Starts::new(&puzzle, budget / 2);
    let mut batch: Option<Batch> = match shard {
        Some(shard) => Some(shard_args::start(
            shard_args::Origin {
                out: args.batch.out.as_deref().expect("a shard has --out"),
                def: args.def.display().to_string(),
                scramble_file: args
                    .scrambles
                    .as_deref()
                    .map(super::input::display_name)
                    .unwrap_or_default(),
                options: output_options(&args),
            },
            shard,
            &bytes,
            &scramble_bytes,
            scrambles.len(),
        )?),
        None => None,
    };
    if batch.is_some()
        && args.seed.is_none()
        && scrambles
            .iter()
            .any(|s| matches!(s.source, ScrambleSource::Random))
    {
        bars.warn(
            "RandomScramble without --seed: each shard draws its own positions, so the \
             batch differs from a single run; give --seed for repeatable shards",
        );
    }
    let mut code = EXIT_OK;
    for (index, scramble) in scrambles.iter().enumerate() {
        let mine = batch.as_ref().is_none_or(|b| b.shard.takes(index));
        // Another shard's scramble is skipped; a random one is still drawn, so that
        // this shard's random positions are those a single run draws.
        if !mine && !matches!(scramble.source, ScrambleSource::Random) {
            continue;
        }
        let start = starts.start(scramble, answerer.reachability(), &mut rng, &bars);
        if !mine {
            continue;
        }
        let sink = match batch {
            Some(_) => Sink::Record {
                text: Vec::new(),
                json: Vec::new(),
            },
            None => Sink::Stdout { json: args.json },
        };
        let mut emitter = Emitter::new(sink, &puzzle, &kinds, scramble.settings.metric);
        emitter.show_lengths = args.metrics;
        emitter.sort_by = args.sort_by.map(SortBy::metric);
        emitter.auf = auf.clone();
        emitter.pre_auf = pre_auf.is_some();
        // Every write is checked, so a closed or full standard output stops the run
        // between scrambles at the latest (see `output`).
        emitter
            .sink
            .text(|out| writeln!(out, "Solving {}", scramble.name))?;
        if !puzzle.blocks.is_empty() && start.ignore.iter().any(|m| m.perm.iter().any(|&b| b)) {
            // ksolve+ warns here too: which moves are legal depends on where the
            // bandaged pieces are, and `?` leaves that to hints.
            bars.warn(&format!(
                "{}: the puzzle has blocks but the scramble has `?` permutations; blocks are \
                 checked on the position with `?N` hints applied and bare `?` filled in order",
                scramble.name
            ));
        }
        if !given[index] {
            let picture = match &shown[index] {
                Some(state) => format_state(&before, state),
                None => format_state(&puzzle, &start.state),
            };
            emitter
                .sink
                .text(|out| write!(out, "Scramble position:\n{picture}"))?;
        }
        // With --json the object is streamed too: its name and the opening of its
        // `solutions` array first, each solution as it is confirmed, the other fields
        // once the search is done. So a huge Slack holds nothing in memory either way.
        let name = serde_json::to_string(&scramble.name)?;
        emitter
            .sink
            .json(|out| write!(out, "{{\"name\":{name},\"solutions\":["))?;
        emitter.goal = scramble
            .settings
            .goal
            .as_deref()
            .map(|g| (g, &start.state, &start.ignore[..]));
        // Solutions go out one at a time, as they are confirmed, so a large Slack neither
        // waits for a whole length nor holds it in memory.
        let report = match &pre_auf {
            Some(pre) => ksolve::solve::answer_pre_auf(
                &mut answerer,
                &start.position(),
                &scramble.settings,
                options,
                &bars,
                pre,
                &mut |_, s, turn| emitter.emit_after(s, turn),
            )?,
            None => answerer.answer(
                &start.position(),
                &scramble.settings,
                options,
                &bars,
                &mut |_, s| emitter.emit(s),
            )?,
        };
        emitter.finish();
        if let Some(why) = &report.database_refused {
            bars.warn(&format!("{}: {why}; searching instead", scramble.name));
        }
        let outcome = &report.outcome;
        if report.status != Status::Solved {
            code = EXIT_NO_SOLUTION;
        }
        if args.verbose {
            errln!(
                "{}: {} nodes, {} extra table lookup(s) available per node",
                scramble.name,
                outcome.nodes,
                outcome.probes
            );
            if outcome.symmetric > 0 {
                errln!(
                    "{}: the start is fixed by {} symmetries besides the identity: one \
                     prefix of each orbit of the top of the tree searched",
                    scramble.name,
                    outcome.symmetric
                );
            }
            if let Some(line) = super::verbose::checks_line(&outcome.checks) {
                errln!("{}: {line}", scramble.name);
            }
            errln!(
                "{}: tables {} (built or loaded for this scramble), search {}",
                scramble.name,
                format_duration(report.tables),
                format_duration(report.total.saturating_sub(report.tables))
            );
        }
        let unreachable = report.reach.reason();
        {
            let rest = JsonRest {
                status: report.status,
                reason: unreachable,
                length: outcome.length,
                metric: match args.overrides.stm {
                    true => "stm",
                    false => scramble.settings.metric.name(),
                },
                solution_moves: std::mem::take(&mut emitter.moves),
                lengths: std::mem::take(&mut emitter.lengths),
                post_auf: emitter
                    .auf
                    .is_some()
                    .then(|| std::mem::take(&mut emitter.auf_needed)),
                pre_auf: emitter
                    .pre_auf
                    .then(|| std::mem::take(&mut emitter.pre_turns)),
                seconds: report.total.as_secs_f64(),
                table_seconds: report.tables.as_secs_f64(),
                search_seconds: report.total.saturating_sub(report.tables).as_secs_f64(),
                nodes: outcome.nodes,
                goal: emitter.reached.clone(),
            };
            // `rest` serialises as `{...}`: its fields continue the streamed object.
            let rest = serde_json::to_string(&rest)?;
            emitter.sink.json(|out| writeln!(out, "],{}", &rest[1..]))?;
        }
        let steps = match (args.steps, &emitter.first) {
            (true, Some(seq)) => Some(seq.clone()),
            _ => None,
        };
        // A shard's text is printed later by `merge`, to wherever that goes: colour only
        // when asked for outright.
        let look = Look {
            ansi: match batch {
                Some(_) => args.color == super::show::ColorWhen::Always,
                None => args.color.on(),
            },
            lettering: lettering.clone(),
        };
        emitter.sink.text(|out| {
            match (outcome.status, unreachable) {
                (SearchStatus::Solved, _) => {}
                (SearchStatus::MaxDepth, _) => writeln!(out, "Max depth reached, aborting.")?,
                (SearchStatus::Unreachable, Some(reason)) => writeln!(
                    out,
                    "No solution: the position cannot be reached: {reason}."
                )?,
                (SearchStatus::Unreachable, None) => {
                    writeln!(out, "No solution: the position cannot be solved.")?
                }
                (SearchStatus::LimitsUnreachable, _) => writeln!(
                    out,
                    "No solution within the limits: no sequence within the MoveLimits solves \
                     the position."
                )?,
                (SearchStatus::LimitsBound(depth), _) => writeln!(
                    out,
                    "No solution within the limits: none up to depth {depth}, where the search \
                     stops because the MoveLimits may make the position unreachable."
                )?,
            }
            if let Some(seq) = &steps {
                write_steps(out, &puzzle, &start.state, seq, &look)?;
            }
            writeln!(out)
        })?;
        if let (Some(b), Sink::Record { text, json }) = (&mut batch, emitter.sink) {
            b.writer.push(&shard_args::record(
                index,
                scramble,
                report.status,
                text,
                json,
            )?)?;
        }
        if (batch.is_some() || !args.json) && !args.quiet {
            let line = summary::line(
                &scramble.name,
                &scramble.settings,
                puzzle.has_weights(),
                outcome,
                emitter.written,
                report.total.as_secs_f64(),
                report.tables.as_secs_f64(),
            );
            // A summary that cannot be written (stderr closed) is no reason to stop
            // solving, unlike the solutions on stdout.
            let _ = writeln!(std::io::stderr(), "{line}");
        }
    }
    if let Some(b) = batch {
        let path = b.writer.finish()?;
        if !args.quiet {
            bars.note(&format!(
                "shard {}: {} of {} scrambles written to {}",
                b.shard,
                b.shard.share(scrambles.len()),
                scrambles.len(),
                path.display()
            ));
        }
        // The file holds the verdicts; `merge` exits as a single run would. A task that
        // wrote its file has done its work, and a scheduler should not retry it.
        return Ok(EXIT_OK);
    }
    Ok(code)
}

/// seed 002's step by step: the position before the first move and after each move of
/// a solution.
fn write_steps(
    out: &mut dyn Write,
    puzzle: &Puzzle,
    start: &State,
    seq: &[MoveId],
    look: &Look,
) -> std::io::Result<()> {
    writeln!(out, "Start:")?;
    write!(out, "{}", picture::text(puzzle, start, look))?;
    let mut state = start.clone();
    for (i, &m) in seq.iter().enumerate() {
        state = state.then(&puzzle.mv(m).effect, &puzzle.sets);
        writeln!(out, "Step {}: {}", i + 1, puzzle.mv(m).name)?;
        write!(out, "{}", picture::text(puzzle, &state, look))?;
    }
    Ok(())
}

/// The options given that change what `solve` prints, as command-line words in a fixed
/// order, so that shards of one batch agree on them whatever order they were typed in.
/// Options that change only speed (--threads, --memory, --tables) are left out: shards
/// may run on machines of different sizes. --no-probes, --no-symmetry and --all-checks
/// are in, since they change the nodes the JSON objects count.
fn output_options(args: &SolveArgs) -> Vec<String> {
    let o = &args.overrides;
    let mut out = Vec::new();
    let mut push = |flag: &str, value: Option<String>| {
        out.push(flag.to_string());
        out.extend(value);
    };
    if let Some(n) = o.slack {
        push("--slack", Some(n.to_string()));
    }
    if let Some(n) = o.max_depth {
        push("--max-depth", Some(n.to_string()));
    }
    if o.qtm {
        push("--qtm", None);
    }
    if o.htm {
        push("--htm", None);
    }
    if !o.moves.is_empty() {
        push("--moves", Some(o.moves.join(",")));
    }
    if let Some(n) = args.count {
        push("--count", Some(n.to_string()));
    }
    if let Some(n) = args.seed {
        push("--seed", Some(n.to_string()));
    }
    if args.steps {
        push("--steps", None);
    }
    if args.steps && args.color == super::show::ColorWhen::Always {
        push("--color", Some("always".into()));
    }
    // One optimal solution per scramble instead of all of them; the table's path is
    // the shard's own business.
    if args.database.is_some() {
        push("--database", None);
    }
    // The nodes of the JSON objects depend on the probes.
    if args.no_probes {
        push("--no-probes", None);
    }
    if args.no_symmetry {
        push("--no-symmetry", None);
    }
    if args.all_checks {
        push("--all-checks", None);
    }
    out
}
