// The copy-store subcommand: move a host up from the bbolt file to
// PostgreSQL.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/grotto-game/grotto/server"
	"github.com/grotto-game/grotto/store/bolt"
	"github.com/grotto-game/grotto/store/postgres"
)

// copyTimeout bounds a whole copy: connecting, migrating and the one
// transaction that writes everything.
const copyTimeout = 30 * time.Minute

// copyStore runs `grotto copy-store --from FILE --to URL` with args after
// "copy-store": it copies everything in the bbolt file (profiles, names,
// saves, journals, scores, finished games, quarantine, and the daily
// challenge's secret, boards and attempts) into the PostgreSQL database, in
// one transaction, which checks before it commits that the database holds
// as many records of each kind as the file (postgres.Store.Import). Keys
// already in the database are replaced by the file's, so running it twice
// changes nothing; a database a server has played on, one with other games
// under the file's ids or a daily secret of its own, or one that would hold
// other counts is refused with nothing written. It says what it copied on
// stdout and returns the exit status: 0 copied and checked, 1 refused or
// failed (the file in use by a server, a record that does not decode, the
// database unreachable, a database in use), 2 bad usage.
func copyStore(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("grotto copy-store", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "the bbolt file to copy, e.g. ./grotto-data/"+server.DBFile+" (stop its server first)")
	to := fs.String("to", envOr("GROTTO_STORE", ""), "the PostgreSQL database to copy into, a postgres:// URL (env GROTTO_STORE)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "grotto copy-store copies a bbolt database into PostgreSQL: players, names, saves,\n"+
			"journals, scores, finished games, quarantine and the daily challenge (its secret, boards and\n"+
			"attempts), then checks the counts. Running it again changes nothing.\n\n"+
			"Usage:\n  grotto copy-store --from FILE --to postgres://...\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "grotto copy-store: unknown argument %q\n", fs.Arg(0))
		return 2
	case *from == "":
		fmt.Fprintln(stderr, "grotto copy-store: --from must name the bbolt file, e.g. ./grotto-data/"+server.DBFile)
		return 2
	case !server.IsPostgresURL(*to):
		fmt.Fprintln(stderr, "grotto copy-store: --to must be a postgres:// URL")
		return 2
	}
	if _, err := os.Stat(*from); err != nil {
		fmt.Fprintf(stderr, "grotto copy-store: --from: %v\n", err)
		return 1
	}
	src, err := bolt.Open(*from, compactLockTimeout)
	if err != nil {
		if errors.Is(err, bolt.ErrLocked) {
			fmt.Fprintf(stderr, "grotto copy-store: %s is in use by a running server: stop it first (%v)\n", *from, err)
		} else {
			fmt.Fprintf(stderr, "grotto copy-store: %v\n", err)
		}
		return 1
	}
	defer src.Close()
	ctx, cancel := context.WithTimeout(context.Background(), copyTimeout)
	defer cancel()
	dst, err := postgres.Open(ctx, *to)
	if err != nil {
		fmt.Fprintf(stderr, "grotto copy-store: %v\n", err)
		return 1
	}
	defer dst.Close()
	copied, err := dst.Import(ctx, src.Dump)
	if err != nil {
		fmt.Fprintf(stderr, "grotto copy-store: nothing was copied: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "copied %s from %s to %s; the counts match\n", copied, *from, dst.Where())
	return 0
}
