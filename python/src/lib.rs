//! `import ksolve`: the library's one entry per task, for Python. A [`PyPuzzle`] is read
//! from a definition in any format ksolve reads (ksolve+, twsearch, cubing.js's KPuzzle
//! JSON); `check` says how many positions its moves reach and whether a position is one
//! of them (the verdict `ksolve check` and `ksolve solve` use), `solve` answers scrambles
//! optimally through `ksolve::solve::Answerer` (Slack, move limits, goals and `?` from a
//! scramble file, or keyword arguments), and `god` counts the positions at each distance.
//! Moves come back as lists of move names. Progress is never shown; errors are Python
//! exceptions: `InputError` (a `ValueError`) with `file`, `line` and `col` for bad
//! input, `KsolveError` for everything else.

use ksolve::alg::{self, AlgLine, MoveNames};
use ksolve::def::{load_puzzle, load_scrambles, parse_puzzle, DefError};
use ksolve::gods::{self, GodOptions};
use ksolve::memory::parse_budget;
use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, MoveId, MoveLimit, Puzzle, Scramble, ScrambleSource, SolveSettings};
use ksolve::rng::Rng;
use ksolve::search::SolveOptions;
use ksolve::solve::{Answerer, Origin, Reach, Starts};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::Arc;

create_exception!(
    ksolve,
    InputError,
    PyValueError,
    "A definition, scramble file or algorithm that ksolve refuses; `file`, `line` and `col` say where (line 0: the file as a whole)."
);
create_exception!(
    ksolve,
    KsolveError,
    PyException,
    "A failure that is not the input's: tables that do not fit the memory budget, an unwritable table folder."
);

/// A refused input as an `InputError` carrying where it was refused.
fn input_error(py: Python<'_>, e: &DefError) -> PyErr {
    let err = InputError::new_err(e.to_string());
    let value = err.value(py);
    let _ = value.setattr("file", e.file.clone());
    let _ = value.setattr("line", e.line);
    let _ = value.setattr("col", e.col);
    err
}

fn failure(e: impl std::fmt::Display) -> PyErr {
    KsolveError::new_err(e.to_string())
}

/// A puzzle read from a definition.
#[pyclass(name = "Puzzle", module = "ksolve", frozen)]
struct PyPuzzle {
    puzzle: Arc<Puzzle>,
    /// The file it was read from, which names its tables in a cache folder.
    path: PathBuf,
    /// The definition's bytes, which key its cached tables.
    bytes: Vec<u8>,
}

/// Reads a definition file (ksolve+ `.def`, twsearch `.tws` or KPuzzle `.json`).
#[pyfunction]
fn load(py: Python<'_>, path: PathBuf) -> PyResult<PyPuzzle> {
    let (puzzle, _warnings) = load_puzzle(&path).map_err(|e| input_error(py, &e))?;
    let bytes = std::fs::read(&path).map_err(failure)?;
    Ok(PyPuzzle {
        puzzle: Arc::new(puzzle),
        path,
        bytes,
    })
}

/// Reads a definition from its text; `name` names it in error messages.
#[pyfunction]
#[pyo3(signature = (text, name = "puzzle.def"))]
fn parse(py: Python<'_>, text: &str, name: &str) -> PyResult<PyPuzzle> {
    let (puzzle, _warnings) =
        parse_puzzle(text.as_bytes(), name).map_err(|e| input_error(py, &e))?;
    Ok(PyPuzzle {
        puzzle: Arc::new(puzzle),
        path: PathBuf::from(name),
        bytes: text.as_bytes().to_vec(),
    })
}

impl PyPuzzle {
    /// The moves of algorithm `text`, checked against the puzzle's blocks.
    fn alg_moves(&self, py: Python<'_>, text: &str) -> PyResult<Vec<MoveId>> {
        let lines: Vec<AlgLine> = text
            .split('\n')
            .enumerate()
            .map(|(i, t)| AlgLine { no: i + 1, text: t })
            .collect();
        let names = MoveNames::new(&self.puzzle);
        let parsed = alg::parse("<alg>", &lines, &names).map_err(|e| input_error(py, &e))?;
        parsed
            .legal_moves(&self.puzzle, "<alg>", &lines)
            .map_err(|e| input_error(py, &e))
    }

    fn names(&self, moves: &[MoveId]) -> Vec<String> {
        moves
            .iter()
            .map(|&m| self.puzzle.mv(m).name.clone())
            .collect()
    }

