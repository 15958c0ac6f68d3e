//! Statistics of optimal solution lengths (`ksolve stats`): draw positions (uniformly
//! from the reachable ones, or as the end of a random walk), solve each optimally with
//! one [`Answerer`] whose tables are built once, and gather the distribution of lengths.
//!
//! Nothing here prints: [`run`] returns a [`Stats`], whose [`Distribution`] carries
//! the counts, the mean, the extremes and the rows of a histogram for the command line
//! to draw, and a chi-square comparison against a known distribution (a God's table).
//! The positions depend only on the generator's seed, never on timing or threads, so a
//! seeded run repeats exactly.

use crate::group::Group;
use crate::progress::{Progress, Silent};
use crate::puzzle::{IgnoreMask, Puzzle, SolveSettings, State};
use crate::rng::Rng;
use crate::search::random::{random_position, random_walk};
use crate::search::SolveOptions;
use crate::solve::{AnswerError, Answerer, Origin, Position, Status};
use std::time::{Duration, Instant};

/// How positions are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// Uniformly from the reachable positions (the group's coset representatives; a long
    /// random walk on puzzles the group cannot sample, see [`random_position`]).
    Uniform,
    /// The end of a walk of this many moves from solved, each move drawn uniformly from
    /// those the `Block` rule allows.
    Walk(u32),
}

/// One position drawn as `sampling` asks.
pub fn sample(puzzle: &Puzzle, group: Option<&Group>, sampling: Sampling, rng: &mut Rng) -> State {
    match sampling {
        Sampling::Uniform => random_position(puzzle, group, rng),
        Sampling::Walk(steps) => random_walk(puzzle, rng, steps as usize),
    }
}

/// How many positions had each optimal length, and how many had no solution within the
/// settings' `MaxDepth`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Distribution {
    /// `counts[l]`: positions whose optimal length is `l`.
    counts: Vec<u64>,
    /// Positions with no solution within the limits.
    pub unsolved: u64,
}

/// One row of a histogram: a length, its count, its share of the solved positions and
/// the length of its bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub length: u32,
    pub count: u64,
    pub fraction: f64,
    pub bar: usize,
}

/// Pearson's chi-square statistic of a sample against expected proportions, after
/// pooling neighbouring lengths until every pooled bin expects at least 5 positions (the
/// usual condition for the chi-square approximation to hold).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChiSquare {
    pub statistic: f64,
    /// Pooled bins minus one.
    pub degrees: usize,
}

impl Distribution {
    /// Counts one more position of optimal length `length`.
    pub fn add(&mut self, length: u32) {
        let l = length as usize;
        if self.counts.len() <= l {
            self.counts.resize(l + 1, 0);
        }
        self.counts[l] += 1;
    }

    /// Counts `n` more positions of optimal length `length`.
    pub fn add_many(&mut self, length: u32, n: u64) {
        if n == 0 {
            return;
        }
        let l = length as usize;
        if self.counts.len() <= l {
            self.counts.resize(l + 1, 0);
        }
        self.counts[l] += n;
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: &Distribution) {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.unsolved += other.unsolved;
    }

    /// Positions of optimal length `length`.
    pub fn count(&self, length: u32) -> u64 {
        self.counts.get(length as usize).copied().unwrap_or(0)
    }

    /// Positions solved.
    pub fn solved(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The shortest optimal length seen.
    pub fn min(&self) -> Option<u32> {
        self.counts.iter().position(|&c| c > 0).map(|l| l as u32)
    }

    /// The longest optimal length seen.
    pub fn max(&self) -> Option<u32> {
        self.counts.iter().rposition(|&c| c > 0).map(|l| l as u32)
    }

    /// The mean optimal length of the solved positions.
    pub fn mean(&self) -> Option<f64> {
        let n = self.solved();
        let sum: u64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(l, &c)| l as u64 * c)
            .sum();
        (n > 0).then(|| sum as f64 / n as f64)
    }

    /// Every length from the minimum to the maximum (zeros included, so gaps show),
    /// with bars scaled so that the most common length gets `width` characters.
    pub fn rows(&self, width: usize) -> Vec<Row> {
        let (Some(lo), Some(hi)) = (self.min(), self.max()) else {
            return Vec::new();
        };
        let n = self.solved() as f64;
        let top = self.counts.iter().copied().max().unwrap_or(0).max(1);
        (lo..=hi)
            .map(|l| {
                let count = self.count(l);
                // Rounded to nearest, but a length that occurred keeps at least one
                // character, so rare lengths stay visible.
                let bar = ((count as f64 * width as f64 / top as f64).round() as usize)
                    .max(usize::from(count > 0));
                Row {
                    length: l,
                    count,
                    fraction: count as f64 / n,
                    bar,
                }
            })
            .collect()
    }

