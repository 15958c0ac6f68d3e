//! What the fuzz targets that read text against one of our puzzles share: the puzzles,
//! parsed once, and the first byte of the input picking one of them.

use ksolve::def::parse_puzzle;
use ksolve::puzzle::Puzzle;
use std::sync::OnceLock;

/// The puzzle the first byte of `data` picks among `defs` (parsed once, into `cache`),
/// and the bytes after it; `None` for empty input.
pub fn pick<'a>(
    cache: &'a OnceLock<Vec<Puzzle>>,
    defs: &[&str],
    data: &'a [u8],
) -> Option<(&'a Puzzle, &'a [u8])> {
    let (&first, rest) = data.split_first()?;
    let puzzles = cache.get_or_init(|| {
        defs.iter()
            .map(|d| {
                parse_puzzle(d.as_bytes(), "shipped.def")
                    .expect("shipped puzzle")
                    .0
            })
            .collect()
    });
    Some((&puzzles[first as usize % puzzles.len()], rest))
}