    /// The scrambles to answer: the algorithm, or every scramble of the file.
    fn scrambles(
        &self,
        py: Python<'_>,
        alg: Option<&str>,
        scrambles: Option<PathBuf>,
    ) -> PyResult<Vec<Scramble>> {
        match (alg, scrambles) {
            (Some(text), None) => Ok(vec![Scramble {
                name: text.split_whitespace().collect::<Vec<_>>().join(" "),
                source: ScrambleSource::Alg(self.alg_moves(py, text)?),
                settings: SolveSettings::for_puzzle(&self.puzzle),
                line: 0,
            }]),
            (None, Some(path)) => {
                load_scrambles(&path, &self.puzzle).map_err(|e| input_error(py, &e))
            }
            _ => Err(PyValueError::new_err(
                "give exactly one of `alg` (an algorithm applied to the solved state) and `scrambles` (a scramble file)",
            )),
        }
    }

    fn tables(&self, memory: &str, tables: Option<PathBuf>) -> PyResult<Tables> {
        let budget = parse_budget(memory).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let name = self.puzzle.name.clone().unwrap_or_default();
        let cache = match tables {
            Some(dir) => TableCache::open(Some(dir), &self.path, &name, &self.bytes, &Silent),
            None => TableCache::in_memory(),
        };
        Ok(Tables::new(cache, budget))
    }
}

#[pymethods]
impl PyPuzzle {
    /// The definition's `Name`, if it has one.
    #[getter]
    fn name(&self) -> Option<String> {
        self.puzzle.name.clone()
    }