    /// The chi-square statistic of these counts against a population where `population[l]`
    /// positions have length `l` (a God's table). Lengths are pooled from both ends
    /// towards the middle until each pooled bin expects at least 5 positions.
    pub fn chi_square(&self, population: &[u64]) -> ChiSquare {
        let n = self.solved() as f64;
        let total: u64 = population.iter().sum();
        let len = population.len().max(self.counts.len());
        let expected: Vec<f64> = (0..len)
            .map(|l| population.get(l).copied().unwrap_or(0) as f64 * n / total as f64)
            .collect();
        let observed: Vec<f64> = (0..len).map(|l| self.count(l as u32) as f64).collect();
        // A length the population never has cannot be pooled away: no sample fits it.
        if expected
            .iter()
            .zip(&observed)
            .any(|(&e, &o)| e == 0.0 && o > 0.0)
        {
            return ChiSquare {
                statistic: f64::INFINITY,
                degrees: 0,
            };
        }
        // Bins as (expected, observed), pooled greedily from the short end; the last
        // bin, if still too small, joins the one before it.
        let mut bins: Vec<(f64, f64)> = Vec::new();
        let mut acc = (0.0, 0.0);
        for (e, o) in expected.iter().zip(&observed) {
            acc = (acc.0 + e, acc.1 + o);
            if acc.0 >= 5.0 {
                bins.push(acc);
                acc = (0.0, 0.0);
            }
        }
        if acc.0 > 0.0 || acc.1 > 0.0 {
            match bins.last_mut() {
                Some(last) => *last = (last.0 + acc.0, last.1 + acc.1),
                None => bins.push(acc),
            }
        }
        let statistic = bins
            .iter()
            .map(|&(e, o)| if e > 0.0 { (o - e) * (o - e) / e } else { 0.0 })
            .sum();
        ChiSquare {
            statistic,
            degrees: bins.len().saturating_sub(1),
        }
    }
}

/// What a statistics run found.
#[derive(Clone, Debug)]
pub struct Stats {
    pub distribution: Distribution,
    /// Time spent building or loading the tables, before the first position.
    pub tables: Duration,
    /// Time spent drawing and solving the positions.
    pub solving: Duration,
    /// Search nodes over all positions.
    pub nodes: u64,
}

impl Stats {
    /// Positions drawn (solved or not).
    pub fn positions(&self) -> u64 {
        self.distribution.solved() + self.distribution.unsolved
    }

    /// The mean time to draw and solve one position.
    pub fn per_position(&self) -> Duration {
        self.solving / self.positions().max(1) as u32
    }
}

/// Draws `count` positions as `sampling` asks from `rng` and solves each optimally
/// under `settings` (one solution each), building the solver's tables first. Progress
/// reports one step per position; the searches themselves report nothing.
#[allow(clippy::too_many_arguments)]
pub fn run(
    puzzle: &Puzzle,
    answerer: &mut Answerer,
    group: Option<&Group>,
    sampling: Sampling,
    count: u64,
    rng: &mut Rng,
    settings: &SolveSettings,
    threads: Option<usize>,
    progress: &dyn Progress,
) -> Result<Stats, AnswerError> {
    let timer = Instant::now();
    answerer.solver().prepare(settings.metric, None, progress)?;
    let tables = timer.elapsed();
    let options = SolveOptions {
        count: Some(1),
        threads,
        ..SolveOptions::default()
    };
    let timer = Instant::now();
    let mut distribution = Distribution::default();
    let mut nodes = 0;
    progress.start(&format!("solving {count} positions"), Some(count));
    for _ in 0..count {
        let start = sample(puzzle, group, sampling, rng);
        // The search's own depth-by-depth progress would replace this run's bar.
        let position = Position {
            start: &start,
            ignore: &[],
            origin: Origin::Made,
            impossible: None,
        };
        let report = answerer.answer(&position, settings, options, &Silent, &mut |_, _| {})?;
        nodes += report.outcome.nodes;
        match (report.status, report.outcome.length) {
            (Status::Solved, Some(l)) => distribution.add(l),
            _ => distribution.unsolved += 1,
        }
        progress.inc(1);
    }
    progress.finish();
    Ok(Stats {
        distribution,
        tables,
        solving: timer.elapsed(),
        nodes,
    })
}

