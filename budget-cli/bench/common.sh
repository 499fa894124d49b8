# Shared by the bench scripts (sourced, not run).

# copy_python_stdlib DEST: the Python standard library without site-packages
# and __pycache__, copied to DEST.
copy_python_stdlib() {
    local stdlib
    stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
    mkdir -p "$1"
    (cd "$stdlib" && tar --exclude=./site-packages --exclude=__pycache__ -cf - .) | tar -xf - -C "$1"
}

# copy_python_lib DEST: the whole Python library (the standard library and
# its site-packages) without __pycache__, copied to DEST.
copy_python_lib() {
    local stdlib
    stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
    mkdir -p "$1"
    (cd "$stdlib" && tar --exclude=__pycache__ -cf - .) | tar -xf - -C "$1"
}

# release_budget ROOT: builds budget-cli in release mode and prints the binary's path.
release_budget() {
    (cd "$1" && cargo build --release -p budget-cli --quiet)
    echo "$1/target/release/budget"
}

# describe_tree TREE: one line with its files, bytes, cores and load.
describe_tree() {
    echo "tree: $1 ($(find "$1" -type f | wc -l) files, $(du -sb "$1" | cut -f1) bytes); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
}
