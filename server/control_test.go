package server

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/store/bolt"
)

// A host backs up a running server while people play (grotto backup, over
// the control socket): the copy is one consistent database, and a server
// started on it resumes every game at the turn it held when the copy was
// made, its journal's turns included (the games here were never saved
// whole after turn 0).
func TestABackupOfARunningServerResumesEveryGameAtItsTurn(t *testing.T) {
	dir := t.TempDir()
	_, addr := serve(t, Config{DataDir: dir})
	// Five players stop at turns 3 to 7; five more play on throughout.
	idle := map[gossh.Signer]int{}
	for i := range 5 {
		key := newKey(t)
		c := dial(t, addr, key, 100, 30)
		newGame(t, c)
		idle[key] = 3 + i
		rest(t, c, 3+i)
	}
	stopPlaying := playOn(t, addr, 5)

	copyPath := filepath.Join(t.TempDir(), "backup.db")
	f, err := os.Create(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	n, err := RequestBackup(filepath.Join(dir, ControlSocket), f, nil)
	f.Close()
	stopPlaying()
	if err != nil {
		t.Fatalf("backup while five players played: %v", err)
	}
	if fi, _ := os.Stat(copyPath); fi == nil || fi.Size() != n || n == 0 {
		t.Fatalf("the backup file holds %v bytes, the copy said %d", fi, n)
	}
	st, err := bolt.Open(copyPath, time.Second)
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	if err := st.Verify(); err != nil {
		t.Errorf("the backup fails bbolt's consistency check: %v", err)
	}
	st.Close()

	restored := t.TempDir()
	in, _ := os.Open(copyPath)
	out, _ := os.Create(filepath.Join(restored, DBFile))
	io.Copy(out, in)
	in.Close()
	out.Close()
	_, addr2 := serve(t, Config{DataDir: restored})
	for key, want := range idle {
		c := dial(t, addr2, key, 100, 30)
		screen := waitText(t, c, "Continue")
		if !strings.Contains(screen, "turn "+strconv.Itoa(want)) {
			t.Errorf("the restored title offers another turn than %d:\n%s", want, screen)
		}
		c.Send("\r")
		waitText(t, c, "Turn: "+strconv.Itoa(want))
	}
}

// The control socket names the database file, so that grotto backup can
// refuse an --out that is it before the server copies anything.
func TestTheControlSocketNamesTheDatabaseFile(t *testing.T) {
	dir := t.TempDir()
	serve(t, Config{DataDir: dir})
	got, err := DatabasePath(filepath.Join(dir, ControlSocket))
	if err != nil || got != filepath.Join(dir, DBFile) {
		t.Errorf("the database path: %q, %v; want %s", got, err, filepath.Join(dir, DBFile))
	}
}

// The control socket answers only what it knows, in one line.
func TestTheControlSocketRefusesAnUnknownRequest(t *testing.T) {
	dir := t.TempDir()
	serve(t, Config{DataDir: dir})
	c, err := dialUnix(filepath.Join(dir, ControlSocket))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "format c:\n")
	c.SetReadDeadline(time.Now().Add(waitLong))
	line, _ := io.ReadAll(c)
	if !strings.HasPrefix(string(line), "ERR unknown request") {
		t.Errorf("an unknown request: %q, want ERR unknown request", line)
	}
	if fi, err := os.Stat(filepath.Join(dir, ControlSocket)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the control socket: %v, %v; want mode 0600", fi, err)
	}
}

func dialUnix(path string) (net.Conn, error) { return net.Dial("unix", path) }

// A backup client that stops reading holds no read transaction of the
// store (a commit that must grow the file would wait for it, and every
// player with it), and a shutdown does not wait for it (found by a
// tester: a stalled `grotto backup | ssh` froze every player and the
// stop).
func TestABackupClientThatStopsReadingHoldsNothingAndShutdownEndsIt(t *testing.T) {
	dir := t.TempDir()
	// A database bigger than a unix socket's buffers, so that the copy
	// cannot all be written before the client reads.
	pre, err := bolt.Open(filepath.Join(dir, DBFile), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		blob := make([]byte, 1<<20)
		rand.Read(blob)
		if err := pre.PutSave(fmt.Sprintf("SHA256:filler%d", i), blob); err != nil {
			t.Fatal(err)
		}
	}
	pre.Close()
	srv, addr := serve(t, Config{DataDir: dir})
	player := dial(t, addr, newKey(t), 100, 30)
	newGame(t, player)
	rest(t, player, 3)
	c, err := dialUnix(filepath.Join(dir, ControlSocket))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "backup\n")
	c.SetReadDeadline(time.Now().Add(waitLong))
	head, err := bufio.NewReader(c).ReadString('\n') // the header, then no more reading
	if err != nil || !strings.HasPrefix(head, "OK ") {
		t.Fatalf("the backup's header: %q, %v", head, err)
	}
	st := srv.Store().(*bolt.Store)
	if n := st.OpenReads(); n != 0 {
		t.Errorf("%d read transactions open while the client does not read, want 0", n)
	}
	rest(t, player, 6) // the game goes on
	ctx, cancel := context.WithTimeout(context.Background(), 3*waitLong)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Shutdown(ctx) }()
	if err := await.Recv(t, 2*waitLong, "the shutdown with a backup client stalled", done); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// Two servers sharing a data dir (each with its own --store): the second
// leaves the first's control socket alone, so backups still reach the
// first.
func TestASecondServerOnTheDataDirLeavesTheFirstsControlSocket(t *testing.T) {
	dir := t.TempDir()
	first, addr := serve(t, Config{DataDir: dir})
	key := newKey(t)
	newGame(t, dial(t, addr, key, 100, 30))
	other, err := bolt.Open(filepath.Join(t.TempDir(), "other.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	serveDB(t, Config{DataDir: dir}, other)
	var copyBuf bytes.Buffer
	if _, err := RequestBackup(filepath.Join(dir, ControlSocket), &copyBuf, func(h BackupHeader) error {
		if h.Database != first.Store().(*bolt.Store).Path() {
			t.Errorf("the backup is of %s, want the first server's %s", h.Database, first.Store().(*bolt.Store).Path())
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