/// Solves positions in batches, the positions of a batch shared out between
/// `answerers` (one thread each, each with its own tables: for the small tables of a
/// step, such as a cross, threads across positions outdo threads within one search).
/// `next_batch` fills its vector with the next positions and returns `Ok(false)` once
/// there are none (an `Err` ends the run: a scramble file's bad line). Each position is
/// free where `ignore` says (a step's free pieces). Lengths do not depend on the number
/// of threads.
pub fn run_batches<E>(
    answerers: &mut [Answerer],
    ignore: &[IgnoreMask],
    settings: &SolveSettings,
    mut next_batch: impl FnMut(&mut Vec<State>) -> Result<bool, E>,
    progress: &dyn Progress,
) -> Result<Result<Stats, E>, AnswerError> {
    let timer = Instant::now();
    for a in answerers.iter_mut() {
        a.solver()
            .prepare(settings.metric, settings.goal.as_deref(), progress)?;
    }
    let tables = timer.elapsed();
    let options = SolveOptions {
        count: Some(1),
        threads: Some(1),
        ..SolveOptions::default()
    };
    let timer = Instant::now();
    let mut distribution = Distribution::default();
    let mut nodes = 0;
    let mut batch = Vec::new();
    progress.start("solving positions", None);
    loop {
        batch.clear();
        let more = match next_batch(&mut batch) {
            Ok(more) => more,
            Err(e) => return Ok(Err(e)),
        };
        let share = batch.len().div_ceil(answerers.len()).max(1);
        let results: Vec<Result<(Distribution, u64), AnswerError>> = std::thread::scope(|s| {
            let handles: Vec<_> = answerers
                .iter_mut()
                .zip(batch.chunks(share))
                .map(|(answerer, part)| {
                    s.spawn(move || {
                        let mut d = Distribution::default();
                        let mut nodes = 0;
                        for start in part {
                            let position = Position {
                                start,
                                ignore,
                                origin: Origin::Given,
                                impossible: None,
                            };
                            let report = answerer.answer(
                                &position,
                                settings,
                                options,
                                &Silent,
                                &mut |_, _| {},
                            )?;
                            nodes += report.outcome.nodes;
                            match (report.status, report.outcome.length) {
                                (Status::Solved, Some(l)) => d.add(l),
                                _ => d.unsolved += 1,
                            }
                        }
                        Ok((d, nodes))
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a solving thread panicked"))
                .collect()
        });
        for r in results {
            let (d, n) = r?;
            distribution.merge(&d);
            nodes += n;
        }
        progress.inc(batch.len() as u64);
        if !more {
            break;
        }
    }
    progress.finish();
    Ok(Ok(Stats {
        distribution,
        tables,
        solving: timer.elapsed(),
        nodes,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(lengths: &[u32]) -> Distribution {
        let mut d = Distribution::default();
        for &l in lengths {
            d.add(l);
        }
        d
    }

    #[test]
    fn counts_mean_and_extremes() {
        let d = dist(&[3, 5, 5, 7]);
        assert_eq!((d.min(), d.max(), d.solved()), (Some(3), Some(7), 4));
        assert_eq!(d.mean(), Some(5.0));
        assert_eq!(d.count(5), 2);
        assert_eq!(d.count(4), 0);
        assert_eq!(Distribution::default().mean(), None);
    }

    #[test]
    fn rows_cover_the_range_and_scale_the_bars() {
        let d = dist(&[2, 4, 4, 4, 4]);
        let rows = d.rows(8);
        let lens: Vec<(u32, u64, usize)> =
            rows.iter().map(|r| (r.length, r.count, r.bar)).collect();
        // The lone 2 gets 2 of 8 characters; the empty 3 none; the 4s all 8.
        assert_eq!(lens, [(2, 1, 2), (3, 0, 0), (4, 4, 8)]);
        assert_eq!(rows[0].fraction, 0.2);
        // A rare length keeps one character.
        let mut d = Distribution::default();
        for _ in 0..1000 {
            d.add(1);
        }
        d.add(2);
        assert_eq!(d.rows(10)[1].bar, 1);
    }

    #[test]
    fn chi_square_pools_small_bins_and_grows_with_misfit() {
        // 100 samples against a population of 1 : 1 : 98: the two small lengths pool
        // together (2 expected) and then with the large one, leaving one bin.
        let fit = dist(&[&[0u32, 1][..], &[2; 98][..]].concat());
        let c = fit.chi_square(&[1, 1, 98]);
        assert_eq!(c.degrees, 0);
        assert!(c.statistic < 1e-9, "{c:?}");
        // Two even lengths, observed exactly as expected, then badly off.
        let even = dist(&[&[1u32; 50][..], &[2; 50][..]].concat());
        let c = even.chi_square(&[0, 1, 1]);
        assert_eq!(c.degrees, 1);
        assert!(c.statistic < 1e-9);
        let skewed = dist(&[&[1u32; 80][..], &[2; 20][..]].concat());
        // (80-50)^2/50 + (20-50)^2/50 = 36.
        assert!((skewed.chi_square(&[0, 1, 1]).statistic - 36.0).abs() < 1e-9);
        // A length the population never has cannot fit.
        assert!(dist(&[5]).chi_square(&[0, 1]).statistic.is_infinite());
    }
}
