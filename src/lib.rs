//! ksolve: a generic twisty-puzzle solver. The library reads ksolve+ definition and
//! scramble files (and twsearch's and cubing.js's KPuzzle formats), solves positions
//! optimally, and computes God's-algorithm tables; the `ksolve` binary is a thin
//! command-line layer over it.

pub mod alg;
pub mod batch;
pub mod chain;
pub mod coord;
pub mod def;
pub mod gods;
pub mod group;
pub mod keys;
pub mod kpuzzle;
pub mod located;
pub mod memory;
pub mod picture;
pub mod play;
pub mod progress;
pub mod puzzle;
pub mod rng;
pub mod search;
pub mod solve;
pub mod stats;
pub mod sticker;
pub mod storage;
pub mod symmetry;
pub mod table;
pub mod words;
