// The compact subcommand: shrink the database file offline.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/grotto-game/grotto/server"
	"github.com/grotto-game/grotto/store/bolt"
)

// compactLockTimeout is how long `grotto compact` waits for the database's
// lock before saying a server holds it.
const compactLockTimeout = 2 * time.Second

// postgresCompactLine is what `grotto compact` says of a PostgreSQL store:
// PostgreSQL reuses the space of deleted rows itself (autovacuum:
// PostgreSQL docs, 24.1 "Routine Vacuuming"); only VACUUM FULL gives it
// back to the operating system, and it locks each table while it runs.
const postgresCompactLine = "grotto compact: the store is PostgreSQL, and compact is for the bbolt file only: PostgreSQL reuses the space of finished games itself (autovacuum); to give it back to the disk, run VACUUM FULL in psql at a quiet hour (it locks each table while it runs)"

// compact runs `grotto compact [--data DIR] [--store FILE]` with args
// after "compact": it rewrites the bbolt database (--store's file, else
// grotto.db in the data dir) without the pages freed by finished games
// (see bolt.Compact), keeping the old file as grotto.db.bak (or .bak.N
// beside older ones), and says what it did on stdout. It returns the exit
// status: 0 done, 1 refused or failed (the server is running, the file is
// damaged or missing), 2 bad usage (a --store that is no bbolt file: a
// PostgreSQL store is told, in one line, what it has instead).
func compact(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("grotto compact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", envOr("GROTTO_DATA", "./grotto-data"), "the server's data directory (env GROTTO_DATA)")
	where := fs.String("store", envOr("GROTTO_STORE", ""), "the bbolt file to compact, as the server's --store (env GROTTO_STORE); empty for grotto.db in the data dir")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "grotto compact rewrites the bbolt database without the space freed by finished games\n"+
			"(PostgreSQL needs no compact: autovacuum reuses the space).\nStop the server first. The old file is kept as %s.bak.\n\nUsage:\n  grotto compact [flags]\n\nFlags:\n", server.DBFile)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	switch {
	case server.IsPostgresURL(*where):
		// The URL is not repeated: it may hold a password.
		fmt.Fprintln(stderr, postgresCompactLine)
		return 2
	case strings.Contains(*where, "://"):
		fmt.Fprintln(stderr, "grotto compact: --store (or GROTTO_STORE) is a URL: compact takes a bbolt file's path, or nothing for grotto.db in the data dir")
		return 2
	}
	path := *where
	if path == "" {
		path = filepath.Join(*data, server.DBFile)
	}
	path, err := filepath.Abs(path)
	if err != nil {
		fmt.Fprintf(stderr, "grotto compact: %s: %v\n", path, err)
		return 2
	}
	res, err := bolt.Compact(path, compactLockTimeout)
	switch {
	case errors.Is(err, bolt.ErrLocked):
		fmt.Fprintf(stderr, "grotto compact: %s is in use by a running server: stop it first (%v)\n", path, err)
		return 1
	case errors.Is(err, bolt.ErrDamaged):
		fmt.Fprintf(stderr, "grotto compact: %v; compacting cannot repair damage: restore the file from a backup\n", err)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "grotto compact: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "compacted %s: %s → %s; the old file is kept as %s (delete it once the server runs well)\n",
		res.Path, size(res.Before), size(res.After), res.Backup)
	return 0
}

// size formats n bytes for a host to read.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
