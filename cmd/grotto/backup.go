// The backup subcommand: an online copy of a running server's bbolt
// database, over its control socket (server/control.go).

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/grotto-game/grotto/server"
	"github.com/grotto-game/grotto/store/bolt"
)

// backup runs `grotto backup [--data DIR] [--out FILE]` with args after
// "backup": it asks the server running on the data dir for a consistent
// copy of its bbolt database while players play, and writes it to --out
// ("-" for standard output). A file is written beside its name first,
// synced, opened and checked with bbolt's consistency check, then renamed
// into place, so --out is either the old file or a whole, checked backup.
// It returns the exit status: 0 done, 1 failed (no server runs on the data
// dir, the copy or the check failed; --out is left as it was), 2 bad usage.
func backup(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("grotto backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", envOr("GROTTO_DATA", "./grotto-data"), "the running server's data directory (env GROTTO_DATA)")
	out := fs.String("out", "", `the backup file, or "-" for standard output (required)`)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "grotto backup copies a running server's bbolt database while players play\n"+
			"(PostgreSQL: use pg_dump). Restore: stop the server, put the copy in place of\n%s in the data dir, start it.\n\nUsage:\n  grotto backup --out FILE [flags]\n\nFlags:\n", server.DBFile)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 || *out == "" {
		fs.Usage()
		return 2
	}
	socket := filepath.Join(*data, server.ControlSocket)
	start := time.Now()
	if *out == "-" {
		if _, err := server.RequestBackup(socket, stdout, nil); err != nil {
			fmt.Fprintf(stderr, "grotto backup: %v\n", err)
			return 1
		}
		return 0
	}
	n, err := backupToFile(socket, *out)
	if err != nil {
		fmt.Fprintf(stderr, "grotto backup: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %d bytes to %s in %v; the copy opens and passes bbolt's consistency check\n", n, *out, time.Since(start).Round(time.Millisecond))
	return 0
}

// backupToFile writes the server's copy to path through a part file of
// its own beside it (so that backups run at once never share one):
// synced, its size checked, opened and checked, then renamed into place.
// It refuses a path that is the server's own database file. On error path
// is untouched and the part file removed.
func backupToFile(socket, path string) (int64, error) {
	db, err := server.DatabasePath(socket)
	if err != nil {
		return 0, err
	}
	if err := notTheDatabase(path, db); err != nil { // before the server copies anything
		return 0, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".part-*")
	if err != nil {
		return 0, err
	}
	part := f.Name()
	defer os.Remove(part) // gone once renamed
	n, err := server.RequestBackup(socket, f, nil)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, err
	}
	if fi, err := os.Stat(part); err != nil || fi.Size() != n {
		return n, fmt.Errorf("the copy in %s is not the %d bytes sent: %v", part, n, err)
	}
	st, err := bolt.Open(part, time.Second)
	if err != nil {
		return n, fmt.Errorf("the copy does not open: %w", err)
	}
	err = st.Verify()
	st.Close()
	if err != nil {
		return n, fmt.Errorf("the copy fails bbolt's consistency check: %w", err)
	}
	if err := notTheDatabase(path, db); err != nil { // checked again: a rename over it would cut the server off its file
		return n, err
	}
	if err := os.Rename(part, path); err != nil {
		return n, err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return n, nil
}

// notTheDatabase refuses out when it is the server's database file (db,
// as the server named it): renaming a copy over it would leave the server
// writing to a file no path names.
func notTheDatabase(out, db string) error {
	refuse := fmt.Errorf("%s is the running server's own database file: write the backup somewhere else", out)
	if abs, err := filepath.Abs(out); err == nil {
		if dbAbs, err := filepath.Abs(db); err == nil && abs == dbAbs {
			return refuse
		}
	}
	dbInfo, err := os.Stat(db)
	if err != nil {
		return nil // another machine's path, or gone: not this file
	}
	if outInfo, err := os.Stat(out); err == nil && os.SameFile(outInfo, dbInfo) {
		return refuse
	}
	return nil
}
