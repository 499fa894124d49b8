//! Where `pack` and `count` keep what they learn between runs.

use std::path::PathBuf;

use budget_pack::CountCache;

/// The cache folder, unless `disabled` (`--no-cache`): `$BUDGET_CACHE_DIR`
/// when it is an absolute path, else the user's cache folder
/// ([`CountCache::default_dir`]). Only the environment chooses it: no
/// config file and no MCP client can.
pub fn dir(disabled: bool) -> Option<PathBuf> {
    if disabled {
        return None;
    }
    std::env::var_os("BUDGET_CACHE_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .or_else(CountCache::default_dir)
}

/// Saves what `cache` learned. A cache that cannot be written (a
/// read-only home, a full disk) only costs the next run time: not an
/// error, and not worth a warning on every run.
pub fn save(cache: Option<&CountCache>) {
    if let Some(cache) = cache {
        let _unsaved = cache.save();
    }
}