    /// Every move, powers included, in the order ksolve searches them.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.puzzle.moves.iter().map(|m| m.name.clone()).collect()
    }

    /// How many positions the moves reach (`order`, exact, as `ksolve check` prints
    /// "Reachable positions"), and, given an algorithm, whether the position it makes
    /// can be solved (`reachable`: True, False or None when it cannot be decided, with
    /// `reason`). With `moves`, only those base moves may be used.
    #[pyo3(signature = (alg = None, moves = None))]
    fn check<'py>(
        &self,
        py: Python<'py>,
        alg: Option<&str>,
        moves: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        let mut reach = ksolve::solve::Reachability::new(&self.puzzle);
        let order = reach.group().map(|g| g.order().to_string());
        // Orders pass 2^64 (the Megaminx's has 68 digits): a Python int from the digits.
        let int = py.import("builtins")?.getattr("int")?;
        let order = match order {
            Some(text) => Some(int.call1((text,))?),
            None => None,
        };
        out.set_item("order", order)?;
        if let Some(text) = alg {
            let mut settings = SolveSettings::for_puzzle(&self.puzzle);
            if let Some(names) = moves {
                settings.limits = only(&self.puzzle, &names)?;
            }
            let state = self
                .puzzle
                .apply_sequence(&self.puzzle.solved, &self.alg_moves(py, text)?);
            let (reachable, reason) =
                match reach.verdict(&state, &[], Origin::Made, &settings, None) {
                    Reach::Reachable { .. } => (Some(true), None),
                    Reach::Unreachable(why) => (Some(false), Some(why)),
                    Reach::Unknown(why) => (None, Some(why)),
                };
            out.set_item("reachable", reachable)?;
            out.set_item("reason", reason)?;
        }
        Ok(out)
    }

    /// Solves each scramble optimally: the position `alg` makes from the solved state,
    /// or every scramble of the file `scrambles` (with its own settings, goals and `?`
    /// marks; a `RandomScramble` is drawn with `seed`). Keyword arguments replace the
    /// file's settings: `slack` (also solutions up to optimal + slack), `max_depth`,
    /// `moves` (only these base moves), `qtm`. `count` stops each scramble after that
    /// many solutions. Tables are built in `memory` and kept in `tables` (a folder)
    /// when given. Returns one dict per scramble: `name`, `status` (`solved`,
    /// `no_solution`, `unreachable`), `length` and `solutions` (lists of move names).
    #[pyo3(signature = (alg = None, *, scrambles = None, slack = None, count = None, max_depth = None, moves = None, qtm = false, memory = "256M", tables = None, seed = 1))]
    #[allow(clippy::too_many_arguments)]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        alg: Option<&str>,
        scrambles: Option<PathBuf>,
        slack: Option<u32>,
        count: Option<usize>,
        max_depth: Option<u32>,
        moves: Option<Vec<String>>,
        qtm: bool,
        memory: &str,
        tables: Option<PathBuf>,
        seed: u64,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let mut list = self.scrambles(py, alg, scrambles)?;
        let limits = match &moves {
            Some(names) => Some(only(&self.puzzle, names)?),
            None => None,
        };
        for s in &mut list {
            if let Some(n) = slack {
                s.settings.slack = n;
            }
            if let Some(n) = max_depth {
                s.settings.max_depth = n;
            }
            if qtm {
                s.settings.metric = Metric::Qtm;
            }
            if let Some(l) = &limits {
                s.settings.limits.clone_from(l);
            }
        }
        let budget = parse_budget(memory).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let puzzle = self.puzzle.clone();
        let tables = self.tables(memory, tables)?;
        // The search runs without the interpreter's lock: other Python threads go on.
        let results = py.detach(|| -> Result<Vec<Solved>, String> {
            let mut answerer = Answerer::new(&puzzle, tables);
            let mut starts = Starts::new(&puzzle, budget);
            let mut rng = Rng::new(seed);
            let options = SolveOptions {
                count,
                ..SolveOptions::default()
            };
            let mut out = Vec::with_capacity(list.len());
            for s in &list {
                let start = starts.start(s, answerer.reachability(), &mut rng, &Silent);
                let mut solutions: Vec<Vec<MoveId>> = Vec::new();
                let report = answerer
                    .answer(
                        &start.position(),
                        &s.settings,
                        options,
                        &Silent,
                        &mut |_, m| solutions.push(m.to_vec()),
                    )
                    .map_err(|e| e.to_string())?;
                out.push(Solved {
                    name: s.name.clone(),
                    status: report.status.name(),
                    length: report.outcome.length,
                    solutions,
                });
            }
            Ok(out)
        });
        let results = results.map_err(failure)?;
        results
            .into_iter()
            .map(|r| {
                let d = PyDict::new(py);
                d.set_item("name", r.name)?;
                d.set_item("status", r.status)?;
                d.set_item("length", r.length)?;
                let solutions: Vec<Vec<String>> =
                    r.solutions.iter().map(|m| self.names(m)).collect();
                d.set_item("solutions", solutions)?;
                Ok(d)
            })
            .collect()
    }

    /// God's algorithm: `counts[d]` positions at distance `d` from solved (HTM, or QTM
    /// with `qtm`), their `total`, God's number `max_depth` and up to `antipodes`
    /// deepest positions as optimal solutions (move lists), in `memory`.
    #[pyo3(signature = (*, qtm = false, antipodes = 5, memory = "1G"))]
    fn god<'py>(
        &self,
        py: Python<'py>,
        qtm: bool,
        antipodes: usize,
        memory: &str,
    ) -> PyResult<Bound<'py, PyDict>> {
        let budget = parse_budget(memory).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let opts = GodOptions {
            metric: if qtm { Metric::Qtm } else { Metric::Htm },
            antipodes,
            memory: budget,
            ..GodOptions::default()
        };
        let puzzle = self.puzzle.clone();
        let table = py
            .detach(|| gods::compute(&puzzle, &opts, &Silent, &|_, _| {}))
            .map_err(failure)?;
        let d = PyDict::new(py);
        d.set_item("counts", table.counts.clone())?;
        d.set_item("total", table.total())?;
        d.set_item("max_depth", table.max_depth())?;
        let deepest: Vec<Vec<String>> = table
            .antipodes
            .iter()
            .map(|a| self.names(&a.solution))
            .collect();
        d.set_item("antipodes", deepest)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<ksolve.Puzzle {} ({} sets, {} moves)>",
            self.puzzle.name.as_deref().unwrap_or("(unnamed)"),
            self.puzzle.sets.len(),
            self.puzzle.base_moves.len()
        )
    }
}

/// One scramble's answer, before it becomes a dict.
struct Solved {
    name: String,
    status: &'static str,
    length: Option<u32>,
    solutions: Vec<Vec<MoveId>>,
}

/// Limits that leave only the base moves `names` name.
fn only(puzzle: &Puzzle, names: &[String]) -> PyResult<Vec<MoveLimit>> {
    MoveLimit::only(puzzle, names)
        .map_err(|name| PyValueError::new_err(format!("the puzzle has no move `{name}`")))
}

/// The `ksolve` module.
#[pymodule]
#[pyo3(name = "ksolve")]
fn ksolve_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPuzzle>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("KsolveError", m.py().get_type::<KsolveError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
