//! [`Progress`]: how a long pack reports what it is doing.

/// Hooks a caller implements to show progress (a bar on a terminal); every
/// method does nothing by default, and `()` reports nothing. Called from
/// several threads at once.
pub trait Progress: Sync {
    /// The walk has found `files` inputs so far.
    fn found(&self, files: usize) {
        let _ = files;
    }

    /// Reading and counting `files` inputs starts.
    fn start_counting(&self, files: usize) {
        let _ = files;
    }

    /// One more input has been read and counted.
    fn counted_one(&self) {}

    /// The work is done.
    fn finish(&self) {}
}

impl Progress for () {}
