//! Cubes by their stickers: the reading of a position from its colours with a diagnosis
//! of impossible colourings ([`read`]), the letters a user typed for each face
//! ([`lettering`]), and pictures of the net ([`draw`]). The sticker
//! map they work from is the model's ([`crate::puzzle::stickers`]), re-exported here.

pub mod draw;
pub mod lettering;
pub mod read;

pub use crate::puzzle::stickers::{MapError, Slot, Sticker, StickerMap};

#[cfg(test)]
mod tests;
