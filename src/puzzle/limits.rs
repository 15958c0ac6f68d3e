//! How large a puzzle any reader may build: every definition format (ksolve+'s and
//! twsearch's in `def`, cubing.js's KPuzzle JSON in `kpuzzle`) is held to these, which
//! bound the memory an input can ask for.

/// The largest set: labels are `u16`.
pub const MAX_SET_SIZE: usize = u16::MAX as usize;
/// The most pieces over all sets, which bounds the memory a definition can ask for.
pub const MAX_POSITIONS: usize = u16::MAX as usize;
/// The most orientations a piece may have: two orientations below this add up without
/// overflowing a `u8`.
pub const MAX_ORIENTATIONS: usize = 128;
/// The most moves, powers included: the forbidden-pair table is quadratic in it.
pub const MAX_MOVES: usize = 4096;
/// The most move entries (moves, powers included, times pieces over all sets): every
/// move is stored whole, so this bounds the memory a definition can ask for. A
/// 7x7x7 cube needs about 25,000.
pub const MAX_MOVE_ENTRIES: usize = 1 << 24;
/// The largest move cost (`MoveCosts`): pruning tables hold distances below 255, so a
/// heavier move would only be "at least 254" to them; 100 leaves room for a few moves of
/// any weight.
pub const MAX_WEIGHT: u64 = 100;
/// The largest net row or column of a sticker map: a net is drawn cell by cell, so this
/// bounds a picture.
pub const MAX_NET_CELL: u64 = 999;
/// The widest text a board's tile may show: a board is drawn cell by cell, so this
/// bounds a picture's width.
pub const MAX_TILE_TEXT: usize = 8;
