//! Unit tests of the sticker map.
