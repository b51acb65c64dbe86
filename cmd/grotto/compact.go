// The compact subcommand: shrink the database file offline.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/grotto-game/grotto/server"
	"github.com/grotto-game/grotto/store"
)

// compactLockTimeout is how long `grotto compact` waits for the database's
// lock before saying a server holds it.
const compactLockTimeout = 2 * time.Second

// compact runs `grotto compact [--data DIR]` with args after "compact": it
// rewrites the database without the pages freed by finished games (see
// store.Compact), keeping the old file as grotto.db.bak (or .bak.N beside older ones), and says what it
// did on stdout. It returns the exit status: 0 done, 1 refused or failed
// (the server is running, the file is damaged or missing), 2 bad usage.
func compact(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("grotto compact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", envOr("GROTTO_DATA", "./grotto-data"), "the server's data directory (env GROTTO_DATA)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "grotto compact rewrites the database without the space freed by finished games.\n"+
			"Stop the server first. The old file is kept as %s.bak.\n\nUsage:\n  grotto compact [flags]\n\nFlags:\n", server.DBFile)
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
	dir, err := filepath.Abs(*data)
	if err != nil {
		fmt.Fprintf(stderr, "grotto compact: --data %s: %v\n", *data, err)
		return 2
	}
	path := filepath.Join(dir, server.DBFile)
	res, err := store.Compact(path, compactLockTimeout)
	switch {
	case errors.Is(err, store.ErrLocked):
		fmt.Fprintf(stderr, "grotto compact: %s is in use by a running server: stop it first (%v)\n", path, err)
		return 1
	case errors.Is(err, store.ErrDamaged):
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
