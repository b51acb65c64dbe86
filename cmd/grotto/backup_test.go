package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/server"
	"github.com/grotto-game/grotto/store/bolt"
)

// A host runs `grotto backup --out FILE` beside the running server: the
// file is a whole, checked database; without a server, or without --out,
// it says why and writes nothing.
func TestBackupCopiesTheRunningServersDatabaseIntoACheckedFile(t *testing.T) {
	dir := t.TempDir()
	addr, socks := keptSSH(t)
	code := make(chan int, 1)
	go func() { code <- runOn([]string{"serve", "--listen", addr, "--data", dir}, socks) }()
	key, _ := sshtest.NewKey()
	c := dialSSH(t, addr, key)
	defer c.Close()
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

	file := filepath.Join(t.TempDir(), "grotto-backup.db")
	var out, errOut bytes.Buffer
	if got := backup([]string{"--data", dir, "--out", file}, &out, &errOut); got != 0 || !strings.Contains(out.String(), "passes bbolt's consistency check") {
		t.Fatalf("backup: exit %d, %q %q", got, out.String(), errOut.String())
	}
	st, err := bolt.Open(file, time.Second)
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	if _, err := st.Profile(keys.Fingerprint(key.PublicKey())); err != nil {
		t.Errorf("the backup lacks the player's profile: %v", err)
	}
	if _, err := st.DailySecret(); err != nil {
		t.Errorf("the backup lacks the daily secret: %v", err)
	}
	st.Close()

	// Four backups at once to one file (overlapping cron runs): each
	// through its own part file, so the file ends a whole copy.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { backup([]string{"--data", dir, "--out", file}, &bytes.Buffer{}, &bytes.Buffer{}) })
	}
	wg.Wait()
	st, err = bolt.Open(file, time.Second)
	if err != nil {
		t.Fatalf("the backup after four at once does not open: %v", err)
	}
	if _, err := st.Profile(keys.Fingerprint(key.PublicKey())); err != nil {
		t.Errorf("the backup after four at once lacks the player's profile: %v", err)
	}
	st.Close()
	if parts, _ := filepath.Glob(file + ".part*"); len(parts) > 0 {
		t.Errorf("part files left beside the backup: %v", parts)
	}
	// The server's own file is refused, and the server keeps it.
	errOut.Reset()
	live := filepath.Join(dir, server.DBFile)
	if got := backup([]string{"--data", dir, "--out", live}, &out, &errOut); got != 1 || !strings.Contains(errOut.String(), "the running server's own database file") {
		t.Errorf("backup over the live file: exit %d, %q; want 1 and why", got, errOut.String())
	}
	c.Send(".")
	if _, err := c.WaitForText(10*time.Second, "Turn: 1"); err != nil {
		t.Errorf("a turn after the refused backup: %v", err)
	}

	errOut.Reset()
	if got := backup([]string{"--data", t.TempDir(), "--out", file + "2"}, &out, &errOut); got != 1 || !strings.Contains(errOut.String(), "no running grotto answers") {
		t.Errorf("backup with no server: exit %d, %q; want 1 and why", got, errOut.String())
	}
	if _, err := os.Stat(file + "2"); err == nil {
		t.Error("a failed backup left a file")
	}
	if got := backup([]string{"--data", dir}, &out, &errOut); got != 2 {
		t.Errorf("backup without --out: exit %d, want 2", got)
	}

	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case got := <-code:
		if got != 0 {
			t.Errorf("exit code %d, want 0", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10 s after SIGTERM")
	}
	if _, err := os.Stat(filepath.Join(dir, server.ControlSocket)); err == nil {
		t.Error("the control socket outlived the server")
	}
}
