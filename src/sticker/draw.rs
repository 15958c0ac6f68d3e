//! Pictures of a sticker map's net (filled in by the drawing step).
