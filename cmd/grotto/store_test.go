package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/server"
	"github.com/grotto-game/grotto/store/postgres"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestStoreChoosesBboltForEmptyOrAPathAndPostgresForAURL(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ store, want string }{
		{"", ""},
		{"games.db", filepath.Join(mustGetwd(t), "games.db")},
		{"postgres://grotto@db.example:5432/grotto", "postgres://grotto@db.example:5432/grotto"},
	} {
		c, err := parse([]string{"--data", dir, "--store", tc.store}, &bytes.Buffer{}, &bytes.Buffer{})
		if err != nil || c.Store != tc.want {
			t.Errorf("--store %q: %q (%v), want %q", tc.store, c.Store, err, tc.want)
		}
	}
	t.Setenv("GROTTO_STORE", "mysql://root:hunter2@x/grotto")
	_, err := parse([]string{"--data", dir}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "GROTTO_STORE") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("GROTTO_STORE with another scheme: %v; want an error naming the variable, without the password", err)
	}
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

func TestADatabaseThatCannotBeReachedIsOneLineNamingHostAndReason(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	url := "postgres://grotto:secret@" + closed + "/grotto"
	cfg := server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), Store: url, Logger: log.New(&bytes.Buffer{})}
	_, err = start(cfg)
	if !errors.Is(err, postgres.ErrUnreachable) {
		t.Fatalf("start on a closed port: %v, want ErrUnreachable", err)
	}
	if msg := err.Error(); !strings.Contains(msg, closed) || !strings.Contains(msg, "connection refused") ||
		strings.Contains(msg, "secret") || strings.Contains(msg, "\n") {
		t.Errorf("the error is %q: want one line naming %s and the refusal, without the password", msg, closed)
	}
	if code := runOn([]string{"--listen", "127.0.0.1:0", "--data", t.TempDir(), "--store", url}, noSockets); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
}

func TestAGameOnPostgresIsPlayedSavedAndResumed(t *testing.T) {
	url := pgtest.NewDatabase(t)
	addr, socks := keptSSH(t)
	key, _ := sshtest.NewKey()
	serve := func() chan int {
		code := make(chan int, 1)
		go func() { code <- runOn([]string{"--listen", addr, "--data", t.TempDir(), "--store", url}, socks) }()
		return code
	}
	dial := func() *sshtest.Client { return dialSSH(t, addr, key) }
	stop := func(code chan int) {
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		select {
		case got := <-code:
			if got != 0 {
				t.Fatalf("exit code %d, want 0", got)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("still running 20 s after SIGTERM")
		}
	}
	code := serve()
	c := dial()
	if _, err := c.WaitForText(10*time.Second, "Choose the name"); err != nil {
		t.Fatal(err)
	}
	c.Send("\r")
	if _, err := c.WaitForText(10*time.Second, "New game"); err != nil {
		t.Fatal(err)
	}
	c.Send("n")
	if _, err := c.WaitForText(10*time.Second, "Turn: 0"); err != nil {
		t.Fatal(err)
	}
	c.Send("...")
	if _, err := c.WaitForText(10*time.Second, "Turn: 3"); err != nil {
		t.Fatal(err)
	}
	stop(code)
	waitEnded(t, c, 10*time.Second, "the server stopped")

	// Another node (here: a new process's worth of server, another data
	// dir) on the same database resumes the game at the turn it showed.
	code = serve()
	defer stop(code)
	c = dial()
	defer c.Close()
	if _, err := c.WaitForText(10*time.Second, "Continue"); err != nil {
		t.Fatal(err)
	}
	c.Send("c")
	if _, err := c.WaitForText(10*time.Second, "Turn: 3"); err != nil {
		t.Fatal(err)
	}
	st, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, err := st.Counts(context.Background()); err != nil || n.Players != 1 || n.Saves != 1 {
		t.Errorf("the database holds %+v (%v), want one player with one save", n, err)
	}
}
