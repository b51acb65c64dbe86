package faults

// The stores a fault case runs on: a case that breaks the server, not the
// database file, runs once on bbolt and once on PostgreSQL (a real one,
// internal/pgtest), as subtests named for the store. Cases that damage,
// age, fill or delete the bbolt file itself run on bbolt alone and say why.

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
	"github.com/grotto-game/grotto/store/postgres"
)

// backend is the store one run of a case keeps its games in.
type backend struct {
	// name is the subtest's name: "bbolt" or "postgres".
	name string
	// url is this run's own PostgreSQL database (postgres://…), passed to
	// grotto as --store; "" for bbolt, grotto.db in the data dir.
	url string
}

// onEachStore runs test as two subtests at the same time: one on bbolt,
// one on a fresh PostgreSQL database, each with its own grotto process.
// They wait on the network and on timers far more than they compute, so
// running them together costs the suite little more than one store does.
// Under -short the PostgreSQL run is skipped when PostgreSQL is not
// installed; otherwise it fails saying how to install it.
func onEachStore(t *testing.T, test func(t *testing.T, b backend)) {
	t.Run("bbolt", func(t *testing.T) {
		t.Parallel()
		test(t, backend{name: "bbolt"})
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		test(t, backend{name: "postgres", url: pgtest.NewDatabase(t)})
	})
}

// start runs grotto on this backend (see the package-level start).
func (b backend) start(t *testing.T, addr, data string, extra ...string) *proc {
	t.Helper()
	if b.url != "" {
		// The shortest lease: a server restarted after kill -9 is a new
		// holder, and its players' games resume once the dead one's
		// claims lapse (extra may set it again: the last flag wins).
		extra = append([]string{"--store", b.url, "--lease-ttl", "3s"}, extra...)
	}
	return start(t, addr, data, extra...)
}

// open opens the store a grotto with data dir dir used, to check what it
// left there once it has stopped (bbolt's file lock allows one process).
// The store is closed at the end of the test.
func (b backend) open(t *testing.T, dir string) store.Store {
	t.Helper()
	var (
		st  store.Store
		err error
	)
	if b.url == "" {
		st, err = bolt.Open(filepath.Join(dir, "grotto.db"), time.Second)
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		st, err = postgres.Open(ctx, b.url)
	}
	if err != nil {
		t.Fatalf("open the %s store: %v", b.name, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
