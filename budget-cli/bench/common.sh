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

# copy_python_stdlib_four DEST: four copies of the standard library (as
# copy_python_stdlib makes it) side by side in DEST/c1 … DEST/c4: a tree whose
# files are three quarters duplicates.
copy_python_stdlib_four() {
    local copy
    for copy in c1 c2 c3 c4; do copy_python_stdlib "$1/$copy"; done
}

# bench_tree NAME: the tree the bench scripts pack, made under /tmp/budget-bench
# on first use: `stdlib` (default), `four` (four copies of it) or `large`
# (with site-packages); any other value is taken as a directory.
bench_tree() {
    case ${1:-stdlib} in
    stdlib) [[ -d /tmp/budget-bench/python-stdlib ]] || copy_python_stdlib /tmp/budget-bench/python-stdlib
        echo /tmp/budget-bench/python-stdlib ;;
    four) [[ -d /tmp/budget-bench/four ]] || copy_python_stdlib_four /tmp/budget-bench/four
        echo /tmp/budget-bench/four ;;
    large) [[ -d /tmp/budget-bench/python-lib ]] || copy_python_lib /tmp/budget-bench/python-lib
        echo /tmp/budget-bench/python-lib ;;
    *) echo "$1" ;;
    esac
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
