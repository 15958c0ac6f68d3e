//! The integration tests, as one binary: every file of `tests/` is a module of it, so
//! that a build links one test executable instead of one per file (43 of them took most
//! of a fresh `cargo test`). Each module tests one command or one feature through the
//! library's public API or the `ksolve` binary; `common`, `gods_fixtures` and
//! `sliding_gen` hold what several of them share.
//!
//! Run one file's tests with `cargo test --test integration NAME::`.

mod common;
mod gods_fixtures;
mod sliding_gen;

mod additive;
mod alg_cli;
mod board_pictures;
mod cache_cli;
mod chains;
mod check_cli;
mod cli_help;
mod closed_goal;
mod differential;
mod goal_modulo;
mod god_bruteforce;
mod god_checkpoint;
mod god_cli;
mod god_database;
mod god_dist;
mod god_guarded_index;
mod god_index_size;
mod god_known;
mod god_samples;
mod group_cli;
mod hostile_cli;
mod hunting;
mod io_cli;
mod korf100;
mod kpuzzle;
mod layers;
mod megaminx_notation;
mod megaminx_picture;
mod narrowed;
mod nxn_notation;
mod output_snapshots;
mod parse_speed;
mod play_cli;
mod progress_cli;
mod reference;
mod shard_cli;
mod shipped_puzzles;
mod show_cli;
mod sliding;
mod solve_cache;
mod solve_cli;
mod solve_costs;
mod solve_database;
mod solve_flags;
mod solve_goal;
mod solve_guarded;
mod solve_known;
mod solve_limits;
mod solve_memory;
mod solve_probes;
mod solve_rules;
mod solve_samples;
mod solve_shared_limits;
mod solve_symmetric;
mod solve_symtable;
mod solve_trial;
mod solve_trust;
mod stats_cli;
mod steps;
mod sticker_facelets;
mod symmetry_cli;
mod tour;
mod twsearch_samples;
mod verdicts;
mod wca_notation;
