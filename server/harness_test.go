package server

// This file: the one harness that starts a grotto server in a test. Every
// server test starts its server through serveDB (serve, serveOn and
// serveNodeWith are serveDB with a bbolt file, a given store or a
// PostgreSQL database), or, to shut it down itself, listenAndServe: New,
// then Listen on port 0, whose listener the server keeps (no test picks
// a port first), then Serve. What a session typed is known to be played
// once markKey's note is drawn (wait_test.go).

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/store/bolt"
)

// newServer opens the store in cfg.DataDir and loads the game data as
// cmd/grotto does, and builds a server on them with New; on error the
// store is closed again.
func newServer(tb testing.TB, cfg Config) (*Server, error) {
	tb.Helper()
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		tb.Fatal(err)
	}
	db, err := bolt.Open(filepath.Join(cfg.DataDir, DBFile), time.Second)
	if err != nil {
		return nil, err
	}
	srv, err := newServerOn(tb, cfg, db)
	if err != nil {
		db.Close()
	}
	return srv, err
}

// newServerOn builds a server on db and the game data with New.
func newServerOn(tb testing.TB, cfg Config, db Database) (*Server, error) {
	tb.Helper()
	data, err := game.LoadData()
	if err != nil {
		tb.Fatal(err)
	}
	return New(cfg, db, data)
}

// testDefaults fills in what a test server needs and a host's would not:
// a free loopback port, a temp data dir, a silent logger (unless cfg has
// one) and limits that let tests connect often from one address.
func testDefaults(t *testing.T, cfg Config) Config {
	cfg.Listen = "127.0.0.1:0"
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	if cfg.Logger == nil {
		cfg.Logger = log.New(io.Discard)
	}
	if cfg.Limits == (Limits{}) {
		cfg.Limits = DefaultLimits()
		cfg.Limits.ConnPer10s = 10000
	}
	return cfg
}

// serve runs a real grotto server with cfg (testDefaults) on a bbolt file
// in its data dir, and shuts it down at cleanup.
func serve(t *testing.T, cfg Config) (*Server, string) {
	t.Helper()
	cfg = testDefaults(t, cfg)
	srv, err := newServer(t, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return serveBuilt(t, srv)
}

// serveDB runs a real grotto server with cfg (testDefaults) on db, which
// it closes with the server at cleanup.
func serveDB(t *testing.T, cfg Config, db Database) (*Server, string) {
	t.Helper()
	srv, err := newServerOn(t, testDefaults(t, cfg), db)
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	return serveBuilt(t, srv)
}

// serveBuilt binds and serves srv and shuts it down at cleanup, failing
// the test if Serve does not return after Shutdown.
func serveBuilt(t *testing.T, srv *Server) (*Server, string) {
	t.Helper()
	if err := srv.Listen(); err != nil {
		srv.Close()
		t.Fatal(err)
	}
	return serveListening(t, srv)
}

// serveListening serves srv, which Listen has bound (a test may have
// wrapped its listener since), and shuts it down at cleanup, failing the
// test if Serve does not return after Shutdown.
func serveListening(t *testing.T, srv *Server) (*Server, string) {
	t.Helper()
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		if err := recv(t, "Serve to return after Shutdown", served); err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return srv, srv.Addr().String()
}

// listenAndServe builds a server on cfg, binds it and serves it, and
// returns it with the channel that gets Serve's result; the caller shuts
// it down (see serve for one shut down at the test's end).
func listenAndServe(t *testing.T, cfg Config) (*Server, <-chan error) {
	t.Helper()
	srv, err := newServer(t, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	return srv, served
}

// startServer runs a real grotto server with the defaults (see serve).
func startServer(t *testing.T) (*Server, string) {
	t.Helper()
	return serve(t, Config{})
}
