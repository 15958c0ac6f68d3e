//! Tables the solver and the God's-algorithm mode keep: the on-disk container format
//! shared by every cached table ([`file`]).

pub mod file;
