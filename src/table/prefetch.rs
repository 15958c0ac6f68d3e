//! Asking the processor to start reading a table entry before it is needed.
//!
//! A lookup in a table of gigabytes is a miss in every cache: about a hundred
//! nanoseconds during which a search that needs the value waits. A search that knows
//! the entries of a whole batch of children first can ask for all of them, and then
//! read them while the reads are on their way ([`crate::table::prune::PruneTable::prefetch`],
//! [`crate::table::sym::classes::Classes::prefetch`]). A prefetch never faults and never
//! changes a value, so it only ever changes how long a lookup takes.

/// Starts bringing the cache line that holds `item` into the caches closest to the
/// processor, without waiting for it. Does nothing on processors without the
/// instruction.
#[inline(always)]
pub fn read_soon<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is a hint: it reads nothing into the program's state and
        // cannot fault, and `item` is a valid reference besides. SSE, which the
        // instruction needs, is part of every x86-64 processor.
        #[allow(unused_unsafe)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast::<i8>());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = item;
    }
}
