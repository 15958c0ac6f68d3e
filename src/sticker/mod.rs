//! Puzzles by their stickers: the reading of a position from its colours with a
//! diagnosis of impossible colourings ([`read`]), the letters a user typed for each face
//! ([`lettering`]), and pictures of the net ([`draw`]), in the colours of [`colour`],
//! laid out as the definition lays them or, for faces that are pentagons, unfolded by
//! [`net`] and placed by [`pentagon`]. The sticker map they work from is the model's
//! ([`crate::puzzle::stickers`]), re-exported here.

pub mod colour;
pub mod draw;
pub mod lettering;
pub mod net;
pub mod pentagon;
pub mod read;

pub use crate::puzzle::stickers::{MapError, Slot, Sticker, StickerMap};

#[cfg(test)]
mod net_tests;
#[cfg(test)]
mod tests;
